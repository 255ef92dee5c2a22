//! Adds the records of a partial `suaca measure --filter` run to a measured file without
//! re-running everything (data/measured/README.md, "Additions").
//!
//! ```text
//! cargo run --release --example merge_measured -- [--replace] BASE.xml[.zst] ADD.xml[.zst] OUT.xml[.zst]
//! ```
//!
//! Every record of BASE is kept, byte for byte as the writer prints it, in its order. Each
//! record of ADD whose `string` BASE lacks is inserted after the last BASE record of its
//! extension (at the end for a new extension), in ADD's order; records BASE already has are
//! left alone and counted, or with `--replace` take ADD's record in BASE's place (a
//! re-measurement of forms the first run measured wrongly). `<root date>` stays BASE's.
//! Deterministic; OUT is written atomically.
#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;

use suaca::uopsxml::{read_file, ArchFilter, InstrRecord};

fn main() -> ExitCode {
    measured_file::run("merge_measured", real_main)
}

fn real_main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let replace = args.first().is_some_and(|a| a == "--replace");
    if replace {
        args.remove(0);
    }
    let [base, add, out] = &args[..] else {
        return Err("usage: merge_measured [--replace] BASE ADD OUT".into());
    };
    let read = |p: &str| read_file(Path::new(p), &ArchFilter::All).map_err(|e| format!("{p}: {e}"));
    let base_recs = read(base)?;
    let add_recs = read(add)?;
    let (merged, added, kept) = merge(base_recs, add_recs, replace);
    measured_file::write_records(base, out, &merged)?;
    let what = if replace {
        "replaced"
    } else {
        "already present and kept"
    };
    println!(
        "{out}: {} records ({added} added, {kept} {what})",
        merged.len()
    );
    Ok(())
}

/// BASE's records with ADD's new ones inserted (and with `replace`, ADD's in place of
/// BASE's of the same string); (records, added, already present).
fn merge(
    base: Vec<InstrRecord>,
    add: Vec<InstrRecord>,
    replace: bool,
) -> (Vec<InstrRecord>, usize, usize) {
    let known: HashSet<String> = base.iter().map(|r| r.string.clone()).collect();
    let mut out = base;
    let (mut added, mut kept) = (0, 0);
    let mut seen = HashSet::new();
    for r in add {
        if !seen.insert(r.string.clone()) {
            kept += 1;
            continue;
        }
        if known.contains(&r.string) {
            if replace {
                if let Some(slot) = out.iter_mut().find(|b| b.string == r.string) {
                    *slot = r;
                }
            }
            kept += 1;
            continue;
        }
        let at = out
            .iter()
            .rposition(|b| b.extension == r.extension)
            .map_or(out.len(), |i| i + 1);
        out.insert(at, r);
        added += 1;
    }
    (out, added, kept)
}

#[path = "shared/measured_file.rs"]
mod measured_file;
