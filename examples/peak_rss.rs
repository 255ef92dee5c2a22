//! Runs a command and prints its peak resident set size and wall time, like `/usr/bin/time
//! -f %M` but without needing GNU time: `getrusage(RUSAGE_CHILDREN)` after the only child
//! this process has. The command's stdout is discarded, its stderr kept. Exits with the
//! command's status. Used by `scripts/rss.sh`:
//!
//! ```sh
//! cargo run --release --example peak_rss -- target/release/suaca --hex 4801d8
//! ```
#![forbid(unsafe_code)]

use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use nix::sys::resource::{getrusage, UsageWho};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(program) = args.next() else {
        eprintln!("usage: peak_rss COMMAND [ARGS...]");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let status = match Command::new(&program)
        .args(args)
        .stdout(Stdio::null())
        .status()
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("peak_rss: cannot run {}: {e}", program.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let wall = start.elapsed();
    let kb = getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0, |u| u.max_rss());
    println!(
        "peak RSS {:7.1} MB   wall {:7.2} s{}",
        kb as f64 / 1024.0,
        wall.as_secs_f64(),
        if status.success() { "" } else { "   (failed)" }
    );
    if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
