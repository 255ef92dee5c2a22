//! The `suaca` binary: parse arguments, run, map errors to exit codes
//! (0 ok, 1 analysis failed, 2 usage or input error).

fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
