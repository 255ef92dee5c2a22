//! cycles(N) and cycles(2N) of the block unrolled N and 2N times, cheaply.
//!
//! T(k) = the cycle after the last instruction of the first k copies completed. The engine
//! serves older instructions first, so T(k) hardly depends on how many copies follow (see
//! `predict.rs`): one run of K copies gives T(1..=K), and cycles(k) = T(k) for k ≤ K.
//!
//! A deterministic machine fed the same copy over and over settles into a periodic steady
//! state: from some copy on, T(k + p) = T(k) + q. [`Method::Extrapolate`] simulates only
//! K ≪ 2N copies (enough for the scheduler to fill several times over), looks for the
//! shortest period in the second half of T(1..=K) — a whole number of the front end's
//! delivery periods ([`crate::sim::Delivery::period`]), repeated at least 4 times (twice
//! where the delivery repeats over more than one copy) — and extends it to N and 2N. Without
//! such a period it falls back to the full run of 2N copies.
//!
//! This is a heuristic: a transient that looks periodic for K/2 copies would be taken for
//! the steady state. Measured: on the 1,217 BHive development blocks the result equals the
//! full run for every block (`tests/model/batch_steady.rs`; with SKL's ports bound at issue,
//! one SKL block of every 4th gives 3.00 for 3.02); on 4,999 other BHive blocks (every
//! 25th distinct block of BHive's sources, the file `scripts/batch_speed.sh` writes; the
//! ignored test `extrapolation_on_more_blocks`, 2026-11-27) identical for 4,986 (SKL), 4,998
//! (HSW) and 4,996 (IVB), the others within 3.8% but one IVB block (2.25 for 2.00).

use crate::sim::{
    simulate, InstRef, Observer, OutcomeOnly, SimError, SimMachine, SimOptions, SimProgram, WhatIf,
};

/// How cycles(N) and cycles(2N) are obtained.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// A short run, extended along its periodic steady state (falls back to `OneRun`).
    #[default]
    Extrapolate,
    /// One run of 2N copies; cycles(N) read off it.
    OneRun,
    /// Separate runs of N and 2N copies: BHive's literal method (outcome-only runs, so the
    /// engine may skip repeated steady-state iterations; still slower than `Extrapolate` on
    /// BHive's blocks).
    TwoRuns,
}

/// The two run lengths' cycles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cycles {
    /// cycles(N).
    pub n: u64,
    /// cycles(2N).
    pub two_n: u64,
    /// Copies actually simulated (all runs together).
    pub simulated: u64,
}

/// Fewest copies of the short run (its second half, where periods are looked for, must be
/// long enough not to take a transient for the steady state: 32 copies took a 10-copy plateau
/// of one IVB block for it).
const MIN_COPIES: u32 = 48;
/// The short run lasts this many scheduler fills (in µops), plus [`MIN_COPIES`] / 2.
const FILLS: u32 = 3;
/// A period must repeat this often in the second half of the short run.
const REPEATS: usize = 4;

/// cycles(N) and cycles(2N) of `prog` on `machine` by `method`.
pub fn cycles(
    prog: &SimProgram,
    machine: &SimMachine,
    n: u32,
    method: Method,
    max_cycles: u64,
) -> Result<Cycles, SimError> {
    let run = |copies: u32| -> Result<Vec<u64>, SimError> {
        let opts = SimOptions {
            iterations: copies,
            what_if: WhatIf::NONE,
            max_cycles,
        };
        let mut times = CopyTimes(vec![0; copies as usize]);
        simulate(prog, machine, &opts, &mut times)?;
        Ok(times.prefix())
    };
    let two_n = n.saturating_mul(2);
    if method == Method::TwoRuns {
        // Two outcome-only runs: the engine skips repeated steady-state iterations, so this
        // literal BHive method is also the cheapest.
        let total = |copies: u32| -> Result<u64, SimError> {
            let opts = SimOptions {
                iterations: copies,
                what_if: WhatIf::NONE,
                max_cycles,
            };
            simulate(prog, machine, &opts, &mut OutcomeOnly).map(|o| o.cycles)
        };
        return Ok(Cycles {
            n: total(n)?,
            two_n: total(two_n)?,
            simulated: u64::from(n) + u64::from(two_n),
        });
    }
    if method == Method::Extrapolate {
        let uops = prog.uops_per_iteration().max(1);
        let fill = u64::from(FILLS * machine.scheduler_size).div_ceil(uops);
        // The steady state's period is a multiple of the front end's: a shorter repetition
        // within one delivery period is a transient (a 16-copy predecode pattern gave a
        // 2-copy plateau of 2.33 cycles a copy for 2.50). The run covers two of them.
        let every = prog.frontend.map_or(1, |d| d.period()) as usize;
        let whole = u32::try_from(2 * repeats(every) * every).unwrap_or(u32::MAX);
        let k = (fill.min(u64::from(u32::MAX)) as u32 + MIN_COPIES / 2)
            .max(MIN_COPIES)
            .max(whole);
        if k < two_n {
            let t = run(k)?;
            if let Some(p) = Periodic::find(&t, every) {
                return Ok(Cycles {
                    n: p.at(&t, n),
                    two_n: p.at(&t, two_n),
                    simulated: u64::from(k),
                });
            }
            let full = run(two_n)?;
            return Ok(Cycles {
                n: full[n as usize - 1],
                two_n: full[two_n as usize - 1],
                simulated: u64::from(k) + u64::from(two_n),
            });
        }
    }
    let full = run(two_n)?;
    Ok(Cycles {
        n: full[n as usize - 1],
        two_n: full[two_n as usize - 1],
        simulated: u64::from(two_n),
    })
}

/// The last completion cycle of each copy.
struct CopyTimes(Vec<u64>);

impl CopyTimes {
    /// T(k) for k = 1..=len at index k − 1: one past the last completion of copies < k.
    fn prefix(&self) -> Vec<u64> {
        let mut max = 0;
        self.0
            .iter()
            .map(|&c| {
                max = max.max(c + 1);
                max
            })
            .collect()
    }
}

impl Observer for CopyTimes {
    // Completions only: no `waited` events, so waiting instances sleep (3× faster).
    fn wants_waits(&self) -> bool {
        false
    }
    fn completed(&mut self, cycle: u64, inst: InstRef) {
        if let Some(c) = self.0.get_mut(inst.iteration as usize) {
            *c = (*c).max(cycle);
        }
    }
}

/// T(k + p) = T(k) + q for every k from `from` on (k counted in copies, 1-based).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Periodic {
    from: usize,
    p: usize,
    q: u64,
}

/// How often a candidate period must repeat in the short run's second half: [`REPEATS`]
/// times, or twice for whole delivery periods of more than one copy (the front end's own
/// period, not a pattern a transient could mimic by chance; four 16-copy periods made the
/// short run 128 copies and batch 7% slower, in a one-off timing on a Zen 3).
fn repeats(every: usize) -> usize {
    if every > 1 {
        2
    } else {
        REPEATS
    }
}

impl Periodic {
    /// The shortest period of the second half of `t` (T(1..=K) at indices 0..K) that is a
    /// multiple of `every` copies (0 counts as 1).
    fn find(t: &[u64], every: usize) -> Option<Periodic> {
        let every = every.max(1);
        let k = t.len();
        let from = k / 2;
        // Differences d(j) = T(j) − T(j − 1) for j in from+1..=k (copies), at index j − 1.
        let d = |j: usize| t[j - 1] - t[j - 2];
        (every..=(k - from) / repeats(every))
            .step_by(every)
            .find_map(|p| {
                let periodic = (from + 1 + p..=k).all(|j| d(j) == d(j - p));
                periodic.then(|| Periodic {
                    from,
                    p,
                    q: t[from + p - 1] - t[from - 1],
                })
            })
    }

    /// T(m) for any m ≥ `from`.
    fn at(&self, t: &[u64], m: u32) -> u64 {
        let m = m as usize;
        if m <= t.len() {
            return t[m - 1];
        }
        let steps = (m - self.from) / self.p;
        let rest = (m - self.from) % self.p;
        t[self.from + rest - 1] + steps as u64 * self.q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_are_found_and_extended() {
        // A start-up of 5 cycles, then 3 cycles per copy.
        let t: Vec<u64> = (1..=40u64).map(|k| 5 + 3 * k).collect();
        let p = Periodic::find(&t, 1).unwrap();
        assert_eq!((p.p, p.q), (1, 3));
        assert_eq!(p.at(&t, 100), 305);
        assert_eq!(p.at(&t, 200), 605);
        // Alternating 1 and 2 cycles: period 2, 3 cycles.
        let mut t = vec![10u64];
        for k in 1..40 {
            let last = *t.last().unwrap();
            t.push(last + if k % 2 == 0 { 1 } else { 2 });
        }
        let p = Periodic::find(&t, 1).unwrap();
        assert_eq!((p.p, p.q), (2, 3));
        for m in [41u32, 42, 100, 201] {
            let mut x = t.clone();
            while x.len() < m as usize {
                let k = x.len();
                let last = *x.last().unwrap();
                x.push(last + if k % 2 == 0 { 1 } else { 2 });
            }
            assert_eq!(p.at(&t, m), x[m as usize - 1], "T({m})");
        }
    }

    #[test]
    fn periods_are_whole_delivery_periods() {
        // 1 cycle a copy for 3 copies, then 4: period 4, 7 cycles. With a delivery that
        // repeats every 8 copies the period taken is 8 (14 cycles), never the 4 alone.
        let mut t = vec![0u64];
        for k in 1..64 {
            let last = *t.last().unwrap();
            t.push(last + if k % 4 == 0 { 4 } else { 1 });
        }
        assert_eq!(Periodic::find(&t, 1).map(|p| (p.p, p.q)), Some((4, 7)));
        assert_eq!(Periodic::find(&t, 8).map(|p| (p.p, p.q)), Some((8, 14)));
        // Whole delivery periods need two repeats in the second half (32 copies): a 16-copy
        // period is found in 64 copies, a 32-copy one is not.
        assert_eq!(Periodic::find(&t, 16).map(|p| (p.p, p.q)), Some((16, 28)));
        assert_eq!(Periodic::find(&t, 32).map(|p| p.p), None);
    }

    #[test]
    fn a_delivery_repeats_after_its_denominator_in_lowest_terms() {
        let every = |c: f64| crate::sim::Delivery::every(c, 0).unwrap().period();
        assert_eq!(every(2.0), 1);
        assert_eq!(every(2.5), 2);
        assert_eq!(every(39.0 / 16.0), 16);
        assert_eq!(every(1.0 / 3.0), 3);
    }

    #[test]
    fn no_period_in_a_growing_pattern() {
        // Differences 1, 2, 3, ...: never periodic.
        let t: Vec<u64> = (1..=40u64).map(|k| k * (k + 1) / 2).collect();
        assert_eq!(Periodic::find(&t, 1), None);
    }
}
