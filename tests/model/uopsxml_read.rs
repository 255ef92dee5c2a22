//! Reader tests on the hand-written fixtures in `testdata/xml/` (no `../shared` needed).
#![forbid(unsafe_code)]

use std::path::PathBuf;

use suaca::uopsxml::{
    list_archs, open, read_file, read_instructions, ArchFilter, FlagAccess, InstrRecord, LatValue,
    OperandKind, XmlError,
};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/xml")
        .join(name)
}

fn basic() -> Vec<InstrRecord> {
    read_file(&fixture("basic.xml"), &ArchFilter::All).unwrap()
}

fn get<'a>(recs: &'a [InstrRecord], s: &str) -> &'a InstrRecord {
    recs.iter().find(|r| r.string == s).unwrap()
}

#[test]
fn reads_instructions_under_extensions() {
    let recs = basic();
    let strings: Vec<_> = recs.iter().map(|r| r.string.as_str()).collect();
    assert_eq!(
        strings,
        [
            "ADD_01 (R64, R64)",
            "CMP_39 (R64, R64)",
            "XOR (R32, R32)",
            "DIV (R64)",
            "LEAVE",
            "VADDSD (XMM, XMM, M64)"
        ]
    );
    let add = get(&recs, "ADD_01 (R64, R64)");
    assert_eq!(add.iform, "ADD_GPRv_GPRv_01");
    assert_eq!(add.isa_set, "I86");
    assert_eq!(add.attr("eosz"), Some("3"));
    let v = get(&recs, "VADDSD (XMM, XMM, M64)");
    assert_eq!(v.extension, "AVX");
    assert_eq!(v.attr("note"), Some("a <b> & \"c\""), "entities unescaped");
}

#[test]
fn zstd_detected_by_magic_not_extension() {
    let plain = basic();
    let z = read_file(&fixture("basic.xml.zst"), &ArchFilter::All).unwrap();
    assert_eq!(plain, z);
    // The same zstd bytes under a `.xml` name, and plain bytes under `.zst`.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("really-zstd.xml");
    std::fs::copy(fixture("basic.xml.zst"), &a).unwrap();
    let b = dir.path().join("really-plain.xml.zst");
    std::fs::copy(fixture("basic.xml"), &b).unwrap();
    assert_eq!(read_file(&a, &ArchFilter::All).unwrap(), plain);
    assert_eq!(read_file(&b, &ArchFilter::All).unwrap(), plain);
}

#[test]
fn operands() {
    let recs = basic();
    let add = get(&recs, "ADD_01 (R64, R64)");
    assert_eq!(add.operands.len(), 3);
    let r0 = &add.operands[0];
    assert_eq!(r0.idx, 1);
    assert_eq!(r0.name.as_deref(), Some("REG0"));
    assert_eq!(r0.kind, Some(OperandKind::Reg));
    assert!(r0.read && r0.write && !r0.suppressed);
    assert_eq!(r0.width, Some(64));
    assert_eq!(r0.registers, ["RAX", "RCX", "RDX"]);
    assert_eq!(r0.xtype, None);
    let fl = &add.operands[2];
    assert_eq!(fl.kind, Some(OperandKind::Flags));
    assert!(fl.suppressed && fl.write && !fl.read);
    let f = |n: &str| fl.flags[n];
    assert_eq!(
        f("CF"),
        FlagAccess {
            read: true,
            write: true,
            ..Default::default()
        }
    );
    assert_eq!(
        f("OF"),
        FlagAccess {
            cond_write: true,
            ..Default::default()
        }
    );
    assert_eq!(
        f("PF"),
        FlagAccess {
            undefined: true,
            ..Default::default()
        }
    );
    assert_eq!(
        f("SF"),
        FlagAccess {
            read: true,
            cond_write: true,
            ..Default::default()
        }
    );
    let v = get(&recs, "VADDSD (XMM, XMM, M64)");
    assert_eq!(v.operands[2].kind, Some(OperandKind::Mem));
    assert_eq!(
        v.operands[2].attr_or_none("memory-prefix"),
        Some("qword ptr")
    );
    assert_eq!(v.operands[3].kind, Some(OperandKind::Imm));
    assert_eq!(v.operands[3].text.as_deref(), Some("1"));
    assert!(v.operands[3].registers.is_empty());
}

trait AttrOrNone {
    fn attr_or_none(&self, k: &str) -> Option<&str>;
}
impl AttrOrNone for suaca::uopsxml::OperandRecord {
    fn attr_or_none(&self, k: &str) -> Option<&str> {
        self.attrs.get(k).map(String::as_str)
    }
}

#[test]
fn unknown_elements_skipped_unknown_attributes_kept() {
    let recs = basic();
    let add = get(&recs, "ADD_01 (R64, R64)");
    let names: Vec<_> = add.archs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["SKL", "ZEN3", "HSW"]);
    // HSW has only <IACA>: an arch node without measurement.
    assert!(add.arch("HSW").unwrap().measurement.is_none());
    let m = add.arch("SKL").unwrap().measurement.as_ref().unwrap();
    assert_eq!(m.extra.get("ports_inferred").map(String::as_str), Some("1"));
    assert_eq!(m.latencies.len(), 3);
}

#[test]
fn absent_is_none_not_zero() {
    let recs = basic();
    let add = get(&recs, "ADD_01 (R64, R64)");
    let zen = &add.arch("ZEN3").unwrap().measurement.as_ref().unwrap().base;
    assert_eq!(zen.uops, Some(1));
    assert_eq!(zen.uops_retire_slots, None);
    assert_eq!(zen.uops_mite, None);
    assert_eq!(zen.uops_ms, None);
    assert_eq!(zen.ports, None);
    assert_eq!(zen.tp_ports, None);
    assert_eq!(zen.tp_unrolled, None);
    assert_eq!(zen.div_cycles, None);
    assert_eq!(zen.complex_decoder, None);
    let skl = &add.arch("SKL").unwrap().measurement.as_ref().unwrap();
    assert_eq!(skl.base.uops_ms, Some(0), "an explicit 0 stays 0");
    assert!(skl.same_reg.is_none() && skl.indexed.is_none());
    let lat = &skl.latencies[0];
    assert_eq!(lat.cycles, Some(LatValue::exact(1.0)));
    assert_eq!(lat.cycles_addr, None);
    assert_eq!(lat.cycles_mem, None);
    assert_eq!(lat.cycles_same_reg, None);
}

#[test]
fn same_reg_and_indexed_variants() {
    let recs = basic();
    let xor = get(&recs, "XOR (R32, R32)");
    let m = xor.arch("SKL").unwrap().measurement.as_ref().unwrap();
    let s = m.same_reg.as_ref().unwrap();
    assert_eq!(s.uops, Some(0));
    assert_eq!(s.uops_retire_slots, Some(1));
    assert_eq!(s.ports.as_ref().unwrap().groups.len(), 0);
    assert_eq!(s.tp_ports, Some(0.0));
    assert_eq!(m.latencies[0].cycles_same_reg, Some(LatValue::exact(0.0)));
    let v = get(&recs, "VADDSD (XMM, XMM, M64)");
    let m = v.arch("SKL").unwrap().measurement.as_ref().unwrap();
    let ix = m.indexed.as_ref().unwrap();
    assert_eq!(ix.uops_retire_slots, Some(2));
    assert_eq!(ix.ports.as_ref().unwrap().to_string(), "1*p01+1*p23");
    assert!(m.same_reg.is_none());
}

#[test]
fn latency_attribute_variants() {
    let recs = basic();
    let v = get(&recs, "VADDSD (XMM, XMM, M64)");
    let m = v.arch("SKL").unwrap().measurement.as_ref().unwrap();
    let l = &m.latencies[1];
    assert_eq!((l.start_op, l.target_op), (3, 1));
    assert_eq!(l.cycles, None);
    assert_eq!(l.cycles_addr, Some(LatValue::exact(11.0)));
    assert_eq!(l.cycles_addr_index, Some(LatValue::exact(12.0)));
    assert_eq!(l.cycles_mem, Some(LatValue::exact(8.0)));
    assert_eq!(l.cycles_addr_same_reg, Some(LatValue::exact(10.0)));
    assert_eq!(l.cycles_mem_same_reg, Some(LatValue::exact(7.0)));
    let zen = v.arch("ZEN3").unwrap().measurement.as_ref().unwrap();
    assert_eq!(zen.latencies[0].cycles, Some(LatValue::exact(3.5)));

    let div = get(&recs, "DIV (R64)");
    let m = div.arch("SKL").unwrap().measurement.as_ref().unwrap();
    assert_eq!(
        m.latencies[0].cycles,
        Some(LatValue {
            min: 30.0,
            max: 40.0,
            upper_bound: true
        })
    );
    assert_eq!(
        m.latencies[1].cycles,
        Some(LatValue {
            min: 35.0,
            max: 35.0,
            upper_bound: true
        })
    );
    assert!(m.latencies[0].extra.is_empty());
    let b = &m.base;
    assert_eq!(b.tp_unrolled, Some(20.0));
    assert_eq!(b.tp_loop, Some(19.5));
    assert_eq!(b.div_cycles, Some(6));
    assert_eq!(b.complex_decoder, Some(true));
    assert_eq!(b.available_simple_decoders, Some(0));
    assert_eq!(b.ports.as_ref().unwrap().total_uops(), 30);
}

#[test]
fn port_prefixes_from_file() {
    let recs = basic();
    let div = get(&recs, "DIV (R64)");
    let p = |a: &str| {
        div.arch(a)
            .unwrap()
            .measurement
            .as_ref()
            .unwrap()
            .base
            .ports
            .as_ref()
            .unwrap()
            .to_string()
    };
    assert_eq!(p("MTL-P"), "1*p0156B+1*p23A");
    assert_eq!(p("ARL-P"), "1*ALU+1*V01");
    let cmp = get(&recs, "CMP_39 (R64, R64)");
    let m = cmp.arch("SKL").unwrap().measurement.as_ref().unwrap();
    assert_eq!(
        m.base.macro_fusible.as_deref(),
        Some(&["JNZ (Rel8)".to_string(), "JZ (Rel8)".to_string()][..])
    );
}

#[test]
fn filter_keeps_wanted_archs_only() {
    let recs = read_file(&fixture("basic.xml"), &ArchFilter::only(["ZEN3"])).unwrap();
    let strings: Vec<_> = recs.iter().map(|r| r.string.as_str()).collect();
    assert_eq!(strings, ["ADD_01 (R64, R64)", "VADDSD (XMM, XMM, M64)"]);
    assert!(recs
        .iter()
        .all(|r| r.archs.len() == 1 && r.archs[0].name == "ZEN3"));
    // An arch with only an IACA node does not keep an instruction.
    assert!(read_file(&fixture("basic.xml"), &ArchFilter::only(["HSW"]))
        .unwrap()
        .is_empty());
}

#[test]
fn list_archs_counts_measured_instructions() {
    let path = fixture("basic.xml.zst");
    let counts = list_archs(open(&path).unwrap(), "basic").unwrap();
    let v: Vec<_> = counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(v, [("ARL-P", 1), ("MTL-P", 1), ("SKL", 5), ("ZEN3", 2)]);
}

#[test]
fn old_2018_form() {
    let recs = read_file(&fixture("old2018.xml"), &ArchFilter::All).unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r.operands[2].kind, Some(OperandKind::Flags));
    assert_eq!(r.operands[2].text.as_deref(), Some("OF"));
    let m = r.arch("NHM").unwrap().measurement.as_ref().unwrap();
    assert_eq!(m.base.uops, Some(5));
    assert_eq!(m.base.div_cycles, Some(3));
    assert_eq!(
        m.base.ports.as_ref().unwrap().to_string(),
        "2*p15+1*p2+1*p3+1*p4"
    );
    assert!(m.extra.is_empty());
    assert_eq!((m.latencies[0].start_op, m.latencies[0].target_op), (1, 3));
    assert_eq!(m.latencies[0].cycles, Some(LatValue::exact(19.0)));
    assert_eq!(m.latencies[1].target_op, 4);
}

// ---- error cases ----

fn read_str(s: &str) -> Result<Vec<InstrRecord>, XmlError> {
    read_instructions(s.as_bytes(), &ArchFilter::All)
}

const GOOD_HEAD: &str =
    "<root>\n<extension name=\"BASE\">\n<instruction string=\"A\" iform=\"A\">\n";

#[test]
fn error_missing_file() {
    let e = read_file(&fixture("does-not-exist.xml"), &ArchFilter::All).unwrap_err();
    assert!(matches!(e, XmlError::Open { .. }));
    assert!(e.to_string().contains("does-not-exist.xml"), "{e}");
}

#[test]
fn error_unreadable_file() {
    // A directory cannot be read as a file.
    let dir = tempfile::tempdir().unwrap();
    let e = read_file(dir.path(), &ArchFilter::All).unwrap_err();
    assert!(
        e.to_string().contains(&dir.path().display().to_string()),
        "{e}"
    );
}

#[test]
fn error_not_xml() {
    for s in [
        "",
        "hello world",
        "\u{0}\u{1}binary\u{2}",
        "{\"json\": true}",
    ] {
        let e = read_str(s).unwrap_err();
        assert!(matches!(e, XmlError::NotXml { .. }), "{s:?}: {e:?}");
        assert!(e.to_string().contains("not an XML document"), "{e}");
    }
}

#[test]
fn error_truncated() {
    let full = std::fs::read_to_string(fixture("basic.xml")).unwrap();
    for cut in [
        full.len() / 3,
        full.len() / 2,
        full.len() - 10,
        full.len() - 4,
        full.len() - 8,
    ] {
        let e = read_str(&full[..cut]).unwrap_err();
        assert!(
            matches!(e, XmlError::Truncated { .. }),
            "cut at {cut}: {e:?}"
        );
        let msg = e.to_string();
        assert!(msg.contains("truncated") && msg.contains("line "), "{msg}");
    }
    let e = read_str(&format!("{GOOD_HEAD}<operand idx=\"1\" type=\"reg\">RAX")).unwrap_err();
    match e {
        XmlError::Truncated { open, opened, .. } => {
            assert_eq!(open, "root/extension/instruction/operand");
            assert_eq!(opened.line, 4);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn error_truncated_zstd() {
    let z = std::fs::read(fixture("basic.xml.zst")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cut.xml.zst");
    std::fs::write(&p, &z[..z.len() / 2]).unwrap();
    let e = read_file(&p, &ArchFilter::All).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("cut.xml.zst"), "{msg}");
    assert!(
        matches!(e, XmlError::Io { .. } | XmlError::Truncated { .. }),
        "{e:?}"
    );
}

#[test]
fn error_other_schema() {
    let e = read_str("<?xml version=\"1.0\"?>\n<project><instruction string=\"x\"/></project>")
        .unwrap_err();
    assert!(matches!(e, XmlError::WrongSchema { .. }), "{e:?}");
    assert!(e.to_string().contains("<project>"), "{e}");
    let e = read_str("<root><extension name=\"X\"/></root>").unwrap_err();
    assert!(e.to_string().contains("no <instruction>"), "{e}");
}

#[test]
fn error_malformed_xml() {
    let e = read_str(&format!(
        "{GOOD_HEAD}</operand></instruction></extension></root>"
    ))
    .unwrap_err();
    assert!(matches!(e, XmlError::Syntax { .. }), "{e:?}");
    let e = read_str(&format!(
        "{GOOD_HEAD}<operand idx=1/></instruction></extension></root>"
    ))
    .unwrap_err();
    assert!(matches!(e, XmlError::Syntax { .. }), "{e:?}");
}

#[test]
fn error_malformed_attribute_values() {
    let arch = |m: &str| {
        format!(
            "{GOOD_HEAD}<architecture name=\"SKL\">\n{m}\n</architecture></instruction></extension></root>"
        )
    };
    let cases = [
        (arch("<measurement uops=\"x\"/>"), "uops", "x"),
        (arch("<measurement uops=\"-1\"/>"), "uops", "-1"),
        (arch("<measurement uops_MITE_indexed=\"1.5\"/>"), "uops_MITE_indexed", "1.5"),
        (arch("<measurement TP_ports=\"NaN\"/>"), "TP_ports", "NaN"),
        (arch("<measurement ports=\"1*\"/>"), "ports", "1*"),
        (arch("<measurement ports_same_reg=\"p0\"/>"), "ports_same_reg", "p0"),
        (arch("<measurement complex_decoder=\"yes\"/>"), "complex_decoder", "yes"),
        (
            arch("<measurement><latency start_op=\"1\" target_op=\"1\" cycles=\"fast\"/></measurement>"),
            "cycles",
            "fast",
        ),
        (
            arch("<measurement><latency start_op=\"a\" target_op=\"1\"/></measurement>"),
            "start_op",
            "a",
        ),
        (
            format!("{GOOD_HEAD}<operand idx=\"1\" width=\"wide\"/></instruction></extension></root>"),
            "width",
            "wide",
        ),
        (
            format!("{GOOD_HEAD}<operand idx=\"1\" r=\"true\"/></instruction></extension></root>"),
            "r",
            "true",
        ),
    ];
    for (doc, attr, value) in cases {
        let e = read_str(&doc).unwrap_err();
        match &e {
            XmlError::BadAttr {
                attr: a,
                value: v,
                pos,
                ctx,
                ..
            } => {
                assert_eq!((a.as_str(), v.as_str()), (attr, value), "{doc}");
                assert!(pos.line >= 4, "{pos:?}");
                assert_eq!(ctx.instruction.as_deref(), Some("A"));
            }
            other => panic!("{doc}: {other:?}"),
        }
        let msg = e.to_string();
        assert!(msg.contains(attr) && msg.contains("line "), "{msg}");
    }
}

#[test]
fn error_missing_required_attributes() {
    let e = read_str("<root><instruction iform=\"X\"/></root>").unwrap_err();
    assert!(
        matches!(&e, XmlError::MissingAttr { attr, .. } if attr == "string"),
        "{e:?}"
    );
    let e = read_str(&format!(
        "{GOOD_HEAD}<operand type=\"reg\"/></instruction></extension></root>"
    ))
    .unwrap_err();
    assert!(
        matches!(&e, XmlError::MissingAttr { attr, .. } if attr == "idx"),
        "{e:?}"
    );
    let e = read_str(&format!(
        "{GOOD_HEAD}<architecture name=\"SKL\"><measurement><latency target_op=\"1\"/></measurement></architecture></instruction></extension></root>"
    ))
    .unwrap_err();
    assert!(
        matches!(&e, XmlError::MissingAttr { attr, .. } if attr == "start_op"),
        "{e:?}"
    );
}

#[test]
fn hostile_inputs_do_not_panic() {
    let full = std::fs::read(fixture("basic.xml")).unwrap();
    // Every prefix, and a few byte substitutions.
    for cut in (0..full.len()).step_by(37) {
        let _ = read_instructions(&full[..cut], &ArchFilter::All);
    }
    for (i, b) in [
        (100usize, b'<'),
        (400, b'"'),
        (900, 0xff),
        (1500, b'&'),
        (2000, b'>'),
    ] {
        let mut m = full.clone();
        if i < m.len() {
            m[i] = b;
        }
        let _ = read_instructions(&m[..], &ArchFilter::All);
    }
}
