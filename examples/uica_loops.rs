//! suaca's loop-mode predictions beside uiCA's *predictions* (not measurements) for the 48
//! small hand-written loops of `../shared/data/uica-golden/uica_golden_curated.json` on HSW,
//! SKL and ICL (issue #15: the µop cache, JCC erratum and LSD have no Intel loop measurements
//! to check against). The data is third-party and read at run time, never copied.
//!
//! Each loop's bytes (its instructions' opcodes, the last a jnz back to the first) go to a
//! suaca binary as `--hex HEX --arch A --json`; the prediction is the plain run's throughput.
//! A binary other than this build's compares an older model.
//!
//! ```text
//! cargo run --release --example uica_loops -- [--suaca PATH] [--xml FILE] [--list] [-- SUACA ARGS]
//! ```
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::process::Command;

use suaca::batch::metrics::{ape, kendall_tau, mean};

const DATA: &str = "../shared/data/uica-golden/uica_golden_curated.json";

fn main() {
    let mut suaca = "target/release/suaca".to_string();
    let mut xml = "../shared/data/uops/instructions.xml.zst".to_string();
    let mut list = false;
    let mut extra: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--suaca" => suaca = args.next().unwrap_or(suaca),
            "--xml" => xml = args.next().unwrap_or(xml),
            "--list" => list = true,
            "--" => extra.extend(args.by_ref()),
            _ => {
                eprintln!("unknown argument {a}");
                std::process::exit(2);
            }
        }
    }
    let text = match std::fs::read_to_string(DATA) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{DATA}: {e}");
            std::process::exit(1);
        }
    };
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
    let mut per_arch: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for c in &cases {
        let arch = c["arch"].as_str().unwrap_or_default().to_string();
        let name = c["case"].as_str().unwrap_or_default();
        let Some(uica) = c["summary"]["throughput_cycles_per_iteration"].as_f64() else {
            continue;
        };
        let hex: String = c["instructions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["opcode"].as_str())
            .collect();
        let sources: Vec<&str> = c["instructions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["source"].as_str())
            .collect();
        let out = Command::new(&suaca)
            .args(["--uops-xml", &xml, "--hex", &hex, "--arch", &arch, "--json"])
            .args(&extra)
            .output();
        let ours = out.ok().and_then(|o| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
            v["regions"][0]["runs"][0]["throughput"].as_f64()
        });
        let Some(ours) = ours else {
            eprintln!("{name} {arch}: no prediction");
            continue;
        };
        if list {
            let src = sources.first().copied().unwrap_or("?");
            println!(
                "{name:<20} {arch:<4} uiCA {uica:>6.2} ({src})  suaca {ours:>6.2}  {:+6.1}%",
                100.0 * (ours - uica) / uica
            );
        }
        per_arch.entry(arch).or_default().push((ours, uica));
    }
    println!("arch  loops  MAPE vs uiCA  Kendall tau");
    let mut all = Vec::new();
    for (arch, pairs) in &per_arch {
        row(arch, pairs);
        all.extend_from_slice(pairs);
    }
    row("all", &all);
}

fn row(name: &str, pairs: &[(f64, f64)]) {
    let apes: Vec<f64> = pairs.iter().map(|&(p, m)| ape(p, m)).collect();
    let mape = 100.0 * mean(&apes).unwrap_or(f64::NAN);
    let tau = kendall_tau(pairs).unwrap_or(f64::NAN);
    println!("{name:<5} {:>5}  {:>11.1}%  {tau:>11.3}", pairs.len(), mape);
}
