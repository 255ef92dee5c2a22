//! The `suaca` binary: parse arguments, run, map errors to exit codes
//! (0 ok, 1 analysis failed, 2 usage or input error).
#![forbid(unsafe_code)]

mod cmd;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use suaca::cli::{translate, Cli, Command};

/// mimalloc: `suaca batch` allocates small buffers per block on every thread, where glibc's
/// allocator took about 16% of the time (scripts/batch_speed.sh; CHANGELOG).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// An error with the exit code it maps to.
pub struct Failure {
    /// 1 = analysis failed, 2 = usage or input error, 75 = the host was too busy to time.
    pub code: u8,
    /// One line (or a few) for stderr.
    pub message: String,
}

impl Failure {
    /// A usage or input error (exit code 2).
    pub fn input(message: impl std::fmt::Display) -> Self {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }

    /// An analysis failure (exit code 1).
    pub fn analysis(message: impl std::fmt::Display) -> Self {
        Failure {
            code: 1,
            message: message.to_string(),
        }
    }

    /// A timing refused because the host was busy (exit code 75, sysexits' EX_TEMPFAIL):
    /// the same command may succeed later, which a script can retry on.
    pub fn busy(message: impl std::fmt::Display) -> Self {
        Failure {
            code: 75,
            message: message.to_string(),
        }
    }
}

fn main() -> ExitCode {
    let translated = translate(std::env::args_os());
    let argv = translated.argv;
    // In JSON mode errors are JSON too, even when the command line does not parse.
    let json = cmd::output::wants_json(&argv);
    if !json {
        for note in &translated.notes {
            eprintln!("suaca: note: {note}");
        }
    }
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let rendered = e.render().to_string();
            let message = rendered.trim().trim_start_matches("error: ");
            eprintln!("{}", cmd::output::json_error(message, 2));
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version are not errors.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Some(Command::Data { action }) => cmd::data::run(action),
        Some(Command::Batch(args)) => cmd::batch::run(&args),
        Some(Command::Measure(args)) => cmd::measure::run(&args),
        Some(Command::Profile(args)) => cmd::profile::run(&args),
        Some(Command::Completions { shell }) => cmd::completions::run(shell),
        None => {
            let mut args = cli.analyze;
            args.dropped_options = translated.notes;
            cmd::analyze::run(&args)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let _ = std::io::stdout().flush();
            if json {
                eprintln!("{}", cmd::output::json_error(&f.message, f.code));
            } else {
                eprintln!("suaca: error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
