//! The analysis command: input → regions → decode → data → graphs → simulation → report.

use std::path::Path;

use suaca::analysis::{analyze_region, AnalysisError, AnalysisOptions, Machine};
use suaca::cli::{AnalyzeArgs, Config, OutputFormat};
use suaca::db::{InstrDb, InstrDesc};
use suaca::ir::Instr;
use suaca::loops::LoopSearch;
use suaca::report::dot;
use suaca::report::model::{RegionReport, Report, SCHEMA_VERSION};
use suaca::report::views::DEFAULT_TIMELINE_ITERATIONS;
use suaca::sim::{SimOptions, WhatIf};
use suaca::{dataset, uarch};

use super::{env, output, regions, source};
use crate::Failure;

/// Iterations when neither `--loop` nor `--setup` say otherwise (the thesis' examples use 200).
pub const DEFAULT_ITERATIONS: u32 = 200;

pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let dirs = env::dirs()?;
    let config = Config::load(&dirs.config).map_err(Failure::input)?;
    if let Some(setup) = &args.setup {
        return setup_defaults(setup, &dirs.config);
    }
    if args.print_default {
        match &config.arch {
            Some(a) => println!("Default architecture: {a}"),
            None => {
                let sources = env::sources(args.uops_xml.as_deref(), &dirs);
                let chosen = env::choose_arch(None, &config, &sources, &dirs.cache)?;
                let why = match chosen.origin {
                    env::ArchOrigin::Host => "this CPU's, which has data",
                    _ => "the embedded data's: this CPU's arch is unknown or has no data",
                };
                println!("Default architecture: not set; {} ({why})", chosen.name);
            }
        }
        println!(
            "Default number of iterations: {}",
            config.iterations.unwrap_or(DEFAULT_ITERATIONS)
        );
        return Ok(());
    }
    let selection = args
        .input()
        .ok_or_else(|| Failure::input("no input: give a FILE, --raw FILE or --hex HEX"))?;
    let search = LoopSearch {
        function: args.function.clone(),
    };
    let loaded = source::load(&selection, &args.assembler, &search)?;
    let name = loaded.input.name.clone();
    let regions = regions::select_regions(&loaded, args, &name)?;
    let decoded = regions::decode_all(&regions, &name)?;
    if args.list_regions {
        return regions::list_regions(&loaded, &decoded);
    }

    let iterations = args
        .iterations
        .or(config.iterations)
        .unwrap_or(DEFAULT_ITERATIONS);
    if iterations == 0 {
        return Err(Failure::input("--loop must be at least 1"));
    }
    if iterations > SimOptions::MAX_ITERATIONS {
        return Err(Failure::input(format!(
            "--loop {iterations} is too large: at most {} iterations are simulated",
            SimOptions::MAX_ITERATIONS
        )));
    }
    if args.timeline == Some(0) {
        return Err(Failure::input("--timeline must be at least 1"));
    }
    // --trace alone shows the default number of iterations.
    let timeline = args
        .timeline
        .or(args.trace.is_some().then_some(DEFAULT_TIMELINE_ITERATIONS))
        .map(|n| n.min(iterations));
    output::check_target(args, &loaded.input)?;
    let sources = env::sources(args.uops_xml.as_deref(), &dirs);
    let chosen = env::choose_arch(args.arch.as_deref(), &config, &sources, &dirs.cache)?;
    if let Some(note) = chosen
        .note()
        .filter(|_| args.output_format() == OutputFormat::Text)
    {
        eprintln!("{note}");
    }
    let arch = uarch::load(&chosen.name).map_err(Failure::input)?;
    let data = dataset::load_first(&sources, &arch.name, &dirs.cache).map_err(env::data_failure)?;
    // Typed here, worded by the report (text, stderr and JSON alike).
    use suaca::analysis::Warning;
    let mut warnings: Vec<Warning> = loaded
        .warnings
        .iter()
        .cloned()
        .map(Warning::Assembler)
        .collect();
    // Text mode printed these already (main.rs); JSON has no other place for them.
    if args.output_format() == OutputFormat::Json {
        warnings.extend(
            args.dropped_options
                .iter()
                .cloned()
                .map(Warning::IgnoredOption),
        );
    }
    warnings.extend(data.warnings.iter().cloned().map(Warning::Dataset));
    let all_instrs: Vec<Instr> = decoded
        .iter()
        .flat_map(|(_, i)| i.iter().cloned())
        .collect();
    // Only the records of the instructions' iclasses: the ones the matcher looks at.
    let iclasses = suaca::db::iclasses(&all_instrs);
    let db = InstrDb::for_arch(data.records_with_iclass(&iclasses), &arch);
    // Records are checked as they are read: damage found just now is reported too.
    warnings.extend(data.damage().cloned().map(Warning::Dataset));
    let machine = Machine::of(&arch);
    let opts = AnalysisOptions {
        what_if: WhatIf {
            perfect_frontend: args.perfect_frontend,
            infinite_ports: args.infinite_ports,
            no_deps: args.no_deps,
        },
        performance: args.performance,
        detail: args.detail,
        branches: args.branches,
        timeline,
        model: args.model.options(),
        ..AnalysisOptions::new(iterations)
    };

    let mut report = Report {
        schema_version: SCHEMA_VERSION,
        suaca_version: env!("CARGO_PKG_VERSION").to_string(),
        arch: arch.name.clone(),
        iterations,
        model_disabled: opts
            .model
            .disabled()
            .into_iter()
            .map(String::from)
            .collect(),
        input: loaded.input.clone(),
        warnings,
        regions: Vec::new(),
    };
    let many = decoded.len() > 1;
    for (region, instrs) in &decoded {
        let descs: Vec<Option<InstrDesc>> = instrs.iter().map(|i| db.describe(i).ok()).collect();
        let mut r = analyze_region(region, instrs, &descs, &machine, &opts).map_err(|e| {
            let message = format!("{name}: region {}: {e}", region.index);
            match e {
                // A line that does not exist, or a --loop too large for the region, is a
                // usage error, not a failed analysis.
                AnalysisError::DetailOutOfRange { .. } | AnalysisError::OverBudget(_) => {
                    Failure::input(message)
                }
                _ => Failure::analysis(message),
            }
        })?;
        r.warnings.extend(own_measurements(instrs, &descs, &data));
        if let Some(found) = loaded.found_loop(region) {
            regions::describe_found_loop(&mut r, found);
        }
        write_graphs(args, &r, many)?;
        let lines = loaded.source_lines(region, instrs);
        r.set_source_lines(|l| lines.get(l as usize).cloned().flatten());
        report.regions.push(r);
    }
    output::write(&report, args)
}

/// A note for each line whose figures are suaca's own measurement, not the source's.
fn own_measurements(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    data: &dataset::ArchData,
) -> Vec<suaca::analysis::Warning> {
    let own = |(i, d): (&Instr, &Option<InstrDesc>)| {
        let record = data.supplemented(&d.as_ref()?.string)?;
        let cpu = record.archs.first()?.attrs.get("cpu");
        Some(suaca::analysis::Warning::OwnMeasurement {
            line: i.line,
            text: i.text.clone(),
            arch: data.arch.clone(),
            string: record.string.clone(),
            cpu: cpu.map_or_else(|| "this project's machines".into(), |c| format!("`{c}`")),
        })
    };
    instrs.iter().zip(descs).filter_map(own).collect()
}

fn setup_defaults(setup: &[String], dir: &Path) -> Result<(), Failure> {
    let [arch, n] = setup else {
        return Err(Failure::input(
            "--setup takes an arch and an iteration count",
        ));
    };
    let arch = uarch::load(arch).map_err(Failure::input)?.name;
    let iterations: u32 = n
        .parse()
        .ok()
        .filter(|&v| (1..=SimOptions::MAX_ITERATIONS).contains(&v))
        .ok_or_else(|| {
            Failure::input(format!(
                "--setup: `{n}` is not an iteration count from 1 to {}",
                SimOptions::MAX_ITERATIONS
            ))
        })?;
    let config = Config {
        arch: Some(arch.clone()),
        iterations: Some(iterations),
    };
    let path = config.save(dir).map_err(Failure::input)?;
    println!(
        "Defaults set: architecture {arch}, {iterations} iterations ({})",
        path.display()
    );
    Ok(())
}

/// `-cfg`/`-dg`: DOT files of the graphs the model ran on (the report's), written atomically;
/// with several regions, `name-N.dot`.
fn write_graphs(args: &AnalyzeArgs, r: &RegionReport, many: bool) -> Result<(), Failure> {
    let path_for = |p: &Path| {
        if many {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("graph");
            let ext = p.extension().and_then(|s| s.to_str()).unwrap_or("dot");
            p.with_file_name(format!("{stem}-{}.{ext}", r.region.index))
        } else {
            p.to_path_buf()
        }
    };
    if args.cfg {
        let text = dot::controlflow(&r.graphs, r.region.loop_branch);
        write_atomic(&path_for(&args.cfg_out), &text)?;
    }
    if args.dg {
        write_atomic(&path_for(&args.dg_out), &dot::dependency(&r.graphs))?;
    }
    Ok(())
}

/// Writes a graph file atomically (never half-written).
fn write_atomic(path: &Path, text: &str) -> Result<(), Failure> {
    suaca::fsutil::write_atomic(path, text.as_bytes())
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))
}
