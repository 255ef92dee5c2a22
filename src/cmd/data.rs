//! `suaca data list|import|fetch`.

use suaca::cli::DataCommand;
use suaca::dataset::{self, DataSource};
use suaca::uarch::names;

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
        DataCommand::Fetch { url } => super::fetch::fetch(&url, &dirs),
    }
}

fn list(dirs: &env::Dirs) -> Result<(), Failure> {
    let sources = env::sources(None, dirs);
    if sources.is_empty() {
        println!("No instruction data.\n{}.", capitalized(env::DATA_HINT));
        return Ok(());
    }
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::ASCII_MARKDOWN)
        .set_header(vec!["Arch", "LLVM name", "Instructions", "Source"]);
    let mut seen = std::collections::BTreeSet::new();
    // Archs with data but no description: `--arch` refuses them, so they are not offered.
    let mut undescribed = std::collections::BTreeSet::new();
    // A supplement is no source: it only fills in under the one that has its arch.
    let mut supplements = Vec::new();
    for s in &sources {
        let archs = dataset::available_archs(s, &dirs.cache).map_err(Failure::input)?;
        for (arch, count) in archs {
            if let DataSource::Supplement(_) = s {
                supplements.push(format!("{arch} {count} forms"));
                continue;
            }
            let Some(named) = names::lookup(&arch) else {
                undescribed.insert(arch);
                continue;
            };
            // First hit wins: later sources for the same arch are shadowed.
            let source = if seen.insert(arch.clone()) {
                s.to_string()
            } else {
                format!("{s} (shadowed)")
            };
            t.add_row(vec![arch, named.llvm.join(", "), count.to_string(), source]);
        }
    }
    println!("{t}");
    if !supplements.is_empty() {
        println!(
            "suaca's own measurements fill forms the source of the arch lacks: {}",
            supplements.join(", ")
        );
    }
    if !undescribed.is_empty() {
        let list: Vec<String> = undescribed.into_iter().collect();
        println!(
            "Not usable with --arch (data, but no pipeline description in suaca): {}",
            list.join(", ")
        );
    }
    Ok(())
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
