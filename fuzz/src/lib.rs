//! The bodies of suaca's fuzz targets (issue #9), shared by the `fuzz_targets/*` binaries.
//!
//! Owns: how fuzz bytes are mapped onto suaca's input paths. Must not touch: suaca itself
//! (a finding is fixed in suaca and kept as a `tests/r9_*.rs` regression test there).
//!
//! Each function must return normally for every input: suaca never panics, and every
//! failure is an `Err`. Results are thrown away; only crashes, hangs and leaks matter here.
#![forbid(unsafe_code)]

use std::io::Cursor;
use std::path::{Path, PathBuf};

use suaca::analysis::{analyze_region, AnalysisOptions, Machine};
use suaca::batch::{ArchModel, Method, PredictOptions};
use suaca::cfg::Cfg;
use suaca::db::{InstrDb, InstrDesc};
use suaca::deps::{DepGraph, DepLimits};
use suaca::ir::Region;
use suaca::report::model::{InputInfo, InputKind, Report, SCHEMA_VERSION};
use suaca::report::text::TextOptions;
use suaca::sim::WhatIf;
use suaca::uopsxml::{self, ArchFilter};

/// (a) Object file bytes → regions (format detection, sections, marker search, symbols),
/// then decoding of every region found.
pub fn object(data: &[u8]) {
    if let Ok(found) = suaca::input::regions_from_object(Path::new("fuzz.o"), data) {
        for region in &found.regions {
            let _ = suaca::decode::decode_region(region);
        }
    }
}

/// The fixture the pipeline target describes instructions with: the full reconstruction
/// when `../shared` is there (all SKL forms), else `testdata/xml/match_forms.xml`.
/// `SUACA_FUZZ_XML` overrides both.
pub fn pipeline_xml() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Some(p) = std::env::var_os("SUACA_FUZZ_XML") {
        return PathBuf::from(p);
    }
    let full = root.join("../shared/data/uops/instructions.xml.zst");
    if full.is_file() {
        return full;
    }
    root.join("testdata/xml/match_forms.xml")
}

/// (b) Raw bytes → decode → CFG, dependency graph, DOT → the whole analysis of a region
/// (bounds, simulation, what-if runs, branch paths, detail, timeline) → text, JSON, HTML;
/// and the same instructions as a `suaca batch` block (steady-state prediction: the
/// engine's outcome-only runs and the periodic extrapolation).
pub struct Pipeline {
    model: ArchModel,
}

/// Largest code size the pipeline target analyses: keeps each execution in milliseconds.
pub const PIPELINE_MAX_BYTES: usize = 512;

impl Pipeline {
    /// Loads the SKL data once (see [`pipeline_xml`]).
    pub fn new() -> Pipeline {
        Pipeline::from_xml(&pipeline_xml(), "SKL")
    }

    /// Loads `arch` from `xml` (plain or zstd).
    pub fn from_xml(xml: &Path, arch: &str) -> Pipeline {
        let arch = suaca::uarch::load(arch).expect("embedded arch");
        let records = uopsxml::read_file(xml, &ArchFilter::only([arch.name.clone()]))
            .expect("fixture XML reads");
        let db = InstrDb::new(&records, &arch.name, |g| arch.port_mask(g));
        Pipeline {
            model: ArchModel {
                machine: Machine::of(&arch),
                db,
                own_forms: Default::default(),
            },
        }
    }

    /// One input: the first two bytes choose the options, the rest is code at 0x1000.
    pub fn run(&self, data: &[u8]) {
        let &[a, b, ref code @ ..] = data else {
            return;
        };
        let code = &code[..code.len().min(PIPELINE_MAX_BYTES)];
        let Ok(instrs) = suaca::decode::decode_bytes(code, 0x1000) else {
            return;
        };
        // The batch prediction: BHive's 100 copies or a few, each way of counting them.
        let predict = PredictOptions {
            copies: [100, 1, 3, 17][usize::from(b >> 6)],
            method: [Method::Extrapolate, Method::OneRun, Method::TwoRuns]
                [usize::from(b >> 4 & 3) % 3],
            ..PredictOptions::default()
        };
        let _ = suaca::batch::predict_instrs(&self.model, &instrs, &predict);
        // 1..=4 iterations: 1 has no loop-carried edges, the others have.
        let iterations = u32::from(a & 3) + 1;
        let cfg = Cfg::build(&instrs, 0x1000, 0x1000 + code.len() as u64, iterations);
        let limits = DepLimits::for_len(instrs.len());
        if DepGraph::try_build(&instrs, &cfg, iterations >= 2, &limits).is_err() {
            return;
        }
        let descs: Vec<Option<InstrDesc>> = instrs
            .iter()
            .map(|i| self.model.db.describe(i).ok())
            .collect();
        let region = Region {
            index: 0,
            section: "<fuzz>".into(),
            address: 0x1000,
            bytes: code.to_vec(),
            symbol: None,
        };
        let opts = AnalysisOptions {
            what_if: WhatIf {
                perfect_frontend: a & 4 != 0,
                infinite_ports: a & 8 != 0,
                no_deps: a & 16 != 0,
            },
            performance: a & 32 != 0,
            branches: a & 64 != 0,
            timeline: (a & 128 != 0).then_some(iterations),
            // Out-of-range lines are an error the analysis must report, not a panic.
            detail: (b != 0xff).then(|| u32::from(b) % (instrs.len() as u32 + 2)),
            ..AnalysisOptions::new(iterations)
        };
        let Ok(region_report) =
            analyze_region(&region, &instrs, &descs, &self.model.machine, &opts)
        else {
            return;
        };
        let graphs = &region_report.graphs;
        let _ = suaca::report::dot::controlflow(graphs, region_report.region.loop_branch);
        let _ = suaca::report::dot::dependency(graphs);
        let report = Report {
            schema_version: SCHEMA_VERSION,
            suaca_version: "fuzz".into(),
            arch: self.model.machine.name.clone(),
            iterations,
            model_disabled: Vec::new(),
            input: InputInfo {
                name: "<fuzz>".into(),
                kind: InputKind::Raw,
            },
            warnings: Vec::new(),
            regions: vec![region_report],
        };
        let mut out = Vec::new();
        for width in [None, Some(40)] {
            let text = TextOptions {
                iform: true,
                color: false,
                width,
                timeline: true,
            };
            suaca::report::text::render(&report, &text, &mut out).expect("writes to a Vec");
        }
        let _ = serde_json::to_string(&report).expect("reports serialize");
        let _ = suaca::report::trace::render_html(&report);
    }
}

impl Default for Pipeline {
    fn default() -> Self {
        Pipeline::new()
    }
}

/// (c) The XML reader on arbitrary bytes: plain, and (when the bytes compress) through the
/// zstd path of [`uopsxml::open`]. Also lists archs, as `suaca data import` does.
pub fn xml(data: &[u8]) {
    let _ = uopsxml::read_instructions(Cursor::new(data), &ArchFilter::All);
    let _ = uopsxml::read_instructions(Cursor::new(data), &ArchFilter::only(["SKL"]));
    let _ = uopsxml::list_archs(Cursor::new(data), "<fuzz>");
    // zstd: the same document compressed, and the raw bytes behind a zstd magic (a damaged
    // frame must be an error, not a panic).
    if let Ok(z) = zstd::stream::encode_all(data, 1) {
        if let Ok(r) = uopsxml::open_bytes(&z) {
            let _ = uopsxml::InstrReader::new(r, "<fuzz.zst>", ArchFilter::All).count();
        }
    }
    let mut framed = vec![0x28, 0xB5, 0x2F, 0xFD];
    framed.extend_from_slice(data);
    if let Ok(r) = uopsxml::open_bytes(&framed) {
        let _ = uopsxml::InstrReader::new(r, "<fuzz.zst>", ArchFilter::All).count();
    };
}

/// (d) Batch input: `suaca batch`'s parser (BHive CSV with or without a header, or one hex
/// block per line), then each row's hex through [`suaca::input::parse_hex`] and decoding, as
/// `suaca batch` does before predicting. The whole text also goes through `--hex` parsing.
pub fn hex_csv(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = suaca::input::region_from_hex(&text);
    let parsed = suaca::batch::parse_input(&text);
    for row in parsed.rows.iter().filter(|r| r.problem.is_none()) {
        if let Ok(bytes) = suaca::input::parse_hex(&row.hex) {
            let _ = suaca::decode::decode_bytes(&bytes, 0);
        }
    }
    let _ = parsed.malformed().count();
}
