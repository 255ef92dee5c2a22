//! Words of the front-end rows: µop cache (10), decoders and microcode (11), LSD (12) and
//! taken branches (13).

use super::{fmt_lines, fmt_num, lines_or_none, RowWords};
use crate::bounds::{DsbFacts, FrontEndSource, LsdFacts, MicrocodeFacts, MiteFacts, MiteTerm};

/// Why a front-end row only informs, appended to its detail.
fn informational(why: Option<FrontEndSource>) -> &'static str {
    match why {
        None => "",
        Some(FrontEndSource::Lsd) => " (informational: the loop streams from the LSD)",
        Some(FrontEndSource::UopCache) => " (informational: the loop runs from the µop cache)",
        Some(FrontEndSource::TooLargeForUopCache) => {
            " (informational: the loop is larger than the µop cache)"
        }
    }
}

pub(super) fn dsb(f: &DsbFacts, cycles: f64) -> RowWords {
    match f {
        DsbFacts::NoCache => RowWords::new("no µop cache on this arch (or size unknown)"),
        DsbFacts::ParametersUnknown => RowWords::new("µop cache window or rate unknown"),
        DsbFacts::Windows {
            uops,
            window_bytes,
            per_cycle,
            looped,
            whole_cycles,
            informational: why,
        } => {
            let list = uops
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" + ");
            let rule = if *whole_cycles {
                format!("whole cycles of ≤ {per_cycle} µops an iteration, ≥ 1 per window")
            } else {
                format!("≤ {per_cycle} µops and ≥ 1 cycle per window")
            };
            RowWords::new(format!(
                "{} window(s) of {window_bytes} B holding {list} µops, {rule}{}: {}{}",
                uops.len(),
                if *looped {
                    ""
                } else {
                    " (copies share windows)"
                },
                fmt_num(cycles),
                informational(*why)
            ))
            .input("windows", uops.len())
            .input("window bytes", window_bytes)
            .input("µops per cycle", per_cycle)
        }
    }
}

/// One term of the decoders' maximum: `16 B / 16 = 1`.
fn mite_term(t: &MiteTerm) -> String {
    let (text, cycles) = match t {
        MiteTerm::Bytes {
            bytes,
            per_cycle,
            lcp,
            lcp_penalty,
            cycles,
        } => {
            let text = if *lcp > 0 && *lcp_penalty > 0 {
                format!("{bytes} B / {per_cycle} + {lcp} LCP × {lcp_penalty}")
            } else {
                format!("{bytes} B / {per_cycle}")
            };
            (text, cycles)
        }
        MiteTerm::Instructions {
            instructions,
            decoders,
            cycles,
        } => (format!("{instructions} instructions / {decoders}"), cycles),
        MiteTerm::ComplexDecoder {
            instructions,
            cycles,
        } => (
            format!("{instructions} complex-decoder instructions / 1"),
            cycles,
        ),
        MiteTerm::Uops {
            uops,
            per_cycle,
            cycles,
        } => (format!("{uops} µops / {per_cycle}"), cycles),
    };
    format!("{text} = {}", fmt_num(*cycles))
}

pub(super) fn mite(f: &MiteFacts) -> RowWords {
    if f.terms.is_empty() {
        return RowWords::new("decoder parameters unknown");
    }
    let terms = f.terms.iter().map(mite_term).collect::<Vec<_>>().join("; ");
    RowWords::new(format!("max({terms}){}", informational(f.informational)))
        .input("bytes", f.bytes)
        .input("instructions (fused pairs once)", f.instructions)
        .input("complex-decoder instructions", f.complex_decoder)
}

pub(super) fn microcode(f: &MicrocodeFacts, cycles: f64) -> RowWords {
    let words = match f.per_cycle {
        _ if f.no_data => RowWords::new("no instruction data"),
        _ if f.uops == 0 => RowWords::new("no microcoded instructions"),
        Some(r) => RowWords::new(format!(
            "{} MS µops (lines {}) / {r} per cycle = {}",
            f.uops,
            fmt_lines(&f.lines),
            fmt_num(cycles)
        ))
        .input("MS µops per cycle", r),
        None => RowWords::new(format!(
            "{} MS µops (lines {}), MS rate unknown",
            f.uops,
            fmt_lines(&f.lines)
        )),
    };
    words.input("MS µops", f.uops)
}

pub(super) fn lsd(f: &LsdFacts) -> RowWords {
    if let Some(g) = f.split_groups {
        return RowWords::new(format!(
            "a µop splits at issue (un-laminated): issue groups stop at the end of the loop unrolled {} times (the last group at least half full): ceil({} × {} / {}) / {} = {}",
            g.unroll,
            g.slots,
            g.unroll,
            g.width,
            g.unroll,
            fmt_num(g.cycles())
        ))
        .input("issue slots", g.slots)
        .input("unroll", g.unroll);
    }
    let (fused_uops, capacity) = (f.fused_uops, f.capacity);
    let detail = match (f.enabled, capacity) {
        (Some(false), _) => "LSD disabled on this arch".to_string(),
        (None, _) => "LSD unknown".to_string(),
        (Some(true), _) if f.streams => format!(
            "the loop ({fused_uops} fused µops) fits the LSD: it streams from the µop queue, with some loss at the iteration boundary"
        ),
        (Some(true), Some(cap)) => {
            format!("the loop ({fused_uops} fused µops) is larger than the LSD ({cap} µops)")
        }
        (Some(true), None) => "LSD capacity unknown".to_string(),
    };
    let words = RowWords::new(detail);
    match capacity {
        Some(cap) => words.input("LSD µops", cap),
        None => words,
    }
}

pub(super) fn taken(
    lines: &[usize],
    per_cycle: Option<f64>,
    single_backward: bool,
    cycles: f64,
) -> RowWords {
    let words = match per_cycle {
        _ if lines.is_empty() => RowWords::new("no taken branch in the region"),
        Some(r) => {
            let kind = if single_backward {
                "single backward loop branch"
            } else {
                "general rate"
            };
            RowWords::new(format!(
                "{} taken / {} per cycle ({kind}) = {}",
                lines.len(),
                fmt_num(r),
                fmt_num(cycles)
            ))
        }
        None => RowWords::new("taken-branch rate unknown"),
    };
    words
        .input("taken branches", lines.len())
        .input("taken lines", lines_or_none(lines))
        .input("forward conditional branches", "assumed not taken")
}
