//! The host CPU's microarchitecture: the one CPUID → arch table of the project, used by the
//! analyzer's default arch, `suaca measure` (the `<architecture name=…>` it writes) and
//! `suaca profile` (the arch of its prediction).
//!
//! Facts from: Intel's "Intel Architecture and Processor Identification with CPUID Model and
//! Family Numbers" table and the Intel SDM Vol. 4 processor signatures (family 6 models and the
//! steppings that split Skylake-SP/Cascade Lake and Kaby Lake/Coffee Lake); AMD's Processor
//! Programming References and Revision Guides, which are published per family and model range
//! (family 17h: Zen/Zen+ and Zen 2; 19h: Zen 3 and Zen 4; 1Ah: Zen 5).

use std::ops::RangeInclusive;

/// CPU vendor of a CPUID signature; other vendors are not mapped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CpuVendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
}

/// Decoded CPUID signature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Vendor string of leaf 0.
    pub vendor: CpuVendor,
    /// Display family (base + extended).
    pub family: u32,
    /// Display model (extended model << 4 | model).
    pub model: u32,
    /// Stepping.
    pub stepping: u32,
}

/// One row of the table: a family, a model range and a stepping range name an arch.
struct Row {
    vendor: CpuVendor,
    family: u32,
    models: RangeInclusive<u32>,
    steppings: RangeInclusive<u32>,
    arch: &'static str,
}

const ALL_STEPPINGS: RangeInclusive<u32> = 0..=0xF;

const fn intel(model: u32, arch: &'static str) -> Row {
    Row {
        vendor: CpuVendor::Intel,
        family: 6,
        models: model..=model,
        steppings: ALL_STEPPINGS,
        arch,
    }
}

const fn intel_steppings(model: u32, steppings: RangeInclusive<u32>, arch: &'static str) -> Row {
    Row {
        vendor: CpuVendor::Intel,
        family: 6,
        models: model..=model,
        steppings,
        arch,
    }
}

const fn amd(family: u32, models: RangeInclusive<u32>, arch: &'static str) -> Row {
    Row {
        vendor: CpuVendor::Amd,
        family,
        models,
        steppings: ALL_STEPPINGS,
        arch,
    }
}

/// Arch names this table detects for which the project has no arch description yet
/// (`data/arch/`): callers report "no data for ZEN5" rather than an unknown CPU.
pub const DETECTED_ONLY: &[&str] = &["ZEN5"];

/// The table; the first row that matches wins. Only names of `uarch::names()` or
/// [`DETECTED_ONLY`] appear (a test checks it).
const TABLE: &[Row] = &[
    // Nehalem (Bloomfield, Lynnfield, Clarksfield, Beckton).
    intel(0x1A, "NHM"),
    intel(0x1E, "NHM"),
    intel(0x1F, "NHM"),
    intel(0x2E, "NHM"),
    // Westmere (Arrandale/Clarkdale, Gulftown/Westmere-EP, Westmere-EX).
    intel(0x25, "WSM"),
    intel(0x2C, "WSM"),
    intel(0x2F, "WSM"),
    intel(0x2A, "SNB"),
    intel(0x2D, "SNB"),
    intel(0x3A, "IVB"),
    intel(0x3E, "IVB"),
    intel(0x3C, "HSW"),
    intel(0x3F, "HSW"),
    intel(0x45, "HSW"),
    intel(0x46, "HSW"),
    intel(0x3D, "BDW"),
    intel(0x47, "BDW"),
    intel(0x4F, "BDW"),
    intel(0x56, "BDW"),
    intel(0x4E, "SKL"),
    intel(0x5E, "SKL"),
    // Model 55h: Skylake-SP up to stepping 4, Cascade Lake from 5 (5–7), Cooper Lake 10–11
    // (Cascade Lake's core; the project has no CPL description).
    intel_steppings(0x55, 0..=4, "SKX"),
    intel_steppings(0x55, 5..=0xF, "CLX"),
    // Models 8Eh/9Eh are shared by Kaby Lake and Coffee Lake, told apart by stepping:
    // 8Eh 9 Kaby Lake (and Amber Lake Y), 10 Kaby Lake R (a Kaby Lake core), 11 Whiskey Lake,
    // 12 Comet Lake U / Amber Lake (Coffee Lake's core); 9Eh 9 Kaby Lake, 10–13 Coffee Lake.
    intel_steppings(0x8E, 0..=10, "KBL"),
    intel_steppings(0x8E, 11..=0xF, "CFL"),
    intel_steppings(0x9E, 0..=9, "KBL"),
    intel_steppings(0x9E, 10..=0xF, "CFL"),
    // Comet Lake S/H: the Skylake core of Coffee Lake.
    intel(0xA5, "CFL"),
    intel(0xA6, "CFL"),
    intel(0x6A, "ICL"),
    intel(0x6C, "ICL"),
    intel(0x7D, "ICL"),
    intel(0x7E, "ICL"),
    intel(0x8C, "TGL"),
    intel(0x8D, "TGL"),
    intel(0xA7, "RKL"),
    // Alder Lake, and Raptor Lake (B7h, BAh, BFh) whose Raptor Cove P-core is Golden Cove's;
    // Sapphire Rapids (8Fh) and Emerald Rapids (CFh), the same cores as servers.
    intel(0x97, "ADL-P"),
    intel(0x9A, "ADL-P"),
    intel(0xB7, "ADL-P"),
    intel(0xBA, "ADL-P"),
    intel(0xBF, "ADL-P"),
    intel(0x8F, "ADL-P"),
    intel(0xCF, "ADL-P"),
    // Redwood Cove: Meteor Lake (AAh, ACh) and Granite Rapids (ADh, AEh).
    intel(0xAA, "MTL-P"),
    intel(0xAC, "MTL-P"),
    intel(0xAD, "MTL-P"),
    intel(0xAE, "MTL-P"),
    // Family 17h: Zen (01h, 11h, 20h) and Zen+ (08h, 18h), one arch for both cores.
    amd(0x17, 0x01..=0x01, "ZEN+"),
    amd(0x17, 0x08..=0x08, "ZEN+"),
    amd(0x17, 0x11..=0x11, "ZEN+"),
    amd(0x17, 0x18..=0x18, "ZEN+"),
    amd(0x17, 0x20..=0x20, "ZEN+"),
    // Family 17h Zen 2: Rome (31h), Renoir/Lucienne (60h), Matisse (71h), Van Gogh (90h),
    // Mendocino (A0h) and the console/embedded parts (47h, 68h, 98h).
    amd(0x17, 0x31..=0x31, "ZEN2"),
    amd(0x17, 0x47..=0x47, "ZEN2"),
    amd(0x17, 0x60..=0x60, "ZEN2"),
    amd(0x17, 0x68..=0x68, "ZEN2"),
    amd(0x17, 0x71..=0x71, "ZEN2"),
    amd(0x17, 0x90..=0x90, "ZEN2"),
    amd(0x17, 0x98..=0x98, "ZEN2"),
    amd(0x17, 0xA0..=0xA0, "ZEN2"),
    // Family 19h: Zen 3 (Milan 00h–0Fh, Vermeer/Cezanne/Rembrandt 20h–5Fh), Zen 4 (Genoa
    // 10h–1Fh, Raphael/Phoenix 60h–7Fh, Siena/Bergamo A0h–AFh).
    amd(0x19, 0x00..=0x0F, "ZEN3"),
    amd(0x19, 0x20..=0x5F, "ZEN3"),
    amd(0x19, 0x10..=0x1F, "ZEN4"),
    amd(0x19, 0x60..=0x7F, "ZEN4"),
    amd(0x19, 0xA0..=0xAF, "ZEN4"),
    // Family 1Ah: Zen 5 (Turin, Granite Ridge, Strix Point...).
    amd(0x1A, 0x00..=0xFF, "ZEN5"),
];

/// The arch name of a CPUID signature, when the table knows it. The name may be one of
/// [`DETECTED_ONLY`], which has no arch description.
pub fn arch_of(sig: Signature) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|r| {
            r.vendor == sig.vendor
                && r.family == sig.family
                && r.models.contains(&sig.model)
                && r.steppings.contains(&sig.stepping)
        })
        .map(|r| r.arch)
}

/// Decodes CPUID leaf 0 (vendor registers EBX, EDX, ECX) and leaf 1 EAX into a signature.
pub fn decode(vendor: [u32; 3], leaf1_eax: u32) -> Option<Signature> {
    let mut name = [0u8; 12];
    for (i, w) in vendor.iter().enumerate() {
        name[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let vendor = match &name {
        b"GenuineIntel" => CpuVendor::Intel,
        b"AuthenticAMD" => CpuVendor::Amd,
        _ => return None,
    };
    let eax = leaf1_eax;
    let base_family = (eax >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((eax >> 20) & 0xFF)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xF {
        (((eax >> 16) & 0xF) << 4) | ((eax >> 4) & 0xF)
    } else {
        (eax >> 4) & 0xF
    };
    Some(Signature {
        vendor,
        family,
        model,
        stepping: eax & 0xF,
    })
}

/// The host's CPUID signature (x86-64 only).
pub fn signature() -> Option<Signature> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        let v = __cpuid(0);
        decode([v.ebx, v.edx, v.ecx], __cpuid(1).eax)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The core of a CPU whose CPUID model names one of the table's Intel cores before Golden
/// Cove although it has AMX (`amx`), which came with Sapphire Rapids: a hypervisor can report
/// another model than the CPU's (seen: family 6 model 167, Rocket Lake, on a core with AMX,
/// AVX512-FP16, a 64 KiB L1I and a 480 MiB L3). The L1I tells the AMX cores apart: 64 KiB on
/// Redwood Cove (MTL-P, Granite Rapids), 32 KiB on Golden and Raptor Cove (ADL-P, Sapphire and
/// Emerald Rapids). `None` when the model stands.
pub fn later_core(sig: Signature, amx: bool, l1i_kib: Option<u32>) -> Option<&'static str> {
    let named = arch_of(sig)?;
    let amx_core = matches!(named, "ADL-P" | "MTL-P");
    (amx && sig.vendor == CpuVendor::Intel && !amx_core).then_some(match l1i_kib {
        Some(64) => "MTL-P",
        _ => "ADL-P",
    })
}

/// Whether the host mixes core types (CPUID leaf 7, EDX bit 15: Alder Lake and later
/// client parts): a process pinned to some CPU may run on an efficiency core, whose timings
/// are not the arch's.
pub fn is_hybrid() -> bool {
    leaf7_edx_bit(15)
}

/// Whether the host has AMX tiles (CPUID leaf 7, EDX bit 24).
fn host_has_amx() -> bool {
    leaf7_edx_bit(24)
}

/// Bit `bit` of CPUID leaf 7 (subleaf 0) EDX; false where the leaf does not exist.
fn leaf7_edx_bit(bit: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__cpuid, __cpuid_count};
        __cpuid(0).eax >= 7 && __cpuid_count(7, 0).edx & (1 << bit) != 0
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = bit;
        false
    }
}

/// The host's level-1 instruction cache in KiB (Intel's deterministic cache parameters,
/// CPUID leaf 4), when it reports one.
fn host_l1i_kib() -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__cpuid, __cpuid_count};
        if __cpuid(0).eax < 4 {
            return None;
        }
        (0..8).map(|i| __cpuid_count(4, i)).find_map(|c| {
            let (kind, level) = (c.eax & 0x1F, (c.eax >> 5) & 0x7);
            let ways = (c.ebx >> 22) + 1;
            let partitions = ((c.ebx >> 12) & 0x3FF) + 1;
            let line = (c.ebx & 0xFFF) + 1;
            (kind == 2 && level == 1).then(|| ways * partitions * line * (c.ecx + 1) / 1024)
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// What CPUID says of the host, read once per process: every run without `--arch` detects
/// the host, some name it twice (the arch and its note), and CPUID exits to the hypervisor
/// under KVM.
struct Host {
    sig: Signature,
    /// The arch its model names.
    named: &'static str,
    /// The later core its features say it is ([`later_core`]).
    later: Option<&'static str>,
    /// Its L1I, read only when it has AMX (the only case that needs it).
    l1i_kib: Option<u32>,
}

fn host() -> Option<&'static Host> {
    static HOST: std::sync::OnceLock<Option<Host>> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let sig = signature()?;
        let named = arch_of(sig)?;
        let amx = host_has_amx();
        let l1i_kib = if amx { host_l1i_kib() } else { None };
        Some(Host {
            sig,
            named,
            later: later_core(sig, amx, l1i_kib),
            l1i_kib,
        })
    })
    .as_ref()
}

/// Why the host is taken for a later core than its CPUID model names ([`later_core`]), for
/// the notes that name the host's arch.
pub fn mismatch() -> Option<String> {
    let h = host()?;
    let core = h.later?;
    let l1i = h
        .l1i_kib
        .map_or_else(|| "no L1I size".to_string(), |k| format!("a {k} KiB L1I"));
    Some(format!(
        "CPUID reports family {} model {} ({}), but the CPU has AMX, which no core before \
         Sapphire Rapids has (a hypervisor may report another model), and {l1i}: taken as \
         {core}",
        h.sig.family, h.sig.model, h.named
    ))
}

/// The host's arch name, when known (possibly one of [`DETECTED_ONLY`]); the later core when
/// the CPU's features contradict its model ([`mismatch`]).
pub fn detect() -> Option<&'static str> {
    host().map(|h| h.later.unwrap_or(h.named))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intel(model: u32, stepping: u32) -> Signature {
        Signature {
            vendor: CpuVendor::Intel,
            family: 6,
            model,
            stepping,
        }
    }

    fn amd(family: u32, model: u32) -> Signature {
        Signature {
            vendor: CpuVendor::Amd,
            family,
            model,
            stepping: 1,
        }
    }

    /// AMX on a CPU whose model names one of the table's earlier Intel cores means a later
    /// core behind another model (this project's Intel host: model 167, RKL, with AMX and a
    /// 64 KiB L1I); without AMX, or on AMD, or for a model the table lacks or names an AMX
    /// core, the model stands.
    #[test]
    fn amx_on_an_earlier_model_is_a_later_core() {
        assert_eq!(later_core(intel(0xA7, 1), true, Some(64)), Some("MTL-P"));
        assert_eq!(later_core(intel(0xA7, 1), true, Some(32)), Some("ADL-P"));
        assert_eq!(later_core(intel(0x6A, 4), true, None), Some("ADL-P"));
        assert_eq!(later_core(intel(0xA7, 1), false, Some(64)), None);
        assert_eq!(later_core(intel(0x8F, 8), true, Some(32)), None); // Sapphire Rapids
        assert_eq!(later_core(intel(0xAD, 1), true, Some(64)), None); // Granite Rapids
        assert_eq!(later_core(intel(0x01, 1), true, Some(64)), None); // no row
        assert_eq!(later_core(amd(0x19, 0x11), true, Some(32)), None);
    }

    /// One case per row of [`TABLE`], in its order.
    #[test]
    fn every_row() {
        let cases: &[(Signature, &str)] = &[
            (intel(0x1A, 5), "NHM"),
            (intel(0x1E, 5), "NHM"),
            (intel(0x1F, 5), "NHM"),
            (intel(0x2E, 6), "NHM"),
            (intel(0x25, 5), "WSM"),
            (intel(0x2C, 2), "WSM"),
            (intel(0x2F, 2), "WSM"),
            (intel(0x2A, 7), "SNB"),
            (intel(0x2D, 7), "SNB"),
            (intel(0x3A, 9), "IVB"),
            (intel(0x3E, 4), "IVB"),
            (intel(0x3C, 3), "HSW"),
            (intel(0x3F, 2), "HSW"),
            (intel(0x45, 1), "HSW"),
            (intel(0x46, 1), "HSW"),
            (intel(0x3D, 4), "BDW"),
            (intel(0x47, 1), "BDW"),
            (intel(0x4F, 1), "BDW"),
            (intel(0x56, 3), "BDW"),
            (intel(0x4E, 3), "SKL"),
            (intel(0x5E, 3), "SKL"),
            (intel(0x55, 4), "SKX"),
            (intel(0x55, 7), "CLX"),
            (intel(0x8E, 9), "KBL"),
            (intel(0x8E, 11), "CFL"),
            (intel(0x9E, 9), "KBL"),
            (intel(0x9E, 10), "CFL"),
            (intel(0xA5, 2), "CFL"),
            (intel(0xA6, 0), "CFL"),
            (intel(0x6A, 6), "ICL"),
            (intel(0x6C, 1), "ICL"),
            (intel(0x7D, 5), "ICL"),
            (intel(0x7E, 5), "ICL"),
            (intel(0x8C, 1), "TGL"),
            (intel(0x8D, 1), "TGL"),
            (intel(0xA7, 1), "RKL"),
            (intel(0x97, 2), "ADL-P"),
            (intel(0x9A, 3), "ADL-P"),
            (intel(0xB7, 1), "ADL-P"),
            (intel(0xBA, 2), "ADL-P"),
            (intel(0xBF, 2), "ADL-P"),
            (intel(0x8F, 8), "ADL-P"),
            (intel(0xCF, 2), "ADL-P"),
            (intel(0xAA, 4), "MTL-P"),
            (intel(0xAC, 0), "MTL-P"),
            (intel(0xAD, 1), "MTL-P"),
            (intel(0xAE, 1), "MTL-P"),
            (amd(0x17, 0x01), "ZEN+"),
            (amd(0x17, 0x08), "ZEN+"),
            (amd(0x17, 0x11), "ZEN+"),
            (amd(0x17, 0x18), "ZEN+"),
            (amd(0x17, 0x20), "ZEN+"),
            (amd(0x17, 0x31), "ZEN2"),
            (amd(0x17, 0x47), "ZEN2"),
            (amd(0x17, 0x60), "ZEN2"),
            (amd(0x17, 0x68), "ZEN2"),
            (amd(0x17, 0x71), "ZEN2"),
            (amd(0x17, 0x90), "ZEN2"),
            (amd(0x17, 0x98), "ZEN2"),
            (amd(0x17, 0xA0), "ZEN2"),
            (amd(0x19, 0x01), "ZEN3"),
            (amd(0x19, 0x21), "ZEN3"),
            (amd(0x19, 0x11), "ZEN4"),
            (amd(0x19, 0x61), "ZEN4"),
            (amd(0x19, 0xA0), "ZEN4"),
            (amd(0x1A, 0x02), "ZEN5"),
        ];
        assert_eq!(cases.len(), TABLE.len(), "one case per row");
        for (row, (sig, want)) in TABLE.iter().zip(cases) {
            assert_eq!(arch_of(*sig), Some(*want), "{sig:?}");
            assert_eq!(row.arch, *want, "cases follow the table's order: {sig:?}");
        }
    }

    /// The disagreements the measure and analyzer tables had (issue #18): both now read this.
    #[test]
    fn steppings_split_shared_models() {
        assert_eq!(arch_of(intel(0x55, 5)), Some("CLX"));
        assert_eq!(arch_of(intel(0x55, 11)), Some("CLX")); // Cooper Lake
        assert_eq!(arch_of(intel(0x55, 0)), Some("SKX"));
        assert_eq!(arch_of(intel(0x8E, 10)), Some("KBL")); // Kaby Lake R
        assert_eq!(arch_of(intel(0x8E, 12)), Some("CFL")); // Comet Lake U
        assert_eq!(arch_of(intel(0x9E, 13)), Some("CFL"));
    }

    #[test]
    fn the_project_hosts() {
        // Zen 4 (family 25 model 17) and Zen 5 (family 26 model 2).
        assert_eq!(arch_of(amd(25, 17)), Some("ZEN4"));
        assert_eq!(arch_of(amd(26, 2)), Some("ZEN5"));
    }

    #[test]
    fn unknown_signatures() {
        assert_eq!(arch_of(intel(0x01, 0)), None);
        assert_eq!(arch_of(amd(0x17, 0x02)), None);
        assert_eq!(arch_of(amd(0x15, 0x02)), None);
        let other_family = Signature {
            family: 0xF,
            ..intel(0x55, 7)
        };
        assert_eq!(arch_of(other_family), None);
    }

    #[test]
    fn names_are_arch_descriptions_or_detected_only() {
        for row in TABLE {
            assert!(
                crate::uarch::names().contains(&row.arch) != DETECTED_ONLY.contains(&row.arch),
                "{} must be exactly one of an arch description and DETECTED_ONLY",
                row.arch
            );
        }
    }

    #[test]
    fn decodes_leaf_1() {
        let amd_vendor = [0x6874_7541, 0x6974_6E65, 0x444D_4163]; // "Auth" "enti" "cAMD"
                                                                  // Zen 4: base family F, extended family 0Ah, extended model 1, model 1.
        let sig = decode(amd_vendor, 0x00A1_0F11).expect("AMD");
        assert_eq!((sig.family, sig.model, sig.stepping), (0x19, 0x11, 1));
        let intel_vendor = [0x756E_6547, 0x4965_6E69, 0x6C65_746E]; // "Genu" "ineI" "ntel"
                                                                    // Cascade Lake: family 6, extended model 5, model 5, stepping 7.
        let sig = decode(intel_vendor, 0x0005_0657).expect("Intel");
        assert_eq!(sig, intel(0x55, 7));
        assert_eq!(decode([0, 0, 0], 0x0005_0657), None);
    }
}
