//! Loading arch files: the embedded `data/arch/*.toml`, `base` inheritance, `unset`, checks.

use toml::Value;

use super::model::{MicroArch, Role};

/// Errors from loading or checking an arch description.
#[derive(Debug, thiserror::Error)]
pub enum UarchError {
    /// No embedded arch has that name.
    #[error("{}; accepted (uops.info name, then LLVM's): {}",
        match known {
            Some(title) => format!("arch `{name}` ({title}) has no pipeline description in suaca yet"),
            None => format!("unknown arch `{name}`"),
        },
        super::names::accepted_list())]
    UnknownArch {
        /// The requested name.
        name: String,
        /// What the name means when it is a core suaca knows of but has not described
        /// (`Zen 5`).
        known: Option<&'static str>,
    },
    /// The TOML text does not parse or does not match the format.
    #[error("arch file `{name}`: {message}")]
    Parse {
        /// Arch (or file) name.
        name: String,
        /// Parser message.
        message: String,
    },
    /// The `base` chain loops.
    #[error("arch `{name}`: inheritance cycle through {}", chain.join(" -> "))]
    InheritanceCycle {
        /// Arch name.
        name: String,
        /// The chain walked so far.
        chain: Vec<String>,
    },
    /// The description is inconsistent (e.g. a role names a missing port).
    #[error("arch `{name}`: {message}")]
    Invalid {
        /// Arch name.
        name: String,
        /// What is wrong.
        message: String,
    },
}

macro_rules! arch_files {
    ($($name:literal),* $(,)?) => {
        /// `(name, TOML text)` of every embedded arch, in `names()` order.
        pub(crate) const ARCH_FILES: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../../data/arch/", $name, ".toml")))),*
        ];
        const NAMES: &[&str] = &[$($name),*];
    };
}

arch_files!(
    "NHM", "WSM", "SNB", "IVB", "HSW", "BDW", "SKL", "SKX", "KBL", "CFL", "CLX", "ICL", "TGL",
    "RKL", "ADL-P", "MTL-P", "ZEN+", "ZEN2", "ZEN3", "ZEN4",
);

/// Names of the embedded archs (uops.info spelling), oldest Intel first, then AMD.
pub fn names() -> &'static [&'static str] {
    NAMES
}

/// The raw TOML text of an embedded arch (exact name).
pub fn embedded_toml(name: &str) -> Option<&'static str> {
    ARCH_FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Looks up the raw TOML text of a base arch by its canonical name.
type Lookup<'a> = &'a dyn Fn(&str) -> Option<&'static str>;

/// Loads an embedded arch by uops.info or LLVM name (case-insensitive: `skl`, `Zen+`,
/// `skylake`; `names::ARCHS`). Parses the
/// embedded TOML on every call; callers keep the result.
pub fn load(name: &str) -> Result<MicroArch, UarchError> {
    let exact = canonical(name).ok_or_else(|| unknown(name))?;
    let value = resolve(exact, &embedded_toml, &mut Vec::new())?;
    finish(exact, value)
}

/// Parses a user-supplied arch file (e.g. one written by `measure`). It may name an embedded
/// arch as `base`, including the arch of the same name (a measured `SKL` based on ours).
pub fn from_toml_str(text: &str) -> Result<MicroArch, UarchError> {
    let raw = parse("<input>", text)?;
    let name = raw
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("<input>")
        .to_string();
    // The user file is not embedded, so no embedded arch can refer back to it: the chain
    // starts empty.
    let value = apply_base(&name, raw, &embedded_toml, &mut Vec::new())?;
    finish(&name, value)
}

fn canonical(name: &str) -> Option<&'static str> {
    super::names::canonical(name)
}

/// The uops.info name of an arch as a user typed it (`skylake` → `SKL`), or the error that
/// lists the accepted names.
pub fn canonical_name(name: &str) -> Result<&'static str, UarchError> {
    canonical(name).ok_or_else(|| unknown(name))
}

fn unknown(name: &str) -> UarchError {
    UarchError::UnknownArch {
        name: name.trim().to_string(),
        known: super::names::not_described(name).map(|a| a.title),
    }
}

fn parse(name: &str, text: &str) -> Result<Value, UarchError> {
    text.parse::<toml::Table>()
        .map(Value::Table)
        .map_err(|e| UarchError::Parse {
            name: name.to_string(),
            message: e.to_string(),
        })
}

/// The embedded arch `name` with its base chain merged in.
fn resolve(name: &str, lookup: Lookup, chain: &mut Vec<String>) -> Result<Value, UarchError> {
    if chain.iter().any(|c| c == name) {
        chain.push(name.to_string());
        return Err(UarchError::InheritanceCycle {
            name: chain[0].clone(),
            chain: chain.clone(),
        });
    }
    chain.push(name.to_string());
    let text = lookup(name).ok_or_else(|| unknown(name))?;
    let raw = parse(name, text)?;
    let mut merged = apply_base(name, raw, lookup, chain)?;
    append_extra_ports(&mut merged);
    Ok(merged)
}

/// `[[extra_ports]]` follow the base's ports (a `[[ports]]` array would replace them all).
fn append_extra_ports(v: &mut Value) {
    let Some(t) = v.as_table_mut() else { return };
    let Some(Value::Array(extra)) = t.remove("extra_ports") else {
        return;
    };
    match t.get_mut("ports") {
        Some(Value::Array(ports)) => ports.extend(extra),
        _ => {
            t.insert("ports".into(), Value::Array(extra));
        }
    }
}

fn apply_base(
    name: &str,
    raw: Value,
    lookup: Lookup,
    chain: &mut Vec<String>,
) -> Result<Value, UarchError> {
    let Some(base) = raw.get("base").and_then(Value::as_str) else {
        return Ok(raw);
    };
    let base = canonical(base)
        .or_else(|| lookup(base).map(|_| base))
        .ok_or_else(|| UarchError::Invalid {
            name: name.to_string(),
            message: format!("unknown base `{base}`"),
        })?;
    let mut merged = resolve(base, lookup, chain)?;
    // Unsets of the parent were already applied to it; the child's own list replaces it.
    if let Value::Table(t) = &mut merged {
        t.remove("unset");
    }
    merge(&mut merged, raw.clone());
    if let Some(unset) = raw.get("unset").and_then(Value::as_array) {
        for path in unset {
            let path = path.as_str().ok_or_else(|| UarchError::Invalid {
                name: name.to_string(),
                message: "`unset` must be a list of strings".into(),
            })?;
            if !remove_path(&mut merged, path) {
                return Err(UarchError::Invalid {
                    name: name.to_string(),
                    message: format!("`unset` names `{path}`, which the base does not have"),
                });
            }
            if let Some(Value::Table(src)) = merged.get_mut("sources") {
                src.remove(path);
            }
        }
    }
    Ok(merged)
}

/// Deep merge: tables merge key by key, everything else (arrays included) is replaced.
fn merge(into: &mut Value, from: Value) {
    match (into, from) {
        (Value::Table(a), Value::Table(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    Some(slot @ Value::Table(_)) if v.is_table() => merge(slot, v),
                    _ => {
                        a.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

fn remove_path(v: &mut Value, path: &str) -> bool {
    match path.split_once('.') {
        None => v.as_table_mut().is_some_and(|t| t.remove(path).is_some()),
        Some((head, rest)) => v.get_mut(head).is_some_and(|c| remove_path(c, rest)),
    }
}

fn finish(name: &str, value: Value) -> Result<MicroArch, UarchError> {
    let arch: MicroArch = value
        .try_into()
        .map_err(|e: toml::de::Error| UarchError::Parse {
            name: name.to_string(),
            message: e.to_string(),
        })?;
    validate(&arch)?;
    Ok(arch)
}

/// Consistency checks every arch must pass.
pub(crate) fn validate(a: &MicroArch) -> Result<(), UarchError> {
    let bad = |message: String| {
        Err(UarchError::Invalid {
            name: a.name.clone(),
            message,
        })
    };
    if a.issue_width == 0 {
        return bad("issue_width must be > 0".into());
    }
    if a.ports.is_empty() || a.ports.len() > 32 {
        return bad(format!("{} ports (need 1..=32)", a.ports.len()));
    }
    for (i, p) in a.ports.iter().enumerate() {
        if p.name.is_empty() {
            return bad(format!("port {i} has no name"));
        }
        if a.ports[..i].iter().any(|q| q.name == p.name) {
            return bad(format!("duplicate port `{}`", p.name));
        }
    }
    if a.ports_with_role(Role::Load).is_empty() {
        return bad("no port has the `load` role".into());
    }
    if a.port_notation.is_empty() {
        return bad("no `port_notation` rule".into());
    }
    for (role, names) in &a.default_ports {
        if a.mask_of_names(names).is_none_or(|m| m.is_empty()) {
            return bad(format!(
                "default_ports.{role:?} names no port or a missing port: {names:?}"
            ));
        }
    }
    for q in &a.scheduler_queues {
        if a.mask_of_names(&q.ports).is_none() {
            return bad(format!("scheduler queue `{}` names a missing port", q.name));
        }
    }
    if let Some(b) = &a.scheduler.vector_bypass {
        for (field, ports) in [("fma", &b.fma), ("fadd", &b.fadd), ("alu", &b.alu)] {
            // The engine notes the ports an instance took in 16 bits.
            if a.parse_port_mask(ports).is_none_or(|m| m.0 >= 1 << 16) {
                return bad(format!(
                    "scheduler.vector_bypass.{field} `{ports}` is not a port string of the first 16 ports"
                ));
            }
        }
    }
    for w in [
        ("retire_width", a.retire_width),
        ("rob_size", a.rob_size),
        ("rs_size", a.rs_size),
    ] {
        if w.1 == Some(0) {
            return bad(format!("{} must be > 0 when given", w.0));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(name: &str) -> Option<&'static str> {
        match name {
            "A" => Some("name = 'A'\nbase = 'B'\n"),
            "B" => Some("name = 'B'\nbase = 'A'\n"),
            _ => None,
        }
    }

    #[test]
    fn the_name_table_covers_exactly_the_embedded_archs() {
        let table: Vec<&str> = super::super::names::ARCHS.iter().map(|a| a.name).collect();
        assert_eq!(table, NAMES);
        let err = load("znver5").unwrap_err().to_string();
        assert!(
            err.contains("Zen 5") && err.contains("ZEN4 (znver4)"),
            "{err}"
        );
        assert_eq!(load("skylake").map(|a| a.name).ok().as_deref(), Some("SKL"));
    }

    #[test]
    fn base_cycle_is_an_error() {
        let err = resolve("A", &fake, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, UarchError::InheritanceCycle { .. }), "{err}");
        assert!(err.to_string().contains("A -> B -> A"), "{err}");
    }

    /// `[[extra_ports]]` follow the base's ports: MTL-P is ADL-P's twelve and two
    /// vector-write ports.
    #[test]
    fn extra_ports_follow_the_bases() {
        let (adl, mtl) = (load("ADL-P").unwrap(), load("MTL-P").unwrap());
        assert_eq!(mtl.ports.len(), adl.ports.len() + 2);
        assert_eq!(mtl.ports[..adl.ports.len()], adl.ports[..]);
        let names: Vec<&str> = mtl.ports[adl.ports.len()..]
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["VW0", "VW1"]);
    }

    #[test]
    fn merge_is_deep_for_tables_and_replaces_arrays() {
        let mut a: Value = toml::from_str("x = 1\nl = [1, 2]\n[t]\np = 1\nq = 2\n").unwrap();
        let b: Value = toml::from_str("l = [3]\n[t]\nq = 5\nr = 6\n").unwrap();
        merge(&mut a, b);
        let want: Value = toml::from_str("x = 1\nl = [3]\n[t]\np = 1\nq = 5\nr = 6\n").unwrap();
        assert_eq!(a, want);
        assert!(remove_path(&mut a, "t.q"));
        assert!(!remove_path(&mut a, "t.q"));
        assert!(!remove_path(&mut a, "nope.q"));
        assert_eq!(a.get("t").and_then(|t| t.get("q")), None);
    }

    #[test]
    fn user_file_may_refine_the_arch_of_the_same_name() {
        let a = from_toml_str(
            "name = 'SKL'\nfull_name = 'measured'\nvendor = 'intel'\nfamily = 'Skylake'\n\
             base = 'SKL'\nrs_size = 90\n[sources]\nrs_size = 'measured'\n",
        )
        .unwrap();
        assert_eq!((a.rs_size, a.rob_size), (Some(90), Some(224)));
    }

    /// The vector bypass names its units by port strings of the arch: MTL-P's read, one
    /// that names a port the arch lacks is an error naming the field.
    #[test]
    fn the_vector_bypass_names_ports_of_the_arch() {
        let arch = |alu: &str| {
            from_toml_str(&format!(
                "name = 'X'\nfull_name = 'x'\nvendor = 'intel'\nfamily = 'x'\nbase = 'MTL-P'\n\
                 [scheduler.vector_bypass]\nfma = 'p01'\nfadd = 'p15'\nalu = '{alu}'\n"
            ))
        };
        assert!(arch("p01").is_ok());
        let err = arch("p9Z").unwrap_err().to_string();
        assert!(err.contains("scheduler.vector_bypass.alu `p9Z`"), "{err}");
        let mtl = load("MTL-P").unwrap();
        assert!(mtl.scheduler.vector_bypass.is_some());
        assert!(load("ADL-P").unwrap().scheduler.vector_bypass.is_none());
    }
}
