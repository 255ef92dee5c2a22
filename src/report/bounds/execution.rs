//! Words of the execution rows: issue width (1), ports (2), divider (3), the loop-carried
//! chain (9) and the out-of-order window (14).

use super::{fmt_lines, fmt_num, RowWords};
use crate::bounds::{ChainFacts, IssueWidthFacts, PortFacts, RowState, Structure, WindowFacts};

pub(super) fn issue_width(f: &IssueWidthFacts, cycles: f64) -> RowWords {
    let words = if f.no_data {
        RowWords::new("no instruction data")
    } else if f.width == 0 {
        RowWords::new("issue width unknown")
    } else {
        RowWords::new(format!(
            "{} fused µops / {} per cycle = {}",
            f.fused_uops,
            f.width,
            fmt_num(cycles)
        ))
    };
    let pairs = if f.macro_fused_pairs.is_empty() {
        "none".into()
    } else {
        f.macro_fused_pairs
            .iter()
            .map(|l| format!("{}+{}", l, l + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let words = words
        .input("fused µops", f.fused_uops)
        .input("issue width", f.width)
        .input("macro-fused pairs", pairs);
    if f.estimated_lines.is_empty() {
        words
    } else {
        words.input(
            "no retire-slot data (unfused µops used)",
            format!("lines {}", fmt_lines(&f.estimated_lines)),
        )
    }
}

pub(super) fn issue_instructions(instructions: usize, per_cycle: u32, cycles: f64) -> RowWords {
    let words = if per_cycle == 0 {
        RowWords::new("instruction width unknown")
    } else {
        RowWords::new(format!(
            "{instructions} instructions / {per_cycle} per cycle = {}",
            fmt_num(cycles)
        ))
    };
    words
        .input("instructions (fused pairs once)", instructions)
        .input("instructions per cycle", per_cycle)
}

/// `p0156` for single-character port names (Intel), `{ALU0,ALU1}` otherwise.
fn port_set(names: &[String]) -> String {
    if names.iter().all(|n| n.len() == 1) {
        format!("p{}", names.concat())
    } else {
        format!("{{{}}}", names.join(","))
    }
}

pub(super) fn ports(f: &PortFacts, cycles: f64) -> RowWords {
    let Some(s) = &f.solution else {
        return RowWords::new(if f.no_data {
            "no instruction data"
        } else {
            "no µop needs a port"
        });
    };
    let loads = s
        .loads
        .iter()
        .map(|l| format!("p{} {}", l.port, fmt_num(l.load)))
        .collect::<Vec<_>>()
        .join(", ");
    let usage = f
        .usage
        .iter()
        .map(|g| format!("{}*{}", g.uops, port_set(&g.ports)))
        .collect::<Vec<_>>()
        .join("+");
    RowWords::new(format!(
        "Q* = {}: {} µops confined to {} port(s) = {}; loads: {loads}",
        port_set(&s.critical),
        s.confined,
        s.critical.len(),
        fmt_num(cycles)
    ))
    .input(
        "port usage",
        if usage.is_empty() { "-".into() } else { usage },
    )
    .input("µops without a port", f.without_port)
}

pub(super) fn divider(no_data: bool, total: u64, lines: &[usize]) -> RowWords {
    let words = if no_data {
        RowWords::new("no instruction data")
    } else if lines.is_empty() {
        RowWords::new("no divider instructions")
    } else {
        RowWords::new(format!(
            "Σ div_cycles of lines {} = {total}",
            fmt_lines(lines)
        ))
    };
    words.input("div cycles", total)
}

pub(super) fn serializing(state: RowState, total: u64, lines: &[usize]) -> RowWords {
    let words = if state == RowState::NotApplicable {
        RowWords::new("not modelled (--no-serializing)")
    } else if lines.is_empty() {
        RowWords::new("no serializing instructions")
    } else {
        RowWords::new(format!(
            "one at a time, each for its measured throughput: Σ of lines {} = {total}",
            fmt_lines(lines)
        ))
    };
    words.input("held cycles", total)
}

/// Long chains are shown by their first steps (the JSON `chain` keeps every line).
const CHAIN_SHOWN: usize = 12;

pub(super) fn chain(f: &ChainFacts, cycles: f64) -> RowWords {
    let words = match f {
        ChainFacts::NotComputed => RowWords::new("loop-carried dependencies not computed"),
        ChainFacts::NoData => RowWords::new("no instruction data"),
        ChainFacts::NoCycle { carried_edges } => {
            RowWords::new("no loop-carried dependency").input("loop-carried edges", carried_edges)
        }
        ChainFacts::Cycle {
            steps,
            latency,
            distance,
            carried_edges,
            heads,
        } => {
            let mut path = steps
                .iter()
                .take(CHAIN_SHOWN)
                .map(|s| {
                    let mark = if s.carried { "'" } else { "" };
                    format!("{} -{}{mark}-> ", s.line, s.loc)
                })
                .collect::<String>();
            if steps.len() > CHAIN_SHOWN {
                path.push_str(&format!("... ({} more) -> ", steps.len() - CHAIN_SHOWN));
            }
            let mut texts: Vec<String> = steps
                .iter()
                .take(CHAIN_SHOWN)
                .map(|s| format!("[{}] {}", s.line, s.text))
                .collect();
            if steps.len() > CHAIN_SHOWN {
                texts.push("...".into());
            }
            let lines: Vec<usize> = steps.iter().map(|s| s.line).collect();
            let shown_lines = if lines.len() > CHAIN_SHOWN {
                format!(
                    "{}, ... ({} lines)",
                    fmt_lines(&lines[..CHAIN_SHOWN]),
                    lines.len()
                )
            } else {
                fmt_lines(&lines)
            };
            RowWords::new(format!(
                "{path}{} (latency {latency} over {distance} iteration(s) = {}); ' = loop-carried; {}",
                lines.first().copied().unwrap_or(0),
                fmt_num(cycles),
                texts.join("; ")
            ))
            .input("chain lines", shown_lines)
            .input("loop-carried edges", carried_edges)
            .input("carried-edge heads", heads)
        }
    };
    words.input(
        "memory dependencies",
        "as simulated, up to one iteration apart",
    )
}

/// A structure of the out-of-order window as printed.
fn structure(s: Structure) -> &'static str {
    match s {
        Structure::Rob => "ROB (fused µops)",
        Structure::Scheduler => "scheduler (µops)",
        Structure::LoadBuffer => "load buffer",
        Structure::StoreBuffer => "store buffer",
        Structure::BranchesInFlight => "branches in flight",
    }
}

pub(super) fn window(f: &WindowFacts) -> RowWords {
    let detail = if !f.exceeded.is_empty() {
        let names: Vec<&str> = f.exceeded.iter().map(|&s| structure(s)).collect();
        format!(
            "one iteration exceeds the {}: iterations cannot overlap, the bounds are optimistic",
            names.join(", ")
        )
    } else if let Some((s, t)) = f.tightest {
        format!(
            "at most {} iterations in flight (limited by the {})",
            fmt_num(t),
            structure(s)
        )
    } else {
        "structure sizes unknown".to_string()
    };
    let mut words = RowWords::new(detail);
    for u in &f.uses {
        let value = match u.size.map(f64::from) {
            Some(s) if u.used > 0.0 => format!(
                "{}/{} ({} iterations)",
                fmt_num(u.used),
                fmt_num(s),
                fmt_num(s / u.used)
            ),
            Some(s) => format!("0/{}", fmt_num(s)),
            None => format!("{} / unknown size", fmt_num(u.used)),
        };
        words = words.input(structure(u.structure), value);
    }
    words
}
