//! Generates the man pages in `man/` from the clap definition (`suaca::cli::Cli`):
//! `suaca.1` and one page per subcommand (`suaca-data.1`, `suaca-data-list.1`, ...).
//!
//! ```sh
//! cargo run --example gen_man            # rewrites man/*.1
//! ```
//!
//! `tests/cli/man_page.rs` includes this file and fails when a committed page is out of date.
#![forbid(unsafe_code)]

use clap::CommandFactory;
use clap_mangen::roff::{roman, Roff};
use clap_mangen::Man;

/// Environment variables suaca reads, for the ENVIRONMENT section.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "SUACA_HOME",
        "Directory for imported data, the index cache and the defaults of --setup \
         (default: the platform's user directories).",
    ),
    (
        "SUACA_UOPS_XML",
        "An instructions.xml to use when --uops-xml is not given.",
    ),
    (
        "NO_COLOR",
        "When set and not empty, text output is never coloured (it is coloured only on a \
         terminal anyway).",
    ),
];

/// Every page as (file name, roff text), in a fixed order.
pub fn pages() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = suaca::cli::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = vec![("suaca.1".to_string(), main_page(cmd.clone())?)];
    fn subpages(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let man = Man::new(sub.clone());
            let mut page = Vec::new();
            man.render(&mut page)?;
            out.push((man.get_filename(), page));
            subpages(sub, out)?;
        }
        Ok(())
    }
    subpages(&cmd, &mut out)?;
    Ok(out)
}

/// `suaca.1`: clap's sections, with the examples kept line by line, and the environment.
fn main_page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let man = Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    let mut roff = Roff::default();
    roff.control("SH", ["EXAMPLES"]);
    roff.control("nf", []);
    for line in suaca::cli::EXAMPLES.lines().skip(1) {
        roff.text([roman(line.trim_end())]);
    }
    roff.control("fi", []);
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, what) in ENVIRONMENT {
        roff.control("TP", []);
        roff.text([roman(*name)]);
        roff.text([roman(*what)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    roff.text([roman(
        "docs/json.md and docs/suaca-report.schema.json (the JSON report), README.md.",
    )]);
    roff.to_writer(&mut page)?;
    man.render_version_section(&mut page)?;
    Ok(page)
}

#[allow(dead_code)] // `tests/cli/man_page.rs` includes this file for `pages` only.
fn main() -> std::io::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    std::fs::create_dir_all(&dir)?;
    for (name, page) in pages()? {
        suaca::fsutil::write_atomic(&dir.join(&name), &page)?;
        eprintln!("wrote man/{name}");
    }
    Ok(())
}
