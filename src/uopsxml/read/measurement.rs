//! `<architecture>` and its first `<measurement>`: µop counts, ports (modern and 2018
//! notation), throughputs, the `_same_reg`/`_indexed` variants, and the `<latency>` children.

use std::io::BufRead;

use super::{parse_f64, parse_flag01, Ev, InstrReader};
use crate::uopsxml::error::{Pos, XmlError};
use crate::uopsxml::ports::port_attr_ports;
use crate::uopsxml::schema::{ArchRecord, MeasureValues, Measurement, PortUsage};

impl<R: BufRead> InstrReader<R> {
    pub(super) fn read_arch(
        &mut self,
        instr: &str,
        attrs: Vec<(String, String)>,
        empty: bool,
        pos: Pos,
    ) -> Result<Option<ArchRecord>, XmlError> {
        let mut arch = ArchRecord::default();
        let mut has_name = false;
        for (k, v) in attrs {
            if k == "name" {
                arch.name = v;
                has_name = true;
            } else {
                arch.attrs.insert(k, v);
            }
        }
        if !has_name {
            return Err(XmlError::MissingAttr {
                name: self.name.clone(),
                pos,
                ctx: self.ctx("architecture", instr, None),
                attr: "name".into(),
            });
        }
        if !self.filter.wants(&arch.name) {
            if !empty {
                self.skip_subtree()?;
            }
            return Ok(None);
        }
        if !empty {
            loop {
                match self.next_inner()? {
                    Ev::Close => break,
                    Ev::Text(_) => {}
                    Ev::Open {
                        name,
                        attrs,
                        empty,
                        pos,
                    } => {
                        if name == "measurement" && arch.measurement.is_none() {
                            let m = self.read_measurement(instr, &arch.name, attrs, empty, pos)?;
                            arch.measurement = Some(m);
                        } else if !empty {
                            self.skip_subtree()?;
                        }
                    }
                }
            }
        }
        Ok(Some(arch))
    }

    fn read_measurement(
        &mut self,
        instr: &str,
        arch: &str,
        attrs: Vec<(String, String)>,
        empty: bool,
        pos: Pos,
    ) -> Result<Measurement, XmlError> {
        let mut m = Measurement::default();
        let mut vals: [(MeasureValues, bool); 3] = Default::default();
        let mut old_ports: [Vec<(String, String)>; 3] = Default::default();
        let bad = |k: &str, v: &str, exp: &str| {
            self.bad(pos, self.ctx("measurement", instr, Some(arch)), k, v, exp)
        };
        for (k, v) in attrs {
            let (base, variant) = if let Some(b) = k.strip_suffix("_same_reg") {
                (b, 1)
            } else if let Some(b) = k.strip_suffix("_indexed") {
                (b, 2)
            } else {
                (k.as_str(), 0)
            };
            let (mv, touched) = &mut vals[variant];
            match base {
                "uops" | "total_uops" => {
                    mv.uops = Some(v.parse().map_err(|_| bad(&k, &v, "an unsigned integer"))?)
                }
                "uops_retire_slots" => {
                    mv.uops_retire_slots = Some(v.parse().map_err(|_| bad(&k, &v, "an integer"))?)
                }
                "uops_MITE" => {
                    mv.uops_mite = Some(v.parse().map_err(|_| bad(&k, &v, "an integer"))?)
                }
                "uops_MS" => mv.uops_ms = Some(v.parse().map_err(|_| bad(&k, &v, "an integer"))?),
                "complex_decoder" => {
                    mv.complex_decoder =
                        Some(parse_flag01(&v).ok_or_else(|| bad(&k, &v, "0 or 1"))?)
                }
                "available_simple_decoders" => {
                    mv.available_simple_decoders =
                        Some(v.parse().map_err(|_| bad(&k, &v, "an unsigned integer"))?)
                }
                "TP_unrolled" => {
                    mv.tp_unrolled = Some(parse_f64(&v).ok_or_else(|| bad(&k, &v, "a number"))?)
                }
                "TP_loop" => {
                    mv.tp_loop = Some(parse_f64(&v).ok_or_else(|| bad(&k, &v, "a number"))?)
                }
                "TP_ports" => {
                    mv.tp_ports = Some(parse_f64(&v).ok_or_else(|| bad(&k, &v, "a number"))?)
                }
                "ports" => {
                    let p: PortUsage =
                        v.parse()
                            .map_err(|e: crate::uopsxml::ports::PortParseError| {
                                bad(&k, &v, &e.reason)
                            })?;
                    mv.ports = Some(p);
                }
                "div_cycles" | "div-cycles" => {
                    mv.div_cycles = Some(v.parse().map_err(|_| bad(&k, &v, "an unsigned integer"))?)
                }
                "macro_fusible" => {
                    mv.macro_fusible = Some(
                        v.split(';')
                            .filter(|s| !s.is_empty())
                            .map(str::to_string)
                            .collect(),
                    )
                }
                b if port_attr_ports(b).is_some() => {
                    old_ports[variant].push((k, v));
                    continue;
                }
                _ => {
                    m.extra.insert(k, v);
                    continue;
                }
            }
            *touched = true;
        }
        for (variant, olds) in old_ports.into_iter().enumerate() {
            if olds.is_empty() {
                continue;
            }
            let (mv, touched) = &mut vals[variant];
            if mv.ports.is_some() {
                // Both notations: keep the modern one, the rest verbatim.
                m.extra.extend(olds);
                continue;
            }
            let ports = PortUsage::from_2018_attrs(
                olds.iter().map(|(k, v)| (strip_variant(k), v.as_str())),
            )
            .map_err(|e| bad(&e.input, "", &e.reason))?;
            mv.ports = ports;
            *touched = true;
        }
        let [(base, _), (same, same_t), (idx, idx_t)] = vals;
        m.base = base;
        m.same_reg = same_t.then_some(same);
        m.indexed = idx_t.then_some(idx);
        if !empty {
            loop {
                match self.next_inner()? {
                    Ev::Close => break,
                    Ev::Text(_) => {}
                    Ev::Open {
                        name,
                        attrs,
                        empty,
                        pos,
                    } => {
                        if name == "latency" {
                            let lat = self.read_latency(instr, arch, attrs, pos)?;
                            m.latencies.push(lat);
                        }
                        if !empty {
                            self.skip_subtree()?;
                        }
                    }
                }
            }
        }
        Ok(m)
    }
}

fn strip_variant(k: &str) -> &str {
    k.strip_suffix("_same_reg")
        .or_else(|| k.strip_suffix("_indexed"))
        .unwrap_or(k)
}
