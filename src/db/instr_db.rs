//! [`InstrDb`]: one arch's uops.info variants, indexed for matching, and the
//! [`InstrDesc`] of a matched instruction.
//!
//! Facts from: uops.info's `instructions.xml` attributes (docs/sources.md): `uops`, `ports`,
//! `uops_retire_slots`, `uops_MITE`, `uops_MS`, `macro_fusible`; `div_cycles`, replaced by
//! `TP_unrolled` where that is lower because dividers are partially pipelined; throughput
//! `TP_unrolled`, else `TP_ports`; the `_same_reg`/`_indexed` attribute groups.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use iced_x86::{Instruction, OpKind};

use super::desc::{InstrDesc, PortGroupDesc, Variant};
use super::form::Form;
use super::latency;
use super::matcher::{self, NoMatch};
use super::names::{iclass_candidates, xed_base_name};
use crate::ir::Instr;
use crate::uarch::PortMask;
use crate::uopsxml::{InstrRecord, MeasureValues, PortGroup};

/// The register-independent part of an [`InstrDesc`], computed once per (variant, group).
#[derive(Clone, Debug, PartialEq)]
struct Static {
    uops: u32,
    port_groups: Vec<PortGroupDesc>,
    fused_uops: Option<u32>,
    uops_mite: Option<u32>,
    uops_ms: Option<u32>,
    complex_decoder: Option<bool>,
    simple_decoders: Option<u32>,
    div_cycles: Option<u32>,
    macro_fusible_with: Vec<String>,
    throughput: Option<f64>,
}

/// The matched uops.info variant of an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Match<'a> {
    /// uops.info `string`, e.g. `ADD_01 (R64, R64)`.
    pub string: &'a str,
    /// XED iform, e.g. `ADD_GPRv_GPRv_01`.
    pub iform: &'a str,
    /// The measurement group that applies.
    pub variant: Variant,
    /// Whether the variant has a measurement for the database's arch.
    pub measured: bool,
    form: usize,
}

/// One micro-architecture's instruction data, ready to describe decoded instructions.
#[derive(Debug)]
pub struct InstrDb {
    arch: String,
    /// The arch's load-to-use latency, for loads the data gives no latency
    /// ([`InstrDb::with_load_latency`]).
    load_latency: Option<u32>,
    forms: Vec<Form>,
    by_iclass: HashMap<String, Vec<usize>>,
    /// Per form: Plain, SameReg, Indexed statics (`Err` = unusable data, with the reason).
    statics: Vec<[Option<Result<Static, String>>; 3]>,
    /// Descriptions already made by [`InstrDb::describe_decoded`], by encoding.
    memo: DescMemo,
}

/// The memo key of a decoded instruction ([`memo_key`]).
type MemoKey = Instruction;

/// Shards of [`DescMemo`]: threads describing different instructions seldom wait on the
/// same lock.
const MEMO_SHARDS: usize = 16;
/// Descriptions a shard keeps before it starts over: memory stays bounded however long the
/// batch (16 × 4096 entries of a few hundred bytes).
const MEMO_SHARD_CAP: usize = 4096;

/// The descriptions of decoded instructions by [`memo_key`]. A batch describes the same few
/// thousand instructions over and over (matching was an eighth of `suaca batch`'s time).
#[derive(Debug, Default)]
struct DescMemo {
    shards: [Mutex<HashMap<MemoKey, Result<InstrDesc, NoMatch>>>; MEMO_SHARDS],
}

/// What the description of an instruction decoded from its bytes depends on: the iced
/// instruction without its address, its length (iced's `==` and `Hash` leave out both) and
/// its displacement or branch target. Matching reads the displacement's size, never its
/// value, and [`Instr::mem`] follows from the rest (its registers and operand numbers).
/// The displacement field also holds the high half of a 64-bit immediate and a second
/// 8-bit immediate (and far-branch selectors): kept where the instruction has those.
fn memo_key(iced: &Instruction) -> MemoKey {
    let mut key = *iced;
    key.set_next_ip(0);
    let kinds = (0..iced.op_count()).map(|k| iced.op_kind(k));
    let shared = kinds.clone().any(|k| {
        matches!(
            k,
            OpKind::Immediate64
                | OpKind::Immediate8_2nd
                | OpKind::FarBranch16
                | OpKind::FarBranch32
        )
    });
    let displaced = kinds.clone().any(|k| {
        matches!(
            k,
            OpKind::Memory | OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64
        )
    });
    if displaced && !shared {
        key.set_memory_displacement64(0);
    }
    key
}

fn variant_slot(v: Variant) -> usize {
    match v {
        Variant::Plain => 0,
        Variant::SameReg => 1,
        Variant::Indexed => 2,
    }
}

fn non_negative(v: Option<i32>) -> Option<u32> {
    v.map(|v| v.max(0) as u32)
}

/// Most µops a gather or scatter may have (16 elements measured 85–96 on Zen 4).
const MAX_GATHER_UOPS: u32 = 128;

/// Whether the instruction named `name` (an iclass, or the first word of a uops.info string
/// such as `DIVSD (XMM, XMM)`) runs on the divider: divides and square roots, integer, SSE,
/// AVX and x87 (not the reciprocal estimates `RSQRT*`).
pub fn uses_divider(name: &str) -> bool {
    let name = name.split_whitespace().next().unwrap_or("");
    [
        "DIV", "IDIV", "VDIV", "FDIV", "FIDIV", "SQRT", "VSQRT", "FSQRT",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// The divider's busy cycles of a divide that has none in the data: uops.info counts them
/// only where a performance counter exists (Intel); on AMD the throughput its ports do not
/// explain is the divider's, to the nearest whole cycle (`TP_unrolled` 4.5 with `TP_ports`
/// 0.5: 5 cycles, as `suaca measure` counts `DIVSD` on Zen 4).
fn divider_from_throughput(tp_unrolled: Option<f64>, tp_ports: Option<f64>) -> Option<u32> {
    let tp = tp_unrolled?;
    (tp >= tp_ports.unwrap_or(0.0) + 1.0).then(|| (tp.round() as u32).max(1))
}

fn make_static(
    v: &MeasureValues,
    base: &MeasureValues,
    ports: &dyn Fn(&PortGroup) -> Option<PortMask>,
    max_uops: u32,
    divides: bool,
    indexed: bool,
) -> Result<Static, String> {
    let mut port_groups = Vec::new();
    for g in v.ports.iter().flat_map(|p| &p.groups) {
        let mask = ports(g).ok_or_else(|| format!("unknown ports {}{}", g.prefix, g.ports))?;
        port_groups.push(PortGroupDesc {
            count: g.count,
            ports: mask,
        });
    }
    // An indexed form does the plain form's work: where its measured ports account for
    // fewer µops than it has and than the plain form's ports (uops.info's MTL-P records list
    // only the load of 475 indexed load-op forms, `1*p23A` for `vaddpd xmm, xmm, [b+i]`),
    // the plain form's ports stand in for the µops left out.
    if indexed {
        fill_from_base(&mut port_groups, v.uops.unwrap_or(0), base, ports);
    }
    let port_uops: u32 = port_groups.iter().map(|g| g.count).sum();
    // More µops than an instruction may have is unusable data (`suaca measure`'s filler
    // inference on a fence that stops dispatch: LFENCE 88, MFENCE 530), reported per line
    // like missing data rather than failing the whole region. Gathers and scatters of 16
    // elements really have 85–96 (measured on Zen 4); the program builder places the µops
    // beyond the engine's per-instruction limit as port-only parts of the same line.
    let max = max_uops;
    if port_uops.max(v.uops.unwrap_or(0)) > max {
        return Err(format!(
            "{} µops; at most {max} are simulated",
            port_uops.max(v.uops.unwrap_or(0))
        ));
    }
    // Fields a suffixed group leaves out (divider, fusion, throughput) come from the plain one.
    let tp_unrolled = v.tp_unrolled.or(base.tp_unrolled);
    let div_cycles = v
        .div_cycles
        .or(base.div_cycles)
        .map(|d| match tp_unrolled {
            Some(tp) if tp < d as f64 => (tp.floor() as u32).max(1),
            _ => d,
        })
        .or_else(|| {
            divides
                .then(|| divider_from_throughput(tp_unrolled, v.tp_ports.or(base.tp_ports)))
                .flatten()
        });
    Ok(Static {
        uops: v.uops.unwrap_or(port_uops),
        port_groups,
        fused_uops: non_negative(v.uops_retire_slots),
        uops_mite: non_negative(v.uops_mite),
        uops_ms: non_negative(v.uops_ms),
        complex_decoder: v.complex_decoder,
        simple_decoders: v.available_simple_decoders,
        div_cycles,
        macro_fusible_with: v
            .macro_fusible
            .clone()
            .or_else(|| base.macro_fusible.clone())
            .unwrap_or_default(),
        throughput: tp_unrolled.or(v.tp_ports),
    })
}

/// Adds the plain measurement's port groups that `groups` lacks, µop for µop, up to `uops`.
fn fill_from_base(
    groups: &mut Vec<PortGroupDesc>,
    uops: u32,
    base: &MeasureValues,
    ports: &dyn Fn(&PortGroup) -> Option<PortMask>,
) {
    let mut missing = uops.saturating_sub(groups.iter().map(|g| g.count).sum());
    for g in base.ports.iter().flat_map(|p| &p.groups) {
        let Some(mask) = ports(g) else { continue };
        let have: u32 = groups
            .iter()
            .filter(|d| d.ports == mask)
            .map(|d| d.count)
            .sum();
        let add = g.count.saturating_sub(have).min(missing);
        if add > 0 {
            groups.push(PortGroupDesc {
                count: add,
                ports: mask,
            });
            missing -= add;
        }
    }
}

impl InstrDb {
    /// Builds the database of `arch` (uops.info name, e.g. `SKL`) from `records` (all
    /// variants; those without a measurement for `arch` still match, as [`NoMatch::NoData`]).
    /// `ports` maps a port group (`p015`) to the arch's simulated ports. Everything that does
    /// not depend on the concrete registers (operand classes, port masks, µop counts) is
    /// computed here, once per variant.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use suaca::uopsxml::{read_file, ArchFilter};
    /// let records = read_file("instructions.xml".as_ref(), &ArchFilter::All)?;
    /// let skl = suaca::uarch::load("SKL")?;
    /// let db = suaca::db::InstrDb::new(&records, "SKL", |g| skl.port_mask(g));
    /// for instr in suaca::decode::decode_bytes(&[0x48, 0x01, 0xd8], 0)? {
    ///     match db.describe(&instr) {
    ///         Ok(desc) => println!("{}: {} uops", desc.string, desc.uops),
    ///         Err(why) => println!("X ({why})"),
    ///     }
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn new<'r>(
        records: impl IntoIterator<Item = &'r InstrRecord>,
        arch: &str,
        ports: impl Fn(&PortGroup) -> Option<PortMask>,
    ) -> InstrDb {
        let forms: Vec<Form> = records.into_iter().map(|r| Form::new(r, arch)).collect();
        let mut by_iclass: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, f) in forms.iter().enumerate() {
            by_iclass.entry(f.iclass.clone()).or_default().push(i);
        }
        let statics = forms
            .iter()
            .map(|f| {
                let Some(m) = &f.measurement else {
                    return [None, None, None];
                };
                let max_uops = if f.iclass.contains("GATHER") || f.iclass.contains("SCATTER") {
                    MAX_GATHER_UOPS
                } else {
                    crate::sim::MAX_UOPS_PER_INSTR as u32
                };
                let divides = uses_divider(&f.iclass);
                let mk = |v: &MeasureValues, indexed: bool| {
                    make_static(v, &m.base, &ports, max_uops, divides, indexed)
                };
                [
                    Some(mk(&m.base, false)),
                    m.same_reg.as_ref().map(|v| mk(v, false)),
                    m.indexed.as_ref().map(|v| mk(v, true)),
                ]
            })
            .collect();
        InstrDb {
            arch: arch.to_string(),
            load_latency: None,
            forms,
            by_iclass,
            statics,
            memo: DescMemo::default(),
        }
    }

    /// The database the analysis of `arch` uses: its port notation and, for loads without
    /// latency data, its L1 latency ([`InstrDb::with_load_latency`]). The analyzer and
    /// batch build theirs here, so both describe an instruction alike.
    pub fn for_arch<'r>(
        records: impl IntoIterator<Item = &'r InstrRecord>,
        arch: &crate::uarch::MicroArch,
    ) -> InstrDb {
        InstrDb::new(records, &arch.name, |g| arch.port_mask(g))
            .with_load_latency(arch.memory.l1_latency)
    }

    /// Gives an integer load the data has no latency for (our ZEN4 data: `pop`, `cmp m,
    /// imm`, `test m, imm`) `cycles` from its address registers to its general-register and
    /// flag results, one more when it also computes (the arch's `memory.l1_latency`);
    /// without it such an instruction counts one cycle.
    pub fn with_load_latency(mut self, cycles: Option<u32>) -> Self {
        self.load_latency = cycles;
        self
    }

    /// The uops.info arch name this database describes.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Number of variants (measured or not).
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Whether the database has no variants.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// Finds the uops.info variant of `instr` (measured for this arch or not).
    pub fn find(&self, instr: &Instruction) -> Result<Match<'_>, NoMatch> {
        let ops = matcher::iced_ops(instr);
        let mut known_iclass = false;
        for iclass in iclass_candidates(instr) {
            let Some(idx) = self.by_iclass.get(&iclass) else {
                continue;
            };
            known_iclass = true;
            let fit = |strict| -> Vec<usize> {
                idx.iter()
                    .copied()
                    .filter(|&i| matcher::agrees(&self.forms[i], instr, &ops, strict))
                    .collect()
            };
            let mut fits = fit(true);
            if fits.is_empty() {
                fits = fit(false);
            }
            if fits.is_empty() {
                continue;
            }
            let scores: Vec<u32> = fits
                .iter()
                .map(|&i| matcher::score(&self.forms[i], instr, &ops))
                .collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            let top: Vec<usize> = fits
                .iter()
                .zip(&scores)
                .filter(|(_, s)| **s == best)
                .map(|(i, _)| *i)
                .collect();
            let top = if top.len() > 1 {
                matcher::break_tie(&self.forms, top, instr)
            } else {
                top
            };
            if let [one] = top[..] {
                let form = &self.forms[one];
                return Ok(Match {
                    string: &form.string,
                    iform: &form.iform,
                    variant: matcher::variant(form, instr, &ops),
                    measured: form.measurement.is_some(),
                    form: one,
                });
            }
            return Err(NoMatch::Ambiguous {
                candidates: top.iter().map(|&i| self.forms[i].string.clone()).collect(),
            });
        }
        let mnemonic = xed_base_name(instr.mnemonic());
        if known_iclass {
            Err(NoMatch::NoOperandMatch {
                mnemonic,
                signature: matcher::signature(instr),
            })
        } else {
            Err(NoMatch::UnknownMnemonic { mnemonic })
        }
    }

    /// `(iform, string)` of the variant of `instr`, for `--iform` output.
    pub fn iform_and_string(&self, instr: &Instruction) -> Result<(&str, &str), NoMatch> {
        self.find(instr).map(|m| (m.iform, m.string))
    }

    /// [`InstrDb::describe`] of an instruction decoded from its bytes
    /// ([`crate::decode::decode_bytes`]), remembered by `memo_key`: an instruction that
    /// differs from an earlier one only in address, length or displacement (or branch target)
    /// gets a copy of that one's description, which is what describing it would give.
    pub fn describe_decoded(&self, instr: &Instr) -> Result<InstrDesc, NoMatch> {
        let key = memo_key(&instr.iced);
        let shard = {
            let mut h = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&key, &mut h);
            std::hash::Hasher::finish(&h) as usize % MEMO_SHARDS
        };
        // A panic while a lock was held leaves only a memo without that entry: keep using it.
        let lock = || {
            self.memo.shards[shard]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(known) = lock().get(&key) {
            return known.clone();
        }
        let desc = self.describe(instr);
        let mut memo = lock();
        if memo.len() >= MEMO_SHARD_CAP {
            memo.clear();
        }
        memo.insert(key, desc.clone());
        desc
    }

    /// Describes `instr` on this arch. Instructions without data are an `Err`, which callers
    /// report like IACA's `X`, not as a failure.
    pub fn describe(&self, instr: &Instr) -> Result<InstrDesc, NoMatch> {
        let m = self.find(&instr.iced)?;
        let form = &self.forms[m.form];
        let no_data = || NoMatch::NoData {
            string: form.string.clone(),
        };
        let meas = form.measurement.as_ref().ok_or_else(no_data)?;
        let slots = &self.statics[m.form];
        let st = slots[variant_slot(m.variant)]
            .as_ref()
            .or(slots[0].as_ref())
            .ok_or_else(no_data)?
            .clone()
            .map_err(|reason| NoMatch::BadData {
                string: form.string.clone(),
                reason,
            })?;
        let mut latencies = latency::resolve(form, &meas.latencies, instr, m.variant);
        if let (true, Some(load)) = (latencies.is_empty(), self.load_latency) {
            latencies = latency::load_fallback(instr, f64::from(load));
        }
        let max_latency = latencies
            .iter()
            .map(|l| l.cycles)
            .reduce(f64::max)
            .unwrap_or(1.0);
        Ok(InstrDesc {
            string: form.string.clone(),
            iform: form.iform.clone(),
            variant: m.variant,
            uops: st.uops,
            port_groups: st.port_groups,
            fused_uops: st.fused_uops,
            uops_mite: st.uops_mite,
            uops_ms: st.uops_ms,
            complex_decoder: st.complex_decoder,
            simple_decoders: st.simple_decoders,
            div_cycles: st.div_cycles,
            macro_fusible_with: st.macro_fusible_with,
            throughput: st.throughput,
            latencies,
            max_latency,
        })
    }
}
