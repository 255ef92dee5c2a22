//! The per-arch state a batch shares across threads: the machine and the instruction
//! database, built once per arch.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;

use crate::analysis::Machine;
use crate::dataset::{self, ArchData, DataSource};
use crate::db::InstrDb;
use crate::uarch::{self, MicroArch};

/// Everything needed to predict blocks for one arch (read-only, shared by all threads).
pub struct ArchModel {
    /// The machine as the analysis sees it (its `name` is the canonical arch name).
    pub machine: Machine,
    /// The instruction database of the arch.
    pub db: InstrDb,
    /// The strings of the forms whose data is suaca's own measurement, which a supplement
    /// added under the source (`dataset::DataSource::Supplement`).
    pub own_forms: std::collections::BTreeSet<String>,
}

impl ArchModel {
    /// Builds the model of `arch` from its instruction data.
    pub fn new(arch: &MicroArch, data: &ArchData) -> ArchModel {
        ArchModel {
            machine: Machine::of(arch),
            db: InstrDb::for_arch(data.records(), arch),
            own_forms: data
                .supplemented_records()
                .iter()
                .map(|r| r.string.clone())
                .collect(),
        }
    }

    /// Canonical arch name (`SKL`).
    pub fn name(&self) -> &str {
        &self.machine.name
    }
}

/// The result of [`load_models`].
#[derive(Default)]
pub struct LoadedModels {
    /// Models by lookup key (see [`LoadedModels::key`]).
    pub models: BTreeMap<String, ArchModel>,
    /// Archs that could not be loaded, by key, with the reason.
    pub failed: BTreeMap<String, String>,
    /// Non-fatal problems (index cache) by arch, for the caller to print
    /// (`report::warning::arch_dataset_message`).
    pub warnings: Vec<(String, crate::dataset::DatasetWarning)>,
}

impl LoadedModels {
    /// The lookup key of an arch name as users write it (`skl`, ` SKL `, `skylake`): the
    /// uops.info name of a described arch, else the name in capitals.
    pub fn key(arch: &str) -> String {
        uarch::names::canonical(arch)
            .map_or_else(|| arch.trim().to_ascii_uppercase(), str::to_string)
    }

    /// The model of `arch`, or why there is none.
    pub fn get(&self, arch: &str) -> Result<&ArchModel, String> {
        let key = Self::key(arch);
        self.models.get(&key).ok_or_else(|| {
            self.failed
                .get(&key)
                .cloned()
                .unwrap_or_else(|| format!("arch `{arch}` was not loaded"))
        })
    }
}

/// Loads the arch description and instruction data of each arch in `archs` (duplicates and
/// case variants are loaded once). Data comes through the dataset cache, so a warm load costs
/// milliseconds; the databases are built in parallel. Never fails as a whole: an arch without
/// description or data is listed in [`LoadedModels::failed`].
pub fn load_models<S: AsRef<str>>(
    archs: &[S],
    sources: &[DataSource],
    cache_dir: &Path,
) -> LoadedModels {
    let mut keys: Vec<String> = archs
        .iter()
        .map(|a| LoadedModels::key(a.as_ref()))
        .collect();
    keys.sort();
    keys.dedup();
    let mut out = LoadedModels::default();
    // Data first, one arch after the other: a cold cache is built once, under its lock.
    let mut loaded = Vec::new();
    for key in keys {
        let arch = match uarch::load(&key) {
            Ok(a) => a,
            Err(e) => {
                out.failed.insert(key, e.to_string());
                continue;
            }
        };
        match dataset::load_first(sources, &arch.name, cache_dir) {
            Ok(data) => {
                out.warnings
                    .extend(data.warnings.iter().map(|w| (arch.name.clone(), w.clone())));
                loaded.push((key, arch, data));
            }
            Err(e) => {
                out.failed.insert(key, e.to_string());
            }
        }
    }
    let models: Vec<(String, ArchModel)> = loaded
        .par_iter()
        .map(|(key, arch, data)| (key.clone(), ArchModel::new(arch, data)))
        .collect();
    // Records are checked as they are read: damage found while building is reported too.
    for (_, arch, data) in &loaded {
        if let Some(w) = data.damage() {
            out.warnings.push((arch.name.clone(), w.clone()));
        }
    }
    out.models.extend(models);
    out
}
