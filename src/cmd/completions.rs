//! `suaca completions SHELL`: a completion script for the shell, on standard output.

use clap::CommandFactory;
use clap_complete::Shell;
use suaca::cli::Cli;

use crate::Failure;

pub fn run(shell: Shell) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "suaca", &mut out);
    Ok(())
}
