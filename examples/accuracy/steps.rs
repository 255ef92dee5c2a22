//! `--steps`: the accuracy of each pipeline detail of issue #7, added one at a time to
//! SUACA's model, so that every step shows what it pays (MAPE and Kendall's tau per arch).

use suaca::pipeline::ModelOptions;

use suaca::batch::metrics::Metrics;

use crate::bench::{self, Options, Tool};

/// The cumulative steps, from the thesis' model to the full one, each with whether suaca is
/// told the harness that measured the blocks (the last step).
pub fn steps() -> Vec<(&'static str, ModelOptions, bool)> {
    let mut out: Vec<_> = model_steps()
        .into_iter()
        .map(|(n, m)| (n, m, false))
        .collect();
    let values = ModelOptions {
        harness_pages: false,
        page_walk_overlap: false,
        ..ModelOptions::FULL
    };
    out.push((
        "+ the harnesses' values (--harness bhive, profile)",
        values,
        true,
    ));
    let pages = ModelOptions {
        harness_pages: true,
        ..values
    };
    out.push(("+ BHive's page entries, 8 cycles a page", pages, true));
    out.push(("+ two page walks in flight (SKL)", ModelOptions::FULL, true));
    out
}

/// The pipeline details' steps.
fn model_steps() -> Vec<(&'static str, ModelOptions)> {
    let mut m = ModelOptions::SUACA;
    let mut out = vec![("SUACA model (--model suaca)", m)];
    m.stack_engine = true;
    out.push(("+ stack engine", m));
    m.micro_fusion = true;
    out.push(("+ fused-domain issue (micro-fusion)", m));
    m.macro_fusion = true;
    out.push(("+ macro-fusion", m));
    m.move_elim = true;
    out.push(("+ zero idioms, move elimination", m));
    m.mem_deps = true;
    out.push(("+ memory dependencies", m));
    m.data_paths = true;
    out.push(("+ load/store data paths", m));
    m.frontend = true;
    out.push(("+ front end, average rates (--average-frontend)", m));
    m.frontend_unit = true;
    out.push(("+ front-end unit (predecoder, IQ, decoders, MS)", m));
    m.dsb = true;
    m.jcc_erratum = true;
    m.lsd = true;
    out.push(("+ loop mode: µop cache, JCC erratum, LSD", m));
    m.pointer_chasing = true;
    out.push(("+ fast pointer chasing", m));
    m.fast_forwarding = true;
    out.push(("+ forwarded loads a cycle sooner (SKL)", m));
    m.stack_sync = true;
    out.push(("+ stack-sync µops", m));
    m.store_commit = true;
    out.push(("+ store commit by 32-byte block", m));
    m.free_nops = true;
    out.push(("+ NOPs without a dispatch slot", m));
    m.issue_ports = true;
    out.push(("+ port assignment at issue, whole issue groups (SKL)", m));
    m.transfer_alus = true;
    out.push(("+ vector-to-GPR moves hold the ALUs (ZEN4)", m));
    m.whole_dispatch = true;
    out.push(("+ whole-instruction dispatch (ZEN4)", m));
    m.port_cycles = true;
    out.push(("+ a port cycle per µop (ZEN4)", m));
    m.serializing = true;
    out.push(("+ serializing instructions one at a time", m));
    m.move_elim_limits = true;
    out.push(("+ move-elimination slots (HSW, IVB, SKL)", m));
    m.bank_conflicts = true;
    out.push(("+ L1 bank conflicts (IVB)", m));
    m.line_splits = true;
    out.push(("+ loads and stores across a line", m));
    m.predecode_tail = true;
    out.push(("+ a crossing last byte predecoded with its block", m));
    m.false_deps = true;
    out.push((
        "+ false dependencies on a destination (popcnt, lzcnt, tzcnt)",
        m,
    ));
    m.high8_merge = true;
    out.push(("+ high-8 merge µops (SNB..CLX)", m));
    m.single_port_cycles = true;
    out.push(("+ single-port µops take a cycle each", m));
    debug_assert_eq!(
        m,
        ModelOptions {
            harness_pages: false,
            page_walk_overlap: false,
            ..ModelOptions::FULL
        }
    );
    out
}

/// Runs the benchmark once per step (without llvm-mca) and prints the table.
pub fn print(opts: &Options) -> Result<(), String> {
    let mut header_archs: Option<Vec<String>> = None;
    let mut lines = Vec::new();
    for (name, model, harnesses) in steps() {
        let o = bench::run(&Options {
            model,
            harnesses,
            mca: None,
            ..opts.clone()
        })?;
        let archs = o.archs();
        let mut cells = vec![name.to_string()];
        for arch in &archs {
            cells.push(cell(&o.metrics(Tool::Suaca, |b| &b.arch == arch)));
        }
        cells.push(cell(&o.metrics(Tool::Suaca, |_| true)));
        header_archs.get_or_insert(archs);
        lines.push(format!("| {} |", cells.join(" | ")));
    }
    let archs = header_archs.unwrap_or_default();
    println!(
        "## Each pipeline detail, added in turn (MAPE / median APE / Kendall tau / within 10%)\n"
    );
    println!("| Step | {} | all |", archs.join(" | "));
    println!("|---|{}---|", "---|".repeat(archs.len()));
    for l in lines {
        println!("{l}");
    }
    Ok(())
}

/// One table cell: MAPE / median APE / Kendall's tau / share within 10%.
fn cell(m: &Metrics) -> String {
    let tau = m.kendall_tau.map_or("-".into(), |t| format!("{t:.3}"));
    format!(
        "{:.1}% / {:.1}% / {tau} / {:.0}%",
        m.mape * 100.0,
        m.median_ape * 100.0,
        m.within_10 * 100.0
    )
}
