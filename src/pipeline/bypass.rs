//! Vector results that cross between the FP units and the vector ALUs come a cycle late
//! (`scheduler.vector_bypass`; docs/model.md "Vector bypass"). Measured on Redwood Cove
//! (`testdata/asm/vector_bypass.s`): a one-cycle vector operation that reads an FMA unit's
//! or an FP adder's result takes two cycles when it runs on port 0 or 1 (`vmulpd` into a
//! `vpminsd` chain: 2.00 cycles an iteration; into `vpalignr`, port 5: 1.00); an FMA-unit
//! operation that reads a vector ALU's result takes a cycle more (`vpminsd` or `vpaddq`
//! into a `vmulpd` chain: 4.00 for 3); a port-5 operation that reads an FP adder's result
//! a cycle more (`vaddpd` into `vpalignr`: 2.00). An FP adder reading an ALU's result, an
//! FMA unit reading an adder's or a shuffle's (`vpshufb`), and loads pay nothing.

use super::ports::uop_masks;
use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::deps::DepGraph;
use crate::ir::{Instr, Loc};
use crate::uarch::{MicroArch, PortMask, Role};

/// Where a vector instruction computes its result, as the rule sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// An FMA unit (multiplies, FMAs, compares, conversions, min/max of floats).
    Fma,
    /// An FP adder.
    Fadd,
    /// A one-cycle vector ALU operation that may run on every one of the rule's ALU ports
    /// (`vpsubq`, `vpminsd`, `vpand`, `vpsllq`).
    Alu,
    /// Another one-cycle operation (shuffles: `vpshufb` on p1/p5, `vpalignr` on p5), or one
    /// off the FMA ports (`vpcmpgtq`, `vpermq` on p5).
    Other,
}

/// The rule's port sets for one arch.
#[derive(Copy, Clone, Debug)]
pub struct Bypass {
    fma: PortMask,
    fadd: PortMask,
    alu: PortMask,
    memory: PortMask,
}

impl Bypass {
    /// The arch's rule, if it has one.
    pub fn of(arch: &MicroArch) -> Option<Bypass> {
        let b = arch.scheduler.vector_bypass.as_ref()?;
        let memory = [Role::Load, Role::StoreAddress, Role::StoreData]
            .into_iter()
            .fold(PortMask::EMPTY, |m, r| m.union(arch.ports_with_role(r)));
        Some(Bypass {
            fma: arch.parse_port_mask(&b.fma)?,
            fadd: arch.parse_port_mask(&b.fadd)?,
            alu: arch.parse_port_mask(&b.alu)?,
            memory,
        })
    }

    /// The ports `desc`'s computing µops (those off the load and store ports) may take.
    fn compute_ports(&self, desc: &InstrDesc) -> PortMask {
        uop_masks(desc)
            .into_iter()
            .filter(|m| m.0 & self.memory.0 == 0)
            .fold(PortMask::EMPTY, PortMask::union)
    }

    /// The unit of `instr` (with data `desc`), if it computes a vector register.
    pub fn unit(&self, instr: &Instr, desc: &InstrDesc) -> Option<(Unit, PortMask)> {
        let dest = instr.writes().find_map(|w| match w.loc {
            Loc::Reg(r) if r.is_vector_register() => Some(w.loc),
            _ => None,
        })?;
        let ports = self.compute_ports(desc);
        if ports.is_empty() {
            return None; // a load, or an eliminated move
        }
        // The operation's own latency, from its vector register inputs: a load's address
        // path says nothing of it (`pmovzxbd xmm, [rdi]` is a one-cycle shuffle).
        let latency = desc
            .latencies
            .iter()
            .filter(|l| l.via == LatVia::Value && l.to == Endpoint::Loc(dest))
            .filter(|l| matches!(l.from, Endpoint::Loc(from) if is_vector_value(from)))
            .map(|l| l.cycles)
            .reduce(f64::max)?;
        let unit = if latency >= 1.5 && ports.is_subset(self.fma) {
            Unit::Fma
        } else if latency >= 1.5 && ports == self.fadd {
            Unit::Fadd
        } else if latency < 1.5 && self.alu.is_subset(ports) {
            Unit::Alu
        } else if latency < 1.5 || ports.0 & self.fma.0 == 0 {
            Unit::Other
        } else {
            return None;
        };
        Some((unit, ports))
    }

    /// The ports on which a consumer of unit `consumer` (computing on `ports`) gives its
    /// results a cycle late for reading a vector register from a producer of unit
    /// `producer`; empty when the pair costs nothing.
    pub fn late_ports(&self, consumer: (Unit, PortMask), producer: Unit) -> PortMask {
        let (unit, ports) = consumer;
        match (unit, producer) {
            (Unit::Alu, Unit::Fma) => PortMask(ports.0 & self.alu.0),
            (Unit::Alu | Unit::Other, Unit::Fadd) | (Unit::Fma, Unit::Alu) => ports,
            _ => PortMask::EMPTY,
        }
    }
}

/// What the rule gives one line: the ports on which its results come a cycle late, and the
/// ports its operation may take (late on every one of them: surely late).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Late {
    /// Its results are a cycle late when it runs on one of these ports.
    pub on: PortMask,
    /// The ports its operation may take.
    pub ports: PortMask,
}

impl Late {
    /// Late whichever port it takes.
    pub fn surely(&self) -> bool {
        !self.on.is_empty() && self.ports.is_subset(self.on)
    }
}

/// The rule applied to every line of `instrs` (`descs[i]` its data): the ports on which
/// each line's results come late, from the units of the lines whose vector registers it
/// reads (`deps`). A line `eliminated` says is an eliminated move: it forwards its
/// source's value, so its consumers see the unit of the line it copies.
pub fn late_lines(
    b: &Bypass,
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    deps: &DepGraph,
    eliminated: impl Fn(usize) -> bool,
) -> Vec<Late> {
    let n = instrs.len().min(descs.len()).min(deps.len());
    let units: Vec<_> = (0..n)
        .map(|l| b.unit(&instrs[l], descs[l].as_ref()?))
        .collect();
    // The unit that computed the vector value `line` gives, through up to 8 moves.
    let origin = |mut line: usize| {
        for _ in 0..8 {
            if line >= n {
                return None;
            }
            if !eliminated(line) {
                return units[line].map(|(u, _)| u);
            }
            line = deps
                .producers_of(line)
                .find(|(_, e)| is_vector_value(e.loc))?
                .0;
        }
        None
    };
    (0..n)
        .map(|line| {
            let Some(consumer) = units[line].filter(|_| !eliminated(line)) else {
                return Late::default();
            };
            let on = deps
                .producers_of(line)
                .filter(|(_, e)| is_vector_value(e.loc))
                .filter_map(|(p, _)| origin(p))
                .fold(PortMask::EMPTY, |m, u| m.union(b.late_ports(consumer, u)));
            Late {
                on,
                ports: consumer.1,
            }
        })
        .collect()
}

/// Whether `loc` is a vector register (the rule's edges).
pub fn is_vector_value(loc: Loc) -> bool {
    matches!(loc, Loc::Reg(r) if r.is_vector_register())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ports(list: &[usize]) -> PortMask {
        list.iter()
            .fold(PortMask::EMPTY, |m, &p| m.union(PortMask::single(p)))
    }

    /// MTL-P's rule over its port numbers.
    fn rule() -> Bypass {
        Bypass {
            fma: ports(&[0, 1]),
            fadd: ports(&[1, 5]),
            alu: ports(&[0, 1]),
            memory: ports(&[2, 3, 4, 7, 8, 9, 10]),
        }
    }

    /// The fixture's pairs (testdata/asm/vector_bypass.s): `vpsubq` (p015) after `vmulpd`
    /// is late on p0/p1 only, after `vaddpd` everywhere; `vpalignr` (p5) only after an
    /// adder; `vmulpd` after an ALU; an adder after anything, and anything after a
    /// port-5 result, on time.
    #[test]
    fn late_ports_follow_the_measured_pairs() {
        let b = rule();
        let (p01, p015, p5) = (ports(&[0, 1]), ports(&[0, 1, 5]), ports(&[5]));
        let alu = (Unit::Alu, p015);
        assert_eq!(b.late_ports(alu, Unit::Fma), p01);
        assert_eq!(b.late_ports(alu, Unit::Fadd), p015);
        assert_eq!(b.late_ports(alu, Unit::Alu), PortMask::EMPTY);
        assert_eq!(b.late_ports(alu, Unit::Other), PortMask::EMPTY);
        let shuffle = (Unit::Other, p5);
        assert_eq!(b.late_ports(shuffle, Unit::Fma), PortMask::EMPTY);
        assert_eq!(b.late_ports(shuffle, Unit::Fadd), p5);
        let fma = (Unit::Fma, p01);
        assert_eq!(b.late_ports(fma, Unit::Alu), p01);
        assert_eq!(b.late_ports(fma, Unit::Other), PortMask::EMPTY);
        assert_eq!(b.late_ports(fma, Unit::Fadd), PortMask::EMPTY);
        let fadd = (Unit::Fadd, ports(&[1, 5]));
        assert_eq!(b.late_ports(fadd, Unit::Alu), PortMask::EMPTY);
        assert_eq!(b.late_ports(fadd, Unit::Fma), PortMask::EMPTY);
    }

    /// Surely late only when every port the operation may take is a late one.
    #[test]
    fn surely_late_needs_every_port() {
        let (p01, p015) = (ports(&[0, 1]), ports(&[0, 1, 5]));
        assert!(Late {
            on: p01,
            ports: p01
        }
        .surely());
        assert!(!Late {
            on: p01,
            ports: p015
        }
        .surely());
        assert!(!Late::default().surely());
    }
}
