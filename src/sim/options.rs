//! What-if switches and run parameters. The switches live only here and in the engine's
//! set-up; the units never test them directly.

/// SUACA's what-if variants (thesis §2.1), combinable.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WhatIf {
    /// `-pf`: the front end loads as many µops per cycle as the scheduler holds.
    pub perfect_frontend: bool,
    /// `-ip`: every port can be used any number of times per cycle.
    pub infinite_ports: bool,
    /// `-nd`: dependencies are ignored.
    pub no_deps: bool,
}

impl WhatIf {
    /// The plain simulation.
    pub const NONE: WhatIf = WhatIf {
        perfect_frontend: false,
        infinite_ports: false,
        no_deps: false,
    };

    /// Whether no switch is set.
    pub fn is_none(self) -> bool {
        self == WhatIf::NONE
    }

    /// Human-readable description, e.g. `perfect front-end and infinitely usable ports`.
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.perfect_frontend {
            parts.push("perfect front-end");
        }
        if self.infinite_ports {
            parts.push("infinitely usable ports");
        }
        if self.no_deps {
            parts.push("no dependencies");
        }
        parts.join(" and ")
    }

    /// Every non-empty combination of the switches set in `self`, smallest first, in a fixed
    /// order (pf, ip, nd, pf+ip, pf+nd, ip+nd, pf+ip+nd): thesis §2.1 "in all possible
    /// combinations".
    pub fn combinations(self) -> Vec<WhatIf> {
        let mut out = Vec::new();
        for mask in 1u8..8 {
            let w = WhatIf {
                perfect_frontend: mask & 1 != 0,
                infinite_ports: mask & 2 != 0,
                no_deps: mask & 4 != 0,
            };
            let subset = (!w.perfect_frontend || self.perfect_frontend)
                && (!w.infinite_ports || self.infinite_ports)
                && (!w.no_deps || self.no_deps);
            if subset {
                out.push(w);
            }
        }
        out.sort_by_key(|w| {
            (
                w.perfect_frontend as u8 + w.infinite_ports as u8 + w.no_deps as u8,
                !w.perfect_frontend,
                !w.infinite_ports,
            )
        });
        out
    }
}

/// Parameters of one simulation run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// How many times the region runs (SUACA `--loop`); 1 = latency analysis.
    pub iterations: u32,
    /// What-if switches.
    pub what_if: WhatIf,
    /// Safety cap on simulated cycles; the run fails with [`crate::sim::SimError::CycleLimit`]
    /// beyond it.
    pub max_cycles: u64,
}

impl SimOptions {
    /// Largest accepted iteration count.
    pub const MAX_ITERATIONS: u32 = 1_000_000;

    /// A plain run of `iterations` iterations.
    pub fn new(iterations: u32) -> Self {
        SimOptions {
            iterations,
            what_if: WhatIf::NONE,
            max_cycles: 2_000_000_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_of_two_flags() {
        let given = WhatIf {
            perfect_frontend: true,
            infinite_ports: true,
            no_deps: false,
        };
        let names: Vec<String> = given.combinations().iter().map(|w| w.describe()).collect();
        assert_eq!(
            names,
            vec![
                "perfect front-end",
                "infinitely usable ports",
                "perfect front-end and infinitely usable ports"
            ]
        );
    }

    #[test]
    fn combinations_of_three_flags() {
        let all = WhatIf {
            perfect_frontend: true,
            infinite_ports: true,
            no_deps: true,
        };
        assert_eq!(all.combinations().len(), 7);
        assert_eq!(WhatIf::NONE.combinations().len(), 0);
    }
}
