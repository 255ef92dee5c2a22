//! Where a loop's registers start: how many iterations N to run, and each GPR's initial
//! value for the N- and the 2N-iteration runs, so that the loop counts exactly that often and
//! every address a stepped register walks through stays inside the data buffer.
//!
//! Roles: the counter (fixed by its exit test, or placed when it is an address and compared
//! with a register), the register it is compared with (solved by [`super::trip`]), memory
//! bases that are stepped or read-only (each gets its own range in the loop arena, sized for
//! 2N iterations and started at the top for negative strides), index registers (stepped
//! ones start at 0, read-only ones small), and everything else as for blocks
//! ([`super::kernel::initial_value`]: windows of the buffer, which holds pointers into
//! itself). Pure.
//!
//! N avoids the trip counts whose exit one run predicts and the other does not, and keeps
//! the arrays in L1: where the 2N run's addresses would cover more than
//! [`FOOTPRINT_BUDGET`] at 64 iterations, each base's region is mapped onto a **physical
//! window** of a few pages, repeated, and the loop runs 64 iterations over fresh addresses
//! of the same lines (docs/measurement.md, "Loops").

use iced_x86::{InstructionInfoFactory, OpAccess, Register};

use super::block::{gpr_name, gpr_number, RunnableBlock, RSP};
use super::kernel::{initial_value, LOOP_ARENA, LOOP_ARENA_LEN};
use super::loop_shape::{LoopShape, Motion, Other, Test};
use super::trip;
use crate::ir::Instr;

/// Instructions a run of N iterations should execute at least (N × body).
pub const TARGET_INSTRUCTIONS: u64 = 1000;
/// Fewest iterations N when the arrays allow it. The exit of a loop is predicted when its
/// trip count is small; when only the N run's is, the difference carries a misprediction.
/// Measured on Zen 4 here (tests/host/profile_cli.rs fixtures, testdata/asm/loops.s): an `add`
/// chain read 1.05–1.09 cycles for N = 256..400, 1.000 for N = 128 (both exits predicted)
/// and for N ≥ 800 (neither).
pub const MIN_N: u64 = 800;
/// Most iterations N.
pub const MAX_N: u64 = 2000;
/// Iterations N when the arrays do not fit for [`MIN_N`]: both runs' exits predicted.
pub const SMALL_N: u64 = 128;
/// Fewest iterations N at all: the kernel's outer repetition keeps even 2 and 4 iterations
/// above the timer's resolution, and both runs' exits are predicted.
pub const MIN_SMALL_N: u64 = 2;
/// Below [`SMALL_N`], the fewest iterations N whose exit the Intel host (Redwood Cove,
/// CPUID family 6 model 167) mispredicts in both runs, and the most it predicts in both: a
/// loop of four `add r8, 1` and a stepped load reads 1.18–1.28 cycles an iteration at
/// N ≥ 64, 1.6–1.9 at N = 32 and 48, where one run's exit is mispredicted and the other's
/// not, 1.25–1.37 at 16 (testdata/asm/loop_trip_counts.s). N between them is never chosen;
/// N = 8 reads 1.12–1.25 with strides up to 256 bytes but 1.87 with 512 and 768 (not
/// understood), so it is only the last resort.
pub const MIN_MISPREDICTED_N: u64 = 64;
/// See [`MIN_MISPREDICTED_N`].
pub const MAX_PREDICTED_N: u64 = 8;
/// Iterations N of a loop in physical windows: the fewest whose exit the Intel host
/// mispredicts in both runs (Zen 4 predicts both), so the 2N run walks few pages. Over more,
/// every fresh page costs a TLB miss: on the Intel host eight 32-byte stores stepping 256
/// bytes read 3.96 cycles an iteration at N = 64, 4.39 at N = 128 and 4.37 at N = 800 (two
/// stores 1.20, 1.25, 1.34; testdata/asm/ymm_stores.s, `--iterations N`).
pub const WINDOW_N: u64 = MIN_MISPREDICTED_N;
/// Bytes of the loop arena each base's range gets (its region).
pub const REGION: u64 = 1 << 20;
/// Bytes the stepped addresses of the 2N run may cover before N is lowered to
/// [`SMALL_N`] or below: three quarters of Zen 4's L1 data cache (32 KiB), the rest left to
/// the stack, the harness and conflicts. Loops are compared with a model of L1 hits; a saxpy
/// loop over arrays that spill to L2 read 2.1 cycles per iteration instead of 1.55 (a C
/// program timing gcc -O3's loop on this host), and clang's 4×-unrolled AVX-512 triad
/// (6 KiB per iteration) 192 cycles at N = 16 against 74 at N = 2 with 24 KiB.
pub const FOOTPRINT_BUDGET: u64 = 24 << 10;

/// The loop's run plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopPlan {
    /// Iterations of the shorter run (the longer one runs 2N).
    pub n: u64,
    /// Initial GPR values (rsp included) for the N and the 2N run.
    pub values: [[u64; 16]; 2],
    /// The regions of the arena the bases use, to map onto physical windows before running:
    /// (start, length, window bytes; a window as long as the region maps it one to one), for
    /// [`crate::measure::jit::DataMem::alias`].
    pub aliases: Vec<(u64, u64, u64)>,
    /// How the counter (and its bound) were set, for the report.
    pub setup: String,
}

/// One memory operand of the body.
struct Mem {
    pos: usize,
    base: Option<usize>,
    index: Option<usize>,
    scale: i64,
    disp: i64,
    size: i64,
    write: bool,
}

fn memory_operands(instrs: &[Instr]) -> Vec<Mem> {
    let mut f = InstructionInfoFactory::new();
    let mut v = Vec::new();
    for (pos, ins) in instrs.iter().enumerate() {
        for m in f.info(&ins.iced).used_memory() {
            if m.base() == Register::RIP {
                continue;
            }
            v.push(Mem {
                pos,
                base: gpr_number(m.base()),
                index: gpr_number(m.index()),
                scale: i64::from(m.scale()),
                disp: m.displacement() as i64,
                size: m.memory_size().size().max(1) as i64,
                write: matches!(
                    m.access(),
                    OpAccess::Write | OpAccess::ReadWrite | OpAccess::CondWrite
                ),
            });
        }
    }
    v
}

/// Bytes operand `m`'s address moves per iteration (its base's and its index's steps).
fn movement(m: &Mem, shape: &LoopShape) -> u64 {
    let step = |r: Option<usize>| r.map_or(0, |r| shape.motion[r].per_iteration());
    (step(m.base) + m.scale * step(m.index)).unsigned_abs()
}

/// Per base, the most bytes its operands move per iteration.
fn movement_by_base(mems: &[Mem], shape: &LoopShape) -> [u64; 16] {
    let mut by_base = [0u64; 16];
    for m in mems {
        if let Some(b) = m.base {
            by_base[b] = by_base[b].max(movement(m, shape));
        }
    }
    by_base
}

/// Bytes the stepped addresses move per iteration, summed over the bases.
fn bytes_per_iteration(mems: &[Mem], shape: &LoopShape) -> u64 {
    movement_by_base(mems, shape).iter().sum()
}

/// Whether the loop is timed with its arrays partly beyond [`FOOTPRINT_BUDGET`]: its bases'
/// physical windows do not fit, and even the fewest iterations ([`MIN_SMALL_N`], and 2N)
/// cover more (the loop benchmark reports these loops apart).
pub fn exceeds_l1(instrs: &[Instr], shape: &LoopShape) -> bool {
    let mems = memory_operands(instrs);
    windows(&mems, shape).is_none() && !within_l1(MIN_SMALL_N, bytes_per_iteration(&mems, shape))
}

/// Whether the N and 2N runs of a loop moving `bytes` an iteration stay within
/// [`FOOTPRINT_BUDGET`] (arrays in L1 without windows).
fn within_l1(n: u64, bytes: u64) -> bool {
    2 * n * bytes <= FOOTPRINT_BUDGET
}

/// Physical windows (see the module's doc): each moving base's region of the arena is one
/// area of its window's bytes, repeated, so N need not shrink to keep the arrays in L1.
/// A window holds the base's operands of one iteration and as many iterations more as make
/// [`STORES_IN_FLIGHT`] stores of the loop: a store still waiting to commit when a load
/// reaches its physical bytes again through another address would be a dependency the
/// program does not have. `None` when the windows together exceed [`FOOTPRINT_BUDGET`].
fn windows(mems: &[Mem], shape: &LoopShape) -> Option<[u64; 16]> {
    let stores = mems.iter().filter(|m| m.write).count() as u64;
    let moves = movement_by_base(mems, shape);
    let mut out = [0u64; 16];
    for (b, window) in out.iter_mut().enumerate() {
        let own: Vec<&Mem> = mems.iter().filter(|m| m.base == Some(b)).collect();
        if own.is_empty() {
            continue;
        }
        let lo = own.iter().map(|m| m.disp).min().unwrap_or(0);
        let hi = own.iter().map(|m| m.disp + m.size).max().unwrap_or(0);
        // Only a base that is written can reach its own store: others need one iteration.
        let ahead = if own.iter().any(|m| m.write) {
            STORES_IN_FLIGHT.div_ceil(stores)
        } else {
            1
        };
        let bytes = (hi - lo).unsigned_abs() + 64 + ahead * moves[b];
        *window = bytes.next_multiple_of(PAGE).max(PAGE);
    }
    (out.iter().sum::<u64>() <= FOOTPRINT_BUDGET).then_some(out)
}

/// More stores than a store buffer holds (Redwood Cove: 114; Zen 4: 64).
const STORES_IN_FLIGHT: u64 = 128;
/// A page: windows are whole pages, so an address and its alias share their low 12 bits.
const PAGE: u64 = 4096;

/// Why a loop's registers cannot be given values that keep it in the harness's buffer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// No counter start gives the wanted iteration count.
    #[error(transparent)]
    Trip(#[from] trip::NoTrip),
    /// The counter addresses memory, but the exit test fixes its values.
    #[error(
        "the loop counter {} is a memory base at line {line}, but its values are fixed by the \
         exit test at line {test_line}: its addresses cannot be placed in the buffer",
        gpr_name(*counter)
    )]
    CounterIsBase {
        /// The counter (GPR number).
        counter: usize,
        /// A line using it as a base.
        line: usize,
        /// The exit test's line.
        test_line: usize,
    },
    /// A base moves too far over the run for its region of the loop arena (or the loop has
    /// more bases than the arena has regions).
    #[error(
        "the addresses of {} at {at} move {stride} bytes per iteration: {iterations} iterations \
         need {size} bytes, more than the {REGION} bytes a base gets in the buffer's loop arena",
        gpr_name(*base)
    )]
    ArenaFull {
        /// The base register (GPR number).
        base: usize,
        /// `line N (text)` of its widest-moving operand.
        at: String,
        /// Bytes per iteration.
        stride: i64,
        /// Iterations of the longer run.
        iterations: u64,
        /// Bytes needed.
        size: u64,
    },
}

/// Plans the N and 2N runs of `shape` over `instrs`.
pub fn plan(
    instrs: &[Instr],
    block: &RunnableBlock,
    shape: &LoopShape,
    iterations_wanted: Option<u64>,
) -> Result<LoopPlan, PlacementError> {
    let mems = memory_operands(instrs);
    let motion = &shape.motion;
    let (n, windows) = match iterations_wanted {
        // The user's N, in windows where the arrays would leave L1 and the windows fit.
        Some(n) => {
            let n = n.max(MIN_SMALL_N);
            let wide = !within_l1(n, bytes_per_iteration(&mems, shape));
            (n, wide.then(|| windows(&mems, shape)).flatten())
        }
        None => iterations(instrs, &mems, shape),
    };
    let runs = [n, 2 * n];
    let counter = shape.counter;
    let bound = match shape.test {
        Test::Cmp {
            other: Other::Reg(o),
            ..
        } => Some(o),
        _ => None,
    };
    let mut vals: [[Option<u64>; 16]; 2] = [[None; 16]; 2];
    if bound.is_none() {
        // The exit test fixes the counter.
        for (k, &r) in runs.iter().enumerate() {
            vals[k][counter] = Some(trip::solve(shape, r, None)?.counter);
        }
    }
    let is_base = |r: usize| mems.iter().any(|m| m.base == Some(r));
    // Index registers (and a free counter that is no base) start small.
    for r in 0..16 {
        if vals[0][r].is_some() || is_base(r) || Some(r) == bound {
            continue;
        }
        let v = match motion[r] {
            Motion::Stepped { .. } => Some(0),
            _ if r == RSP => None,
            Motion::Invariant if mems.iter().any(|m| m.index == Some(r)) => {
                Some(initial_value(block, r))
            }
            _ => None,
        };
        if let Some(v) = v {
            vals[0][r] = Some(v);
            vals[1][r] = Some(v);
        }
    }
    // Bases that move or are read-only get their own ranges; bases also used as an index
    // first (their values enter other bases' ranges).
    let mut order: Vec<usize> = (0..16)
        .filter(|&r| is_base(r) && vals[0][r].is_none() && Some(r) != bound)
        .filter(|&r| !matches!(motion[r], Motion::Varying))
        .filter(|&r| !(r == RSP && motion[r].per_iteration() == 0))
        .collect();
    order.sort_by_key(|&r| !mems.iter().any(|m| m.index == Some(r)));
    let mut arena = Arena::default();
    let mut aliases = Vec::new();
    for r in order {
        let region = place_base(r, &mems, instrs, motion, &runs, &mut vals, &mut arena)?;
        // Without windows the region is mapped one to one (an earlier loop's windows undone).
        let window = windows.map_or(REGION, |w| w[r]);
        aliases.push((region, REGION, window));
    }
    // A fixed counter that is also a base: its addresses are what the exit test makes them.
    if is_base(counter) && bound.is_none() {
        let m = mems.iter().find(|m| m.base == Some(counter));
        let line = m.map_or(shape.test_line, |m| instrs[m.pos].line);
        return Err(PlacementError::CounterIsBase {
            counter,
            line,
            test_line: shape.test_line,
        });
    }
    // The compared register, from where the counter starts.
    let setup_bound = match bound {
        Some(o) => solve_bound(shape, o, &runs, &mut vals)?,
        None => String::new(),
    };
    let mut values = [[0u64; 16]; 2];
    for k in 0..2 {
        for r in 0..16 {
            values[k][r] = vals[k][r].unwrap_or_else(|| initial_value(block, r));
        }
    }
    let c = gpr_name(counter);
    let start = if bound.is_some() {
        format!("{c} = {}", show(values[0][counter], shape.bits))
    } else {
        format!(
            "{c} = {} (N) / {} (2N)",
            show(values[0][counter], shape.bits),
            show(values[1][counter], shape.bits)
        )
    };
    let setup = format!(
        "{start}{setup_bound}, step {:+} per iteration, exit test at line {}",
        motion[counter].per_iteration(),
        shape.test_line
    );
    Ok(LoopPlan {
        n,
        values,
        aliases,
        setup,
    })
}

/// Iterations of the shorter run: enough for ~`TARGET_INSTRUCTIONS` instructions. When the
/// bases would move past the footprint budget, N drops until the budget holds them, down to
/// [`MIN_MISPREDICTED_N`]; below that the bases run in physical windows (returned) with
/// [`WINDOW_N`] iterations, or, when the windows do not fit either, N drops further. N
/// avoids the trip counts whose exits one run predicts and the other does not.
fn iterations(instrs: &[Instr], mems: &[Mem], shape: &LoopShape) -> (u64, Option<[u64; 16]>) {
    let total = bytes_per_iteration(mems, shape);
    let len = instrs.len().max(1) as u64;
    let n = TARGET_INSTRUCTIONS.div_ceil(len).clamp(MIN_N, MAX_N);
    if within_l1(n, total) {
        return (n, None);
    }
    let fits = FOOTPRINT_BUDGET / (2 * total);
    if fits >= MIN_MISPREDICTED_N {
        return (fits.min(SMALL_N), None);
    }
    match windows(mems, shape) {
        Some(w) => {
            // Fewer where a region does not hold 2N iterations of the widest movement (with
            // room for the operands' spread and the offset in the page).
            let widest = movement_by_base(mems, shape)
                .into_iter()
                .max()
                .unwrap_or(0)
                .max(1);
            let fits = (REGION - 2 * PAGE) / (2 * widest);
            (safe_n(fits.min(WINDOW_N)), Some(w))
        }
        None => (safe_n(fits), None),
    }
}

/// The most iterations up to `n` that both hosts' predictors treat alike in the N and the 2N
/// run: up to [`MAX_PREDICTED_N`], [`MIN_MISPREDICTED_N`]..=[`SMALL_N`], or [`MIN_N`] on.
fn safe_n(n: u64) -> u64 {
    if n >= MIN_N {
        n
    } else if n >= MIN_MISPREDICTED_N {
        n.min(SMALL_N)
    } else {
        let n = n.clamp(MIN_SMALL_N, MAX_PREDICTED_N);
        1 << (63 - n.leading_zeros())
    }
}

/// The values of the counter and of the register `o` it is compared with, for each run, from
/// where the counter starts; returns their setup text (`, rsi = rax + 6400 (N) / …`).
fn solve_bound(
    shape: &LoopShape,
    o: usize,
    runs: &[u64; 2],
    vals: &mut [[Option<u64>; 16]; 2],
) -> Result<String, PlacementError> {
    let counter = shape.counter;
    let c0 = vals[0][counter].unwrap_or(0);
    for (k, &r) in runs.iter().enumerate() {
        let t = trip::solve(shape, r, Some(c0))?;
        vals[k][counter] = Some(t.counter);
        vals[k][o] = t.other;
    }
    let d = |k: usize| {
        vals[k][o]
            .unwrap_or(0)
            .wrapping_sub(vals[k][counter].unwrap_or(0)) as i64
    };
    let plus = |v: i64| {
        if v < 0 {
            format!("- {}", v.unsigned_abs())
        } else {
            format!("+ {v}")
        }
    };
    Ok(format!(
        ", {o} = {c} {} (N) / {c} {} (2N)",
        plus(d(0)),
        plus(d(1)),
        o = gpr_name(o),
        c = gpr_name(counter),
    ))
}

/// Small values in decimal (signed at the counter's width), addresses in hex.
fn show(v: u64, bits: u32) -> String {
    let s = if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    };
    if s.unsigned_abs() < 1 << 20 {
        s.to_string()
    } else {
        format!("{v:#x}")
    }
}

/// The loop arena, handed out a [`REGION`] per base, each range at a distinct offset inside
/// its page (no 4K aliasing between the arrays' starts, lines still 64-byte aligned).
#[derive(Default)]
struct Arena {
    ranges: u64,
}

impl Arena {
    /// The start of `size` fresh bytes and of their region, `None` when they do not fit one
    /// or the arena is full.
    fn take(&mut self, size: u64) -> Option<(u64, u64)> {
        let offset = 0x400 + (self.ranges % 8) * 0x240 % 0xC00;
        let region = self.ranges * REGION;
        if offset.checked_add(size)? > REGION || region + REGION > LOOP_ARENA_LEN {
            return None;
        }
        self.ranges += 1;
        Some((LOOP_ARENA + region + offset, LOOP_ARENA + region))
    }
}

/// Places base `r`: the lowest and highest address of its operands over both runs,
/// relative to its initial value, get a fresh range of the arena, and the base (with its
/// first operand's index, as the first run starts it) a line-aligned value within it, as
/// the model assumes when it decides which accesses cross a line (docs/model.md, "Line
/// splits").
fn place_base(
    r: usize,
    mems: &[Mem],
    instrs: &[Instr],
    motion: &[Motion],
    runs: &[u64; 2],
    vals: &mut [[Option<u64>; 16]; 2],
    arena: &mut Arena,
) -> Result<u64, PlacementError> {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    let mut widest: Option<(&Mem, i64)> = None;
    for m in mems.iter().filter(|m| m.base == Some(r)) {
        for (k, &n) in runs.iter().enumerate() {
            for it in [1, n as i64] {
                let at = |q: usize| (it - 1) * motion[q].per_iteration() + motion[q].before(m.pos);
                let idx = m.index.map_or(0, |i| {
                    let i0 = vals[k][i].unwrap_or(0) as i64;
                    m.scale * (i0 + at(i))
                });
                let a = at(r) + idx + m.disp;
                lo = lo.min(a);
                hi = hi.max(a + m.size);
            }
        }
        let stride =
            motion[r].per_iteration() + m.index.map_or(0, |i| m.scale * motion[i].per_iteration());
        if widest.is_none_or(|w| stride.abs() > w.1.abs()) {
            widest = Some((m, stride));
        }
    }
    // Up to a line more, for the base's alignment.
    let size = (hi - lo).max(0) as u64 + 128;
    let (start, region) = arena.take(size).ok_or_else(|| {
        let (m, stride) = widest.map_or((None, 0), |(m, s)| (Some(m), s));
        let at = m.map_or(String::new(), |m| {
            format!("line {} ({})", instrs[m.pos].line, instrs[m.pos].text)
        });
        PlacementError::ArenaFull {
            base: r,
            at,
            stride,
            iterations: runs[1],
            size,
        }
    })?;
    let index = mems
        .iter()
        .find(|m| m.base == Some(r))
        .and_then(|m| Some(m.scale * vals[0][m.index?]? as i64))
        .unwrap_or(0);
    let lowest = (start as i64).wrapping_sub(lo);
    let v = lowest.wrapping_add(lowest.wrapping_add(index).wrapping_neg().rem_euclid(64)) as u64;
    vals[0][r] = Some(v);
    vals[1][r] = Some(v);
    Ok(region)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;
    use crate::profile::kernel::{DATA_ADDR, DATA_LEN};
    use crate::profile::loop_shape::detect;

    fn planned(hex: &str) -> Result<LoopPlan, String> {
        let i = decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap();
        let b = crate::profile::block::plan_loop(&i).unwrap();
        let s = detect(&i, None).unwrap().unwrap();
        plan(&i, &b, &s, None).map_err(|e| e.to_string())
    }

    fn inside(a: u64) -> bool {
        (DATA_ADDR..DATA_ADDR + DATA_LEN as u64).contains(&a)
    }

    #[test]
    fn dec_counter_runs_n_and_2n() {
        // add rax, rcx; dec rdx; jnz
        let p = planned("4801c848ffca75f8").unwrap();
        assert_eq!(p.n, 800);
        assert_eq!(p.values[0][2], 800);
        assert_eq!(p.values[1][2], 1600);
        assert!(
            p.setup.starts_with("rdx = 800 (N) / 1600 (2N), step -1"),
            "{}",
            p.setup
        );
    }

    #[test]
    fn pointer_walk_stays_in_the_buffer() {
        // mov rcx, [rax]; add rax, 8; cmp rax, rsi; jne
        let p = planned("488b084883c0084839f075f4").unwrap();
        let (rax, rsi) = (p.values[0][0], p.values[0][6]);
        assert!(inside(rax) && inside(rax + 16 * p.n));
        assert_eq!(rsi, rax + 8 * p.n);
        assert_eq!(p.values[1][6], rax + 16 * p.n);
        assert!(
            p.setup.contains("rsi = rax + 6400 (N) / rax + 12800 (2N)"),
            "{}",
            p.setup
        );
    }

    #[test]
    fn negative_stride_starts_at_the_top() {
        // mov rcx, [rax]; sub rax, 8; cmp rax, rsi; jne
        let p = planned("488b084883e8084839f075f4").unwrap();
        let rax = p.values[0][0];
        let low = rax - 16 * p.n;
        assert!(inside(low) && inside(rax + 8), "{rax:#x}");
    }

    #[test]
    fn index_counters_move_their_base() {
        // gcc a[i]++: add dword [rdi+rax*4], 1; add rax, 1; cmp rsi, rax; jne
        let p = planned("830487014883c0014839c675f3").unwrap();
        assert_eq!(p.values[0][0], 0);
        assert_eq!(p.values[0][6], p.n);
        let rdi = p.values[0][7];
        assert!(inside(rdi) && inside(rdi + 8 * p.n));
        // clang's negative index: add dword [rdi+rax*4], 1; add rax, 1; jnz
        let p = planned("830487014883c00175f6").unwrap();
        let (rdi, rax) = (p.values[1][7], p.values[1][0] as i64);
        assert_eq!(rax, -2 * p.n as i64);
        assert!(inside(rdi.wrapping_add_signed(4 * rax)) && inside(rdi));
    }

    #[test]
    fn wide_strides_run_in_physical_windows() {
        // A 4 KiB stride: 2N × 4 KiB would leave L1 even at N = 64, so rax's region is one
        // 8 KiB window (one iteration's bytes and the next: no stores), repeated, N = 64.
        // mov rcx, [rax]; add rax, 0x1000; cmp rax, rsi; jne
        let p = planned("488b084805001000004839f075f2").unwrap();
        assert_eq!(p.n, WINDOW_N);
        let rax = p.values[1][0];
        assert_eq!(p.aliases.len(), 1);
        let (start, len, window) = p.aliases[0];
        assert_eq!((len, window), (REGION, 8192));
        assert!(
            start <= rax && rax + 2 * 64 * 4096 <= start + len,
            "{rax:#x}"
        );
        // A 32-byte stride: 2N × 32 bytes in L1 (SMALL_N caps it), the region one to one.
        // mov rcx, [rax]; add rax, 0x20; cmp rax, rsi; jne
        let p = planned("488b084883c0204839f075f4").unwrap();
        assert_eq!(p.n, 128);
        assert_eq!(p.aliases[0].2, REGION);
        // One 32-byte store every 256 bytes: its window would have to hold 128 iterations
        // (32 KiB, over the budget), so N drops to what 24 KiB holds, 48, and below the trip
        // counts the Intel host predicts in one run only, to 8.
        // vmovups [rax], ymm0; add rax, 0x100; cmp rax, rsi; jne
        let p = planned("c5fc11004805000100004839f075f1").unwrap();
        assert_eq!((p.n, p.aliases[0].2), (8, REGION));
        // mov rcx, [rax]; add rax, 0x10000000; cmp rax, rsi; jne: even N = 2 leaves the region.
        let e = planned("488b084805000000104839f075f2").unwrap_err();
        assert!(e.contains("line 0 (mov rcx, qword ptr [rax])"), "{e}");
        assert!(e.contains("268435456 bytes per iteration"), "{e}");
    }

    #[test]
    fn stores_widen_the_window_by_the_stores_in_flight() {
        // clang's relu: eight ymm loads and eight ymm stores of [rdi+rcx*4+k] a 256-byte
        // iteration: 128 stores in flight are 16 iterations, 4 KiB more than the iteration's
        // 256 bytes: an 8 KiB window, N = 64.
        let hex = "c5fc100c8fc5fc10548f20c5fc105c8f40c5fc10648f60c5f45fc8c5ec5fd0c5e45fd8c5dc5fe0\
                   c5fc110c8fc5fc11548f20c5fc115c8f40c5fc11648f60c5fc108c8f80000000c5fc10948fa0000000\
                   c5fc109c8fc0000000c5fc10a48fe0000000c5f45fc8c5ec5fd0c5e45fd8c5dc5fe0c5fc118c8f8000\
                   0000c5fc11948fa0000000c5fc119c8fc0000000c5fc11a48fe00000004883c1404883c2fe0f855cff\
                   ffff";
        let p = planned(hex).unwrap();
        assert_eq!(p.n, WINDOW_N);
        assert_eq!(p.aliases.len(), 1);
        assert_eq!(p.aliases[0].2, 8192);
    }

    /// The model takes every base (with its index) as line-aligned when the loop starts
    /// (docs/model.md, "Line splits"), so the placement does too, whatever the operands'
    /// displacements: gcc's stencil reads `[rax-0x1c]` (rax aligned, not rax-0x1c), and
    /// `[rcx+rax*4+8]`, `[rdx+rax*4-4]` with rax from 0 align rcx and rdx.
    #[test]
    fn bases_start_line_aligned() {
        // vmovups ymm0, [rax-0x1c]; add rax, 32; cmp rax, rdi; jne
        let p = planned("c5fc1040e44883c0204839f875f2").unwrap();
        assert_eq!(p.values[0][0] % 64, 0, "rax {:#x}", p.values[0][0]);
        // movups xmm0, [rcx+rax*4+8]; movups [rdx+rax*4-4], xmm0; add rax, 4; cmp rax,
        // rsi; jne
        let p = planned("0f104481080f114482fc4883c0044839f075ed").unwrap();
        let (rax, rcx, rdx) = (p.values[0][0], p.values[0][1], p.values[0][2]);
        assert_eq!(rax, 0);
        assert_eq!((rcx % 64, rdx % 64), (0, 0), "rcx {rcx:#x}, rdx {rdx:#x}");
        assert!(inside(rcx + 8) && inside(rdx - 4 + 8 * p.n));
    }

    #[test]
    fn trip_counts_one_run_predicts_are_avoided() {
        assert_eq!(safe_n(2000), 2000);
        assert_eq!(safe_n(800), 800);
        assert_eq!(safe_n(799), 128);
        assert_eq!(safe_n(100), 100);
        assert_eq!(safe_n(64), 64);
        assert_eq!(safe_n(63), 8);
        assert_eq!(safe_n(7), 4);
        assert_eq!(safe_n(0), 2);
        // Whatever the stride, N is never between MAX_PREDICTED_N and MIN_MISPREDICTED_N.
        let mut placed = 0;
        for shift in 3..20 {
            // mov rcx, [rax]; add rax, imm32; cmp rax, rsi; jne
            let imm = (1u32 << shift).to_le_bytes();
            let hex = format!(
                "488b084805{:02x}{:02x}{:02x}{:02x}4839f075f2",
                imm[0], imm[1], imm[2], imm[3]
            );
            if let Ok(p) = planned(&hex) {
                placed += 1;
                assert!(
                    !(MAX_PREDICTED_N + 1..MIN_MISPREDICTED_N).contains(&p.n),
                    "stride {}: N = {}",
                    1u32 << shift,
                    p.n
                );
            }
        }
        // Every stride but the largest (512 KiB: 2N = 4 iterations leave a base's 1 MiB
        // region) gets a plan, so the check above ran on them.
        assert_eq!(placed, 16);
    }

    #[test]
    fn converging_pointers_derive_the_other_side() {
        // mov rcx, [rax]; mov rcx, [rdx]; add rax, 8; sub rdx, 8; cmp rax, rdx; jb
        let hex = "488b08488b0a4883c0084883ea084839d072ed";
        let i = decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap();
        let b = crate::profile::block::plan_loop(&i).unwrap();
        for (counter, other) in [(0, 2), (2, 0)] {
            let s = detect(&i, Some(counter)).unwrap().unwrap();
            assert_eq!(s.counter, counter);
            let p = plan(&i, &b, &s, None).unwrap();
            for k in 0..2 {
                let (c, o) = (p.values[k][counter], p.values[k][other]);
                assert!(inside(c) && inside(o), "{c:#x} {o:#x}");
                // They meet after N (2N) iterations: 16 bytes closer each.
                let n = p.n * (k as u64 + 1);
                assert_eq!(p.values[k][2] - p.values[k][0], 16 * n);
            }
        }
    }

    #[test]
    fn fixed_counters_cannot_be_addresses() {
        // mov rax, [rcx]; dec rcx; jnz
        let e = planned("488b0148ffc975f8").unwrap_err();
        assert!(e.contains("counter rcx is a memory base"), "{e}");
    }
}
