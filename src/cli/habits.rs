//! Command-line habits from other tools, translated before clap sees them: SUACA's and IACA's
//! single-dash words (`-pf`, `-cfg`, `-arch SKL`), llvm-mca's (`-mcpu=skylake`,
//! `-iterations=100`, `-timeline`), and llvm-mca options that mean nothing here
//! (`-mtriple=x86_64`, `-all-views`), which are dropped with a note rather than refused:
//! a command line copied from a llvm-mca script should run.

use std::ffi::OsString;

/// The command line after translation, and a note for each option dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Translated {
    /// What clap parses.
    pub argv: Vec<OsString>,
    /// One line per dropped option, for stderr.
    pub notes: Vec<String>,
}

/// Single-dash words and the long option they stand for (clap only knows single-letter
/// short options).
const RENAMED: &[(&str, &str)] = &[
    // SUACA (thesis §2.8).
    ("pf", "perfect-frontend"),
    ("ip", "infinite-ports"),
    ("nd", "no-deps"),
    ("cfg", "cfg"),
    ("dg", "dg"),
    // IACA.
    ("arch", "arch"),
    // llvm-mca (LLVM's option parser takes one dash or two).
    ("mcpu", "arch"),
    ("iterations", "loop"),
    ("timeline", "timeline"),
];

/// llvm-mca options without a meaning in suaca: (name, takes a value, why it is ignored).
const IGNORED: &[(&str, bool, &str)] = &[
    ("mtriple", true, "suaca analyzes x86-64 code only"),
    ("march", true, "suaca analyzes x86-64 code only"),
    ("64", false, "suaca analyzes 64-bit code only"),
    (
        "all-views",
        false,
        "suaca's report always has all its tables",
    ),
    (
        "all-stats",
        false,
        "suaca's report always has all its tables",
    ),
    (
        "bottleneck-analysis",
        false,
        "the bottleneck table is always printed",
    ),
    (
        "resource-pressure",
        false,
        "the port columns are always printed",
    ),
    (
        "instruction-info",
        false,
        "the per-line table is always printed (--iform adds more)",
    ),
];

/// Translates `args` (the program name included). Everything after `--` is left alone.
pub fn translate<I: IntoIterator<Item = OsString>>(args: I) -> Translated {
    let mut out = Translated::default();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        let Some(text) = a.to_str() else {
            out.argv.push(a);
            continue;
        };
        if text == "--" {
            out.argv.push(a);
            out.argv.extend(args.by_ref());
            break;
        }
        let (name, value) = split_option(text);
        if let Some(&(_, takes_value, why)) = IGNORED.iter().find(|(n, ..)| Some(*n) == name) {
            let mut shown = text.to_string();
            if takes_value && value.is_none() {
                if let Some(v) = args.next() {
                    shown = format!("{text} {}", v.to_string_lossy());
                }
            }
            out.notes.push(format!(
                "`{shown}` (an llvm-mca/IACA option) has no meaning here: {why}; ignored"
            ));
            continue;
        }
        let single_dash = text.starts_with('-') && !text.starts_with("--");
        let renamed = RENAMED
            .iter()
            .find(|(n, _)| single_dash && Some(*n) == name);
        let translated = match (renamed, value) {
            (Some((_, long)), None) => format!("--{long}"),
            (Some((_, long)), Some(v)) => format!("--{long}={v}"),
            // llvm-mca's `-timeline-max-iterations=N` is our `--timeline=N`.
            (None, Some(v)) if name == Some("timeline-max-iterations") => {
                format!("--timeline={v}")
            }
            _ => {
                out.argv.push(a);
                continue;
            }
        };
        out.argv.push(translated.into());
    }
    out
}

/// `-name=value` / `--name` → (`name`, value); `None` for a word that is not an option.
fn split_option(text: &str) -> (Option<&str>, Option<&str>) {
    let Some(body) = text
        .strip_prefix("--")
        .or_else(|| text.strip_prefix('-'))
        .filter(|b| !b.is_empty())
    else {
        return (None, None);
    };
    match body.split_once('=') {
        Some((n, v)) => (Some(n), Some(v)),
        None => (Some(body), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let t = translate(args.iter().map(Into::into));
        let argv = t
            .argv
            .into_iter()
            .map(|a| a.into_string().expect("utf-8"))
            .collect();
        (argv, t.notes)
    }

    #[test]
    fn other_tools_words_become_ours() {
        let (argv, notes) = run(&[
            "suaca",
            "-arch",
            "SKL",
            "-mcpu=skylake",
            "-iterations=5",
            "-iterations",
            "6",
            "-timeline",
            "--timeline-max-iterations=2",
            "-pf",
            "f.o",
        ]);
        assert_eq!(
            argv,
            [
                "suaca",
                "--arch",
                "SKL",
                "--arch=skylake",
                "--loop=5",
                "--loop",
                "6",
                "--timeline",
                "--timeline=2",
                "--perfect-frontend",
                "f.o"
            ]
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn meaningless_options_are_dropped_with_a_note() {
        let (argv, notes) = run(&[
            "suaca",
            "-mtriple",
            "x86_64-unknown-linux-gnu",
            "--march=x86-64",
            "-all-views",
            "f.s",
        ]);
        assert_eq!(argv, ["suaca", "f.s"]);
        assert_eq!(notes.len(), 3);
        assert!(
            notes[0].contains("-mtriple x86_64-unknown-linux-gnu"),
            "{notes:?}"
        );
    }

    #[test]
    fn after_double_dash_nothing_changes() {
        let (argv, _) = run(&["suaca", "--", "-arch", "-pf", "-all-views"]);
        assert_eq!(argv, ["suaca", "--", "-arch", "-pf", "-all-views"]);
        // Our own long options and single letters are untouched.
        let (argv, _) = run(&["suaca", "--loop", "3", "-p", "-o", "x", "-"]);
        assert_eq!(argv, ["suaca", "--loop", "3", "-p", "-o", "x", "-"]);
    }
}
