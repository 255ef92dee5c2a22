//! `<latency>`: operand pair, exact or min/max cycles per role, upper-bound flags. The role
//! and kind tables are shared with the writer.

use std::io::BufRead;

use super::{parse_f64, parse_flag01, InstrReader};
use crate::uopsxml::error::{Pos, XmlError};
use crate::uopsxml::schema::{LatValue, Latency};

impl<R: BufRead> InstrReader<R> {
    pub(super) fn read_latency(
        &self,
        instr: &str,
        arch: &str,
        attrs: Vec<(String, String)>,
        pos: Pos,
    ) -> Result<Latency, XmlError> {
        let ctx = || self.ctx("latency", instr, Some(arch));
        let mut lat = Latency::default();
        let (mut start, mut target) = (None, None);
        // Per role: exact, min, max values and their upper-bound flags.
        let mut parts: [LatParts; LAT_ROLES.len()] = Default::default();
        let mut ub_attrs: Vec<(String, String)> = Vec::new();
        for (k, v) in attrs {
            match k.as_str() {
                "start_op" | "startOp" => {
                    start = Some(
                        v.parse::<u32>()
                            .map_err(|_| self.bad(pos, ctx(), &k, &v, "an operand index"))?,
                    )
                }
                "target_op" | "targetOp" => {
                    target = Some(
                        v.parse::<u32>()
                            .map_err(|_| self.bad(pos, ctx(), &k, &v, "an operand index"))?,
                    )
                }
                _ if k.ends_with("_is_upper_bound") => ub_attrs.push((k, v)),
                _ => match split_lat_key(&k) {
                    Some((kind, role)) => {
                        let x = parse_f64(&v)
                            .ok_or_else(|| self.bad(pos, ctx(), &k, &v, "a number of cycles"))?;
                        parts[role].vals[kind] = Some(x);
                    }
                    None => {
                        lat.extra.insert(k, v);
                    }
                },
            }
        }
        for (k, v) in ub_attrs {
            let base = &k[..k.len() - "_is_upper_bound".len()];
            match split_lat_key(base) {
                Some((kind, role)) if parts[role].vals[kind].is_some() => {
                    parts[role].ub[kind] =
                        parse_flag01(&v).ok_or_else(|| self.bad(pos, ctx(), &k, &v, "0 or 1"))?;
                }
                _ => {
                    lat.extra.insert(k, v);
                }
            }
        }
        lat.start_op = start.ok_or_else(|| XmlError::MissingAttr {
            name: self.name.clone(),
            pos,
            ctx: ctx(),
            attr: "start_op".into(),
        })?;
        lat.target_op = target.ok_or_else(|| XmlError::MissingAttr {
            name: self.name.clone(),
            pos,
            ctx: ctx(),
            attr: "target_op".into(),
        })?;
        for (role, p) in parts.iter().enumerate() {
            let value = match p.vals {
                [Some(e), min, max] => {
                    // An exact value wins; a range next to it is kept verbatim.
                    for (kind, v) in [(1, min), (2, max)] {
                        if let Some(v) = v {
                            lat.extra
                                .insert(lat_key(kind, role), crate::uopsxml::write::fmt_num(v));
                        }
                    }
                    Some(LatValue {
                        min: e,
                        max: e,
                        upper_bound: p.ub[0],
                    })
                }
                [None, Some(lo), hi] => Some(LatValue {
                    min: lo,
                    max: hi.unwrap_or(lo),
                    upper_bound: p.ub[1] || p.ub[2],
                }),
                [None, None, Some(hi)] => Some(LatValue {
                    min: hi,
                    max: hi,
                    upper_bound: p.ub[2],
                }),
                [None, None, None] => None,
            };
            *lat_field(&mut lat, role) = value;
        }
        Ok(lat)
    }
}

#[derive(Default)]
struct LatParts {
    /// exact (`cycles`), `min_cycles`, `max_cycles`
    vals: [Option<f64>; 3],
    ub: [bool; 3],
}

/// Role suffixes of latency attributes, in the order the writer emits them.
pub(crate) const LAT_ROLES: [&str; 7] = [
    "",
    "_same_reg",
    "_addr",
    "_addr_index",
    "_mem",
    "_addr_same_reg",
    "_mem_same_reg",
];

const LAT_KINDS: [&str; 3] = ["cycles", "min_cycles", "max_cycles"];

pub(crate) fn lat_key(kind: usize, role: usize) -> String {
    format!("{}{}", LAT_KINDS[kind], LAT_ROLES[role])
}

/// `min_cycles_addr` → (1, 2).
fn split_lat_key(k: &str) -> Option<(usize, usize)> {
    let (kind, rest) = if let Some(r) = k.strip_prefix("min_cycles") {
        (1, r)
    } else if let Some(r) = k.strip_prefix("max_cycles") {
        (2, r)
    } else {
        (0, k.strip_prefix("cycles")?)
    };
    let role = LAT_ROLES.iter().position(|r| *r == rest)?;
    Some((kind, role))
}

pub(crate) fn lat_field(lat: &mut Latency, role: usize) -> &mut Option<LatValue> {
    match role {
        0 => &mut lat.cycles,
        1 => &mut lat.cycles_same_reg,
        2 => &mut lat.cycles_addr,
        3 => &mut lat.cycles_addr_index,
        4 => &mut lat.cycles_mem,
        5 => &mut lat.cycles_addr_same_reg,
        _ => &mut lat.cycles_mem_same_reg,
    }
}
