//! The one table of arch names users may type: uops.info's names (`SKL`, `ZEN4`), which name
//! the embedded descriptions and the data, and LLVM's CPU names (`skylake`, `znver4`, as in
//! `llvm-mca -mcpu=`). Parsing, the unknown-arch error, shell completions and `data list`
//! all read it, so they cannot disagree about what `--arch` accepts.

/// One described arch and the other names it answers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArchName {
    /// uops.info's name: the canonical one (the arch file and the data use it).
    pub name: &'static str,
    /// What it is, for completions and messages.
    pub title: &'static str,
    /// LLVM `-mcpu` names of the same core (none where LLVM folds it into an older one:
    /// Kaby and Coffee Lake are `skylake` there).
    pub llvm: &'static [&'static str],
}

/// Every arch suaca has a description of, in `uarch::names()` order.
pub const ARCHS: &[ArchName] = &[
    arch("NHM", "Nehalem", &["nehalem"]),
    arch("WSM", "Westmere", &["westmere"]),
    arch("SNB", "Sandy Bridge", &["sandybridge"]),
    arch("IVB", "Ivy Bridge", &["ivybridge"]),
    arch("HSW", "Haswell", &["haswell"]),
    arch("BDW", "Broadwell", &["broadwell"]),
    arch("SKL", "Skylake", &["skylake"]),
    arch("SKX", "Skylake-X/SP", &["skylake-avx512"]),
    arch("KBL", "Kaby Lake", &[]),
    arch("CFL", "Coffee Lake", &[]),
    arch("CLX", "Cascade Lake", &["cascadelake"]),
    // uops.info measured the client core; the server core has the same ports and
    // pipeline (its extra AVX-512 FMA unit and larger L2 are not modelled).
    arch("ICL", "Ice Lake", &["icelake-client", "icelake-server"]),
    arch("TGL", "Tiger Lake", &["tigerlake"]),
    arch("RKL", "Rocket Lake", &["rocketlake"]),
    arch("ADL-P", "Alder Lake P-core", &["alderlake"]),
    // Redwood Cove: Meteor Lake's P-core and Granite Rapids' core (the server core's
    // AVX-512 units and larger L2 are not modelled; MTL-P data has no AVX-512 forms).
    arch(
        "MTL-P",
        "Meteor Lake P-core",
        &["meteorlake", "graniterapids"],
    ),
    arch("ZEN+", "Zen+", &["znver1"]),
    arch("ZEN2", "Zen 2", &["znver2"]),
    arch("ZEN3", "Zen 3", &["znver3"]),
    arch("ZEN4", "Zen 4", &["znver4"]),
];

/// Cores users ask for that suaca has no description of yet (some have uops.info data):
/// named so that the error can say so instead of "unknown".
pub const NOT_DESCRIBED: &[ArchName] = &[
    arch("ZEN5", "Zen 5", &["znver5"]),
    arch("ARL-P", "Arrow Lake P-core", &["arrowlake"]),
    arch("EMR", "Emerald Rapids", &["emeraldrapids"]),
    arch("CNL", "Cannon Lake", &["cannonlake"]),
    arch("CON", "Core 2 (Conroe)", &["core2"]),
    arch("WOL", "Core 2 (Wolfdale)", &["penryn"]),
    arch("GLM", "Goldmont", &["goldmont"]),
    arch("GLP", "Goldmont Plus", &["goldmont-plus"]),
    arch("TRM", "Tremont", &["tremont"]),
    arch("BNL", "Bonnell", &["bonnell"]),
];

const fn arch(name: &'static str, title: &'static str, llvm: &'static [&'static str]) -> ArchName {
    ArchName { name, title, llvm }
}

fn find(table: &'static [ArchName], name: &str) -> Option<&'static ArchName> {
    let name = name.trim();
    table.iter().find(|a| {
        a.name.eq_ignore_ascii_case(name) || a.llvm.iter().any(|l| l.eq_ignore_ascii_case(name))
    })
}

/// The described arch a user's name means (either spelling, any case), if any.
pub fn lookup(name: &str) -> Option<&'static ArchName> {
    find(ARCHS, name)
}

/// The canonical (uops.info) name of a described arch: `skylake` → `SKL`, `zen4` → `ZEN4`.
pub fn canonical(name: &str) -> Option<&'static str> {
    lookup(name).map(|a| a.name)
}

/// A core suaca knows of but has no description for (`znver5`), if `name` is one.
pub fn not_described(name: &str) -> Option<&'static ArchName> {
    find(NOT_DESCRIBED, name)
}

/// Every name `--arch` accepts: each arch's uops.info name, then its LLVM names.
pub fn accepted() -> impl Iterator<Item = &'static str> {
    ARCHS
        .iter()
        .flat_map(|a| std::iter::once(a.name).chain(a.llvm.iter().copied()))
}

/// The accepted names for a message: `SNB (sandybridge), …, KBL, CFL, …`.
pub fn accepted_list() -> String {
    ARCHS
        .iter()
        .map(|a| match a.llvm {
            [] => a.name.to_string(),
            llvm => format!("{} ({})", a.name, llvm.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_in_any_case() {
        for (typed, want) in [
            ("SKL", "SKL"),
            ("skl", "SKL"),
            ("skylake", "SKL"),
            ("Skylake-AVX512", "SKX"),
            ("icelake-server", "ICL"),
            ("alderlake", "ADL-P"),
            ("znver4", "ZEN4"),
            ("zen+", "ZEN+"),
            (" CFL ", "CFL"),
        ] {
            assert_eq!(canonical(typed), Some(want), "{typed}");
        }
        assert_eq!(canonical("znver5"), None);
        assert_eq!(not_described("znver5").map(|a| a.name), Some("ZEN5"));
        assert_eq!(canonical("pentium4"), None);
    }

    #[test]
    fn names_are_unique_and_described_names_are_not_also_undescribed() {
        let mut all: Vec<String> = accepted().map(str::to_ascii_lowercase).collect();
        all.extend(
            NOT_DESCRIBED
                .iter()
                .flat_map(|a| std::iter::once(a.name).chain(a.llvm.iter().copied()))
                .map(str::to_ascii_lowercase),
        );
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a name appears twice");
    }
}
