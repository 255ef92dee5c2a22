//! The benchmark's tables: accuracy per arch and tool, and suaca's error classes.

use comfy_table::{presets::ASCII_MARKDOWN, Table};
use suaca::batch::metrics::{ape, Metrics};

use crate::bench::{Block, Outcome, Tool};

fn pct(x: f64) -> String {
    pct_to(x, 1)
}

/// `x` as a percentage with `decimals` decimals (the MAPE column has two, so that a step of
/// a few hundredths shows).
fn pct_to(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{:.*}%", decimals, 100.0 * x)
    } else {
        "-".into()
    }
}

fn tools(o: &Outcome) -> Vec<Tool> {
    if o.mca_ran {
        vec![Tool::Suaca, Tool::Mca, Tool::McaTotal]
    } else {
        vec![Tool::Suaca]
    }
}

/// Per arch (and over all), per tool: coverage, MAPE, median APE, τ, shares.
pub fn accuracy_table(o: &Outcome) -> String {
    accuracy_table_of(o, &|_| true)
}

/// [`accuracy_table`] over the blocks `keep` selects.
pub fn accuracy_table_of(o: &Outcome, keep: &dyn Fn(&Block) -> bool) -> String {
    let mut t = Table::new();
    t.load_style(ASCII_MARKDOWN).set_header(vec![
        "Arch",
        "Tool",
        "Blocks",
        "Coverage",
        "MAPE",
        "Median APE",
        "Kendall tau",
        "<=5%",
        "<=10%",
        ">10% over",
        ">10% under",
    ]);
    let mut groups: Vec<(String, Option<String>)> = o
        .archs()
        .into_iter()
        .map(|a| (a.clone(), Some(a)))
        .collect();
    if groups.len() > 1 {
        groups.push(("all".into(), None));
    }
    for (label, arch) in &groups {
        for tool in tools(o) {
            let m = o.metrics(tool, |b| {
                keep(b) && arch.as_ref().is_none_or(|a| &b.arch == a)
            });
            t.add_row(row(label, tool.name(), &m));
        }
    }
    t.to_string()
}

fn row(label: &str, tool: &str, m: &Metrics) -> Vec<String> {
    vec![
        label.to_string(),
        tool.to_string(),
        m.blocks.to_string(),
        pct(m.coverage()),
        pct_to(m.mape, 2),
        pct(m.median_ape),
        m.kendall_tau.map_or("-".into(), |t| format!("{t:.3}")),
        pct(m.within_5),
        pct(m.within_10),
        pct(m.over_10),
        pct(m.under_10),
    ]
}

/// One class's statistics.
struct Class {
    name: String,
    blocks: usize,
    mape: f64,
    bias: f64,
    share: f64,
    mca_mape: Option<f64>,
}

fn class_of(name: String, members: &[&Block], total_ape: f64, mca: bool) -> Class {
    let covered: Vec<(f64, f64)> = members
        .iter()
        .filter_map(|b| b.suaca.map(|p| (p, b.measured)))
        .collect();
    let sum: f64 = covered.iter().map(|&(p, m)| ape(p, m)).sum();
    let n = covered.len().max(1) as f64;
    let mca_pairs: Vec<(f64, f64)> = members
        .iter()
        .filter_map(|b| b.mca.map(|p| (p, b.measured)))
        .collect();
    Class {
        name,
        blocks: members.len(),
        mape: sum / n,
        bias: covered.iter().map(|&(p, m)| (p - m) / m).sum::<f64>() / n,
        share: if total_ape > 0.0 {
            sum / total_ape
        } else {
            0.0
        },
        mca_mape: mca.then(|| Metrics::of(mca_pairs.len(), &mca_pairs).mape),
    }
}

fn class_table(title: &str, mut classes: Vec<Class>, min_blocks: usize, top: usize) -> String {
    classes.retain(|c| c.blocks >= min_blocks);
    classes.sort_by(|a, b| b.share.total_cmp(&a.share).then(a.name.cmp(&b.name)));
    classes.truncate(top);
    let mut t = Table::new();
    t.load_style(ASCII_MARKDOWN).set_header(vec![
        title,
        "Blocks",
        "suaca MAPE",
        "suaca bias",
        "share of suaca's error",
        "llvm-mca MAPE",
    ]);
    for c in classes {
        t.add_row(vec![
            c.name,
            c.blocks.to_string(),
            pct(c.mape),
            format!("{:+.1}%", 100.0 * c.bias),
            pct(c.share),
            c.mca_mape.map_or("-".into(), pct),
        ]);
    }
    t.to_string()
}

/// suaca's error by block feature, by bottleneck kind and by mnemonic, largest share of the
/// total absolute error first. A block is in every class it has, so shares overlap.
pub fn class_tables(o: &Outcome) -> String {
    let total: f64 = o
        .blocks
        .iter()
        .filter_map(|b| b.suaca.map(|p| ape(p, b.measured)))
        .sum();
    let mca = o.mca_ran;
    let members =
        |f: &dyn Fn(&Block) -> bool| -> Vec<&Block> { o.blocks.iter().filter(|b| f(b)).collect() };
    let tags = suaca::batch::features::TAGS
        .iter()
        .map(|t| class_of(t.to_string(), &members(&|b| b.tags.contains(t)), total, mca))
        .chain(std::iter::once(class_of(
            "may-alias (suspect measurement)".into(),
            &members(&|b| b.may_alias),
            total,
            mca,
        )))
        .collect();
    let mut kinds: Vec<String> = o
        .blocks
        .iter()
        .filter_map(|b| b.bottleneck.clone())
        .collect();
    kinds.sort();
    kinds.dedup();
    let bottlenecks = kinds
        .iter()
        .map(|k| {
            let m = members(&|b| b.bottleneck.as_deref() == Some(k.as_str()));
            class_of(k.clone(), &m, total, mca)
        })
        .collect();
    let mut mnems: Vec<&String> = o.blocks.iter().flat_map(|b| &b.mnemonics).collect();
    mnems.sort();
    mnems.dedup();
    let by_mnemonic = mnems
        .iter()
        .map(|m| {
            class_of(
                m.to_string(),
                &members(&|b| b.mnemonics.contains(m)),
                total,
                mca,
            )
        })
        .collect();
    let arch_bias: Vec<Class> = o
        .archs()
        .into_iter()
        .map(|a| {
            let m = members(&|b| b.arch == a);
            class_of(a, &m, total, mca)
        })
        .collect();
    [
        class_table("Arch", arch_bias, 1, 20),
        class_table("Block feature", tags, 1, 40),
        class_table("suaca bottleneck", bottlenecks, 1, 20),
        class_table(
            "Mnemonic (blocks containing it, >= 10)",
            by_mnemonic,
            10,
            15,
        ),
    ]
    .join("\n\n")
}

/// The blocks with the largest suaca error.
pub fn worst_blocks(o: &Outcome, n: usize) -> String {
    let mut v: Vec<&Block> = o.blocks.iter().filter(|b| b.suaca.is_some()).collect();
    v.sort_by(|a, b| {
        let e = |x: &Block| ape(x.suaca.unwrap_or(0.0), x.measured);
        e(b).total_cmp(&e(a)).then(a.case_id.cmp(&b.case_id))
    });
    let mut t = Table::new();
    t.load_style(ASCII_MARKDOWN).set_header(vec![
        "Case",
        "Arch",
        "Measured",
        "suaca",
        "llvm-mca",
        "suaca bottleneck",
        "Mnemonics",
    ]);
    for b in v.into_iter().take(n) {
        t.add_row(vec![
            b.case_id.clone(),
            b.arch.clone(),
            format!("{:.2}", b.measured),
            format!("{:.2}", b.suaca.unwrap_or(f64::NAN)),
            b.mca.map_or("-".into(), |x| format!("{x:.2}")),
            b.bottleneck.clone().unwrap_or_default(),
            b.mnemonics.join(" "),
        ]);
    }
    t.to_string()
}
