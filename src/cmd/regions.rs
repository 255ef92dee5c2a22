//! Which regions to analyze (`--region`, `--function`, `--address`), decoding them, and
//! `--list-regions`.
//!
//! Owns: the selection rules and their error messages, the facts a found loop adds to its
//! report.
//! Must not touch: finding regions (`source`), the analysis, formatting (`report`).

use suaca::cli::AnalyzeArgs;
use suaca::decode;
use suaca::ir::{Instr, Region};
use suaca::loops::{self, LoopRegion};
use suaca::report::model::{FlowWarning, FoundLoopInfo, RegionReport};
use suaca::report::region_list::{self, RegionEntry};

use super::source::Loaded;
use crate::Failure;

/// The regions the options select: `--region N`, then the regions inside `--function NAME`
/// (marked regions; found loops were searched in NAME only), then the one holding
/// `--address A`.
pub fn select_regions(
    loaded: &Loaded,
    args: &AnalyzeArgs,
    name: &str,
) -> Result<Vec<Region>, Failure> {
    let mut regions = select_region(loaded.regions.clone(), args.region, name)?;
    if let (Some(function), true) = (&args.function, loaded.loops.is_empty()) {
        regions.retain(|r| {
            r.symbol
                .as_deref()
                .is_some_and(|s| loops::matches_name(s, function))
        });
        if regions.is_empty() {
            return Err(Failure::input(format!(
                "{name}: no marked region in function `{function}`"
            )));
        }
    }
    if let Some(a) = args.address {
        regions.retain(|r| r.address <= a && a < r.end_address());
        if regions.is_empty() {
            return Err(Failure::input(format!(
                "{name}: no region contains address {a:#x}; --list-regions shows them"
            )));
        }
    }
    Ok(regions)
}

pub fn select_region(
    regions: Vec<Region>,
    which: Option<usize>,
    name: &str,
) -> Result<Vec<Region>, Failure> {
    match which {
        None => Ok(regions),
        Some(n) => {
            let count = regions.len();
            regions
                .into_iter()
                .find(|r| r.index == n)
                .map(|r| vec![r])
                .ok_or_else(|| {
                    Failure::input(format!(
                        "{name}: --region {n} does not exist; the file has {count} region(s), numbered from 0"
                    ))
                })
        }
    }
}

pub fn decode_all(regions: &[Region], name: &str) -> Result<Vec<(Region, Vec<Instr>)>, Failure> {
    regions
        .iter()
        .map(|r| {
            decode::decode_region(r)
                .map(|instrs| (r.clone(), instrs))
                .map_err(|e| {
                    Failure::input(format!("{name}: region {} ({}): {e}", r.index, r.section))
                })
        })
        .collect()
}

/// `--list-regions`: the selected regions with function, offsets, size and source line.
pub fn list_regions(loaded: &Loaded, decoded: &[(Region, Vec<Instr>)]) -> Result<(), Failure> {
    let entries: Vec<RegionEntry> = decoded
        .iter()
        .map(|(r, instrs)| RegionEntry {
            index: r.index,
            section: r.section.clone(),
            start: r.address,
            end: r.end_address(),
            symbol: r.symbol.clone(),
            found_loop: loaded.found_loop(r).map(loop_info),
            instructions: instrs.len(),
            source: instrs
                .first()
                .and_then(|i| loaded.source_of(&r.section, i.address, i.len() as u64)),
        })
        .collect();
    region_list::render(&entries, &mut std::io::stdout().lock())
        .map_err(|e| Failure::analysis(format!("cannot write the list: {e}")))
}

/// The report facts of a found loop.
pub fn loop_info(found: &LoopRegion) -> FoundLoopInfo {
    let base = found.function.address;
    FoundLoopInfo {
        function: found.function.name.clone(),
        function_address: base,
        offset: found.found.start - base,
        end_offset: found.found.end - base,
        header: found.found.header,
        blocks: found.found.blocks,
        foreign_instructions: found.found.foreign,
        ifunc_implementation: found.function.ifunc_implementation,
    }
}

/// Marks `report` as the found loop `found`; a loop of several blocks gets its warning.
pub fn describe_found_loop(report: &mut RegionReport, found: &LoopRegion) {
    report.region.found_loop = Some(loop_info(found));
    if found.found.blocks > 1 {
        report.flow_warnings.insert(
            0,
            FlowWarning::MultiBlockLoop {
                blocks: found.found.blocks,
                foreign_instructions: found.found.foreign,
            },
        );
    }
}
