//! The batch CSV: one record per input row, in input order, with a fixed header.
//!
//! Numbers are written with at most 4 decimals (trailing zeros trimmed), so the output is
//! deterministic and diffs well. A row that failed has empty prediction columns and the
//! reason in `error`.

use std::io::Write;

use super::run::BlockResult;
use crate::bounds::BoundKind;

/// The header, in column order.
pub const HEADER: [&str; 13] = [
    "hex",
    "arch",
    "cycles_per_iteration",
    "bottleneck",
    "bound_cycles",
    "case_id",
    "line",
    "instructions",
    "unsupported",
    "sim_cycles_n",
    "sim_cycles_2n",
    "measured_cycles_per_iteration",
    "error",
];

/// `dep_chain`, `ports`, ... (the JSON spelling of the bound kind).
pub fn kind_name(kind: BoundKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{kind:?}"))
}

/// `x` with at most 4 decimals, trailing zeros trimmed (`0.25`, `1.3333`, `2`).
pub fn number(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Writes the header and one record per result.
pub fn write_csv<W: Write>(results: &[BlockResult], out: W) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(HEADER)?;
    for r in results {
        w.write_record(record(r))?;
    }
    w.flush()?;
    Ok(())
}

/// The fields of one result, in [`HEADER`] order.
pub fn record(r: &BlockResult) -> Vec<String> {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let measured = opt(r.row.measured.map(number));
    let mut f = vec![
        r.row.hex.clone(),
        r.arch.clone(),
        String::new(),
        String::new(),
        String::new(),
        opt(r.row.case_id.clone()),
        r.row.line.to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        measured,
        String::new(),
    ];
    match &r.outcome {
        Ok(p) => {
            f[2] = number(p.cycles_per_iteration);
            f[3] = opt(p.bottleneck.map(|b| b.name()));
            f[4] = opt(p.bound_cycles.map(number));
            f[7] = p.instructions.to_string();
            f[8] = p.unsupported.to_string();
            f[9] = p.cycles_n.to_string();
            f[10] = p.cycles_2n.to_string();
        }
        Err(e) => f[12] = e.to_string(),
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(4.0 / 3.0), "1.3333");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(kind_name(BoundKind::DepChain), "dep_chain");
    }
}
