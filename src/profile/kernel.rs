//! The generated function around a user's block, and the memory it runs in.
//!
//! ```text
//! push callee-saved; [SAVED_RSP] = rsp; counter = rdi (iterations)
//! ldmxcsr (FTZ/DAZ, exceptions masked); fninit; vector and mask registers = benign values
//! lfence; rdtsc → [T0]                               (time starts)
//! every other GPR = a pointer into its own window of the data buffer (index-only: small)
//! rsp = the middle of a private stack window
//! loop (64-byte aligned):
//!     block × copies  (raw bytes; RIP-relative displacements rewritten per copy)
//!     written address registers wrapped back into their windows (and/or: no chain broken)
//!     dec counter; jnz loop
//! lfence; rdtsc → [T1]                               (time ends)
//! rsp = [SAVED_RSP]; emms?; vzeroupper?; cld; ldmxcsr default; pop callee-saved; ret
//! ```
//!
//! Memory (BHive's idea, docs/measurement.md): one pre-faulted buffer below 2 GiB, so the
//! kernel addresses its slots with 32-bit absolute displacements and a 32-bit `or` puts a
//! register back into its window. The buffer is filled with the 64-bit value [`FILL`], which
//! is itself an address inside it: a block that loads a pointer and dereferences it stays
//! inside (as floats the value reads 1.0 and 0.0). Registers are not reset between loop
//! passes — that breaks dependency chains (a 1-cycle add chain read 0.82) — but wrapped with
//! `and`/`or`, which keeps them.

use iced_x86::{
    BlockEncoder, BlockEncoderOptions, Code, Instruction, InstructionBlock, MemoryOperand, Register,
};

use super::block::{gpr64, RunnableBlock, RSP};
use crate::measure::harness::{
    self, HostIsa, BENIGN, DATA_BASE, MXCSR, OFF_KINIT, OFF_MXCSR, OFF_T0, OFF_T1, OFF_VINIT,
};
use crate::measure::{EncodeError, MeasureError};

/// Start of the data buffer.
pub const DATA_ADDR: u64 = 0x3E80_0000;
/// Size of the data buffer (16 MiB either side of [`FILL`]).
pub const DATA_LEN: usize = 32 << 20;
/// Start of the executable mapping (right above the data buffer, below 2 GiB).
pub const EXEC_ADDR: u64 = 0x4100_0000;
/// Size of the executable mapping.
pub const EXEC_LEN: usize = 8 << 20;
/// The value every 8 bytes of the buffer hold, and the start of the register windows.
pub const FILL: u64 = 0x3F80_0000;
/// Spacing (and alignment) of the registers' windows.
pub const WINDOW: u64 = 0x1_0000;
/// Address registers wrap into the first 4 KiB of their window: what a block walks through
/// stays in the L1 data cache, as BHive's single physical page keeps it (a 64 KiB walk of
/// stores read 2.2 cycles per store instead of 1).
pub const ADDR_MASK: i32 = 0xFFF;
/// The window of rsp (after the 16 register windows).
pub const STACK_WINDOW: u64 = FILL + 16 * WINDOW;
/// Where RIP-relative operands point (original target modulo 64 KiB added).
pub const RIP_WINDOW: u64 = STACK_WINDOW + WINDOW;
/// Where a loop's stepped and read-only address registers get their ranges (`placement`):
/// from above the RIP window to 64 KiB below the end of the buffer.
pub const LOOP_ARENA: u64 = RIP_WINDOW + 3 * WINDOW;
/// Size of the loop arena.
pub const LOOP_ARENA_LEN: u64 = DATA_ADDR + DATA_LEN as u64 - WINDOW - LOOP_ARENA;
/// Passes left of a loop kernel's outer repetition.
pub const OUTER_SLOT: u64 = CONTROL.wrapping_add_signed(harness::OFF_OUTER);
/// Index-only registers wrap into `0..=INDEX_MASK` (× 8 stays within 4 KiB).
pub const INDEX_MASK: i32 = 0x1FF;
/// The slots the calibration kernels of `measure` use (their r14): T0/T1 are shared.
pub const CONTROL: u64 = DATA_ADDR + DATA_BASE as u64;
/// Saved rsp of the caller.
pub const SAVED_RSP: u64 = CONTROL.wrapping_add_signed(harness::OFF_SAVED_RSP);
/// MXCSR restored at the end (the ABI default).
pub const MXCSR_DEFAULT_SLOT: u64 = CONTROL.wrapping_add_signed(harness::OFF_MXCSR_DEFAULT);

// The layout: everything below 2 GiB (32-bit absolute addresses and `or` immediates), the
// windows inside the buffer, the control slots below the windows.
const _: () = assert!(EXEC_ADDR + EXEC_LEN as u64 <= 1 << 31);
const _: () = assert!(DATA_ADDR + DATA_LEN as u64 <= EXEC_ADDR);
const _: () = assert!(FILL >= DATA_ADDR && RIP_WINDOW + 2 * WINDOW <= DATA_ADDR + DATA_LEN as u64);
const _: () = assert!(CONTROL - 4096 >= DATA_ADDR && CONTROL < FILL);
const _: () = assert!(FILL.is_multiple_of(WINDOW));
const _: () = assert!(LOOP_ARENA_LEN > 8 << 20);

/// The GPR number's initial value in the kernel.
pub fn initial_value(block: &RunnableBlock, i: usize) -> u64 {
    if i != RSP && block.index_only.has(i) {
        0x40 + 8 * i as u64
    } else {
        window_start(i)
    }
}

/// Where the GPR number `i` starts when the block uses it as an address (rsp: the middle of
/// the stack window).
pub fn window_start(i: usize) -> u64 {
    let i64 = i as u64;
    if i == RSP {
        STACK_WINDOW + 0x800
    } else {
        // At least 1 KiB from a page boundary (small displacements do not split pages),
        // distinct low 12 bits per register (no false 4K aliasing), and 64-byte aligned, as
        // the model assumes a base register to be (docs/model.md, "Store commit by
        // block"): with 8·i bytes past a line, [rbp-104] and [rbp-112] fell in two lines.
        FILL + i64 * WINDOW + 0x440 + i64 * 0x80
    }
}

/// The data buffer's initial content (the caller writes it before every child).
pub fn fill_data(bytes: &mut [u8]) {
    // One page of the pattern, then page-sized copies (fast even in debug builds).
    let page: Vec<u8> = FILL
        .to_le_bytes()
        .iter()
        .copied()
        .cycle()
        .take(4096)
        .collect();
    for chunk in bytes.chunks_mut(4096) {
        chunk.copy_from_slice(&page[..chunk.len()]);
    }
    let mut put = |addr: u64, v: u64| {
        let o = (addr - DATA_ADDR) as usize;
        bytes[o..o + 8].copy_from_slice(&v.to_le_bytes());
    };
    put(CONTROL.wrapping_add_signed(OFF_T0), 0);
    put(CONTROL.wrapping_add_signed(OFF_T1), 0);
    put(CONTROL.wrapping_add_signed(OFF_MXCSR), u64::from(MXCSR));
    put(CONTROL.wrapping_add_signed(OFF_KINIT), u64::MAX);
    put(CONTROL.wrapping_add_signed(harness::OFF_PMC), 0);
    put(
        CONTROL.wrapping_add_signed(harness::OFF_CLOCK_MASK),
        u64::MAX,
    );
    for k in 0..8 {
        put(CONTROL.wrapping_add_signed(OFF_VINIT) + 8 * k, BENIGN);
    }
    put(SAVED_RSP, 0);
    put(OUTER_SLOT, 0);
    put(MXCSR_DEFAULT_SLOT, 0x1F80);
}

/// An assembled kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelCode {
    /// Machine code, for the address it was assembled for.
    pub bytes: Vec<u8>,
    /// Address of the first copy of the block.
    pub loop_start: u64,
    /// Bytes per copy.
    pub copy_len: usize,
    /// Copies per loop pass.
    pub copies: usize,
}

impl KernelCode {
    /// The offset inside one copy of the block of an instruction pointer in the unrolled body.
    pub fn offset_in_copy(&self, rip: u64) -> Option<usize> {
        let end = self.loop_start + (self.copy_len * self.copies) as u64;
        (self.copy_len > 0 && (self.loop_start..end).contains(&rip))
            .then(|| ((rip - self.loop_start) % self.copy_len as u64) as usize)
    }
}

/// `[addr]`, a 32-bit absolute address.
pub(super) fn abs(addr: u64) -> MemoryOperand {
    MemoryOperand::with_displ(addr, 4)
}

pub(super) fn i1(code: Code, r: Register) -> Result<Instruction, iced_x86::IcedError> {
    Instruction::with1(code, r)
}

/// Assembles the kernel running `copies` copies of `block` per loop pass, for address `ip`.
pub fn assemble(
    block: &RunnableBlock,
    copies: usize,
    isa: HostIsa,
    ip: u64,
) -> Result<KernelCode, MeasureError> {
    let err = |e: iced_x86::IcedError| MeasureError::Encode(e.into());
    let pre = encode(&prologue(block, isa).map_err(err)?, ip)?;
    let pad = (64 - pre.len() % 64) % 64;
    let loop_start = ip + (pre.len() + pad) as u64;
    let mut bytes = pre;
    bytes.extend(harness::nop_padding(pad));
    let copy_len = block.bytes.len();
    for k in 0..copies {
        let copy_at = loop_start + (k * copy_len) as u64;
        let first = bytes.len();
        bytes.extend_from_slice(&block.bytes);
        for p in &block.rip_patches {
            let target = RIP_WINDOW + u64::from(p.window_offset);
            let disp = target as i64 - (copy_at + p.end as u64) as i64;
            let disp = i32::try_from(disp).map_err(|_| EncodeError::RipRelativeReach)?;
            bytes[first + p.disp_at..first + p.disp_at + 4].copy_from_slice(&disp.to_le_bytes());
        }
    }
    let tail_ip = loop_start + (copies * copy_len) as u64;
    bytes.extend(encode(
        &epilogue(block, isa, loop_start).map_err(err)?,
        tail_ip,
    )?);
    Ok(KernelCode {
        bytes,
        loop_start,
        copy_len,
        copies,
    })
}

pub(super) fn encode(instrs: &[Instruction], ip: u64) -> Result<Vec<u8>, MeasureError> {
    BlockEncoder::encode(
        64,
        InstructionBlock::new(instrs, ip),
        BlockEncoderOptions::NONE,
    )
    .map(|r| r.code_buffer)
    .map_err(|e| MeasureError::Encode(e.into()))
}

pub(super) const CALLEE_SAVED: [Register; 6] = [
    Register::RBX,
    Register::RBP,
    Register::R12,
    Register::R13,
    Register::R14,
    Register::R15,
];

/// The start of every generated function: push the callee-saved registers, keep rsp in
/// `[SAVED_RSP]` for the exit.
pub(super) fn save_host_state() -> Result<Vec<Instruction>, iced_x86::IcedError> {
    let mut v = Vec::new();
    for r in CALLEE_SAVED {
        v.push(i1(Code::Push_r64, r)?);
    }
    v.push(Instruction::with2(
        Code::Mov_rm64_r64,
        abs(SAVED_RSP),
        Register::RSP,
    )?);
    Ok(v)
}

fn prologue(b: &RunnableBlock, isa: HostIsa) -> Result<Vec<Instruction>, iced_x86::IcedError> {
    let mut v = save_host_state()?;
    let counter = gpr64(b.counter);
    if counter != Register::RDI {
        v.push(Instruction::with2(
            Code::Mov_r64_rm64,
            counter,
            Register::RDI,
        )?);
    }
    v.push(Instruction::with1(
        Code::Ldmxcsr_m32,
        abs(CONTROL.wrapping_add_signed(OFF_MXCSR)),
    )?);
    v.push(Instruction::with(Code::Fninit));
    vector_init(&mut v, b, isa)?;
    timestamp(&mut v, CONTROL.wrapping_add_signed(OFF_T0))?;
    for i in 0..16 {
        if i == b.counter {
            continue;
        }
        v.push(Instruction::with2(
            Code::Mov_r64_imm64,
            gpr64(i),
            initial_value(b, i),
        )?);
    }
    Ok(v)
}

pub(super) fn vector_init(
    v: &mut Vec<Instruction>,
    b: &RunnableBlock,
    isa: HostIsa,
) -> Result<(), iced_x86::IcedError> {
    let vinit = abs(CONTROL.wrapping_add_signed(OFF_VINIT));
    let reg = harness::reg_add;
    if b.vector.legacy_only {
        // Clean upper halves, as uops.info does for legacy-SSE kernels.
        if isa.avx {
            v.push(Instruction::with(Code::VEX_Vzeroall));
        }
        for i in 0..16 {
            v.push(Instruction::with2(
                Code::Movups_xmm_xmmm128,
                reg(Register::XMM0, i),
                vinit,
            )?);
        }
    } else if isa.avx512f {
        for i in 0..32 {
            v.push(Instruction::with2(
                Code::EVEX_Vmovups_zmm_k1z_zmmm512,
                reg(Register::ZMM0, i),
                vinit,
            )?);
        }
    } else if isa.avx {
        for i in 0..16 {
            v.push(Instruction::with2(
                Code::VEX_Vmovups_ymm_ymmm256,
                reg(Register::YMM0, i),
                vinit,
            )?);
        }
    }
    if isa.avx512f {
        let code = if isa.avx512bw {
            Code::VEX_Kmovq_kr_km64
        } else {
            Code::VEX_Kmovw_kr_km16
        };
        for i in 1..8 {
            v.push(Instruction::with2(
                code,
                reg(Register::K0, i),
                abs(CONTROL.wrapping_add_signed(OFF_KINIT)),
            )?);
        }
    }
    if b.vector.mmx {
        for i in 0..8 {
            v.push(Instruction::with2(
                Code::Movq_mm_mmm64,
                reg(Register::MM0, i),
                vinit,
            )?);
        }
    }
    Ok(())
}

/// `lfence; rdtsc; shl rdx, 32; or rdx, rax; mov [slot], rdx`.
pub(super) fn timestamp(v: &mut Vec<Instruction>, slot: u64) -> Result<(), iced_x86::IcedError> {
    v.push(Instruction::with(Code::Lfence));
    v.push(Instruction::with(Code::Rdtsc));
    v.push(Instruction::with2(
        Code::Shl_rm64_imm8,
        Register::RDX,
        32u32,
    )?);
    v.push(Instruction::with2(
        Code::Or_r64_rm64,
        Register::RDX,
        Register::RAX,
    )?);
    v.push(Instruction::with2(
        Code::Mov_rm64_r64,
        abs(slot),
        Register::RDX,
    )?);
    Ok(())
}

fn epilogue(
    b: &RunnableBlock,
    isa: HostIsa,
    loop_start: u64,
) -> Result<Vec<Instruction>, iced_x86::IcedError> {
    let mut v = Vec::new();
    // Wrap written address registers back into their windows.
    for i in b.written.numbers() {
        let r = gpr64(i);
        if b.bases.has(i) {
            let window = if i == RSP {
                STACK_WINDOW
            } else {
                FILL + i as u64 * WINDOW
            };
            v.push(Instruction::with2(Code::And_rm64_imm32, r, ADDR_MASK)?);
            v.push(Instruction::with2(Code::Or_rm64_imm32, r, window as i32)?);
        } else if b.index_only.has(i) {
            v.push(Instruction::with2(Code::And_rm64_imm32, r, INDEX_MASK)?);
        }
    }
    v.push(i1(Code::Dec_rm64, gpr64(b.counter))?);
    v.push(Instruction::with_branch(Code::Jne_rel32_64, loop_start)?);
    timestamp(&mut v, CONTROL.wrapping_add_signed(OFF_T1))?;
    finish(&mut v, b, isa)?;
    Ok(v)
}

/// After the last timestamp: the caller's rsp, clean vector and direction state, the default
/// MXCSR, the callee-saved registers, `ret`.
pub(super) fn finish(
    v: &mut Vec<Instruction>,
    b: &RunnableBlock,
    isa: HostIsa,
) -> Result<(), iced_x86::IcedError> {
    v.push(Instruction::with2(
        Code::Mov_r64_rm64,
        Register::RSP,
        abs(SAVED_RSP),
    )?);
    if b.vector.mmx {
        v.push(Instruction::with(Code::Emms));
    }
    if isa.avx {
        v.push(Instruction::with(Code::VEX_Vzeroupper));
    }
    v.push(Instruction::with(Code::Cld));
    v.push(Instruction::with1(
        Code::Ldmxcsr_m32,
        abs(MXCSR_DEFAULT_SLOT),
    )?);
    for r in CALLEE_SAVED.into_iter().rev() {
        v.push(i1(Code::Pop_r64, r)?);
    }
    v.push(Instruction::with(Code::Retnq));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;
    use crate::profile::block::plan;
    use iced_x86::{Decoder, DecoderOptions, Formatter, IntelFormatter};

    fn kernel(hex: &str, copies: usize) -> (RunnableBlock, KernelCode) {
        let b = plan(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap()).unwrap();
        let isa = HostIsa {
            avx: true,
            avx512f: true,
            avx512bw: true,
        };
        let k = assemble(&b, copies, isa, EXEC_ADDR).unwrap();
        (b, k)
    }

    fn disassemble(k: &KernelCode) -> Vec<(u64, String)> {
        let mut d = Decoder::with_ip(64, &k.bytes, EXEC_ADDR, DecoderOptions::NONE);
        let mut f = IntelFormatter::new();
        d.iter()
            .map(|i| {
                let mut s = String::new();
                f.format(&i, &mut s);
                (i.ip(), s)
            })
            .collect()
    }

    #[test]
    fn loop_is_aligned_and_the_block_is_copied_verbatim() {
        // add rax, rcx
        let (_, k) = kernel("4801c8", 100);
        assert_eq!(k.loop_start % 64, 0);
        let off = (k.loop_start - EXEC_ADDR) as usize;
        assert_eq!(
            &k.bytes[off..off + 6],
            &[0x48, 0x01, 0xc8, 0x48, 0x01, 0xc8]
        );
        assert_eq!(k.offset_in_copy(k.loop_start + 3 * 99 + 1), Some(1));
        assert_eq!(k.offset_in_copy(k.loop_start + 300), None);
        let text = disassemble(&k);
        assert_eq!(text.last().unwrap().1, "ret");
        let jne = text.iter().find(|(_, t)| t.starts_with("jne")).unwrap();
        assert_eq!(jne.1, format!("jne {:016X}h", k.loop_start));
        // Slots are addressed absolutely (not RIP-relative: the code may move).
        let saved = format!("mov [{SAVED_RSP:X}h],rsp");
        assert!(text.iter().any(|(_, t)| *t == saved), "{text:?}");
        let mut d = Decoder::with_ip(64, &k.bytes, EXEC_ADDR, DecoderOptions::NONE);
        assert!(d.iter().all(|i| !i.is_ip_rel_memory_operand()));
        // The counter is r15 (untouched by the block); rax and rcx point into their windows.
        assert!(text.iter().any(|(_, t)| t == "mov r15,rdi"));
        let rcx = initial_value(&plan_of("4801c8"), 1);
        assert!(text.iter().any(|(_, t)| *t == format!("mov rcx,{rcx:X}h")));
    }

    fn plan_of(hex: &str) -> RunnableBlock {
        plan(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap()).unwrap()
    }

    #[test]
    fn written_address_registers_are_wrapped() {
        // add rdi, 64; mov rax, [rdi]; add rcx, 1; mov edx, [rsi + rcx*4]; push rax
        let (b, k) = kernel("4883c740488b074883c1018b148e50", 10);
        let text: Vec<String> = disassemble(&k).into_iter().map(|(_, t)| t).collect();
        let rdi_window = FILL + 7 * WINDOW;
        assert!(text.contains(&"and rdi,0FFFh".to_string()));
        assert!(text.contains(&format!("or rdi,{rdi_window:X}h")));
        assert!(text.contains(&"and rcx,1FFh".to_string()), "{text:?}");
        assert!(text.contains(&format!("or rsp,{STACK_WINDOW:X}h")));
        // rsi is read only: not wrapped.
        assert!(!text.iter().any(|t| t.starts_with("and rsi")));
        assert!(initial_value(&b, 1) < 0x1000);
        let offsets: std::collections::BTreeSet<u64> =
            (0..16).map(|i| initial_value(&b, i) & 0xFFF).collect();
        assert_eq!(offsets.len(), 16, "distinct page offsets");
        for i in (0..16).filter(|&i| b.bases.has(i)) {
            assert_eq!(initial_value(&b, i) % 64, 0, "register {i} is line aligned");
        }
        for i in 0..16 {
            let v = initial_value(&b, i);
            if b.bases.has(i) {
                let window = if i == RSP {
                    STACK_WINDOW
                } else {
                    FILL + i as u64 * WINDOW
                };
                assert_eq!(
                    v & !(ADDR_MASK as u64),
                    window,
                    "register {i} starts wrapped"
                );
            }
        }
    }

    #[test]
    fn rip_relative_operands_point_into_the_rip_window_in_every_copy() {
        // add eax, [rip + 0x1000]
        let (_, k) = kernel("030500100000", 3);
        let text = disassemble(&k);
        let target = RIP_WINDOW + 0x1006;
        let hits = text
            .iter()
            .filter(|(_, t)| *t == format!("add eax,[{target:X}h]"))
            .count();
        assert_eq!(hits, 3, "{text:?}");
    }

    #[test]
    fn fill_sets_the_control_slots() {
        let mut bytes = vec![0u8; (FILL - DATA_ADDR) as usize + 64];
        fill_data(&mut bytes);
        let at = |addr: u64| {
            let o = (addr - DATA_ADDR) as usize;
            u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap())
        };
        assert_eq!(at(DATA_ADDR), FILL);
        assert_eq!(at(CONTROL.wrapping_add_signed(OFF_MXCSR)), u64::from(MXCSR));
        assert_eq!(at(MXCSR_DEFAULT_SLOT), 0x1F80);
        assert_eq!(at(CONTROL.wrapping_add_signed(OFF_VINIT)), BENIGN);
    }
}
