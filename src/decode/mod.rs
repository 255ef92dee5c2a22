//! Decoding: region bytes → [`Instr`]s with text, accesses, memory operands, branch kind and
//! idiom.
//!
//! Owns: the only use of `iced_x86::Decoder` and `InstructionInfoFactory` in suaca.
//! Must not touch: file formats, markers, the instruction database, simulation.
//! Facts: register, memory and flag semantics come from iced-x86's instruction info (Intel
//! SDM); the tracking granularity and the access conventions follow issue #2 and are listed
//! in `access.rs`; the idiom list and its sources are in `idioms.rs`; the text style follows
//! the SUACA thesis tables and is described in `format.rs`; errors are in `error.rs`.
//!
//! Decoding is 64-bit only, with the instruction pointer at the region's address, so branch
//! targets and RIP-relative displacements are absolute addresses. Hostile bytes never panic:
//! they end in a [`DecodeError`].

mod access;
pub(crate) use access::flag_kept_by_cl_shift;
mod error;
mod format;
pub(crate) mod idioms;
#[cfg(test)]
mod tests;

use iced_x86::{
    Decoder, DecoderError, DecoderOptions, FlowControl, Instruction, InstructionInfoFactory,
};

pub use error::DecodeError;

use crate::ir::{BranchKind, Instr, Region};

/// Decodes a marked region (IP = `region.address`; `Instr::line` is the 0-based index).
pub fn decode_region(region: &Region) -> Result<Vec<Instr>, DecodeError> {
    decode_bytes(&region.bytes, region.address)
}

/// Decodes `bytes` as 64-bit code located at `address`.
///
/// Fails on the first invalid instruction, or when the bytes end inside an instruction.
pub fn decode_bytes(bytes: &[u8], address: u64) -> Result<Vec<Instr>, DecodeError> {
    let mut decoder = Decoder::with_ip(64, bytes, address, DecoderOptions::NONE);
    let mut factory = InstructionInfoFactory::new();
    let mut text = format::TextFormatter::new();
    let mut out = Vec::new();
    let mut iced = Instruction::default();
    while decoder.can_decode() {
        let offset = decoder.position();
        decoder.decode_out(&mut iced);
        if iced.is_invalid() {
            return Err(invalid(&decoder, &iced, bytes, offset, address));
        }
        let end = (offset + iced.len()).min(bytes.len());
        let idiom = idioms::idiom(&iced);
        let (accesses, mem) = access::analyze(&iced, factory.info(&iced), idiom);
        out.push(Instr {
            line: out.len(),
            address: iced.ip(),
            bytes: bytes[offset..end].to_vec(),
            text: text.format(&iced),
            iced,
            accesses,
            mem,
            branch: branch_kind(&iced),
            idiom,
        });
    }
    Ok(out)
}

/// The error for an invalid instruction that starts at `offset`.
fn invalid(
    decoder: &Decoder<'_>,
    iced: &Instruction,
    bytes: &[u8],
    offset: usize,
    base: u64,
) -> DecodeError {
    let address = base.wrapping_add(offset as u64);
    let rest = bytes.get(offset..).unwrap_or_default();
    if decoder.last_error() == DecoderError::NoMoreBytes && could_continue(rest) {
        return DecodeError::Truncated {
            address,
            offset,
            bytes: error::hex(rest),
        };
    }
    // Show the bytes iced attributes to the invalid instruction (at least one).
    let used = iced.len().clamp(1, rest.len().max(1));
    DecodeError::Invalid {
        address,
        offset,
        bytes: error::hex(&rest[..used.min(rest.len())]),
    }
}

/// Whether `rest`, which iced ran out of bytes on, starts a valid instruction once more bytes
/// follow. iced reads ahead even for opcodes that are invalid in 64-bit mode (`06` alone
/// reports "no more bytes"), so we retry with a few fillers: if none makes it valid, the
/// bytes are invalid rather than truncated.
fn could_continue(rest: &[u8]) -> bool {
    // 0xe1 completes a VEX3 prefix (`c4 e1 e1 e1` is vpsraw), 0x58 an EVEX one (vaddps).
    const FILLERS: [u8; 6] = [0x00, 0xc0, 0x90, 0xff, 0xe1, 0x58];
    FILLERS.iter().any(|&f| {
        let mut padded = rest.to_vec();
        padded.resize(rest.len() + 15, f);
        let mut d = Decoder::with_ip(64, &padded, 0, DecoderOptions::NONE);
        !d.decode().is_invalid()
    })
}

/// The control-flow effect, from iced's `FlowControl`.
///
/// `loop`/`jrcxz` are conditional branches in iced already; calls (direct or indirect) fall
/// through; interrupts, `ud2` and transactional-memory instructions count as falling through
/// (they do not transfer control inside the region in a throughput loop).
fn branch_kind(i: &Instruction) -> BranchKind {
    match i.flow_control() {
        FlowControl::ConditionalBranch => BranchKind::Conditional {
            target: i.near_branch_target(),
        },
        FlowControl::UnconditionalBranch => BranchKind::Jump {
            target: i.near_branch_target(),
        },
        FlowControl::IndirectBranch => BranchKind::IndirectJump,
        FlowControl::Call | FlowControl::IndirectCall => BranchKind::Call,
        FlowControl::Return => BranchKind::Return,
        _ => BranchKind::None,
    }
}
