//! Machine parameters in the spirit of X-Ray (docs/sources.md): clock, widths, memory ports, cache
//! latencies and window sizes, from dedicated microbenchmarks; written as an arch TOML that
//! `suaca::uarch::from_toml_str` loads (`base` = the known arch of the same name).

use serde::{Deserialize, Serialize};

/// Measured machine parameters (absent = not measured).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineParams {
    /// Core cycles per TSC tick.
    pub cycles_per_tsc_tick: Option<f64>,
    /// TSC frequency in MHz.
    pub tsc_mhz: Option<f64>,
    /// Core clock in MHz (TSC × ratio).
    pub core_mhz: Option<f64>,
    /// Zero idioms per cycle (the dispatch/rename width).
    pub dispatch_width: Option<u32>,
    /// Independent `add r, r` per cycle (integer ALUs).
    pub alu_per_cycle: Option<u32>,
    /// Independent `imul r, r` per cycle (multipliers).
    pub mul_per_cycle: Option<u32>,
    /// Independent loads per cycle.
    pub loads_per_cycle: Option<u32>,
    /// Independent stores per cycle.
    pub stores_per_cycle: Option<u32>,
    /// Load-to-use latency, L1 (pointer chasing).
    pub l1_latency: Option<u32>,
    /// Load-to-use latency, L2 (pointer chasing over 256 KiB).
    pub l2_latency: Option<u32>,
    /// Reorder buffer entries (knee of independent fillers behind a long chain).
    pub rob_size: Option<u32>,
    /// Independent register-writing µops in flight behind a stalled chain (knee): the free
    /// integer physical registers.
    pub int_prf_free: Option<u32>,
    /// Scheduler entries reachable by dependent integer µops (knee).
    pub scheduler_size: Option<u32>,
    /// Port groups whose blocker ran at 1/|group| and passed the structure check (`ALU1`,
    /// `AGU012`, `FP01`, ...).
    pub port_groups: Vec<String>,
    /// A NOP takes no dispatch slot (`front_end.nops_take_no_slot`).
    pub nops_take_no_slot: Option<bool>,
    /// A fused `dec; jne` runs on an ALU (`fusion.fused_writer_on_alu`).
    pub fused_writer_on_alu: Option<bool>,
    /// A vector-to-GPR move holds the ALUs (`scheduler.vector_to_gpr_holds_alus`).
    pub vector_to_gpr_holds_alus: Option<bool>,
    /// Two stores to one line commit in one cycle (`memory.store_line_pairs`).
    pub store_line_pairs: Option<bool>,
    /// The aligned block two stores must share to commit together
    /// (`memory.store_pair_bytes`: 32 or 64).
    pub store_pair_bytes: Option<u32>,
    /// A pushed value popped back is renamed (`memory.stack_renaming`).
    pub stack_renaming: Option<bool>,
    /// A shift by CL waits for the flags (`scheduler.cl_shifts_read_flags`).
    pub cl_shifts_read_flags: Option<bool>,
    /// An indexed store of a GPR takes two dispatch slots (`fusion.unlaminate_indexed =
    /// "indexed_integer_stores"`; no: `"never"`).
    pub indexed_integer_stores: Option<bool>,
    /// An instruction's dispatch slots go in one cycle
    /// (`scheduler.whole_instruction_dispatch`).
    pub whole_instruction_dispatch: Option<bool>,
    /// Cycles between loads that store forwarding cannot serve
    /// (`memory.store_forward_fail_cycles`).
    pub store_forward_fail_cycles: Option<u32>,
    /// Taken branches per cycle (`front_end.taken_branches_per_cycle`).
    pub taken_branches_per_cycle: Option<f64>,
    /// The readings each decided rule came from, by arch field.
    #[serde(default)]
    pub rule_evidence: std::collections::BTreeMap<String, String>,
}

/// Finds the knee of a time curve: the first `n` from which every time exceeds the plateau
/// (the median of the first quarter of points) by more than `rel`.
pub fn knee(points: &[(u32, f64)], rel: f64) -> Option<u32> {
    if points.len() < 4 {
        return None;
    }
    // Plateau: the smallest of the first three points (noise only makes times longer).
    let plateau = points[..3]
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    // The knee is where the time leaves the plateau for good (a sustained rise, not noise),
    // and the rise must continue past it (otherwise there is no knee in the scanned range).
    let above: Vec<bool> = points
        .iter()
        .map(|(_, t)| *t > plateau * (1.0 + rel))
        .collect();
    let first = (0..points.len()).find(|&i| above[i..].iter().all(|a| *a))?;
    (first + 1 < points.len()).then_some(points[first].0)
}

/// Rounds a per-cycle rate (1 / cycles-per-instruction).
pub fn rate(cycles_per_instr: f64) -> Option<u32> {
    (cycles_per_instr > 0.0).then(|| (1.0 / cycles_per_instr).round() as u32)
}

fn note(what: &str) -> String {
    format!("Approximation (ours): measured on this host by `suaca measure` ({what})")
}

/// The arch description TOML (`base` = `base_arch` so unmeasured fields are inherited).
pub fn to_toml(name: &str, base_arch: Option<&str>, m: &MachineParams) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# Written by `suaca measure` {}: measured machine parameters of this host.\n",
        env!("CARGO_PKG_VERSION")
    ));
    let mut top = Vec::new();
    let mut mem = Vec::new();
    let mut sources: Vec<(String, String)> = Vec::new();
    s.push_str(&format!("name = \"{name}\"\n"));
    s.push_str(&format!("full_name = \"{name} (measured)\"\n"));
    if let Some(b) = base_arch {
        s.push_str(&format!("base = \"{b}\"\n"));
        sources.push((
            "base".into(),
            "Approximation (ours): values not measured by `suaca measure` are inherited from the published description".into(),
        ));
    }
    if let Some(w) = m.dispatch_width {
        top.push(format!("issue_width = {w}"));
        sources.push(("issue_width".into(), note("zero idioms per cycle")));
    }
    if let Some(r) = m.rob_size {
        top.push(format!("rob_size = {r}"));
        sources.push((
            "rob_size".into(),
            note("knee of NOP fillers behind a chain of L2-latency loads"),
        ));
    }
    if let Some(r) = m.scheduler_size {
        top.push(format!("rs_size = {r}"));
        sources.push((
            "rs_size".into(),
            note("knee of chain-dependent adds behind a chain of L2-latency loads"),
        ));
    }
    if let Some(l) = m.loads_per_cycle {
        mem.push(format!("loads_per_cycle = {l}"));
        sources.push((
            "\"memory.loads_per_cycle\"".into(),
            note("independent 64-bit loads"),
        ));
    }
    if let Some(l) = m.stores_per_cycle {
        mem.push(format!("stores_per_cycle = {l}"));
        sources.push((
            "\"memory.stores_per_cycle\"".into(),
            note("independent 64-bit stores"),
        ));
    }
    if let Some(l) = m.l1_latency {
        mem.push(format!("l1_latency = {l}"));
        sources.push((
            "\"memory.l1_latency\"".into(),
            note("pointer chasing, mov rax, [rax]"),
        ));
    }
    if let Some(l) = m.l2_latency {
        mem.push(format!("l2_latency = {l}"));
        sources.push((
            "\"memory.l2_latency\"".into(),
            note("pointer chasing over 256 KiB in random line order"),
        ));
    }
    // The pipeline rules (src/measure/run/pipeline_rules.rs), by table, each with its
    // readings as the source.
    let mut tables: Vec<(&str, Vec<String>)> = vec![
        ("front_end", Vec::new()),
        ("fusion", Vec::new()),
        ("scheduler", Vec::new()),
    ];
    let flag = |v: Option<bool>| v.map(|v| v.to_string());
    let unlamination = m.indexed_integer_stores.map(|two| {
        let rule = if two {
            "indexed_integer_stores"
        } else {
            "never"
        };
        format!("\"{rule}\"")
    });
    for (table, field, value) in [
        ("front_end", "nops_take_no_slot", flag(m.nops_take_no_slot)),
        ("fusion", "fused_writer_on_alu", flag(m.fused_writer_on_alu)),
        ("fusion", "unlaminate_indexed", unlamination),
        (
            "scheduler",
            "vector_to_gpr_holds_alus",
            flag(m.vector_to_gpr_holds_alus),
        ),
        (
            "scheduler",
            "cl_shifts_read_flags",
            flag(m.cl_shifts_read_flags),
        ),
        (
            "scheduler",
            "whole_instruction_dispatch",
            flag(m.whole_instruction_dispatch),
        ),
        ("memory", "store_line_pairs", flag(m.store_line_pairs)),
        (
            "memory",
            "store_pair_bytes",
            m.store_pair_bytes.map(|b| b.to_string()),
        ),
        ("memory", "stack_renaming", flag(m.stack_renaming)),
        (
            "memory",
            "store_forward_fail_cycles",
            m.store_forward_fail_cycles.map(|c| c.to_string()),
        ),
        (
            "front_end",
            "taken_branches_per_cycle",
            m.taken_branches_per_cycle.map(|r| r.to_string()),
        ),
    ] {
        let Some(v) = value else { continue };
        let line = format!("{field} = {v}");
        match tables.iter_mut().find(|(t, _)| *t == table) {
            Some((_, lines)) => lines.push(line),
            None => mem.push(line),
        }
        let path = format!("{table}.{field}");
        let why = m.rule_evidence.get(&path).cloned().unwrap_or_default();
        sources.push((format!("\"{path}\""), note(&why)));
    }
    for t in top {
        s.push_str(&t);
        s.push('\n');
    }
    for (table, lines) in std::iter::once(("memory", mem)).chain(tables) {
        if lines.is_empty() {
            continue;
        }
        s.push_str(&format!("\n[{table}]\n"));
        for t in lines {
            s.push_str(&t);
            s.push('\n');
        }
    }
    s.push_str("\n[sources]\n");
    for (k, v) in sources {
        s.push_str(&format!("{k} = {}\n", toml::Value::String(v)));
    }
    s.push_str("\n# Not fields of the arch format (informational):\n");
    for (k, v) in [
        (
            "cycles_per_tsc_tick",
            m.cycles_per_tsc_tick.map(|x| format!("{x:.4}")),
        ),
        ("tsc_mhz", m.tsc_mhz.map(|x| format!("{x:.1}"))),
        ("core_mhz", m.core_mhz.map(|x| format!("{x:.0}"))),
        ("alu_per_cycle", m.alu_per_cycle.map(|x| x.to_string())),
        ("mul_per_cycle", m.mul_per_cycle.map(|x| x.to_string())),
        (
            "int_prf_free (knee of independent mov r, imm)",
            m.int_prf_free.map(|x| x.to_string()),
        ),
        ("port_groups", Some(m.port_groups.join(" "))),
    ] {
        if let Some(v) = v {
            s.push_str(&format!("# {k} = {v}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knee_detection() {
        let pts: Vec<(u32, f64)> = (0..20)
            .map(|i| {
                let n = 200 + i * 16;
                (
                    n,
                    if n <= 312 {
                        120.0
                    } else {
                        120.0 + (n - 312) as f64 / 6.0
                    },
                )
            })
            .collect();
        assert_eq!(knee(&pts, 0.02), Some(328));
        assert_eq!(rate(0.25), Some(4));
        assert_eq!(rate(0.334), Some(3));
    }

    #[test]
    fn toml_loads_as_arch() {
        let m = MachineParams {
            dispatch_width: Some(6),
            loads_per_cycle: Some(3),
            stores_per_cycle: Some(2),
            l1_latency: Some(4),
            l2_latency: Some(14),
            rob_size: Some(320),
            ..MachineParams::default()
        };
        let t = to_toml("ZEN4", Some("ZEN4"), &m);
        let a = crate::uarch::from_toml_str(&t).unwrap();
        assert_eq!(a.issue_width, 6);
        assert_eq!(a.rob_size, Some(320));
        assert_eq!(a.memory.l1_latency, Some(4));
        assert!(!a.ports.is_empty(), "ports inherited from the base");
    }

    #[test]
    fn measured_rules_are_written_with_their_readings() {
        let mut m = MachineParams {
            nops_take_no_slot: Some(true),
            fused_writer_on_alu: Some(false),
            vector_to_gpr_holds_alus: Some(true),
            store_line_pairs: Some(false),
            stack_renaming: Some(true),
            taken_branches_per_cycle: Some(0.93),
            cl_shifts_read_flags: Some(false),
            indexed_integer_stores: Some(true),
            whole_instruction_dispatch: Some(true),
            store_forward_fail_cycles: Some(19),
            ..MachineParams::default()
        };
        m.rule_evidence.insert(
            "memory.stack_renaming".into(),
            "push rax; pop rax 1.000".into(),
        );
        let t = to_toml("ZEN4", Some("ZEN4"), &m);
        let a = crate::uarch::from_toml_str(&t).unwrap();
        assert_eq!(a.front_end.nops_take_no_slot, Some(true));
        // Measured false overrides the base's true.
        assert_eq!(a.fusion.fused_writer_on_alu, Some(false));
        assert_eq!(a.scheduler.vector_to_gpr_holds_alus, Some(true));
        assert_eq!(a.memory.store_line_pairs, Some(false));
        assert_eq!(a.memory.stack_renaming, Some(true));
        assert_eq!(a.front_end.taken_branches_per_cycle, Some(0.93));
        assert_eq!(a.scheduler.cl_shifts_read_flags, Some(false));
        assert_eq!(
            a.fusion.unlaminate_indexed,
            Some(crate::uarch::Unlamination::IndexedIntegerStores)
        );
        assert_eq!(a.scheduler.whole_instruction_dispatch, Some(true));
        assert_eq!(a.memory.store_forward_fail_cycles, Some(19));
        assert!(a.sources["memory.stack_renaming"].contains("push rax; pop rax 1.000"));
        // Unmeasured rules are inherited.
        let plain = to_toml("ZEN4", Some("ZEN4"), &MachineParams::default());
        let b = crate::uarch::from_toml_str(&plain).unwrap();
        assert_eq!(b.fusion.fused_writer_on_alu, Some(true));
    }
}
