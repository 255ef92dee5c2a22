//! Words of the memory rows: loads (4), stores (5), memory ops (6), complex addressing (7).

use super::{fmt_num, lines_or_none, RowWords};
use crate::bounds::{ComplexAddressing, MemRate};

/// `count what / rate per cycle = cycles`, or the vector limit when it is the tighter one.
fn per_cycle(rate: &MemRate, what: &str, cycles: f64) -> RowWords {
    let Some(r) = rate.per_cycle else {
        return RowWords::new(format!("{} {what}, rate unknown", fmt_num(rate.count)));
    };
    let detail = match rate.vector {
        Some((v, vr)) => format!(
            "{} vector {what} / {vr} per cycle = {}",
            fmt_num(v),
            fmt_num(cycles)
        ),
        None => format!(
            "{} {what} / {r} per cycle = {}",
            fmt_num(rate.count),
            fmt_num(cycles)
        ),
    };
    RowWords::new(detail).input("per cycle", r)
}

pub(super) fn loads(
    rate: &MemRate,
    lines: &[usize],
    gathers: &[(usize, u32)],
    cycles: f64,
) -> RowWords {
    let gathers = if gathers.is_empty() {
        "none".to_string()
    } else {
        gathers
            .iter()
            .map(|(l, e)| format!("line {l}: {e} elements"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    per_cycle(rate, "loads", cycles)
        .input("loads", fmt_num(rate.count))
        .input("load lines", lines_or_none(lines))
        .input("gather/scatter", gathers)
}

pub(super) fn stores(
    rate: &MemRate,
    lines: &[usize],
    commit: Option<f64>,
    cycles: f64,
) -> RowWords {
    let words = match commit {
        // Committing by cache line is the tighter limit.
        Some(c) if c >= cycles => RowWords::new(format!(
            "{} stores committed one cache line per cycle (two to one line) = {}",
            fmt_num(rate.count),
            fmt_num(c)
        )),
        _ => per_cycle(rate, "stores", cycles),
    };
    let words = words
        .input("stores", fmt_num(rate.count))
        .input("store lines", lines_or_none(lines));
    match commit {
        Some(c) => words.input("commit cycles by cache line", fmt_num(c)),
        None => words,
    }
}

pub(super) fn memory_ops(rate: &MemRate, cycles: f64) -> RowWords {
    per_cycle(rate, "memory ops", cycles).input("loads + stores", fmt_num(rate.count))
}

pub(super) fn complex(f: &ComplexAddressing, cycles: f64) -> RowWords {
    match f {
        ComplexAddressing::Applies {
            loads,
            complex_stores,
            lines,
            load_agus,
            simple_max_offset,
        } => RowWords::new(format!(
            "({} loads + {} complex stores) / {load_agus} load AGUs = {}",
            fmt_num(*loads),
            fmt_num(*complex_stores),
            fmt_num(cycles)
        ))
        .input("complex store lines", lines_or_none(lines))
        .input("simple store", format!("[base + 0..={simple_max_offset}]"))
        .input("load AGUs", load_agus),
        ComplexAddressing::ParametersUnknown => {
            RowWords::new("load AGUs or simple-store offset range unknown")
        }
        ComplexAddressing::NotApplicable => {
            RowWords::new("n/a (every store AGU handles complex addressing)")
        }
        ComplexAddressing::Unknown => RowWords::new("whether the arch has this limit is unknown"),
    }
}
