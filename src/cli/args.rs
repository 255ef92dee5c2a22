//! clap definitions.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::arch_arg::ArchParser;

/// The examples of `--help` (also the EXAMPLES section of the man page).
pub const EXAMPLES: &str = "\
Examples:
  suaca a.out                          analyze every marked region for the default arch
  suaca -ip -pf --arch CFL a.out       with perfect front end and infinite ports, on Coffee Lake
  suaca --loop 1 --arch SNB loop.o     latency of one iteration (SUACA §2.2)
  suaca --detail 3 -b a.out            delay details of line 3 and the branch analysis
  suaca --hex 4801d84801d8 --arch SKL  a BHive-style hex block
  suaca --list-regions a.out           the marked regions of a file, or its loops
  suaca --function memchr libc.so.6    no markers: each innermost loop of a function
  suaca -arch SKL -o report.txt a.out  IACA's spelling; the report written to a file
  suaca -mcpu=skylake -iterations=100 a.out
                                       llvm-mca's spelling (LLVM CPU names work for --arch)
  suaca -cfg -dg a.out                 write controlflow.dot and dependency.dot
  suaca loop.s                         assembly text (GNU as; regions from markers or
                                       # LLVM-MCA-BEGIN/END comments, else its loops)
  cc -O2 -S -o- f.c | suaca --json -   the compiler's assembly from stdin, as JSON
  suaca --timeline=2 a.out             cycle by cycle: the first 2 iterations
  suaca --trace trace.html a.out       the same timeline as a self-contained HTML page
  suaca completions bash               a bash completion script
  suaca batch -i bhive.csv -o out.csv  predictions for many hex blocks (BHive CSV) as CSV
  suaca profile a.out                  run each marked region on this CPU (BHive's way) and
                                       print the measured cycles beside suaca's prediction
  suaca profile --hex 4801c8           the same for a hex block
  suaca profile --batch blocks.txt -o measured.csv
                                       measure many hex blocks (BHive CSV or hex lines)
  suaca data list                      which archs have data, and from where

Exit status: 0 success, 1 the analysis failed, 2 a usage or input error, 75 the host was too
busy to time (profile, measure; the same command may succeed later).";

/// suaca: static throughput analysis of x86-64 loops (an open successor of IACA/SUACA).
#[derive(Debug, Parser)]
#[command(
    name = "suaca",
    version,
    about,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// Subcommand; without one, suaca analyzes FILE.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Analysis options.
    #[command(flatten)]
    pub analyze: AnalyzeArgs,
}

/// Subcommands besides the analysis.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Manage instruction data (uops.info XML).
    Data {
        /// What to do.
        #[command(subcommand)]
        action: DataCommand,
    },
    /// Predict many blocks (BHive CSV or one hex block per line) and write CSV.
    Batch(BatchArgs),
    /// Measure the instructions of this CPU and write uops.info-style XML.
    Measure(MeasureArgs),
    /// Run marked regions on this CPU (BHive's method) and compare with suaca's prediction.
    Profile(ProfileArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `suaca measure …` (issue #5).
#[derive(Debug, Clone, Args)]
pub struct MeasureArgs {
    /// Output XML (`.xml`, or `.xml.zst` for zstd); written atomically.
    #[arg(long, value_name = "FILE", default_value = "measured.xml.zst")]
    pub out: PathBuf,
    /// Only the variants whose uops.info string matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub filter: Option<String>,
    /// Continue an interrupted run from its checkpoint (`FILE.checkpoint.jsonl`).
    #[arg(long)]
    pub resume: bool,
    /// uops.info instructions.xml whose names and operand lists the variants take (without
    /// it, names are generated in the same scheme).
    #[arg(long, value_name = "PATH")]
    pub skeleton: Option<PathBuf>,
    /// Arch name to write (default: from CPUID, e.g. ZEN4).
    #[arg(long, value_name = "ARCH")]
    pub arch: Option<String>,
    /// CPU to pin the benchmarks to (default: the last allowed CPU; on a hybrid Intel part the
    /// last allowed performance core).
    #[arg(long, value_name = "N")]
    pub cpu: Option<usize>,
    /// Also measure machine parameters (X-Ray style) and the pipeline rules the model reads
    /// (NOP slots, fused branches, vector-to-GPR moves, store commit, stack renaming, CL
    /// shifts, two-slot indexed stores, whole-instruction dispatch, failed store forwarding,
    /// taken branches), and write them as an arch TOML.
    #[arg(long, value_name = "FILE")]
    pub machine: Option<PathBuf>,
    /// Stop after N variants (a quick look).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Refused clock checks (a busy or frequency-scaling host) retried per batch, waiting
    /// 0.5 s, doubling up to 16 s, before the run stops; `--resume` continues it.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub retries: u32,
}

/// `suaca profile …` (issue #6 item 1).
#[derive(Debug, Clone, Args)]
pub struct ProfileArgs {
    /// Object file, executable or library with IACA markers, or assembly text; `-` reads
    /// standard input.
    #[arg(value_name = "FILE", required_unless_present_any = ["raw", "hex", "batch"])]
    pub file: Option<PathBuf>,
    /// Profile the raw bytes of FILE (no markers needed).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "hex", "batch"])]
    pub raw: Option<PathBuf>,
    /// Profile a hex string of machine code (as in BHive).
    #[arg(long, value_name = "HEX", conflicts_with_all = ["file", "raw", "batch"])]
    pub hex: Option<String>,
    /// Profile only region N (0-based, in file order).
    #[arg(long, value_name = "N")]
    pub region: Option<usize>,
    /// Arch of suaca's prediction, uops.info or LLVM name (default: the --setup arch, else
    /// the host's when data exists, else the embedded data's).
    #[arg(long, visible_alias = "mcpu", value_name = "ARCH", value_parser = ArchParser,
          hide_possible_values = true)]
    pub arch: Option<String>,
    /// uops.info instructions.xml (plain or .zst) to use instead of the configured data.
    #[arg(long, value_name = "PATH")]
    pub uops_xml: Option<PathBuf>,
    /// Measure many blocks: CSV in BHive layout or one hex block per line (`-` = stdin);
    /// writes CSV, one row per block (faults and blocks that cannot run are rows too).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "raw", "hex", "region"])]
    pub batch: Option<PathBuf>,
    /// Output file: the CSV of --batch, else the table or JSON (`-` = stdout); written
    /// atomically.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    /// CPU to pin the runs to (default: the last allowed CPU; on a hybrid Intel part the last
    /// allowed performance core).
    #[arg(long, value_name = "N")]
    pub cpu: Option<usize>,
    /// Child processes per block; the median of their results is kept. Up to six more run
    /// while no two agree within 2% on the fastest; if still none do, the block is refused as
    /// timed on a busy host.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub processes: u32,
    /// Timed runs of each kernel per process; the minimum is kept (at least 21).
    #[arg(long, value_name = "N", default_value_t = 51)]
    pub reps: u32,
    /// Refused clock checks (a busy or frequency-scaling host) retried per block, waiting
    /// 0.5 s, doubling up to 16 s, before the block is refused as timed on a busy host.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub retries: u32,
    /// Report SIGSEGV when the block computes an address outside the harness's buffer,
    /// instead of mapping a page there and retrying (BHive's method, the default).
    #[arg(long)]
    pub no_fault_pages: bool,
    /// The loop counter register (e.g. `rcx`) of a loop region: which register of the back
    /// branch's exit test counts (when it compares two registers stepped by constants, the
    /// other one's start is derived from it). A region is a loop when its last instruction
    /// is a conditional branch (or `loop`) back to its first; it runs N and 2N iterations
    /// with its own branch and reports (t(2N) - t(N)) / N.
    #[arg(long, value_name = "REG", conflicts_with = "batch")]
    pub counter: Option<String>,
    /// Iterations N of a loop region's shorter run (the longer runs 2N), instead of the
    /// profiler's choice (at least 2; the arrays stay in L1 through physical windows where
    /// they fit; the choice, and why some trip counts are avoided: docs/measurement.md,
    /// "Loops").
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub iterations: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// GNU assembler used for assembly text.
    #[arg(long, value_name = "PATH", default_value = "as")]
    pub assembler: PathBuf,
}

impl ProfileArgs {
    /// The single input the user selected (not `--batch`), if any.
    pub fn input(&self) -> Option<InputSelection> {
        select_input(self.hex.as_ref(), self.raw.as_ref(), self.file.as_ref())
    }
}

/// The input among `--hex`, `--raw` and FILE (`-`: standard input), in that priority.
fn select_input(
    hex: Option<&String>,
    raw: Option<&PathBuf>,
    file: Option<&PathBuf>,
) -> Option<InputSelection> {
    if let Some(h) = hex {
        Some(InputSelection::Hex(h.clone()))
    } else if let Some(r) = raw {
        Some(InputSelection::Raw(r.clone()))
    } else {
        match file {
            Some(f) if f.as_os_str() == "-" => Some(InputSelection::Stdin),
            f => f.cloned().map(InputSelection::File),
        }
    }
}

/// `suaca batch …` (issue #6 item 2).
#[derive(Debug, Clone, Args)]
pub struct BatchArgs {
    /// Arch of rows without an `arch` column, uops.info or LLVM name (default: the --setup
    /// arch, else the host's when data exists, else the embedded data's).
    #[arg(long, visible_alias = "mcpu", value_name = "ARCH", value_parser = ArchParser,
          hide_possible_values = true)]
    pub arch: Option<String>,
    /// uops.info instructions.xml (plain or .zst) to use instead of the configured data.
    #[arg(long, value_name = "PATH")]
    pub uops_xml: Option<PathBuf>,
    /// Input: CSV in BHive layout or one hex block per line (`-` = stdin).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
    /// Output CSV (`-` = stdout).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    /// Copies N of the shorter run; prediction = (cycles(2N) - cycles(N)) / N, as BHive.
    #[arg(long = "loop", value_name = "N", default_value_t = 100)]
    pub copies: u32,
    /// Worker threads (default: one per core).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Pipeline details (`--model`, `--no-macro-fusion`, ...).
    #[command(flatten)]
    pub model: super::ModelArgs,
}

/// `suaca data …`.
#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// List each available arch with its data source and instruction count.
    List,
    /// Import an instructions.xml (plain or .zst) into the user data directory.
    Import {
        /// The XML file.
        path: PathBuf,
    },
    /// Download uops.info's instructions.xml and import it.
    Fetch {
        /// Where to download from.
        #[arg(long, default_value = "https://uops.info/instructions.xml")]
        url: String,
    },
}

/// Where the code comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSelection {
    /// An object file or executable with IACA markers.
    File(PathBuf),
    /// A file of raw bytes (no markers).
    Raw(PathBuf),
    /// A hex string.
    Hex(String),
    /// Standard input (`-`): assembly text or an object file.
    Stdin,
}

/// How the report is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Tables as in the thesis.
    #[default]
    Text,
    /// One JSON document (schema: docs/suaca-report.schema.json).
    Json,
}

/// Options of the analysis (SUACA thesis §2.8, plus long forms).
#[derive(Debug, Clone, Default, Args)]
pub struct AnalyzeArgs {
    /// Object file, executable or library, or assembly text (`.s`, `.S`, `.asm`, or any text
    /// file that looks like assembly); `-` reads standard input. The regions are the code
    /// between IACA markers; without markers, each innermost loop of each function.
    #[arg(value_name = "FILE", required_unless_present_any = ["raw", "hex", "print_default", "setup"])]
    pub file: Option<PathBuf>,
    /// Analyze the raw bytes of FILE (no markers needed).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "hex"])]
    pub raw: Option<PathBuf>,
    /// Analyze a hex string of machine code (as in BHive).
    #[arg(long, value_name = "HEX", conflicts_with_all = ["file", "raw"])]
    pub hex: Option<String>,
    /// Analyze only region N (0-based, in file order).
    #[arg(long, value_name = "N")]
    pub region: Option<usize>,
    /// List the regions (marked, or the loops found without markers) with function, offsets,
    /// instruction count and source line, and exit.
    #[arg(long)]
    pub list_regions: bool,
    /// Only the loops of function NAME (symbol table name, or a demangled C++/Rust name with
    /// or without its parameters); with markers, the regions inside NAME.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// Only the region (marked, or found loop) that contains address A (hex, `0x` optional).
    #[arg(long, value_name = "A", value_parser = parse_address)]
    pub address: Option<u64>,
    /// Microarchitecture: uops.info name (SNB, SKL, CFL, ICL, ZEN4, ...) or LLVM CPU name
    /// (sandybridge, skylake, icelake-client, znver4, ...), any case; `-arch` (IACA) and
    /// `-mcpu` (llvm-mca) work too. Default: the --setup arch, else the host's when data
    /// exists, else the embedded data's.
    #[arg(long, visible_alias = "mcpu", value_name = "ARCH", value_parser = ArchParser,
          hide_possible_values = true)]
    pub arch: Option<String>,
    /// Number of iterations to simulate (1 = latency analysis of one iteration); llvm-mca's
    /// `--iterations` is the same.
    #[arg(long = "loop", visible_alias = "iterations", value_name = "N")]
    pub iterations: Option<u32>,
    /// What-if: perfect front end (`-pf`).
    #[arg(long = "perfect-frontend")]
    pub perfect_frontend: bool,
    /// What-if: infinitely usable ports (`-ip`).
    #[arg(long = "infinite-ports")]
    pub infinite_ports: bool,
    /// What-if: no dependencies (`-nd`).
    #[arg(long = "no-deps")]
    pub no_deps: bool,
    /// Pipeline details (`--model`, `--no-macro-fusion`, ...).
    #[command(flatten)]
    pub model: super::ModelArgs,
    /// Performance mode: no extra what-if runs (`-p`).
    #[arg(short = 'p', long = "performance")]
    pub performance: bool,
    /// Branch analysis of the first conditional jump (`-b`).
    #[arg(short = 'b', long = "branches")]
    pub branches: bool,
    /// Delay details of line N.
    #[arg(long, value_name = "LINE")]
    pub detail: Option<u32>,
    /// Print the iform and uops.info string of each line.
    #[arg(long)]
    pub iform: bool,
    /// Write the control-flow graph (`-cfg`) to controlflow.dot (or --cfg-out).
    #[arg(long = "cfg")]
    pub cfg: bool,
    /// Write the dependency graph (`-dg`) to dependency.dot (or --dg-out).
    #[arg(long = "dg")]
    pub dg: bool,
    /// Path of the control-flow graph file.
    #[arg(long, value_name = "PATH", default_value = "controlflow.dot")]
    pub cfg_out: PathBuf,
    /// Path of the dependency graph file.
    #[arg(long, value_name = "PATH", default_value = "dependency.dot")]
    pub dg_out: PathBuf,
    /// uops.info instructions.xml (plain or .zst) to use instead of the configured data.
    #[arg(long, value_name = "PATH")]
    pub uops_xml: Option<PathBuf>,
    /// Set the default arch and iteration count (stored in the user config directory).
    #[arg(long, num_args = 2, value_names = ["ARCH", "N"])]
    pub setup: Option<Vec<String>>,
    /// Print the default arch and iteration count.
    #[arg(long)]
    pub print_default: bool,
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Show when each instruction of the first N iterations (default 3) was loaded, waited,
    /// executed and finished (`--timeline=N`; the `=` keeps FILE from being taken as N).
    #[arg(
        long,
        value_name = "N",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "3"
    )]
    pub timeline: Option<u32>,
    /// Write the timeline as a self-contained HTML page to PATH.
    #[arg(long, value_name = "PATH")]
    pub trace: Option<PathBuf>,
    /// Write the report to FILE instead of standard output (atomically: FILE is replaced
    /// only by a complete report; `-` = standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Fit text tables to COLS columns (0: never wrap). Default: the terminal's width, or
    /// 100 when the output is not a terminal.
    #[arg(long, value_name = "COLS")]
    pub width: Option<u16>,
    /// GNU assembler used for assembly text.
    #[arg(long, value_name = "PATH", default_value = "as")]
    pub assembler: PathBuf,
    /// Notes on options of other tools that were dropped (`habits::translate`), for the
    /// JSON report's warnings; not a command-line option.
    #[arg(skip)]
    pub dropped_options: Vec<String>,
}

impl AnalyzeArgs {
    /// The input the user selected, if any.
    pub fn input(&self) -> Option<InputSelection> {
        select_input(self.hex.as_ref(), self.raw.as_ref(), self.file.as_ref())
    }

    /// The output format (`--json` or `--format`).
    pub fn output_format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.format
        }
    }
}

/// A hex address, `0x` optional (`--address`).
fn parse_address(s: &str) -> Result<u64, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    u64::from_str_radix(digits, 16).map_err(|_| format!("`{s}` is not a hex address"))
}

/// Rewrites SUACA's, IACA's and llvm-mca's single-dash words (`-pf -ip -nd -cfg -dg`,
/// `-arch`, `-mcpu`, `-iterations`) to their long forms, since clap only knows single-letter
/// short flags, and drops llvm-mca options without a meaning here (`habits::translate` also
/// returns a note for each). Everything after `--` is left alone.
pub fn rewrite_suaca_flags<I: IntoIterator<Item = std::ffi::OsString>>(
    args: I,
) -> Vec<std::ffi::OsString> {
    super::habits::translate(args).argv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        let argv = rewrite_suaca_flags(args.iter().map(Into::into));
        Cli::try_parse_from(argv).expect("parses")
    }

    #[test]
    fn suaca_flags_as_in_the_thesis() {
        let cli = parse(&["suaca", "-ip", "-pf", "--arch", "CFL", "a.out"]);
        let a = cli.analyze;
        assert!(a.infinite_ports && a.perfect_frontend && !a.no_deps);
        assert_eq!(a.arch.as_deref(), Some("CFL"));
        assert_eq!(a.input(), Some(InputSelection::File("a.out".into())));
        let cli = parse(&[
            "suaca", "-nd", "-cfg", "-dg", "-p", "-b", "--iform", "--loop", "3", "--detail", "2",
            "x",
        ]);
        let a = cli.analyze;
        assert!(a.no_deps && a.cfg && a.dg && a.performance && a.branches && a.iform);
        assert_eq!((a.iterations, a.detail), (Some(3), Some(2)));
    }

    #[test]
    fn setup_takes_two_values() {
        let cli = parse(&["suaca", "--setup", "SKL", "200"]);
        assert_eq!(cli.analyze.setup, Some(vec!["SKL".into(), "200".into()]));
        let argv = rewrite_suaca_flags(["suaca", "--setup", "SKL"].iter().map(Into::into));
        assert!(Cli::try_parse_from(argv).is_err());
    }

    #[test]
    fn subcommands_and_inputs() {
        let cli = parse(&["suaca", "data", "list"]);
        assert!(matches!(
            cli.command,
            Some(Command::Data {
                action: DataCommand::List
            })
        ));
        let cli = parse(&["suaca", "--hex", "4801d8"]);
        assert_eq!(
            cli.analyze.input(),
            Some(InputSelection::Hex("4801d8".into()))
        );
        let argv = rewrite_suaca_flags(["suaca"].iter().map(Into::into));
        assert!(Cli::try_parse_from(argv).is_err(), "an input is required");
    }

    #[test]
    fn output_and_timeline_flags() {
        let a = parse(&["suaca", "--timeline", "x.s"]).analyze;
        assert_eq!(
            (a.timeline, a.file.as_deref()),
            (Some(3), Some("x.s".as_ref()))
        );
        let a = parse(&["suaca", "--timeline=5", "--json", "-"]).analyze;
        assert_eq!(a.timeline, Some(5));
        assert_eq!(a.output_format(), OutputFormat::Json);
        assert_eq!(a.input(), Some(InputSelection::Stdin));
        let a = parse(&["suaca", "--format", "json", "x"]).analyze;
        assert_eq!(a.output_format(), OutputFormat::Json);
        assert_eq!(
            parse(&["suaca", "x"]).analyze.output_format(),
            OutputFormat::Text
        );
        assert!(matches!(
            parse(&["suaca", "completions", "zsh"]).command,
            Some(Command::Completions { .. })
        ));
    }

    #[test]
    fn profile_inputs() {
        let p = |args: &[&str]| match parse(args).command {
            Some(Command::Profile(p)) => p,
            other => panic!("{other:?}"),
        };
        let a = p(&["suaca", "profile", "a.out", "--region", "1"]);
        assert_eq!(a.input(), Some(InputSelection::File("a.out".into())));
        assert_eq!((a.region, a.processes, a.reps), (Some(1), 3, 51));
        let a = p(&["suaca", "profile", "--hex", "4801c8", "--json"]);
        assert_eq!(a.input(), Some(InputSelection::Hex("4801c8".into())));
        assert!(a.json);
        let a = p(&["suaca", "profile", "--batch", "x.csv", "-o", "y.csv"]);
        assert_eq!((a.input(), a.batch), (None, Some("x.csv".into())));
        let bad = |args: &[&str]| {
            let argv = rewrite_suaca_flags(args.iter().map(Into::into));
            assert!(Cli::try_parse_from(argv).is_err(), "{args:?}");
        };
        bad(&["suaca", "profile"]);
        bad(&["suaca", "profile", "--hex", "00", "--batch", "x"]);
        bad(&["suaca", "profile", "--batch", "x", "--region", "0"]);
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
