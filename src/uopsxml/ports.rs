//! The port-usage notation of uops.info: `1*p0156+1*p23`, `1*FP23`, `1*ALU+1*V01`, `1*p0156B`,
//! and the 2018 attribute form `port15="2" port2="1"`.
//!
//! Owns: parsing and printing of `PortUsage`/`PortGroup`.
//! Must not touch: port semantics (which physical port a character means is `uarch`'s job).
//! Facts from: uops.info §4.3 (notation), cpuBench (sort order; docs/sources.md),
//! the shape of uops.info's `instructions.xml` (docs/sources.md) (prefixes `p`, `FP`, ARL-P µop types, MTL-P ports `A`/`B`),
//! SUACA thesis §1.5 (2018 form).

use std::fmt;
use std::str::FromStr;

use super::schema::{PortGroup, PortUsage};

/// Why a port string could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid port usage `{input}`: {reason}")]
pub struct PortParseError {
    /// The whole input.
    pub input: String,
    /// What is wrong, e.g. "group `3p0` has no `*`".
    pub reason: String,
}

impl PortGroup {
    /// A group `count*prefix ports`; `ports` is kept as given (not re-sorted).
    pub fn new(count: u32, prefix: &str, ports: &str) -> Self {
        PortGroup {
            count,
            prefix: prefix.to_string(),
            ports: ports.to_string(),
        }
    }
}

impl fmt::Display for PortGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}*{}{}", self.count, self.prefix, self.ports)
    }
}

impl fmt::Display for PortUsage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.groups.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{g}")?;
        }
        Ok(())
    }
}

impl FromStr for PortGroup {
    type Err = PortParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_group(s).map_err(|reason| PortParseError {
            input: s.to_string(),
            reason,
        })
    }
}

impl FromStr for PortUsage {
    type Err = PortParseError;

    /// Parses `n*XYZ+m*UVW`; the group order of the input is kept so that printing gives the
    /// input back. The empty string is the empty usage (0 µops on ports, e.g. eliminated moves).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| PortParseError {
            input: s.to_string(),
            reason,
        };
        if s.is_empty() {
            return Ok(PortUsage::default());
        }
        let groups = s
            .split('+')
            .map(parse_group)
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        Ok(PortUsage { groups })
    }
}

fn parse_group(g: &str) -> Result<PortGroup, String> {
    let (count, rest) = g
        .split_once('*')
        .ok_or_else(|| format!("group `{g}` has no `*`"))?;
    let count: u32 = count
        .parse()
        .map_err(|_| format!("group `{g}`: count `{count}` is not an unsigned integer"))?;
    if rest.is_empty() {
        return Err(format!("group `{g}` names no port"));
    }
    if !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!("group `{g}`: unexpected character in `{rest}`"));
    }
    // Intel: lowercase `p` then port characters (digits, and `A`/`B` for MTL-P ports 10/11).
    // Otherwise the prefix runs to the first digit: `FP23`, `V01`; µop types (`ALU`,
    // `INT_OTHER`) have no digits and are all prefix.
    let (prefix, ports) = if let Some(ports) = rest.strip_prefix('p') {
        if ports.is_empty() {
            return Err(format!("group `{g}`: `p` without ports"));
        }
        ("p", ports)
    } else {
        let cut = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        rest.split_at(cut)
    };
    Ok(PortGroup::new(count, prefix, ports))
}

impl PortUsage {
    /// Total µops over all groups (saturating).
    pub fn total_uops(&self) -> u32 {
        self.groups
            .iter()
            .fold(0u32, |acc, g| acc.saturating_add(g.count))
    }

    /// Sorts the port characters of each group and the groups by (prefix, ports), as cpuBench
    /// prints them; groups with the same port set are merged.
    pub fn canonicalize(&mut self) {
        for g in &mut self.groups {
            let mut chars: Vec<char> = g.ports.chars().collect();
            chars.sort_unstable();
            g.ports = chars.into_iter().collect();
        }
        self.groups
            .sort_by(|a, b| (&a.prefix, &a.ports).cmp(&(&b.prefix, &b.ports)));
        let mut merged: Vec<PortGroup> = Vec::with_capacity(self.groups.len());
        for g in self.groups.drain(..) {
            match merged.last_mut() {
                Some(last) if last.prefix == g.prefix && last.ports == g.ports => {
                    last.count = last.count.saturating_add(g.count);
                }
                _ => merged.push(g),
            }
        }
        self.groups = merged;
    }

    /// The 2018 form: attributes `portNN="k"` (e.g. `port15="2"`, `port2="1"`) → groups
    /// `2*p15+1*p2`, in cpuBench order. Names that are not `port<digits/letters>` are ignored;
    /// a value that is not an unsigned integer is an error naming the attribute.
    pub fn from_2018_attrs<'a, I>(attrs: I) -> Result<Option<PortUsage>, PortParseError>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut usage = PortUsage::default();
        for (name, value) in attrs {
            let Some(ports) = port_attr_ports(name) else {
                continue;
            };
            let count: u32 = value.parse().map_err(|_| PortParseError {
                input: format!("{name}=\"{value}\""),
                reason: "count is not an unsigned integer".into(),
            })?;
            usage.groups.push(PortGroup::new(count, "p", ports));
        }
        if usage.groups.is_empty() {
            return Ok(None);
        }
        usage.canonicalize();
        Ok(Some(usage))
    }
}

/// `port015` → `Some("015")`; anything else → `None`.
pub(crate) fn port_attr_ports(name: &str) -> Option<&str> {
    let ports = name.strip_prefix("port")?;
    (!ports.is_empty()
        && ports
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()))
    .then_some(ports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "1*p0156+1*p23",
            "1*FP23",
            "1*ALU+1*V01",
            "1*p0156B",
            "1*p23A+1*p49+1*p78",
            "2*p0+8*p015+5*p0156+1*p05+13*p06+1*p1+3*p5",
            "1*INT_OTHER",
            "",
        ] {
            let u: PortUsage = s.parse().unwrap();
            assert_eq!(u.to_string(), s);
        }
    }

    #[test]
    fn prefixes() {
        let u: PortUsage = "1*ALU+2*V01+1*FP23+1*p0156B".parse().unwrap();
        let parts: Vec<_> = u
            .groups
            .iter()
            .map(|g| (g.count, g.prefix.as_str(), g.ports.as_str()))
            .collect();
        assert_eq!(
            parts,
            [
                (1, "ALU", ""),
                (2, "V", "01"),
                (1, "FP", "23"),
                (1, "p", "0156B")
            ]
        );
        assert_eq!(u.total_uops(), 5);
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "p0",
            "x*p0",
            "1*",
            "1*p",
            "1*p0+",
            "-1*p0",
            "1*p0 1",
            "1*p0++1*p1",
        ] {
            assert!(s.parse::<PortUsage>().is_err(), "{s}");
        }
    }

    #[test]
    fn old_form() {
        let u = PortUsage::from_2018_attrs([
            ("port2", "1"),
            ("port15", "2"),
            ("total_uops", "5"),
            ("port4", "1"),
            ("port3", "1"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(u.to_string(), "2*p15+1*p2+1*p3+1*p4");
        assert!(PortUsage::from_2018_attrs([("port1", "x")]).is_err());
        assert_eq!(PortUsage::from_2018_attrs([("uops", "1")]).unwrap(), None);
    }
}
