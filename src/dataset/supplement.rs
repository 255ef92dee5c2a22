//! Our own measurements under a data source: the forms the source lacks for an arch, taken
//! from a `DataSource::Supplement` (`suaca measure` output compiled into the binary).
//!
//! uops.info measured Meteor Lake's client parts, which have no AVX-512; code compiled for a
//! server core of the same design uses it. A supplement adds only strings the source does
//! not have: it never overrides a measurement of the source.

use std::path::Path;

use super::{load_arch, ArchData, DataSource, DatasetWarning, KeyKind};
use crate::uopsxml::InstrRecord;

impl ArchData {
    /// The record of `string` when a supplement added it (the source itself lacks it).
    pub fn supplemented(&self, string: &str) -> Option<&InstrRecord> {
        self.supplemented_records()
            .iter()
            .find(|r| r.string == string)
    }

    /// Whether the source has a record with this string (reads no record).
    fn has_string(&self, string: &str) -> bool {
        self.table(KeyKind::String)
            .is_some_and(|t| t.ids(string).next().is_some())
    }

    /// The records a supplement added, in its order (empty without one).
    pub fn supplemented_records(&self) -> &[InstrRecord] {
        &self.filled
    }
}

/// `data` with the records of the first supplement for its arch whose strings it lacks.
/// A supplement that cannot be read is a warning, not an error: the source alone still
/// describes the arch as well as it did.
pub(super) fn fill(mut data: ArchData, supplements: &[&DataSource], cache_dir: &Path) -> ArchData {
    let Some(&source) = supplements
        .iter()
        .find(|s| matches!(s, DataSource::Supplement(e) if e.name == data.arch))
    else {
        return data;
    };
    let extra = match load_arch(source, &data.arch, cache_dir) {
        Ok(extra) => extra,
        Err(e) => {
            data.warnings.push(DatasetWarning::SupplementUnread {
                source: source.to_string(),
                reason: e.to_string(),
            });
            return data;
        }
    };
    let records: Vec<InstrRecord> = extra
        .records()
        .filter(|r| !data.has_string(&r.string))
        .cloned()
        .collect();
    data.warnings.extend(extra.warnings);
    data.filled = records;
    data
}
