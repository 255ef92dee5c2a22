//! Accuracy metrics of predictions against measurements, as BHive, uiCA and the issue define
//! them: absolute percentage error (APE) = |predicted − measured| / measured; MAPE its mean;
//! Kendall's τ-b rank correlation (ties counted as in τ-b); share of blocks within 5% / 10%.

/// The metrics of one set of blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Blocks in the set (predicted or not).
    pub blocks: usize,
    /// Blocks with a prediction and a positive measurement (the rest of the metrics use these).
    pub covered: usize,
    /// Mean APE (fraction: 0.061 = 6.1%).
    pub mape: f64,
    /// Median APE (fraction).
    pub median_ape: f64,
    /// Kendall's τ-b of predicted vs measured (`None` with fewer than 2 distinct pairs).
    pub kendall_tau: Option<f64>,
    /// Share of covered blocks with APE ≤ 5%.
    pub within_5: f64,
    /// Share of covered blocks with APE ≤ 10%.
    pub within_10: f64,
    /// Share of covered blocks predicted more than 10% too high.
    pub over_10: f64,
    /// Share of covered blocks predicted more than 10% too low.
    pub under_10: f64,
}

impl Metrics {
    /// Coverage: covered / blocks (0 for an empty set).
    pub fn coverage(&self) -> f64 {
        if self.blocks == 0 {
            0.0
        } else {
            self.covered as f64 / self.blocks as f64
        }
    }

    /// Metrics of `pairs` = (predicted, measured) out of `blocks` blocks; pairs whose
    /// measurement is not positive or whose numbers are not finite are not covered.
    pub fn of(blocks: usize, pairs: &[(f64, f64)]) -> Metrics {
        let pairs: Vec<(f64, f64)> = pairs
            .iter()
            .copied()
            .filter(|&(p, m)| p.is_finite() && m.is_finite() && m > 0.0)
            .collect();
        let apes: Vec<f64> = pairs.iter().map(|&(p, m)| ape(p, m)).collect();
        let n = apes.len();
        let share = |f: &dyn Fn(&(f64, f64)) -> bool| {
            if n == 0 {
                0.0
            } else {
                pairs.iter().filter(|p| f(p)).count() as f64 / n as f64
            }
        };
        Metrics {
            blocks,
            covered: n,
            mape: mean(&apes).unwrap_or(f64::NAN),
            median_ape: median(&apes).unwrap_or(f64::NAN),
            kendall_tau: kendall_tau(&pairs),
            within_5: share(&|&(p, m)| ape(p, m) <= 0.05 + 1e-12),
            within_10: share(&|&(p, m)| ape(p, m) <= 0.10 + 1e-12),
            over_10: share(&|&(p, m)| p > m * 1.10 + 1e-12),
            under_10: share(&|&(p, m)| p < m * 0.90 - 1e-12),
        }
    }
}

/// Absolute percentage error as a fraction.
pub fn ape(predicted: f64, measured: f64) -> f64 {
    (predicted - measured).abs() / measured
}

/// Arithmetic mean (`None` when empty).
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Median (mean of the two middle values for even lengths; `None` when empty).
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

/// Kendall's τ-b of the pairs (x, y): (C − D) / √((C + D + Tx)(C + D + Ty)), where Tx (Ty)
/// counts pairs tied only in x (only in y). O(n²), fine for the thousands of blocks of a
/// benchmark. `None` when there are fewer than two points or one side is constant.
pub fn kendall_tau(pairs: &[(f64, f64)]) -> Option<f64> {
    let (mut concordant, mut discordant, mut tie_x, mut tie_y) = (0u64, 0u64, 0u64, 0u64);
    for (i, &(x1, y1)) in pairs.iter().enumerate() {
        for &(x2, y2) in &pairs[i + 1..] {
            let dx = (x1 - x2).partial_cmp(&0.0)?;
            let dy = (y1 - y2).partial_cmp(&0.0)?;
            use std::cmp::Ordering::Equal;
            match (dx, dy) {
                (Equal, Equal) => {}
                (Equal, _) => tie_x += 1,
                (_, Equal) => tie_y += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    let base = (concordant + discordant) as f64;
    let denom = ((base + tie_x as f64) * (base + tie_y as f64)).sqrt();
    (denom > 0.0).then(|| (concordant as f64 - discordant as f64) / denom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn kendall_tau_known_cases() {
        let same = [(1.0, 10.0), (2.0, 20.0), (3.0, 30.0), (4.0, 40.0)];
        assert!(close(kendall_tau(&same).unwrap(), 1.0));
        let reversed = [(1.0, 4.0), (2.0, 3.0), (3.0, 2.0), (4.0, 1.0)];
        assert!(close(kendall_tau(&reversed).unwrap(), -1.0));
        // One swapped pair of 6: (5 − 1) / 6.
        let one_swap = [(1.0, 1.0), (2.0, 3.0), (3.0, 2.0), (4.0, 4.0)];
        assert!(close(kendall_tau(&one_swap).unwrap(), 4.0 / 6.0));
        // τ-b with ties in x: x = [1,1,2,3], y = [1,2,3,4]: C = 5, D = 0, Tx = 1, Ty = 0
        // → 5 / √(6 · 5).
        let ties = [(1.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, 4.0)];
        assert!(close(kendall_tau(&ties).unwrap(), 5.0 / 30f64.sqrt()));
        assert_eq!(kendall_tau(&[(1.0, 1.0)]), None);
        assert_eq!(kendall_tau(&[(1.0, 1.0), (1.0, 2.0)]), None);
    }

    #[test]
    fn mape_median_and_shares() {
        // APEs: 0, 0.1, 0.5, 0.04.
        let pairs = [(1.0, 1.0), (1.1, 1.0), (1.0, 2.0), (2.08, 2.0)];
        let m = Metrics::of(5, &pairs);
        assert_eq!((m.blocks, m.covered), (5, 4));
        assert!(close(m.coverage(), 0.8));
        assert!(close(m.mape, 0.64 / 4.0));
        assert!(close(m.median_ape, 0.07));
        assert!(close(m.within_5, 0.5));
        assert!(close(m.within_10, 0.75));
        assert!(close(m.under_10, 0.25));
        assert!(close(m.over_10, 0.0));
        // Non-positive measurements are not covered.
        assert_eq!(Metrics::of(1, &[(1.0, 0.0)]).covered, 0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    }
}
