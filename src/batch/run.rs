//! The parallel run: every row predicted on the rayon pool the caller installed, results in
//! input order.

use rayon::prelude::*;

use super::input::InputRow;
use super::model::LoadedModels;
use super::predict::{predict, BlockError, PredictOptions, Prediction};

/// One input row and its outcome.
#[derive(Debug)]
pub struct BlockResult {
    /// The input row (line, hex, case id, measurement).
    pub row: InputRow,
    /// The arch the row was predicted for (canonical name when loaded, else as written).
    pub arch: String,
    /// The prediction, or why there is none.
    pub outcome: Result<Prediction, BlockError>,
}

/// Predicts every row for its own arch (`row.arch`, else `default_arch`), in parallel on the
/// current rayon pool. The output has one result per row, in input order; malformed rows and
/// failing blocks are results with an error, never a panic or an early stop.
pub fn run(
    rows: Vec<InputRow>,
    models: &LoadedModels,
    default_arch: &str,
    opts: &PredictOptions,
) -> Vec<BlockResult> {
    rows.into_par_iter()
        .map(|row| {
            let requested = row.arch.clone().unwrap_or_else(|| default_arch.to_string());
            let model = models.get(&requested);
            let arch = model.as_ref().map_or(requested, |m| m.name().to_string());
            let outcome = match (&row.problem, model) {
                (Some(p), _) => Err(BlockError::Malformed(p.clone())),
                (None, Err(why)) => Err(BlockError::Arch(why)),
                (None, Ok(m)) => predict(m, &row.hex, opts),
            };
            BlockResult { row, arch, outcome }
        })
        .collect()
}
