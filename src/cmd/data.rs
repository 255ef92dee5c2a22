//! `suaca data list|import|fetch`.

use suaca::cli::DataCommand;
use suaca::dataset;

use super::env;
use crate::Failure;

pub fn run(action: DataCommand) -> Result<(), Failure> {
    let dirs = env::dirs()?;
    match action {
        DataCommand::List => list(&dirs),
        DataCommand::Import { path } => {
            let report = dataset::import(&path, &dirs.data).map_err(Failure::input)?;
            println!("Imported into {}:", report.path.display());
            for (arch, n) in &report.archs {
                println!("  {arch:<6} {n} instructions");
            }
            Ok(())
        }
        DataCommand::Fetch { url } => Err(Failure::input(format!(
            "`suaca data fetch {url}` is not available in this build yet; download the file and use `suaca data import PATH`"
        ))),
    }
}

fn list(dirs: &env::Dirs) -> Result<(), Failure> {
    let sources = env::sources(None, dirs);
    if sources.is_empty() {
        println!("No instruction data. Import uops.info's instructions.xml with `suaca data import PATH`.");
        return Ok(());
    }
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::ASCII_MARKDOWN)
        .set_header(vec!["Arch", "Instructions", "Source"]);
    let mut seen = std::collections::BTreeSet::new();
    for s in &sources {
        let archs = dataset::available_archs(s, &dirs.cache).map_err(Failure::input)?;
        for (arch, count) in archs {
            // First hit wins: later sources for the same arch are shadowed.
            let shadowed = !seen.insert(arch.clone());
            let source = if shadowed {
                format!("{s} (shadowed)")
            } else {
                s.to_string()
            };
            t.add_row(vec![arch, count.to_string(), source]);
        }
    }
    println!("{t}");
    Ok(())
}
