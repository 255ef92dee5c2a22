//! `suaca measure`: drives the measurement library with a progress bar and Ctrl-C handling.
//! The first Ctrl-C asks the run to stop between batches (the checkpoint and a partial XML
//! are kept; `--resume` continues); a second one ends the process at once — the fsync'd
//! checkpoint still holds every finished batch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use suaca::cli::MeasureArgs;
use suaca::measure::{self, MeasureConfig, Progress};

use crate::Failure;

struct Bar {
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
}

impl Progress for Bar {
    fn begin(&mut self, total: u64) {
        self.bar.set_length(total);
        self.bar.set_style(
            ProgressStyle::with_template(
                "[{elapsed_precise}] [{bar:40}] {pos}/{len} eta {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
    }
    fn advance(&mut self, done: u64, current: &str) {
        self.bar.set_position(done);
        self.bar.set_message(current.to_string());
    }
    fn message(&mut self, msg: &str) {
        if self.bar.is_hidden() {
            eprintln!("{msg}");
        } else {
            self.bar.println(msg);
        }
    }
    fn interrupted(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

pub fn run(args: &MeasureArgs) -> Result<(), Failure> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Installing the handler can fail only if one is installed already.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nsuaca: stopping after the current batch (Ctrl-C again to quit now)");
    });
    let config = MeasureConfig {
        out: args.out.clone(),
        filter: args.filter.clone(),
        resume: args.resume,
        skeleton: args.skeleton.clone(),
        arch: args.arch.clone(),
        cpu: args.cpu,
        machine_out: args.machine.clone(),
        limit: args.limit,
        calib_retries: args.retries,
        ..MeasureConfig::default()
    };
    let mut progress = Bar {
        bar: ProgressBar::new(0),
        stop,
    };
    let summary = measure::run(config, &mut progress).map_err(|e| match e {
        // Everything measured so far is in the checkpoint.
        e if e.is_busy() => Failure::busy(format!("{e} `--resume` continues from the checkpoint.")),
        measure::MeasureError::Calibration(_) => {
            Failure::input(format!("{e} `--resume` continues from the checkpoint."))
        }
        e => Failure::input(e),
    })?;
    progress.bar.finish_and_clear();
    println!(
        "Measured {} of {} selected variants ({} from the checkpoint) on {} ({}) in {:.1} min",
        summary.measured,
        summary.selected,
        summary.resumed,
        summary.arch,
        summary.cpu,
        summary.wall.as_secs_f64() / 60.0
    );
    println!(
        "Time base: {}{}",
        summary.time_base,
        summary
            .cycles_per_tsc_tick
            .map(|r| format!(", {r:.4} core cycles per TSC tick"))
            .unwrap_or_default()
    );
    if !summary.skipped.is_empty() {
        println!(
            "Not in the catalogue (catalogue: {} variants):",
            summary.catalogue
        );
        for (why, n) in &summary.skipped {
            println!("  {n:>6}  {why}");
        }
    }
    if !summary.failed.is_empty() {
        println!("Failed:");
        for (why, n) in &summary.failed {
            println!("  {n:>6}  {why}");
        }
    }
    println!("Wrote {}", summary.out.display());
    if summary.interrupted {
        println!(
            "Interrupted: the checkpoint {} is kept; run again with --resume to continue",
            summary.checkpoint.display()
        );
    }
    Ok(())
}
