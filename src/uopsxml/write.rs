//! Writer for the uops.info schema (used by `suaca measure` to publish its results).
//!
//! Owns: attribute order and number formatting of what we emit.
//! Must not touch: measurement logic; the 2018 form is read but never written.
//! Facts from: the shape of uops.info's `instructions.xml` (docs/sources.md) (cpuBench measurement-attribute order, alphabetical
//! XED-to-XML attributes, minidom 2-space indent, no final newline), cpuBench
//! (`TP_*` as "%.2f"; docs/sources.md).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::read::{lat_key, LAT_ROLES};
use super::schema::{
    ArchRecord, FlagAccess, InstrRecord, LatValue, Latency, MeasureValues, Measurement,
    OperandKind, OperandRecord,
};

/// Options of [`write_instructions`].
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// `date` attribute of `<root>` (omitted when `None`; we never invent a date so output is
    /// deterministic).
    pub date: Option<String>,
}

/// Writes a whole document: `<root>`, one `<extension name=…>` per run of records with the
/// same `extension`, the records in the given order.
pub fn write_instructions<W: Write>(
    mut w: W,
    records: &[InstrRecord],
    opts: &WriteOptions,
) -> io::Result<()> {
    let mut out = String::with_capacity(1 << 16);
    out.push_str("<?xml version=\"1.0\" ?>\n<root");
    if let Some(d) = &opts.date {
        push_attr(&mut out, "date", d);
    }
    out.push('>');
    let mut current: Option<&str> = None;
    for rec in records {
        if current != Some(rec.extension.as_str()) {
            if current.is_some() {
                out.push_str("\n  </extension>");
            }
            out.push_str("\n  <extension");
            push_attr(&mut out, "name", &rec.extension);
            out.push('>');
            current = Some(&rec.extension);
        }
        write_instruction(&mut out, rec);
        if out.len() > 1 << 20 {
            w.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    if current.is_some() {
        out.push_str("\n  </extension>");
    }
    out.push_str("\n</root>");
    w.write_all(out.as_bytes())
}

/// Appends one `<instruction>` (indented 4 spaces, preceded by a newline).
pub fn write_instruction(out: &mut String, rec: &InstrRecord) {
    // XED-to-XML writes instruction attributes in alphabetical order.
    let mut attrs: BTreeMap<&str, &str> = rec
        .attrs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    for (k, v) in [
        ("asm", &rec.asm),
        ("category", &rec.category),
        ("extension", &rec.extension),
        ("iclass", &rec.iclass),
        ("iform", &rec.iform),
        ("isa-set", &rec.isa_set),
    ] {
        if !v.is_empty() {
            attrs.insert(k, v);
        }
    }
    attrs.insert("string", &rec.string);
    out.push_str("\n    <instruction");
    for (k, v) in attrs {
        push_attr(out, k, v);
    }
    if rec.operands.is_empty() && rec.archs.is_empty() {
        out.push_str("/>");
        return;
    }
    out.push('>');
    for op in &rec.operands {
        write_operand(out, op);
    }
    for a in &rec.archs {
        write_arch(out, a);
    }
    out.push_str("\n    </instruction>");
}

fn write_operand(out: &mut String, op: &OperandRecord) {
    let mut attrs: BTreeMap<String, String> = op.attrs.clone();
    let mut set = |k: &str, v: String| {
        attrs.insert(k.to_string(), v);
    };
    set("idx", op.idx.to_string());
    if let Some(n) = &op.name {
        set("name", n.clone());
    }
    if let Some(k) = &op.kind {
        set("type", kind_str(k).to_string());
    }
    for (b, k) in [
        (op.read, "r"),
        (op.write, "w"),
        (op.cond_write, "conditionalWrite"),
        (op.suppressed, "suppressed"),
    ] {
        if b {
            set(k, "1".into());
        }
    }
    if let Some(wd) = op.width {
        set("width", wd.to_string());
    }
    if let Some(x) = &op.xtype {
        set("xtype", x.clone());
    }
    for (f, acc) in &op.flags {
        set(&format!("flag_{f}"), flag_str(acc));
    }
    out.push_str("\n      <operand");
    for (k, v) in &attrs {
        push_attr(out, k, v);
    }
    let text = if op.registers.is_empty() {
        op.text.clone().unwrap_or_default()
    } else {
        op.registers.join(",")
    };
    if text.is_empty() {
        out.push_str("/>");
    } else {
        out.push('>');
        push_escaped(out, &text, false);
        out.push_str("</operand>");
    }
}

fn write_arch(out: &mut String, a: &ArchRecord) {
    out.push_str("\n      <architecture");
    push_attr(out, "name", &a.name);
    for (k, v) in &a.attrs {
        push_attr(out, k, v);
    }
    match &a.measurement {
        None => out.push_str("/>"),
        Some(m) => {
            out.push('>');
            write_measurement(out, m);
            out.push_str("\n      </architecture>");
        }
    }
}

fn write_measurement(out: &mut String, m: &Measurement) {
    out.push_str("\n        <measurement");
    push_values(out, &m.base, "");
    if let Some(v) = &m.same_reg {
        push_values(out, v, "_same_reg");
    }
    if let Some(v) = &m.indexed {
        push_values(out, v, "_indexed");
    }
    for (k, v) in &m.extra {
        push_attr(out, k, v);
    }
    if m.latencies.is_empty() {
        out.push_str("/>");
        return;
    }
    out.push('>');
    for l in &m.latencies {
        write_latency(out, l);
    }
    out.push_str("\n        </measurement>");
}

/// cpuBench order: retire slots, MITE, MS, decoders, TP_unrolled/TP_loop, uops, macro_fusible,
/// div_cycles, ports, TP_ports.
fn push_values(out: &mut String, v: &MeasureValues, sfx: &str) {
    let mut a = |k: &str, val: String| push_attr(out, &format!("{k}{sfx}"), &val);
    if let Some(x) = v.uops_retire_slots {
        a("uops_retire_slots", x.to_string());
    }
    if let Some(x) = v.uops_mite {
        a("uops_MITE", x.to_string());
    }
    if let Some(x) = v.uops_ms {
        a("uops_MS", x.to_string());
    }
    if let Some(x) = v.complex_decoder {
        a("complex_decoder", if x { "1" } else { "0" }.into());
    }
    if let Some(x) = v.available_simple_decoders {
        a("available_simple_decoders", x.to_string());
    }
    if let Some(x) = v.tp_unrolled {
        a("TP_unrolled", fmt_tp(x));
    }
    if let Some(x) = v.tp_loop {
        a("TP_loop", fmt_tp(x));
    }
    if let Some(x) = v.uops {
        a("uops", x.to_string());
    }
    if let Some(x) = &v.macro_fusible {
        a("macro_fusible", x.join(";"));
    }
    if let Some(x) = v.div_cycles {
        a("div_cycles", x.to_string());
    }
    if let Some(x) = &v.ports {
        a("ports", x.to_string());
    }
    if let Some(x) = v.tp_ports {
        a("TP_ports", fmt_tp(x));
    }
}

fn write_latency(out: &mut String, l: &Latency) {
    out.push_str("\n          <latency");
    push_attr(out, "start_op", &l.start_op.to_string());
    push_attr(out, "target_op", &l.target_op.to_string());
    let fields = [
        l.cycles,
        l.cycles_same_reg,
        l.cycles_addr,
        l.cycles_addr_index,
        l.cycles_mem,
        l.cycles_addr_same_reg,
        l.cycles_mem_same_reg,
    ];
    debug_assert_eq!(fields.len(), LAT_ROLES.len());
    for (role, f) in fields.iter().enumerate() {
        let Some(LatValue {
            min,
            max,
            upper_bound,
        }) = *f
        else {
            continue;
        };
        if min == max {
            let k = lat_key(0, role);
            push_attr(out, &k, &fmt_num(min));
            if upper_bound {
                push_attr(out, &format!("{k}_is_upper_bound"), "1");
            }
        } else {
            let k = lat_key(1, role);
            push_attr(out, &k, &fmt_num(min));
            if upper_bound {
                push_attr(out, &format!("{k}_is_upper_bound"), "1");
            }
            push_attr(out, &lat_key(2, role), &fmt_num(max));
        }
    }
    for (k, v) in &l.extra {
        push_attr(out, k, v);
    }
    out.push_str("/>");
}

fn kind_str(k: &OperandKind) -> &str {
    match k {
        OperandKind::Reg => "reg",
        OperandKind::Mem => "mem",
        OperandKind::Flags => "flags",
        OperandKind::Imm => "imm",
        OperandKind::Agen => "agen",
        OperandKind::Relbr => "relbr",
        OperandKind::Other(s) => s,
    }
}

fn flag_str(a: &FlagAccess) -> String {
    let parts: Vec<&str> = [
        (a.read, "r"),
        (a.write, "w"),
        (a.cond_write, "cw"),
        (a.undefined, "undef"),
    ]
    .iter()
    .filter(|(b, _)| *b)
    .map(|(_, s)| *s)
    .collect();
    parts.join("/")
}

/// A cycle count: integers without a fraction (`4`), others in shortest form (`4.5`).
pub(crate) fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A throughput: "%.2f" like cpuBench, unless that would lose precision.
pub(crate) fn fmt_tp(x: f64) -> String {
    let s = format!("{x:.2}");
    if s.parse::<f64>() == Ok(x) {
        s
    } else {
        format!("{x}")
    }
}

fn push_attr(out: &mut String, k: &str, v: &str) {
    out.push(' ');
    out.push_str(k);
    out.push_str("=\"");
    push_escaped(out, v, true);
    out.push('"');
}

fn push_escaped(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\n' if attr => out.push_str("&#10;"),
            '\t' if attr => out.push_str("&#9;"),
            _ => out.push(c),
        }
    }
}
