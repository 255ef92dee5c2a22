//! Loading, inheritance, port-group conversion and sanity invariants of `data/arch/*.toml`.
#![forbid(unsafe_code)]

use suaca::uarch::{self, MicroArch, PortMask, Role, UarchError, Unlamination, Vendor};
use suaca::uopsxml::PortGroup;

fn arch(name: &str) -> MicroArch {
    uarch::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn group(prefix: &str, ports: &str) -> PortGroup {
    PortGroup {
        count: 1,
        prefix: prefix.to_string(),
        ports: ports.to_string(),
    }
}

fn names_of(a: &MicroArch, m: PortMask) -> Vec<&str> {
    a.port_names(m)
}

#[test]
fn every_arch_loads_under_its_own_name() {
    assert_eq!(
        uarch::names(),
        [
            "NHM", "WSM", "SNB", "IVB", "HSW", "BDW", "SKL", "SKX", "KBL", "CFL", "CLX", "ICL",
            "TGL", "RKL", "ADL-P", "MTL-P", "ZEN+", "ZEN2", "ZEN3", "ZEN4"
        ]
    );
    for name in uarch::names() {
        let a = arch(name);
        assert_eq!(a.name, *name);
        assert!(!a.full_name.is_empty() && !a.family.is_empty());
    }
}

#[test]
fn lookup_is_case_insensitive() {
    assert_eq!(arch("skl").name, "SKL");
    assert_eq!(arch("Zen+").name, "ZEN+");
    assert_eq!(arch(" adl-p ").name, "ADL-P");
}

#[test]
fn unknown_arch_lists_available_names() {
    let err = uarch::load("P4").unwrap_err();
    assert!(matches!(err, UarchError::UnknownArch { .. }));
    let msg = err.to_string();
    assert!(msg.contains("`P4`"), "{msg}");
    for name in uarch::names() {
        assert!(msg.contains(name), "{msg} lacks {name}");
    }
}

#[test]
fn sanity_invariants_hold_for_every_arch() {
    for name in uarch::names() {
        let a = arch(name);
        assert!(a.issue_width > 0, "{name}");
        assert!(!a.ports.is_empty() && a.ports.len() <= 32, "{name}");
        assert!(
            !a.ports_with_role(Role::Load).is_empty(),
            "{name}: no load port"
        );
        assert!(!a.ports_with_role(Role::Alu).is_empty(), "{name}: no ALU");
        assert!(
            !a.ports_with_role(Role::Branch).is_empty(),
            "{name}: no branch port"
        );
        let div = a
            .divider_port()
            .unwrap_or_else(|| panic!("{name}: no divider"));
        assert!(
            a.ports[div].has(Role::Alu),
            "{name}: divider not on an ALU port"
        );
        assert!(a.fp_divider_port().is_some(), "{name}: no FP divider");
        let stores = a
            .ports_with_role(Role::StoreAddress)
            .union(a.ports_with_role(Role::StoreData));
        assert!(!stores.is_empty(), "{name}: no store port");
        for w in [
            a.retire_width,
            a.rob_size,
            a.rs_size,
            a.load_buffer,
            a.store_buffer,
        ] {
            assert_ne!(w, Some(0), "{name}");
        }
        if let (Some(rob), Some(rs)) = (a.rob_size, a.rs_size) {
            assert!(rs <= rob, "{name}: RS larger than ROB");
        }
        let m = &a.memory;
        if let (Some(l), Some(ops)) = (m.loads_per_cycle, m.mem_ops_per_cycle) {
            assert!(l <= ops, "{name}");
        }
        match a.vendor {
            Vendor::Intel => {
                // Port 0 up to Rocket Lake; Golden and Redwood Cove divide integers on
                // port 1 (uops.info's DIV/IDIV records: `3*p1`), FP values on port 0.
                let golden_cove = matches!(*name, "ADL-P" | "MTL-P");
                assert_eq!(
                    a.port_name(div),
                    Some(if golden_cove { "1" } else { "0" }),
                    "{name}: Intel's integer divider"
                );
                assert_eq!(a.port_name(a.fp_divider_port().unwrap()), Some("0"));
                assert!(
                    a.default_ports.is_empty(),
                    "{name}: Intel has full port data"
                );
            }
            Vendor::Amd => {
                // Integer µops have no port data in the XML: defaults must exist.
                for r in [Role::Alu, Role::Load, Role::StoreAddress, Role::Branch] {
                    assert!(
                        a.default_port_mask(r).is_some(),
                        "{name}: no default for {r:?}"
                    );
                }
                assert!(a.issue_width >= 6, "{name}: 6 MOPs per cycle");
            }
        }
        // Scheduling queues (those feeding ports) add up to the total.
        let sum: u32 = a
            .scheduler_queues
            .iter()
            .filter(|q| !q.ports.is_empty())
            .map(|q| q.entries)
            .sum();
        if sum > 0 {
            assert_eq!(
                Some(sum),
                a.rs_size,
                "{name}: queues must add up to rs_size"
            );
        }
    }
}

#[test]
fn key_numbers_match_the_digest() {
    let snb = arch("SNB");
    assert_eq!(
        (snb.issue_width, snb.rs_size, snb.rob_size),
        (4, Some(54), Some(168))
    );
    assert_eq!(
        snb.fusion.unlaminate_indexed,
        Some(Unlamination::IndexedAlways)
    );
    let skl = arch("SKL");
    assert_eq!(
        (skl.issue_width, skl.rs_size, skl.rob_size),
        (4, Some(97), Some(224))
    );
    assert_eq!(skl.front_end.lsd, Some(false));
    assert_eq!(skl.memory.complex_addressing_limit, Some(true));
    assert_eq!(skl.memory.simple_store_max_offset, Some(2047));
    assert_eq!(skl.ports.len(), 8);
    let icl = arch("ICL");
    assert_eq!(
        (icl.issue_width, icl.rs_size, icl.rob_size),
        (5, Some(160), Some(352))
    );
    assert_eq!(icl.memory.complex_addressing_limit, Some(false));
    assert_eq!(icl.move_elimination.gpr, Some(false));
    assert_eq!(arch("HSW").rs_size, Some(60));
    assert_eq!(arch("BDW").rs_size, Some(64));
    let zen3 = arch("ZEN3");
    assert_eq!(
        (zen3.issue_width, zen3.issue_width_instructions),
        (6, Some(6))
    );
    assert_eq!(zen3.memory.loads_per_cycle, Some(3));
    assert_eq!(zen3.memory.mem_ops_per_cycle, Some(3));
    assert_eq!(arch("ZEN+").issue_width_instructions, Some(5));
}

#[test]
fn inheritance_merges_and_overrides() {
    let skl = arch("SKL");
    for child in ["KBL", "CFL"] {
        let mut c = arch(child);
        assert_eq!(c.base.as_deref(), Some("SKL"));
        c.name = skl.name.clone();
        c.full_name = skl.full_name.clone();
        c.base = None;
        c.sources.remove("base");
        assert_eq!(c, skl, "{child} must equal SKL apart from its names");
    }
    // SKX overrides one value and unsets another; CLX inherits through SKX and sets the
    // unset value again (uiCA's parameters enable the LSD on Cascade Lake).
    let skx = arch("SKX");
    assert_eq!(skx.memory.l2_latency, Some(14));
    assert_eq!(skx.front_end.lsd, None);
    assert!(!skx.sources.contains_key("front_end.lsd"));
    assert_eq!(skx.rob_size, skl.rob_size);
    assert_eq!(skx.source("rob_size"), skl.source("rob_size"));
    let clx = arch("CLX");
    assert_eq!(clx.memory.l2_latency, Some(14));
    assert_eq!(clx.front_end.lsd, Some(true));
    assert!(clx.sources.contains_key("front_end.lsd"));
    assert_eq!(clx.ports, skl.ports);
    // Arrays are replaced, tables merged.
    let zen2 = arch("ZEN2");
    assert_eq!(zen2.ports.len(), 11);
    assert_eq!(zen2.front_end.decoders, Some(4));
    assert_eq!(zen2.memory.loads_per_cycle, Some(2));
    assert_eq!(zen2.memory.mem_ops_per_cycle, Some(3));
    assert_eq!(
        names_of(&zen2, zen2.default_port_mask(Role::Load).unwrap()),
        ["AGU0", "AGU1"]
    );
    assert_eq!(
        names_of(&zen2, zen2.default_port_mask(Role::StoreAddress).unwrap()),
        ["AGU0", "AGU1", "AGU2"]
    );
    let zen4 = arch("ZEN4");
    assert_eq!(zen4.issue_width_instructions, None);
    assert_eq!(zen4.rob_size, Some(320));
    assert_eq!(zen4.ports, arch("ZEN3").ports);
    assert_eq!(arch("IVB").move_elimination.gpr, Some(true));
    assert_eq!(arch("SNB").move_elimination.gpr, Some(false));
    assert_eq!(arch("TGL").memory.l2_latency, Some(14));
    assert_eq!(arch("RKL").memory.l2_latency, Some(13));
}

#[test]
fn intel_port_groups() {
    let skl = arch("SKL");
    let alu = skl.port_mask(&group("p", "0156")).unwrap();
    assert_eq!(alu.len(), 4);
    assert_eq!(alu, skl.ports_with_role(Role::Alu));
    assert_eq!(names_of(&skl, alu), ["0", "1", "5", "6"]);
    assert_eq!(
        names_of(&skl, skl.port_mask(&group("p", "23")).unwrap()),
        ["2", "3"]
    );
    assert_eq!(skl.port_mask(&group("p", "237")).unwrap().len(), 3);
    assert_eq!(
        skl.port_mask(&group("p", "06")).unwrap(),
        PortMask(0b0100_0001)
    );
    assert_eq!(skl.port_mask(&group("p", "49")), None, "SKL has no port 9");
    assert_eq!(
        skl.port_mask(&group("FP", "0")),
        None,
        "no FP prefix on Intel"
    );
    assert_eq!(skl.port_mask(&group("p", "")), None);
    assert_eq!(
        skl.parse_port_mask("3*p015"),
        skl.port_mask(&group("p", "015"))
    );

    let icl = arch("ICL");
    let sd = icl.port_mask(&group("p", "49")).unwrap();
    assert_eq!(sd, icl.ports_with_role(Role::StoreData));
    let sta = icl.port_mask(&group("p", "78")).unwrap();
    assert_eq!(sta, icl.ports_with_role(Role::StoreAddress));
    assert_eq!(names_of(&icl, sta), ["7", "8"]);

    let snb = arch("SNB");
    assert_eq!(
        snb.port_mask(&group("p", "015")),
        Some(snb.ports_with_role(Role::Alu))
    );
    assert_eq!(snb.port_mask(&group("p", "6")), None);
}

#[test]
fn adl_p_letter_ports() {
    let adl = arch("ADL-P");
    let alu = adl.port_mask(&group("p", "0156B")).unwrap();
    assert_eq!(names_of(&adl, alu), ["0", "1", "5", "6", "11"]);
    assert_eq!(alu, adl.ports_with_role(Role::Alu));
    let loads = adl.port_mask(&group("p", "23A")).unwrap();
    assert_eq!(names_of(&adl, loads), ["2", "3", "10"]);
    assert_eq!(loads, adl.ports_with_role(Role::Load));
    assert_eq!(adl.parse_port_mask("p15B").unwrap().len(), 3);
    assert_eq!(adl.port_mask(&group("p", "C")), None);
    // ICL has no letter ports.
    assert_eq!(arch("ICL").port_mask(&group("p", "23A")), None);
}

#[test]
fn zen_fp_pipes() {
    let zen3 = arch("ZEN3");
    let m = zen3.port_mask(&group("FP", "23")).unwrap();
    assert_eq!(names_of(&zen3, m), ["FP2", "FP3"]);
    assert_eq!(
        names_of(&zen3, zen3.parse_port_mask("1*FP45").unwrap()),
        ["FP4", "FP5"]
    );
    assert_eq!(zen3.parse_port_mask("FP0123").unwrap().len(), 4);
    assert_eq!(zen3.port_mask(&group("p", "0")), None, "no p prefix on Zen");
    let zenp = arch("ZEN+");
    assert_eq!(zenp.parse_port_mask("FP013").unwrap().len(), 3);
    assert_eq!(zenp.parse_port_mask("FP45"), None, "Zen+ has four FP pipes");
    assert_eq!(
        names_of(&zen3, zen3.default_port_mask(Role::Alu).unwrap()),
        ["ALU0", "ALU1", "ALU2", "ALU3"]
    );
    assert_eq!(zen3.port_name(zen3.divider_port().unwrap()), Some("ALU0"));
    assert_eq!(zen3.port_name(zen3.fp_divider_port().unwrap()), Some("FP1"));
    assert_eq!(zenp.port_name(zenp.divider_port().unwrap()), Some("ALU2"));
}

#[test]
fn user_supplied_files() {
    let a = uarch::from_toml_str(
        r#"
        name = "MYSKL"
        full_name = "Measured Skylake"
        vendor = "intel"
        family = "Skylake"
        base = "skl"
        rob_size = 200
        [sources]
        rob_size = "measured"
        "#,
    )
    .unwrap();
    assert_eq!(a.name, "MYSKL");
    assert_eq!(a.rob_size, Some(200));
    assert_eq!(a.rs_size, Some(97));
    assert_eq!(a.source("rob_size"), Some("measured"));
    assert!(a.source("memory.l1_latency").unwrap().contains("IOM"));

    let minimal = uarch::from_toml_str(
        r#"
        name = "TOY"
        full_name = "Toy"
        vendor = "amd"
        family = "Toy"
        issue_width = 2
        [[ports]]
        name = "A"
        roles = ["alu", "load", "branch", "divider"]
        [[port_notation]]
        prefix = "p"
        aliases = { X = "A" }
        "#,
    )
    .unwrap();
    assert_eq!(minimal.rob_size, None);
    assert_eq!(minimal.parse_port_mask("pX"), Some(PortMask(1)));

    let bad_role = uarch::from_toml_str(
        "name='T'\nfull_name='T'\nvendor='intel'\nfamily='T'\nissue_width=1\n\
         [[ports]]\nname='0'\nroles=['teleport']\n[[port_notation]]\nprefix='p'\n",
    );
    assert!(matches!(bad_role, Err(UarchError::Parse { .. })));
    let no_load = uarch::from_toml_str(
        "name='T'\nfull_name='T'\nvendor='intel'\nfamily='T'\nissue_width=1\n\
         [[ports]]\nname='0'\nroles=['alu']\n[[port_notation]]\nprefix='p'\n",
    );
    assert!(matches!(no_load, Err(UarchError::Invalid { .. })));
    let bad_base = uarch::from_toml_str("name='T'\nbase='P4'\n");
    assert!(matches!(bad_base, Err(UarchError::Invalid { .. })));
    let bad_unset = uarch::from_toml_str("name='T'\nbase='SKL'\nunset=['nope']\n");
    assert!(matches!(bad_unset, Err(UarchError::Invalid { .. })));
    let zero = uarch::from_toml_str("name='T'\nbase='SKL'\nissue_width=0\n");
    assert!(matches!(zero, Err(UarchError::Invalid { .. })));
}

/// The engine packs a µop's bound port into 4 bits (15 meaning unbound) and binds ports at
/// issue only below 15 ports: an arch that binds at issue and grew a 15th port (a virtual
/// one, say) would lose its binding without a word (seen in a session-27 trial with four
/// vector-write ports on MTL-P). Every such arch stays within 14.
#[test]
fn archs_that_bind_ports_at_issue_fit_the_engines_port_field() {
    for name in uarch::names() {
        let a = arch(name);
        if a.scheduler.port_assignment == Some(uarch::PortBinding::Issue) {
            assert!(a.ports.len() <= 14, "{name}: {} ports", a.ports.len());
        }
    }
}
