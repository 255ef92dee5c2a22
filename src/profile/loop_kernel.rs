//! The generated function around a user's loop: the loop runs with its own back branch
//! (so the real branch, macro-fusion and the op cache behave as on hardware), repeated by an
//! outer count kept in memory (the loop may use every GPR).
//!
//! ```text
//! push callee-saved; [SAVED_RSP] = rsp; [OUTER] = rdi (passes)
//! ldmxcsr (FTZ/DAZ, exceptions masked); fninit; vector and mask registers = benign values
//! lfence; rdtsc → [T0]                               (time starts)
//! outer:
//!     lfence                                         (the last pass has finished)
//!     every GPR (rsp too) = its planned initial value (`placement`)
//!     nops up to the loop's offset in its 64-byte line in the program
//! loop:                                              (same offset mod 64)
//!     the loop's bytes; its back branch re-aimed at `loop`, RIP-relative operands rewritten
//!     dec qword [OUTER]; jnz outer
//! lfence; rdtsc → [T1]                               (time ends)
//! restore as the block kernel does (`kernel`)
//! ```
//!
//! The N- and 2N-iteration kernels differ only in the initial values, so everything outside
//! the loop costs the same in both and cancels in t(2N) − t(N). The `lfence` keeps passes
//! apart: the reinitialized registers break every loop-carried chain, so without it a pass
//! overlapped the last one's backlog, and a loop bound by a chain read below its latency where
//! a pass fits the out-of-order window (`add r8, r9` beside a stepped load: 0.80 cycles an
//! iteration at N = 128 on the Intel host, CPUID family 6 model 167; `testdata/asm/loops.s`
//! region 5).

use iced_x86::{Code, Instruction, Register};

use super::block::{gpr64, RunnableBlock};
use super::kernel::{
    abs, encode, finish, save_host_state, timestamp, vector_init, KernelCode, CONTROL, OUTER_SLOT,
    RIP_WINDOW,
};
use super::loop_shape::LoopShape;
use crate::measure::harness::{self, HostIsa, OFF_MXCSR, OFF_T0, OFF_T1};
use crate::measure::{EncodeError, MeasureError};

/// Assembles the kernel running `block` (a loop of shape `shape`) from `values`, for
/// address `ip`, the loop starting at `line_offset` (mod 64) as in the program.
pub fn assemble(
    block: &RunnableBlock,
    shape: &LoopShape,
    values: &[u64; 16],
    line_offset: u64,
    isa: HostIsa,
    ip: u64,
) -> Result<KernelCode, MeasureError> {
    let err = |e: iced_x86::IcedError| MeasureError::Encode(e.into());
    let mut bytes = encode(&head(block, isa).map_err(err)?, ip)?;
    let outer = ip + bytes.len() as u64;
    bytes.extend(encode(&reinit(values).map_err(err)?, outer)?);
    // The loop's first byte at its original offset within a 64-byte line: fetch and the op
    // cache see the same line crossings as in the program (gcc's saxpy loop at 0x30 read
    // 1.55 cycles in a C program here, 1.07 moved to a line start).
    let here = (ip + bytes.len() as u64) % 64;
    let pad = (line_offset % 64 + 64 - here) % 64;
    bytes.extend(harness::nop_padding(pad as usize));
    let loop_start = ip + bytes.len() as u64;
    let first = bytes.len();
    bytes.extend_from_slice(&block.bytes);
    let body = &mut bytes[first..];
    // The back branch: to the copy's first byte (it may have aimed at the IACA marker).
    let end = shape.disp_at + shape.disp_size;
    let disp = -(end as i64);
    let field = &mut body[shape.disp_at..end];
    match shape.disp_size {
        1 => {
            let d = i8::try_from(disp).map_err(|_| EncodeError::BranchReach { bits: 8 })?;
            field.copy_from_slice(&d.to_le_bytes());
        }
        _ => {
            let d = i32::try_from(disp).map_err(|_| EncodeError::BranchReach { bits: 32 })?;
            field.copy_from_slice(&d.to_le_bytes());
        }
    }
    for p in &block.rip_patches {
        let target = RIP_WINDOW + u64::from(p.window_offset);
        let disp = target as i64 - (loop_start + p.end as u64) as i64;
        let disp = i32::try_from(disp).map_err(|_| EncodeError::RipRelativeReach)?;
        body[p.disp_at..p.disp_at + 4].copy_from_slice(&disp.to_le_bytes());
    }
    let tail_ip = ip + bytes.len() as u64;
    bytes.extend(encode(&tail(block, isa, outer).map_err(err)?, tail_ip)?);
    Ok(KernelCode {
        bytes,
        loop_start,
        copy_len: block.bytes.len(),
        copies: 1,
    })
}

fn head(b: &RunnableBlock, isa: HostIsa) -> Result<Vec<Instruction>, iced_x86::IcedError> {
    let mut v = save_host_state()?;
    v.push(Instruction::with2(
        Code::Mov_rm64_r64,
        abs(OUTER_SLOT),
        Register::RDI,
    )?);
    v.push(Instruction::with1(
        Code::Ldmxcsr_m32,
        abs(CONTROL.wrapping_add_signed(OFF_MXCSR)),
    )?);
    v.push(Instruction::with(Code::Fninit));
    vector_init(&mut v, b, isa)?;
    timestamp(&mut v, CONTROL.wrapping_add_signed(OFF_T0))?;
    Ok(v)
}

fn reinit(values: &[u64; 16]) -> Result<Vec<Instruction>, iced_x86::IcedError> {
    std::iter::once(Ok(Instruction::with(Code::Lfence)))
        .chain((0..16).map(|i| Instruction::with2(Code::Mov_r64_imm64, gpr64(i), values[i])))
        .collect()
}

fn tail(
    b: &RunnableBlock,
    isa: HostIsa,
    outer: u64,
) -> Result<Vec<Instruction>, iced_x86::IcedError> {
    let mut v = vec![
        Instruction::with1(Code::Dec_rm64, abs(OUTER_SLOT))?,
        Instruction::with_branch(Code::Jne_rel32_64, outer)?,
    ];
    timestamp(&mut v, CONTROL.wrapping_add_signed(OFF_T1))?;
    finish(&mut v, b, isa)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;
    use crate::profile::block::plan_loop;
    use crate::profile::kernel::EXEC_ADDR;
    use crate::profile::loop_shape::detect;
    use iced_x86::{Decoder, DecoderOptions, Formatter, IntelFormatter};

    #[test]
    fn the_loop_branches_back_to_its_aligned_copy() {
        // add rax, rcx; dec rdx; jnz
        let i = decode_bytes(&parse_hex("4801c848ffca75f8").unwrap(), 0).unwrap();
        let b = plan_loop(&i).unwrap();
        let s = detect(&i, None).unwrap().unwrap();
        let mut values = [0u64; 16];
        values[2] = 7;
        let isa = HostIsa {
            avx: true,
            avx512f: false,
            avx512bw: false,
        };
        let k = assemble(&b, &s, &values, 0, isa, EXEC_ADDR).unwrap();
        assert_eq!(k.loop_start % 64, 0);
        let k2 = assemble(&b, &s, &values, 0x70, isa, EXEC_ADDR).unwrap();
        assert_eq!(k2.loop_start % 64, 0x30);
        let off = (k.loop_start - EXEC_ADDR) as usize;
        assert_eq!(&k.bytes[off..off + 8], &b.bytes[..]);
        let mut d = Decoder::with_ip(64, &k.bytes, EXEC_ADDR, DecoderOptions::NONE);
        let mut f = IntelFormatter::new();
        let text: Vec<(u64, String, u64)> = d
            .iter()
            .map(|i| {
                let mut s = String::new();
                f.format(&i, &mut s);
                (i.ip(), s, i.near_branch_target())
            })
            .collect();
        let back = text.iter().find(|t| t.0 == k.loop_start + 6).unwrap();
        assert!(back.1.starts_with("jne"), "{back:?}");
        assert_eq!(back.2, k.loop_start);
        assert!(text.iter().any(|t| t.1 == "mov rdx,7"), "{text:?}");
        // The outer repetition waits for the last pass (lfence), then re-initialises the
        // registers.
        let reinit = text
            .iter()
            .position(|t| t.1.starts_with("mov rax,"))
            .unwrap();
        let outer = &text[reinit - 1];
        assert_eq!(outer.1, "lfence", "{text:?}");
        let jne = text.iter().rev().find(|t| t.1.starts_with("jne")).unwrap();
        assert_eq!(jne.2, outer.0, "the outer repetition starts at the lfence");
        assert_eq!(text.last().unwrap().1, "ret");
    }

    #[test]
    fn rip_relative_operands_point_into_the_rip_window() {
        // add eax, [rip + 0x1000]; dec rcx; jnz
        let i = decode_bytes(&parse_hex("03050010000048ffc975f5").unwrap(), 0).unwrap();
        let s = detect(&i, None).unwrap().unwrap();
        let b = plan_loop(&i).unwrap();
        let isa = HostIsa {
            avx: false,
            avx512f: false,
            avx512bw: false,
        };
        let k = assemble(&b, &s, &[0; 16], 0, isa, EXEC_ADDR).unwrap();
        let off = (k.loop_start - EXEC_ADDR) as usize;
        let mut d = Decoder::with_ip(64, &k.bytes[off..], k.loop_start, DecoderOptions::NONE);
        let add = d.decode();
        assert_eq!(add.ip_rel_memory_address(), RIP_WINDOW + 0x1006);
        let jnz = d.iter().nth(1).unwrap();
        assert_eq!(jnz.near_branch_target(), k.loop_start);
    }

    #[test]
    fn a_branch_to_the_iaca_marker_is_re_aimed() {
        // The same loop at 0x1008, its jnz aiming at 0x1000 (the start marker).
        let i = decode_bytes(&parse_hex("4801c848ffca75f0").unwrap(), 0x1008).unwrap();
        let s = detect(&i, None).unwrap().unwrap();
        let b = plan_loop(&i).unwrap();
        let isa = HostIsa {
            avx: false,
            avx512f: false,
            avx512bw: false,
        };
        let k = assemble(&b, &s, &[0; 16], 0x1008, isa, EXEC_ADDR).unwrap();
        assert_eq!(k.loop_start % 64, 8);
        let off = (k.loop_start - EXEC_ADDR) as usize;
        assert_eq!(k.bytes[off + 7], 0xf8);
    }
}
