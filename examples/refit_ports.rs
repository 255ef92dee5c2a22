//! Re-fits the ports of measured records whose interference fit left a large residual, from
//! a hand measurement (data/measured/README.md, "Additions").
//!
//! ```text
//! cargo run --release --example refit_ports -- BASE.xml[.zst] OUT.xml[.zst] FROM TO TP
//! ```
//!
//! Every record of BASE whose `ports` (and `ports_same_reg`) is FROM (e.g. `1*FP0123`), whose
//! `TP_unrolled` is TP (to two decimals) and whose `ports_residual` is 0.30 or more gets TO
//! (e.g. `1*FP123`) instead, `TP_ports` TP, and `ports_residual` 0.00 and
//! `ports_refit="TO"` marking the change; every other record is kept byte for byte as the
//! writer prints it. Deterministic; OUT is written atomically.
#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

use suaca::uopsxml::{read_file, ArchFilter, MeasureValues, PortUsage};

fn main() -> ExitCode {
    measured_file::run("refit_ports", real_main)
}

fn real_main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, out, from, to, tp] = &args[..] else {
        return Err("usage: refit_ports BASE OUT FROM TO TP".into());
    };
    let from: PortUsage = from.parse().map_err(|e| format!("{from}: {e}"))?;
    let to: PortUsage = to.parse().map_err(|e| format!("{to}: {e}"))?;
    let tp: f64 = tp.parse().map_err(|e| format!("{tp}: {e}"))?;
    let mut recs =
        read_file(Path::new(base), &ArchFilter::All).map_err(|e| format!("{base}: {e}"))?;
    let mut changed = 0;
    for r in &mut recs {
        for a in &mut r.archs {
            let Some(m) = a.measurement.as_mut() else {
                continue;
            };
            let residual = m
                .extra
                .get("ports_residual")
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0);
            let fits = |v: &MeasureValues| {
                v.ports.as_ref() == Some(&from)
                    && v.tp_unrolled.is_some_and(|t| (t - tp).abs() < 0.005)
            };
            if residual < 0.3 || !fits(&m.base) {
                continue;
            }
            let refit = |v: &mut MeasureValues| {
                v.ports = Some(to.clone());
                v.tp_ports = Some(tp);
            };
            refit(&mut m.base);
            if let Some(s) = m
                .same_reg
                .as_mut()
                .filter(|s| s.ports.as_ref() == Some(&from))
            {
                refit(s);
            }
            m.extra.insert("ports_residual".into(), "0.00".into());
            m.extra.insert("ports_refit".into(), to.to_string());
            changed += 1;
        }
    }
    measured_file::write_records(base, out, &recs)?;
    println!("{changed} records re-fitted to {to}");
    Ok(())
}

#[path = "shared/measured_file.rs"]
mod measured_file;
