//! `suaca batch`: read blocks, load each arch's data once, predict in parallel, write CSV.
//!
//! Owns: reading the input and writing the output files, the warnings on stderr (malformed
//! lines with their numbers, archs without data), the thread pool size.
//! Must not touch: the prediction itself (`suaca::batch`).

use std::io::{Read, Write};
use std::path::Path;

use suaca::batch::{self, LoadedModels, PredictOptions};
use suaca::cli::{BatchArgs, Config};
use suaca::sim::SimOptions;

use super::env;
use crate::Failure;

pub fn run(args: &BatchArgs) -> Result<(), Failure> {
    let max_copies = SimOptions::MAX_ITERATIONS / 2;
    if args.copies == 0 || args.copies > max_copies {
        return Err(Failure::input(format!(
            "--loop must be from 1 to {max_copies} (the longer run has twice as many copies)"
        )));
    }
    let dirs = env::dirs()?;
    let config = Config::load(&dirs.config).map_err(Failure::input)?;
    let sources = env::sources(args.uops_xml.as_deref(), &dirs);
    let chosen = env::choose_arch(args.arch.as_deref(), &config, &sources, &dirs.cache)?;
    let default_arch = chosen.name.clone();

    let text = read_input(&args.input)?;
    let parsed = batch::parse_input(&text);
    let source = display(&args.input, "<stdin>");
    // Only when some row takes the default: a CSV naming every row's arch needs none.
    let defaulted = parsed
        .rows
        .iter()
        .any(|r| r.problem.is_none() && r.arch.is_none());
    if let Some(note) = chosen.note().filter(|_| defaulted) {
        eprintln!("{note}");
    }
    for r in parsed.malformed() {
        let why = r.problem.as_deref().unwrap_or_default();
        eprintln!("suaca: warning: {source}: line {}: {why}", r.line);
    }

    let mut archs = vec![default_arch.clone()];
    archs.extend(
        parsed
            .rows
            .iter()
            .filter(|r| r.problem.is_none())
            .filter_map(|r| r.arch.clone()),
    );
    let models = batch::load_models(&archs, &sources, &dirs.cache);
    for (arch, w) in &models.warnings {
        eprintln!(
            "suaca: warning: {}",
            suaca::report::warning::arch_dataset_message(arch, w)
        );
    }
    warn_failed_archs(&models, &parsed.rows, &default_arch);

    let opts = PredictOptions {
        copies: args.copies,
        model: args.model.options(),
        ..PredictOptions::default()
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool
        .build()
        .map_err(|e| Failure::analysis(format!("cannot start worker threads: {e}")))?;
    let results = pool.install(|| batch::run(parsed.rows, &models, &default_arch, &opts));

    let mut out = Vec::new();
    batch::output::write_csv(&results, &mut out)
        .map_err(|e| Failure::analysis(format!("cannot format the CSV: {e}")))?;
    write_output(&args.output, &out)?;
    let failed = results.iter().filter(|r| r.outcome.is_err()).count();
    if failed > 0 && failed == results.len() {
        // Nothing was predicted: a script must not take the file for results.
        return Err(Failure::analysis(format!(
            "none of the {failed} block(s) has a prediction (see the `error` column)"
        )));
    }
    if failed > 0 {
        eprintln!(
            "suaca: warning: {failed} of {} block(s) have no prediction (see the `error` column)",
            results.len()
        );
    }
    Ok(())
}

fn display(path: &Path, stdin: &str) -> String {
    if path == Path::new("-") {
        stdin.to_string()
    } else {
        path.display().to_string()
    }
}

/// The input as text; bytes that are not UTF-8 become U+FFFD and fail as hex in their row.
pub fn read_input(path: &Path) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let result = if path == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes).map(drop)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes).map(drop))
    };
    result.map_err(|e| Failure::input(format!("cannot read {}: {e}", display(path, "stdin"))))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            // A closed pipe (`suaca batch … | head`) is not an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(Failure::analysis(format!("cannot write the output: {e}"))),
        };
    }
    suaca::fsutil::write_atomic(path, bytes)
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))
}

/// One warning per arch that could not be loaded, with the number of rows it costs.
fn warn_failed_archs(models: &LoadedModels, rows: &[batch::InputRow], default_arch: &str) {
    for (key, why) in &models.failed {
        let count = rows
            .iter()
            .filter(|r| r.problem.is_none())
            .filter(|r| LoadedModels::key(r.arch.as_deref().unwrap_or(default_arch)) == *key)
            .count();
        if count > 0 {
            // A described arch failed for want of data: say where to get it.
            let hint = if suaca::uarch::names::canonical(key).is_some() {
                format!("; {}", env::DATA_HINT)
            } else {
                String::new()
            };
            eprintln!(
                "suaca: warning: {why}; {count} row(s) of {key} are reported as errors{hint}"
            );
        }
    }
}
