//! `--format json` (issue #8 item 2): real output validated against
//! `docs/suaca-report.schema.json`, the schema documented field by field in `docs/json.md`,
//! JSON errors, and the graphs as node and edge lists.
//!
//! The validator below implements the subset of JSON Schema 2020-12 the schema uses (`type`,
//! `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `const`, `anyOf`,
//! `minimum`, `$ref` into `$defs`) and rejects any other keyword, so the schema cannot rely
//! on something this check ignores.
#![forbid(unsafe_code)]

use crate::common;

use crate::common::{program, suaca, testdata};
use serde_json::Value;

const KEYWORDS: &[&str] = &[
    "$schema",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "minimum",
    "$ref",
    "$defs",
];

fn schema() -> Value {
    let text = std::fs::read_to_string(common::root().join("docs/suaca-report.schema.json"))
        .expect("the schema file exists");
    serde_json::from_str(&text).expect("the schema is JSON")
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        other => panic!("unknown type {other}"),
    }
}

/// Errors of `v` against `s` (a subschema of `root`), with JSON paths.
fn validate(root: &Value, s: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let s = s.as_object().expect("a schema is an object");
    for k in s.keys() {
        assert!(KEYWORDS.contains(&k.as_str()), "unsupported keyword {k}");
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $ref");
        let target = &root["$defs"][name];
        assert!(target.is_object(), "dangling $ref {r}");
        validate(root, target, v, path, errors);
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
            _ => panic!("bad type"),
        };
        if !ok {
            errors.push(format!("{path}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errors.push(format!("{path}: {v} is not {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errors.push(format!("{path}: {v} not in {e:?}"));
        }
    }
    if let (Some(m), Some(n)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if n < m {
            errors.push(format!("{path}: {n} < {m}"));
        }
    }
    if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
        let ok = alts.iter().any(|a| {
            let mut e = Vec::new();
            validate(root, a, v, path, &mut e);
            e.is_empty()
        });
        if !ok {
            errors.push(format!("{path}: matches no alternative"));
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(req) = s.get("required").and_then(Value::as_array) {
            for r in req {
                if !obj.contains_key(r.as_str().unwrap()) {
                    errors.push(format!("{path}: missing {r}"));
                }
            }
        }
        for (k, val) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, val, &format!("{path}.{k}"), errors),
                None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{path}: unexpected field {k}"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (s.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            validate(root, items, x, &format!("{path}[{i}]"), errors);
        }
    }
}

fn run_json(args: &[&str]) -> Value {
    let home = tempfile::tempdir().unwrap();
    let xml = testdata("xml/thesis.xml");
    let mut all = vec!["--uops-xml", xml.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    let out = suaca(&all, home.path());
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn assert_valid(v: &Value, what: &str) {
    let root = schema();
    let mut errors = Vec::new();
    validate(&root, &root, v, "$", &mut errors);
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn reports_validate_against_the_schema() {
    let branchy = program("branchy");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--arch", "SNB", &branchy],
        vec![
            "--arch",
            "SNB",
            "-b",
            "--detail",
            "3",
            "--timeline=2",
            "--iform",
            &branchy,
        ],
        vec!["--arch", "SNB", "-pf", "-nd", "--loop", "1", &branchy],
        vec!["--arch", "SNB", "-p", "--hex", "4801d84801d8"],
        vec![
            "--arch",
            "SNB",
            "--harness",
            "bhive",
            "--hex",
            "4801d84801d8",
        ],
        // Every detail off: each name `model_disabled` can hold.
        vec!["--arch", "SNB", "--model", "suaca", "-p", "--hex", "4801d8"],
        // A page a copy under BHive's harness (`add rbx, 4096; vmovsd xmm0, [rbx]`):
        // `harness_pages`.
        vec![
            "--arch",
            "IVB",
            "--harness",
            "bhive",
            "--hex",
            "4881c300100000c5fb1003",
        ],
    ];
    let adc = program("adc8");
    let gcc = testdata("text/gcc_O2_g.s").to_str().unwrap().to_string();
    let mut cases = cases;
    cases.push(vec!["--arch", "SKL", "--detail", "0", &adc]);
    // Found loops (issue #17): found_loop, flow warnings of each kind, DWARF source files.
    let unmarked = program("unmarked_g");
    cases.push(vec!["--arch", "ZEN4", "--timeline=1", &unmarked]);
    let stencil = program("stencil");
    cases.push(vec![
        "--arch", "IVB", "--detail", "4", "--loop", "1", &stencil,
    ]);
    // Assembly text: source lines, unsupported rows (`stats: null`).
    if std::process::Command::new("as")
        .arg("--version")
        .output()
        .is_ok()
    {
        cases.push(vec!["--arch", "SNB", "--timeline", &gcc]);
    } else {
        eprintln!("note: GNU as is not installed; the assembly case is skipped");
    }
    for args in &cases {
        let v = run_json(args);
        assert_valid(&v, &format!("{args:?}"));
    }
}

#[test]
fn schema_version_matches_the_schema_file() {
    let v = run_json(&["--arch", "SNB", &program("mov6")]);
    assert_eq!(
        v["schema_version"],
        schema()["properties"]["schema_version"]["const"]
    );
    assert_eq!(
        v["schema_version"].as_u64(),
        Some(u64::from(suaca::report::model::SCHEMA_VERSION))
    );
}

/// Every field the schema names, and every value its string lists allow (the pipeline
/// details in `model_disabled`, …), is explained in docs/json.md.
#[test]
fn every_field_is_documented() {
    let doc = std::fs::read_to_string(common::root().join("docs/json.md")).unwrap();
    fn fields(s: &Value, out: &mut std::collections::BTreeSet<String>) {
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            out.extend(e.iter().filter_map(Value::as_str).map(str::to_string));
        }
        if let Some(p) = s.get("properties").and_then(Value::as_object) {
            for (k, v) in p {
                out.insert(k.clone());
                fields(v, out);
            }
        }
        for key in ["items", "$defs"] {
            match s.get(key) {
                Some(Value::Object(m)) if key == "$defs" => m.values().for_each(|d| fields(d, out)),
                Some(v) => fields(v, out),
                None => {}
            }
        }
        if let Some(a) = s.get("anyOf").and_then(Value::as_array) {
            a.iter().for_each(|d| fields(d, out));
        }
    }
    let mut names = Default::default();
    fields(&schema(), &mut names);
    let missing: Vec<_> = names
        .iter()
        .filter(|n| !doc.contains(&format!("`{n}`")) && !doc.contains(&format!(".{n}`")))
        .collect();
    assert!(missing.is_empty(), "not in docs/json.md: {missing:?}");
}

#[test]
fn graphs_are_node_and_edge_lists() {
    let v = run_json(&["--arch", "SNB", &program("branchy")]);
    let g = &v["regions"][0]["graphs"];
    assert_eq!(g["nodes"].as_array().unwrap().len(), 7);
    let cfg_edges = g["cfg"]["edges"].as_array().unwrap();
    let has = |from: u64, to: Value, kind: &str| {
        cfg_edges
            .iter()
            .any(|e| e["from"] == from && e["to"] == to && e["kind"] == kind)
    };
    assert!(has(2, Value::from(5), "taken"), "{cfg_edges:?}");
    assert!(has(4, Value::from(6), "taken"), "{cfg_edges:?}");
    assert!(has(6, Value::from(0), "loop"), "{cfg_edges:?}");
    let deps = g["dependencies"]["edges"].as_array().unwrap();
    // add rbx, rax (3) feeds add rbx, rbx (6), which feeds line 3 of the next iteration.
    let dep = |from: u64, to: u64, distance: u64| {
        deps.iter().find(|e| {
            e["from"] == from && e["to"] == to && e["loc"] == "rbx" && e["distance"] == distance
        })
    };
    assert!(dep(3, 6, 0).is_some(), "{deps:?}");
    assert_eq!(dep(6, 3, 1).expect("loop-carried edge")["latency"], 1);
    assert_eq!(g["dependencies"]["loop_carried"], true);
}

#[test]
fn errors_are_json_on_stderr() {
    let home = tempfile::tempdir().unwrap();
    for (args, code) in [
        (vec!["--json", "no-such-file.o"], 2),
        (vec!["--format", "json", "--bogus-flag"], 2),
        (vec!["--format=json", "--hex", "zz"], 2),
    ] {
        let out = suaca(&args, home.path());
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        let v: Value = serde_json::from_str(&err).expect("stderr is JSON");
        assert_eq!(v["error"]["code"], code);
        assert!(v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    // Text mode keeps its plain message.
    let out = suaca(&["no-such-file.o"], home.path());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("suaca: error: "));
}

/// Issue #17 item 6: dependency edges name a vector register as the consumer uses it:
/// `vaddps xmm0, xmm1, xmm2; vmulps xmm1, xmm1, xmm2; movaps xmm2, xmm1` has xmm edges, not
/// the full zmm registers the analysis tracks; the ymm form keeps ymm.
#[test]
fn vector_edges_are_named_as_the_instruction_names_them() {
    let edges = |hex: &str| -> Vec<(u64, u64, String)> {
        let v = run_json(&["--arch", "ZEN4", "--dg", "--hex", hex]);
        v["regions"][0]["graphs"]["dependencies"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let n = |k: &str| e[k].as_u64().unwrap();
                (n("from"), n("to"), e["loc"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let xmm = edges("c5f058c2c5f059ca0f28d1");
    assert!(xmm.contains(&(1, 2, "xmm1".into())), "{xmm:?}");
    assert!(xmm.contains(&(2, 0, "xmm2".into())), "{xmm:?}");
    assert!(xmm.iter().all(|(_, _, l)| !l.starts_with("zmm")), "{xmm:?}");
    // vaddps ymm0, ymm1, ymm2; vmulps ymm1, ymm1, ymm2
    let ymm = edges("c5f458c2c5f459ca");
    assert!(ymm.contains(&(1, 0, "ymm1".into())), "{ymm:?}");
}

/// A loop reports its steady state, an unrolled region total cycles / iterations (the
/// thesis' block throughput). `add rax, [rdi]; add rdi, 8; cmp rdi, rdx; jnz` on ZEN4 (embedded
/// data): the loop-carried `add rax` chain is 1 cycle, the 3 macro-ops issue in one of the
/// 6-wide cycles and Zen 4 takes a branch per cycle, so one iteration retires per cycle:
/// exactly 1.00. Total cycles / 200 also counts the first iteration's load (several cycles)
/// and so is above 1.00. Without the branch the three instructions are unrolled copies.
#[test]
fn loop_throughput_is_the_steady_state() {
    let looped = run_json(&["--arch", "ZEN4", "--hex", "4803074883c7084839d775f4"]);
    assert_valid(&looped, "loop");
    let run = &looped["regions"][0]["runs"][0];
    assert_eq!(run["steady_state"], Value::Bool(true), "{run}");
    assert_eq!(run["throughput"].as_f64(), Some(1.0), "{run}");
    let total = run["cycles"].as_f64().expect("cycles") / 200.0;
    assert!(total > 1.0, "total cycles / 200 = {total}");

    let unrolled = run_json(&["--arch", "ZEN4", "--hex", "4803074883c7084839d7"]);
    let run = &unrolled["regions"][0]["runs"][0];
    assert_eq!(run["steady_state"], Value::Bool(false), "{run}");
    let cycles = run["cycles"].as_f64().expect("cycles");
    assert_eq!(run["throughput"].as_f64(), Some(cycles / 200.0), "{run}");
}
