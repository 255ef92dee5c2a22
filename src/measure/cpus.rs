//! Which CPU a benchmark child pins to when the user names none.
//!
//! The last CPU the process may run on, as before, except on a hybrid Intel part
//! (Alder Lake, Raptor Lake, Meteor Lake), where Linux numbers the efficiency cores after the
//! performance cores: the last CPU there is an E-core, whose timings are not the P-core's
//! that `uarch::host` names (both report the same CPUID family and model). The kernel lists
//! the P-cores of such a part in `/sys/devices/cpu_core/cpus` (its hybrid PMU device); the
//! default is then the last allowed CPU of that list.

use std::path::Path;

/// The kernel's list of a hybrid part's performance cores.
pub const PERFORMANCE_CORES: &str = "/sys/devices/cpu_core/cpus";

/// The CPU benchmarks pin to by default: the last of `allowed` that is a performance core
/// when `performance` lists them, else the last of `allowed` (also when the user's affinity
/// mask leaves no performance core: the choice stays theirs).
pub fn choose(allowed: &[usize], performance: Option<&[usize]>) -> usize {
    let last = allowed.last().copied().unwrap_or(0);
    match performance {
        Some(p) => allowed
            .iter()
            .rev()
            .copied()
            .find(|c| p.contains(c))
            .unwrap_or(last),
        None => last,
    }
}

/// The performance cores listed in `path` (`None` when the file is missing, as on every
/// non-hybrid machine, or unreadable).
pub fn performance_cores(path: &Path) -> Option<Vec<usize>> {
    parse_list(&std::fs::read_to_string(path).ok()?)
}

/// A kernel CPU list such as `0-7,16,18-19` (`None` if malformed or empty).
pub fn parse_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if a > b {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.trim().parse().ok()?),
        }
    }
    (!cpus.is_empty()).then_some(cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_parse_as_the_kernel_writes_them() {
        assert_eq!(
            parse_list("0-3,8,10-11\n"),
            Some(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_list("5"), Some(vec![5]));
        assert_eq!(parse_list(""), None);
        assert_eq!(parse_list("3-1"), None);
        assert_eq!(parse_list("0-x"), None);
    }

    #[test]
    fn a_hybrid_part_pins_to_its_last_performance_core() {
        // An Alder Lake laptop: P-cores with their siblings 0-7, E-cores 8-15.
        let allowed: Vec<usize> = (0..16).collect();
        let p: Vec<usize> = (0..8).collect();
        assert_eq!(choose(&allowed, Some(&p)), 7);
        // Not hybrid: the last allowed CPU, as before.
        assert_eq!(choose(&allowed, None), 15);
        // The user's mask keeps only E-cores: their choice stands.
        assert_eq!(choose(&[9, 12], Some(&p)), 12);
        assert_eq!(choose(&[], None), 0);
    }

    #[test]
    fn the_performance_core_list_is_read_from_its_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cpus");
        assert_eq!(performance_cores(&path), None);
        std::fs::write(&path, "0-11\n").expect("write");
        assert_eq!(performance_cores(&path), Some((0..12).collect()));
    }
}
