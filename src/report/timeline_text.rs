//! Text rendering of a [`Timeline`] in the style of llvm-mca's timeline view: one row per
//! instruction instance, one column per cycle.
//!
//! ```text
//! Timeline: the first 2 iteration(s), 12 cycles
//! D loaded into the scheduler, = waiting, e executing, E finished, . every 5th cycle
//!
//!               0         1
//! [It,Line]     012345678901
//! [0,0]         D=eE .    .    mov rax, 0x1
//! [0,1]         D==eE.    .    add rbx, rax
//! ```
//!
//! Legend (per cycle): `D` the front end loaded the instance's µops into the scheduler; `=`
//! it waited in the scheduler (loaded, not started: a dependency, a port, the divider);
//! `e` it executed; `E` the cycle at whose end it finished (its latency done). Outside that
//! span a `.` marks every fifth cycle. A cell shows the latest stage of its cycle: an
//! instance that is loaded and starts in the same cycle shows `e`/`E` there, not `D`; the
//! cycle it was loaded in counts as waiting when it could not start then. Unlike llvm-mca
//! there is no retire stage: the simulation (SUACA thesis §3) has none.
//! Owns: the layout; when a width is given and the cycles do not fit, the chart is split
//! into blocks of cycles, each with its own header, so no line is wider than the width.

use std::io::{self, Write};

use super::views::{Timeline, TimelineEntry, MAX_TIMELINE_INSTANCES};

/// The legend printed under the title.
pub const LEGEND: &str =
    "D loaded into the scheduler, = waiting, e executing, E finished, . every 5th cycle";

/// Columns before the chart: `[12,345]` and padding.
const PREFIX: usize = 14;
/// Widest instruction text shown before it is shortened.
const MAX_TEXT: usize = 40;

/// The character of `e` in `cycle` (see the module doc).
pub fn cell(e: &TimelineEntry, cycle: u64) -> char {
    let executing =
        matches!((e.started, e.completed), (Some(s), Some(c)) if s <= cycle && cycle <= c);
    match (e.loaded, e.loaded_last, e.started, e.completed) {
        (_, _, _, Some(c)) if executing && cycle == c => 'E',
        _ if executing => 'e',
        (Some(l), Some(last), _, _) if l <= cycle && cycle <= last => 'D',
        (_, Some(last), s, _) if cycle > last && s.is_none_or(|s| cycle < s) && e.waited > 0 => '=',
        _ if cycle.is_multiple_of(5) => '.',
        _ => ' ',
    }
}

/// Writes the timeline; `width` limits the line length (`None`: one block).
pub fn render(t: &Timeline, width: Option<u16>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Timeline: the first {} iteration(s), {} cycles",
        t.iterations, t.cycles
    )?;
    if let Some(asked) = t.capped_from {
        writeln!(
            out,
            "(of {asked} asked: a timeline keeps at most {MAX_TIMELINE_INSTANCES} instruction instances)"
        )?;
    }
    writeln!(out, "{LEGEND}")?;
    let text_width = t
        .entries
        .iter()
        .map(|e| e.text.chars().count())
        .max()
        .unwrap_or(0)
        .min(MAX_TEXT);
    let cycles = t.cycles.max(1);
    let block = match width {
        Some(w) => {
            let room = usize::from(w).saturating_sub(PREFIX + 2 + text_width);
            ((room / 10) * 10).max(20) as u64
        }
        None => cycles,
    };
    let mut from = 0;
    while from < cycles {
        let to = (from + block).min(cycles);
        writeln!(out)?;
        write_header(from, to, out)?;
        for e in &t.entries {
            let chart: String = (from..to).map(|c| cell(e, c)).collect();
            let id = format!("[{},{}]", e.iteration, e.line);
            writeln!(
                out,
                "{id:<PREFIX$}{chart}  {}",
                shorten(&e.text, text_width)
            )?;
        }
        from = to;
    }
    Ok(())
}

/// Two header lines: each multiple of ten written out above the units of each cycle.
fn write_header(from: u64, to: u64, out: &mut dyn Write) -> io::Result<()> {
    let mut tens = String::new();
    for c in from..to {
        if tens.chars().count() as u64 > c - from {
            continue;
        }
        if c % 10 == 0 {
            tens.push_str(&c.to_string());
        } else {
            tens.push(' ');
        }
    }
    let units: String = (from..to)
        .map(|c| char::from_digit((c % 10) as u32, 10).unwrap_or(' '))
        .collect();
    writeln!(out, "{:PREFIX$}{}", "", tens.trim_end())?;
    writeln!(out, "{:<PREFIX$}{units}", "[It,Line]")
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(loaded: u64, started: u64, completed: u64, waited: u32) -> TimelineEntry {
        TimelineEntry {
            iteration: 0,
            line: 0,
            source_line: None,
            source_file: None,
            text: "add rax, rbx".into(),
            loaded: Some(loaded),
            loaded_last: Some(loaded),
            waited,
            started: Some(started),
            completed: Some(completed),
        }
    }

    #[test]
    fn cells_follow_the_legend() {
        let e = entry(1, 4, 6, 2);
        let row: String = (0..8).map(|c| cell(&e, c)).collect();
        assert_eq!(row, ".D==eeE ");
        let same = entry(0, 0, 0, 0);
        assert_eq!(cell(&same, 0), 'E');
    }

    #[test]
    fn wide_charts_are_split_into_blocks() {
        let t = Timeline {
            iterations: 1,
            cycles: 130,
            entries: vec![entry(0, 100, 120, 99)],
            capped_from: None,
        };
        let mut out = Vec::new();
        render(&t, Some(100), &mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.lines().all(|l| l.chars().count() <= 100), "{s}");
        assert!(s.contains(" 100 "), "{s}");
        assert!(s.lines().filter(|l| l.starts_with("[0,0]")).count() > 1);
        let mut out = Vec::new();
        render(&t, None, &mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert_eq!(s.lines().filter(|l| l.starts_with("[0,0]")).count(), 1);
    }
}
