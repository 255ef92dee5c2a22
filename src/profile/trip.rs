//! Initial values that run a counted loop exactly N times: the counter's (when the exit
//! test fixes it: `dec`+`jnz`, `cmp r, imm`, `test r, r`, `loop`) or the compared
//! register's (when the counter starts where the memory placement puts it).
//!
//! Candidates for the value at the exit are tried around the exit test's natural end
//! (equality, one either side, one step either side) and each is checked by evaluating the
//! branch condition on every iteration ([`super::flags`]). Pure.

use super::flags::{self, Flags};
use super::loop_shape::{LoopShape, Other, Test};

/// The initial values found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Trip {
    /// The counter's initial (64-bit register) value.
    pub counter: u64,
    /// The compared register's, for a register compare.
    pub other: Option<u64>,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// No start value gives the loop exactly `n` iterations.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no initial value makes the loop run exactly {n} times (exit test at line {test_line}, \
     branch at line {branch_line}); give the counter with --counter REG"
)]
pub struct NoTrip {
    /// Iterations asked for.
    pub n: u64,
    /// Line of the exit test.
    pub test_line: usize,
    /// Line of the back branch.
    pub branch_line: usize,
}

/// Values for exactly `n` iterations (n ≥ 1); `counter_start` is the counter's initial
/// value when a register compare lets it start anywhere (then the other register is solved).
pub fn solve(shape: &LoopShape, n: u64, counter_start: Option<u64>) -> Result<Trip, NoTrip> {
    let c = &shape.motion[shape.counter];
    let s = c.per_iteration();
    let pre = c.before(shape.test_pos + 1);
    let n_i = n as i64;
    // Value of the counter when the test runs in iteration k (1-based), for start x0.
    let at = |x0: u64, k: i64| x0.wrapping_add(((k - 1) * s + pre) as u64);
    let deltas = [0, -1, 1, s, -s, 2 * s, -2 * s];
    let found = match shape.test {
        Test::Cmp {
            other: Other::Reg(o),
            ..
        } => {
            let x0 = counter_start.unwrap_or(0);
            let m = &shape.motion[o];
            let (so, preo) = (m.per_iteration(), m.before(shape.test_pos + 1));
            let end = at(x0, n_i);
            deltas.iter().find_map(|&d| {
                let b_end = end.wrapping_add(d as u64);
                let b0 = b_end.wrapping_sub(((n_i - 1) * so + preo) as u64);
                let b_at = |k: i64| b0.wrapping_add(((k - 1) * so + preo) as u64);
                runs(shape, n, |k| test_flags(shape, at(x0, k), b_at(k))).then_some(Trip {
                    counter: x0 & mask(shape.bits),
                    other: Some(b0 & mask(shape.bits)),
                })
            })
        }
        _ => {
            let target = match shape.test {
                Test::Cmp {
                    other: Other::Imm(v),
                    ..
                } => v,
                _ => 0,
            };
            deltas.iter().find_map(|&d| {
                let end = target.wrapping_add(d as u64);
                let x0 = end.wrapping_sub(((n_i - 1) * s + pre) as u64) & mask(shape.bits);
                runs(shape, n, |k| test_flags(shape, at(x0, k), 0)).then_some(Trip {
                    counter: x0,
                    other: None,
                })
            })
        }
    };
    found.ok_or(NoTrip {
        n,
        test_line: shape.test_line,
        branch_line: shape.branch_line,
    })
}

/// Whether the back branch is taken in iterations 1..n and not in iteration n.
fn runs(shape: &LoopShape, n: u64, flags_at: impl Fn(i64) -> Flags) -> bool {
    (1..=n as i64).all(|k| shape.cond.holds(flags_at(k)) == Some(k < n as i64))
}

/// The flags of the exit test with the counter at `v` and the other register at `b`.
fn test_flags(shape: &LoopShape, v: u64, b: u64) -> Flags {
    let bits = shape.bits;
    match shape.test {
        Test::Step {
            imm,
            subtract,
            keeps_cf,
        } => {
            // `v` is the result; the flags are those of the operation that produced it.
            let f = if subtract {
                flags::sub(v.wrapping_add(imm), imm, bits)
            } else {
                flags::add(v.wrapping_sub(imm), imm, bits)
            };
            if keeps_cf {
                flags::keep_cf(f)
            } else {
                f
            }
        }
        Test::Cmp {
            counter_first,
            other,
        } => {
            let o = match other {
                Other::Imm(i) => i,
                Other::Reg(_) => b,
            };
            if counter_first {
                flags::sub(v, o, bits)
            } else {
                flags::sub(o, v, bits)
            }
        }
        Test::Test => flags::logic(v, bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;
    use crate::profile::loop_shape::detect;

    fn shape(hex: &str) -> LoopShape {
        detect(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap(), None)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn dec_jnz_counts_down_from_n() {
        let s = shape("4801c848ffca75f8");
        assert_eq!(solve(&s, 100, None).unwrap().counter, 100);
        assert_eq!(solve(&s, 1, None).unwrap().counter, 1);
    }

    #[test]
    fn negative_index_counts_up_to_zero() {
        // add rax, 1; jnz  (clang's negative index)
        let s = shape("4883c00175fa");
        assert_eq!(solve(&s, 50, None).unwrap().counter, (-50i64) as u64);
    }

    #[test]
    fn register_compares_solve_the_bound() {
        // mov rcx, [rax]; add rax, 8; cmp rax, rsi; jne
        let s = shape("488b084883c0084839f075f4");
        let t = solve(&s, 10, Some(0x1000)).unwrap();
        assert_eq!(t.counter, 0x1000);
        assert_eq!(t.other, Some(0x1000 + 80));
        // gcc's a[i]++: cmp rsi, rax; jne
        let s = shape("830487014883c0014839c675f3");
        assert_eq!(solve(&s, 7, None).unwrap().other, Some(7));
    }

    #[test]
    fn immediate_compares_with_any_condition() {
        // imul rdx, rsi; lea ecx, [rcx+1]; cmp ecx, 1000; jl
        let s = shape("480fafd68d490181f9e80300007cf1");
        assert_eq!(solve(&s, 10, None).unwrap().counter, 990);
        // Same with jle (7e): exits at 1001.
        let s = shape("480fafd68d490181f9e80300007ef1");
        assert_eq!(solve(&s, 10, None).unwrap().counter, 991);
        // sub rcx, 4; jae (73): continues while no borrow.
        let s = shape("4883e90473fa");
        let x0 = solve(&s, 5, None).unwrap().counter;
        assert_eq!(x0, 4 * 4 + 3, "the 5th sub borrows");
        // dec ecx; jns (79)
        let s = shape("ffc979fc");
        assert_eq!(solve(&s, 3, None).unwrap().counter, 2);
        // loop
        let s = shape("4801c8e2fb");
        assert_eq!(solve(&s, 9, None).unwrap().counter, 9);
        // test rcx, rcx after lea rcx, [rcx-1]; jne
        let s = shape("488d49ff4885c975f7");
        assert_eq!(solve(&s, 4, None).unwrap().counter, 4);
    }

    #[test]
    fn an_unreachable_count_says_so() {
        // dec ecx; jb: CF is not written by dec.
        let s = shape("ffc972fc");
        let e = solve(&s, 3, None).unwrap_err().to_string();
        assert!(
            e.contains("exactly 3 times") && e.contains("--counter"),
            "{e}"
        );
    }
}
