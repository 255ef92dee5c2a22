//! Phase 2/3 interpretation: dispatch slots from the filler, port usage from interference
//! with blockers (fitted per combination, residual kept), the fallback to the arch
//! description for variants the fit gives no port, and macro-fusion from Jcc pairs.

use std::collections::BTreeMap;

use super::super::counters::{self, Interference};
use super::super::harness::Outcome;
use super::super::plan::{jcc_family, jcc_table, Domain, Form, Role};
use super::VariantResult;
use crate::uarch::{MicroArch, Role as PortRole};

/// A blocker as the interpretation needs it: combination, ports, domain, usable.
#[derive(Clone, Debug, PartialEq)]
pub struct Usable {
    /// Combination in port notation.
    pub combo: String,
    /// Number of ports.
    pub n_ports: usize,
    /// Domain.
    pub domain: Domain,
    /// Passed the throughput and structure checks.
    pub usable: bool,
}

/// What a variant is, for the µop caps and the fallback role.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantClass {
    /// Memory accesses (a read-modify-write operand counts twice, a 64-byte one twice: the
    /// most AGU µops the variant can hold).
    pub mem_accesses: u32,
    /// Explicit memory operands read (Intel: a load µop each).
    pub loads: u32,
    /// Explicit memory operands written (Intel: a store-address and a store-data µop each).
    pub stores: u32,
    /// Integer divider.
    pub int_divide: bool,
    /// FP divide/sqrt.
    pub fp_divide: bool,
    /// Vector, MMX or mask operands.
    pub vector: bool,
    /// 512-bit operands (Zen 4 runs them as two halves on 256-bit pipes: up to two pipe µops
    /// per macro-op).
    pub wide: bool,
    /// A branch (its µop executes on a branch unit, which no blocker saturates).
    pub branch: bool,
    /// A fence or `pause` (`catalog::skip::is_fence`): the fillers and blockers cannot pass
    /// it, so none runs, its slots are taken as one and its ports come from the arch
    /// description ([`PortFallback::apply`]).
    pub fence: bool,
}

/// Phase-2 interpretation: µops per form from the fillers, ports from blocking, and the first
/// macro-fusion test.
pub fn phase2(
    roles: &[Role],
    outcomes: &[Outcome],
    instances: usize,
    dispatch_width: f64,
    blockers: &[Usable],
    class: VariantClass,
    r: &mut VariantResult,
) {
    let mut exps = Vec::new();
    let mut fuse = Vec::new();
    let mut fillers: BTreeMap<u8, (Form, f64)> = BTreeMap::new();
    for (role, out) in roles.iter().zip(outcomes) {
        if let Outcome::Fault(s) = out {
            r.faults.push(s.clone());
        }
        let Some(v) = out.value() else { continue };
        let t = v / instances.max(1) as f64;
        match role {
            Role::Filler { k, form } => {
                let m = dispatch_width * t - *k as f64;
                let e = fillers.entry(*form as u8).or_insert((*form, m));
                e.1 = e.1.min(m);
            }
            Role::Block { group, k } => {
                if let Some(b) = blockers.get(*group).filter(|b| b.usable) {
                    exps.push((b.clone(), *k as f64, t));
                }
            }
            Role::Fuse { jcc, k } => fuse.push((*jcc, dispatch_width * t - *k as f64)),
            _ => {}
        }
    }
    // Dispatch slots: the smallest estimate of each form (noise only adds time).
    for (form, m) in fillers.into_values() {
        let u = m.round().max(1.0) as u32;
        let res = Some(((m - m.round()).abs() * 100.0).round() / 100.0);
        match form {
            Form::Base => {
                r.uops = Some(u);
                r.uops_residual = res;
                r.uops_raw = Some(m);
            }
            Form::SameReg | Form::Indexed => {
                if let Some(f) = r.form_mut(form) {
                    f.uops = Some(u);
                    f.uops_residual = res;
                }
            }
        }
    }
    if !exps.is_empty() {
        let core_cap = r.uops;
        let inter: Vec<Interference> = exps
            .into_iter()
            .map(|(b, k, t)| Interference {
                cap: match b.domain {
                    Domain::Agu => Some(class.mem_accesses),
                    Domain::Fp if class.wide => core_cap.map(|u| 2 * u),
                    _ => core_cap,
                },
                combo: b.combo,
                n_ports: b.n_ports,
                k,
                cycles: t,
            })
            .collect();
        let (pu, res) = counters::infer_from_interference(&inter);
        r.ports = pu;
        r.ports_residual = Some((res * 100.0).round() / 100.0);
    }
    record_fusion(&fuse, r);
}

/// Phase-3 interpretation: the other Jcc forms of an instruction that fused with `JZ`.
pub fn phase3(
    roles: &[Role],
    outcomes: &[Outcome],
    instances: usize,
    dispatch_width: f64,
    r: &mut VariantResult,
) {
    let mut fuse = Vec::new();
    for (role, out) in roles.iter().zip(outcomes) {
        if let (Role::Fuse { jcc, k }, Some(v)) = (role, out.value()) {
            let t = v / instances.max(1) as f64;
            fuse.push((*jcc, dispatch_width * t - *k as f64));
        }
    }
    record_fusion(&fuse, r);
}

/// A pair fuses when it takes less than half a dispatch slot more than the instruction alone
/// (its whole macro-ops); the result of a measured condition holds for its family
/// ([`jcc_family`]).
fn record_fusion(pairs: &[(usize, f64)], r: &mut VariantResult) {
    let Some(uops) = r.uops else {
        return;
    };
    let alone = uops as f64;
    let table = jcc_table();
    let mut fused: Vec<usize> = r
        .macro_fusible
        .iter()
        .filter_map(|s| table.iter().position(|(n, _)| n == s))
        .collect();
    for (j, m) in pairs {
        if uops <= 2 && m - alone < 0.5 {
            fused.extend((0..table.len()).filter(|&i| jcc_family(i) == jcc_family(*j)));
        }
    }
    fused.sort_unstable();
    fused.dedup();
    r.macro_fusible = fused.into_iter().map(|j| table[j].0.to_string()).collect();
}

/// Port groups of the arch description for variants the fit gives no port: per role, the
/// arch's `default_ports` (or its ports having that role), written in its port notation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PortFallback {
    by_role: BTreeMap<String, String>,
    /// Intel's store µops (address group, data group): dispatch slots are then fused-domain
    /// µops, a micro-fused load or store one slot. `None` on AMD (slots are macro-ops, and
    /// Zen 3's description has store-data ports too).
    stores: Option<(String, String)>,
}

impl PortFallback {
    /// The fallback groups of `arch` for the roles a measured variant can need.
    pub fn from_arch(arch: &MicroArch) -> Self {
        let mut by_role = BTreeMap::new();
        for role in [
            PortRole::Alu,
            PortRole::Divider,
            PortRole::FpDivider,
            PortRole::Vector,
            PortRole::Load,
            PortRole::Branch,
        ] {
            let mask = arch
                .default_port_mask(role)
                .or_else(|| Some(arch.ports_with_role(role)).filter(|m| !m.is_empty()));
            let names: Vec<String> = mask
                .map(|m| arch.port_names(m).into_iter().map(str::to_string).collect())
                .unwrap_or_default();
            if let Some(n) = notation_for(arch, &names) {
                by_role.insert(format!("{role:?}"), n);
            }
        }
        let group = |role| {
            let names: Vec<String> = arch
                .port_names(arch.ports_with_role(role))
                .into_iter()
                .map(str::to_string)
                .collect();
            notation_for(arch, &names)
        };
        let stores = (arch.vendor == crate::uarch::Vendor::Intel)
            .then(|| group(PortRole::StoreAddress).zip(group(PortRole::StoreData)))
            .flatten();
        PortFallback { by_role, stores }
    }

    /// Whether dispatch slots count fused-domain µops (Intel), so that `uops` is the sum of
    /// the port µops and the slots are `uops_retire_slots`.
    pub fn fused_slots(&self) -> bool {
        self.stores.is_some()
    }

    /// The group for a role, e.g. `ALU0123` for `Alu`.
    pub fn group(&self, role: PortRole) -> Option<&str> {
        self.by_role.get(&format!("{role:?}")).map(String::as_str)
    }

    /// Completes `r` so that every µop has ports: a variant that runs slower than the
    /// dispatch limit (so it executes somewhere) but whose fit attributed fewer µops than its
    /// macro-ops gets the missing ones on the ports of its role (marked in `ports_default`).
    /// A fence or `pause`, for which nothing could count slots (`plan::blocking::phase2`
    /// runs no filler for it), takes one.
    pub fn apply(&self, class: VariantClass, dispatch_width: f64, r: &mut VariantResult) {
        if class.fence && r.uops.is_none() {
            r.uops = Some(1);
        }
        if let Some((sta, std)) = &self.stores {
            return self.apply_fused(class, dispatch_width, (sta, std), r);
        }
        let Some(uops) = r.uops.filter(|u| *u > 0) else {
            return;
        };
        let listed: u32 = r.ports.iter().map(|(_, n)| *n).sum();
        if listed >= uops {
            return;
        }
        if r.tp()
            .is_none_or(|t| t <= 1.15 * uops as f64 / dispatch_width)
        {
            return; // runs at the dispatch limit: no execution port (NOP, eliminated move)
        }
        let missing = uops - listed;
        // Integer work: each memory access the fit left without an address µop gets one on
        // the AGUs (a PUSH is its store's AGU µop); what remains goes to the ALUs.
        let on_agu = self.on_load_ports(r);
        let parts: Vec<(PortRole, u32)> = match execution_role(class) {
            PortRole::Alu => {
                let agu = class.mem_accesses.saturating_sub(on_agu).min(missing);
                vec![(PortRole::Load, agu), (PortRole::Alu, missing - agu)]
            }
            role => vec![(role, missing)],
        };
        for (role, n) in parts {
            if let Some(g) = self.group(role) {
                add_default(r, g, n);
            }
        }
    }

    /// The µops the fit put on the load (AGU) ports.
    fn on_load_ports(&self, r: &VariantResult) -> u32 {
        let load = self.group(PortRole::Load);
        r.ports
            .iter()
            .filter(|(c, _)| Some(c.as_str()) == load)
            .map(|(_, n)| *n)
            .sum()
    }

    /// [`PortFallback::apply`] where slots are fused-domain µops (Intel): a load µop for each
    /// memory operand read that the fit left without one, a store-address and a store-data
    /// µop for each written (no blocker holds them), and the role's ports for the slots
    /// that neither these nor the fitted µops fill (a load-op is one slot, its load
    /// micro-fused with the operation).
    fn apply_fused(
        &self,
        class: VariantClass,
        dispatch_width: f64,
        (sta, std): (&str, &str),
        r: &mut VariantResult,
    ) {
        let Some(slots) = r.uops.filter(|u| *u > 0) else {
            return;
        };
        let on_load = self.on_load_ports(r);
        let fitted: u32 = r.ports.iter().map(|(_, n)| *n).sum::<u32>() - on_load;
        if let Some(g) = self.group(PortRole::Load) {
            add_default(r, g, class.loads.saturating_sub(on_load));
        }
        add_default(r, sta, class.stores);
        add_default(r, std, class.stores);
        let covered = class.stores + fitted.max(class.loads);
        let at_dispatch_limit = r
            .tp()
            .is_none_or(|t| t <= 1.15 * slots as f64 / dispatch_width);
        if covered >= slots || at_dispatch_limit {
            return;
        }
        if let Some(g) = self.group(execution_role(class)) {
            add_default(r, g, slots - covered);
        }
    }
}

/// The role whose ports take a variant's µops that the fit left without ports (besides
/// memory µops).
fn execution_role(class: VariantClass) -> PortRole {
    if class.branch {
        PortRole::Branch
    } else if class.int_divide {
        PortRole::Divider
    } else if class.fp_divide {
        PortRole::FpDivider
    } else if class.vector {
        PortRole::Vector
    } else {
        PortRole::Alu
    }
}

/// Adds `n` µops on group `g` to a result's ports, marked as the arch description's.
fn add_default(r: &mut VariantResult, g: &str, n: u32) {
    if n == 0 {
        return;
    }
    for list in [&mut r.ports, &mut r.ports_default] {
        match list.iter_mut().find(|(c, _)| c == g) {
            Some((_, k)) => *k += n,
            None => list.push((g.to_string(), n)),
        }
    }
}

/// The port group naming exactly `names` in one of the arch's notation rules (`ALU0123`,
/// `FP1`), checked by parsing it back.
pub fn notation_for(arch: &MicroArch, names: &[String]) -> Option<String> {
    let want = arch.mask_of_names(names)?;
    if want.is_empty() {
        return None;
    }
    'rules: for rule in &arch.port_notation {
        let mut chars = Vec::new();
        for n in names {
            let Some(rest) = n.strip_prefix(&rule.port_prefix) else {
                continue 'rules;
            };
            let c = rule
                .aliases
                .iter()
                .find(|(_, v)| v.as_str() == rest)
                .map(|(k, _)| k.clone())
                .unwrap_or_else(|| rest.to_string());
            if c.chars().count() != 1 {
                continue 'rules;
            }
            chars.push(c);
        }
        chars.sort();
        let s = format!("{}{}", rule.prefix, chars.concat());
        if arch.parse_port_mask(&s) == Some(want) {
            return Some(s);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: f64) -> Outcome {
        Outcome::Cycles {
            value: v,
            spread: 0.001,
        }
    }

    fn usable(combo: &str, n: usize, domain: Domain) -> Usable {
        Usable {
            combo: combo.into(),
            n_ports: n,
            domain,
            usable: true,
        }
    }

    #[test]
    fn uops_and_ports_inference() {
        let roles = vec![
            Role::Filler {
                k: 11,
                form: Form::Base,
            },
            Role::Block { group: 0, k: 4 },
            Role::Block { group: 1, k: 4 },
        ];
        // 8 instances; per instance: filler (1 + 11)/6 = 2.0; FP01 not hit: 2.0; FP23 hit: 2.5.
        let outs = vec![c(16.0), c(16.0), c(20.0)];
        let blockers = vec![usable("FP01", 2, Domain::Fp), usable("FP23", 2, Domain::Fp)];
        let mut r = VariantResult::default();
        phase2(
            &roles,
            &outs,
            8,
            6.0,
            &blockers,
            VariantClass::default(),
            &mut r,
        );
        assert_eq!(r.uops, Some(1));
        assert_eq!(r.ports, vec![("FP23".to_string(), 1)]);
    }

    #[test]
    fn integer_ports_with_a_load() {
        // ADD r64, m64 on Zen 4: 1 macro-op; ALU0123 blocked with 8 copies: 2.25 per group;
        // ALU1 (2 copies): 2.0; AGU012 (6 copies): 2.9 (Zen slows loads next to ALU work; the
        // cap of one memory access keeps one AGU µop and the residual shows the excess).
        let roles = vec![
            Role::Filler {
                k: 10,
                form: Form::Base,
            },
            Role::Block { group: 0, k: 2 },
            Role::Block { group: 1, k: 8 },
            Role::Block { group: 2, k: 6 },
        ];
        let outs = vec![c(11.0 / 6.0), c(2.0), c(2.25), c(2.9)];
        let blockers = vec![
            usable("ALU1", 1, Domain::Int),
            usable("ALU0123", 4, Domain::Int),
            usable("AGU012", 3, Domain::Agu),
        ];
        let class = VariantClass {
            mem_accesses: 1,
            ..VariantClass::default()
        };
        let mut r = VariantResult::default();
        phase2(&roles, &outs, 1, 6.0, &blockers, class, &mut r);
        assert_eq!(r.uops, Some(1));
        assert_eq!(
            r.ports,
            vec![("AGU012".to_string(), 1), ("ALU0123".to_string(), 1)]
        );
        assert!((r.ports_residual.unwrap() - 1.7).abs() < 0.01);
    }

    #[test]
    fn fusion_against_the_dispatch_limit() {
        let mut r = VariantResult {
            uops: Some(1),
            uops_raw: Some(0.998),
            ..VariantResult::default()
        };
        // JZ (Rel8): (1 + 14)/6 per pair → m = 1.0 (fused); JB (Rel8): m = 2.0 (not fused).
        let roles = vec![
            Role::Fuse {
                jcc: super::super::super::plan::JZ_REL8,
                k: 14,
            },
            Role::Fuse { jcc: 1, k: 14 },
        ];
        phase3(&roles, &[c(2.5), c(16.0 / 6.0)], 1, 6.0, &mut r);
        assert_eq!(
            r.macro_fusible,
            ["JNZ (Rel32)", "JNZ (Rel8)", "JZ (Rel32)", "JZ (Rel8)"]
        );
    }

    #[test]
    fn fallback_uses_the_arch_description() {
        let zen4 = crate::uarch::load("ZEN4").unwrap();
        let fb = PortFallback::from_arch(&zen4);
        assert_eq!(fb.group(PortRole::Vector), Some("FP0123"));
        assert_eq!(fb.group(PortRole::FpDivider), Some("FP1"));
        let mut r = VariantResult {
            uops: Some(2),
            tp_unrolled: Some(1.0),
            ..VariantResult::default()
        };
        assert_eq!(fb.group(PortRole::Alu), Some("ALU0123"));
        assert_eq!(fb.group(PortRole::Divider), Some("ALU0"));
        assert_eq!(fb.group(PortRole::Load), Some("AGU012"));
        fb.apply(VariantClass::default(), 6.0, &mut r);
        assert_eq!(r.ports, vec![("ALU0123".to_string(), 2)]);
        assert_eq!(r.ports_default, r.ports);
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            notation_for(&zen4, &names(&["FP2", "FP3"])).as_deref(),
            Some("FP23")
        );
        assert_eq!(
            notation_for(&zen4, &names(&["ALU0", "BR1"])).as_deref(),
            Some("BR01")
        );
        // A not-taken Jcc at 2 per cycle that no ALU blocker slows: the branch pipes.
        let mut j = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(0.5),
            ..VariantResult::default()
        };
        let branch = VariantClass {
            branch: true,
            ..VariantClass::default()
        };
        fb.apply(branch, 6.0, &mut j);
        assert_eq!(j.ports, vec![("BR01".into(), 1)]);
        // At the dispatch limit (an eliminated move): no port.
        let mut m = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(0.17),
            ..VariantResult::default()
        };
        fb.apply(VariantClass::default(), 6.0, &mut m);
        assert!(m.ports.is_empty());
        // Two macro-ops at the dispatch limit (XCHG r, r is renamed): no port either.
        let mut x = VariantResult {
            uops: Some(2),
            tp_unrolled: Some(0.33),
            ..VariantResult::default()
        };
        fb.apply(VariantClass::default(), 6.0, &mut x);
        assert!(x.ports.is_empty());
        // A partial fit: 2 macro-ops, one µop found on FP23; the other goes to the vector
        // pipes of the arch description.
        let mut u = VariantResult {
            uops: Some(2),
            tp_unrolled: Some(1.0),
            ports: vec![("FP23".into(), 1)],
            ..VariantResult::default()
        };
        let vec = VariantClass {
            vector: true,
            ..VariantClass::default()
        };
        fb.apply(vec, 6.0, &mut u);
        assert_eq!(u.ports, vec![("FP23".into(), 1), ("FP0123".into(), 1)]);
        assert_eq!(u.ports_default, vec![("FP0123".into(), 1)]);
        // A PUSH: one macro-op at the store rate, nothing found by the fit: its AGU µop.
        let mut p = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(0.5),
            ..VariantResult::default()
        };
        let push = VariantClass {
            mem_accesses: 1,
            ..VariantClass::default()
        };
        fb.apply(push, 6.0, &mut p);
        assert_eq!(p.ports, vec![("AGU012".into(), 1)]);
        // A 16-bit RMW with its AGU and ALU µops found and a third missing: the ALUs.
        let mut d = VariantResult {
            uops: Some(3),
            tp_unrolled: Some(0.8),
            ports: vec![("AGU012".into(), 1), ("ALU0123".into(), 1)],
            ..VariantResult::default()
        };
        fb.apply(
            VariantClass {
                mem_accesses: 1,
                ..VariantClass::default()
            },
            6.0,
            &mut d,
        );
        assert_eq!(d.ports_default, vec![("ALU0123".into(), 1)]);
        // Applying twice changes nothing.
        let again = u.clone();
        fb.apply(vec, 6.0, &mut u);
        assert_eq!(u, again);
        // A fence: nothing counted its slots; one, on the ALUs of the arch description.
        let fence = VariantClass {
            fence: true,
            ..VariantClass::default()
        };
        let mut f = VariantResult {
            tp_unrolled: Some(58.1),
            ..VariantResult::default()
        };
        fb.apply(fence, 6.0, &mut f);
        assert_eq!(f.uops, Some(1));
        assert_eq!(f.ports, vec![("ALU0123".into(), 1)]);
        // Another variant without a slot count stays without one.
        let mut n = VariantResult {
            tp_unrolled: Some(1.0),
            ..VariantResult::default()
        };
        fb.apply(VariantClass::default(), 6.0, &mut n);
        assert_eq!(n.uops, None);
    }

    /// Intel (store-data ports in the description): slots are fused-domain µops; memory
    /// µops come from the operands, the rest from the fit or the role.
    #[test]
    fn fused_slots_on_golden_cove_ports() {
        let mtl = crate::uarch::load("MTL-P").unwrap();
        let fb = PortFallback::from_arch(&mtl);
        assert!(fb.fused_slots());
        for amd in ["ZEN3", "ZEN4"] {
            let arch = crate::uarch::load(amd).unwrap();
            assert!(!PortFallback::from_arch(&arch).fused_slots(), "{amd}");
        }
        assert_eq!(fb.group(PortRole::Load), Some("p23A"));
        assert_eq!(fb.group(PortRole::Vector), Some("p015"));
        let vector = VariantClass {
            vector: true,
            ..VariantClass::default()
        };
        // A load-op (one slot): the fit found its p5 µop but not its load.
        let mut load_op = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(1.0),
            ports: vec![("p5".into(), 1)],
            ..VariantResult::default()
        };
        let one_load = VariantClass { loads: 1, ..vector };
        fb.apply(one_load, 6.0, &mut load_op);
        assert_eq!(load_op.ports, vec![("p5".into(), 1), ("p23A".into(), 1)]);
        assert_eq!(load_op.ports_default, vec![("p23A".into(), 1)]);
        // A plain vector load (one slot, its load found): nothing more.
        let mut load = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(0.5),
            ports: vec![("p23A".into(), 1)],
            ..VariantResult::default()
        };
        fb.apply(one_load, 6.0, &mut load);
        assert_eq!(load.ports, vec![("p23A".into(), 1)]);
        // A store (one slot, no blocker holds it): store address and store data.
        let mut store = VariantResult {
            uops: Some(1),
            tp_unrolled: Some(0.5),
            ..VariantResult::default()
        };
        fb.apply(
            VariantClass {
                stores: 1,
                ..vector
            },
            6.0,
            &mut store,
        );
        let (sta, std) = fb.stores.clone().unwrap();
        assert_eq!(store.ports, vec![(sta, 1), (std, 1)]);
        // Two slots at one a cycle, the fit found one: the other on the vector ports.
        let mut two = VariantResult {
            uops: Some(2),
            tp_unrolled: Some(1.0),
            ports: vec![("p5".into(), 1)],
            ..VariantResult::default()
        };
        fb.apply(vector, 6.0, &mut two);
        assert_eq!(two.ports, vec![("p5".into(), 1), ("p015".into(), 1)]);
        // `uops` counts the port µops, the slots are `uops_retire_slots`.
        let m = super::super::to_measurement(&load_op, 6.0, true);
        assert_eq!(m.base.uops, Some(2));
        assert_eq!(m.base.uops_retire_slots, Some(1));
        let zen = super::super::to_measurement(&load_op, 6.0, false);
        assert_eq!((zen.base.uops, zen.base.uops_retire_slots), (Some(1), None));
    }
}
