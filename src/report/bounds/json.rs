//! The bottleneck table in the JSON report: the facts' words as `detail` and `inputs`
//! (`name`/`value` strings as printed), so JSON and text say the same.

use serde::{Serialize, Serializer};

use super::words;
use crate::bounds::{BoundKind, BoundRow, Bounds, Chain, PortLoad, RowState};

/// One named input (`fused µops` = `14`).
#[derive(Serialize)]
struct Input<'a> {
    name: &'a str,
    value: String,
}

/// A row as the schema's `bound_row`.
#[derive(Serialize)]
struct Row<'a> {
    kind: BoundKind,
    state: RowState,
    cycles: Option<f64>,
    binds: bool,
    inputs: Vec<Input<'a>>,
    detail: String,
    left_out: &'a [usize],
}

/// The table as the schema's `bounds`.
#[derive(Serialize)]
struct Table<'a> {
    rows: Vec<Row<'a>>,
    predicted: Option<f64>,
    bottleneck: Option<BoundKind>,
    port_loads: &'a [PortLoad],
    critical_ports: &'a [String],
    chain: &'a Option<Chain>,
}

fn row(r: &BoundRow) -> Row<'_> {
    let w = words(r);
    Row {
        kind: r.kind,
        state: r.state,
        cycles: r.cycles,
        binds: r.binds,
        inputs: w
            .inputs
            .into_iter()
            .map(|(name, value)| Input { name, value })
            .collect(),
        detail: w.detail,
        left_out: &r.left_out,
    }
}

/// Serializes `bounds` in the report's format (`#[serde(serialize_with)]` of the region).
pub fn serialize<S: Serializer>(bounds: &Bounds, s: S) -> Result<S::Ok, S::Error> {
    Table {
        rows: bounds.rows.iter().map(row).collect(),
        predicted: bounds.predicted,
        bottleneck: bounds.bottleneck,
        port_loads: &bounds.port_loads,
        critical_ports: &bounds.critical_ports,
        chain: &bounds.chain,
    }
    .serialize(s)
}
