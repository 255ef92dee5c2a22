//! The words of a [`Warning`] and of the instruction data's cache warnings: one message for
//! the text report, standard error and the JSON `warnings` strings.

use serde::Serializer;

use crate::analysis::Warning;
use crate::dataset::DatasetWarning;

/// The words of a cache warning.
pub fn dataset_message(w: &DatasetWarning) -> String {
    match w {
        DatasetWarning::CorruptIndex { path, reason } => {
            format!(
                "index `{}` was damaged ({reason}); rebuilt it",
                path.display()
            )
        }
        DatasetWarning::DamagedOnRead { path, reason } => {
            format!(
                "index `{}` was damaged ({reason}); read this arch from the source instead and \
                 removed the index (the next run rebuilds it)",
                path.display()
            )
        }
        DatasetWarning::CacheNotWritten { dir, reason } => {
            format!("cannot write the index cache `{}`: {reason}", dir.display())
        }
        DatasetWarning::SupplementUnread { source, reason } => {
            format!("cannot read {source} ({reason}); the forms they add have no data")
        }
    }
}

/// The words of a cache warning while loading `arch`'s model (batch, profile).
pub fn arch_dataset_message(arch: &str, w: &DatasetWarning) -> String {
    format!("{arch}: {}", dataset_message(w))
}

/// The message of `w` (without the `Warning:` prefix of the text report).
pub fn message(w: &Warning) -> String {
    match w {
        Warning::NoData { line, text, arch } => {
            format!(
                "line {line}: no data for `{text}` on {arch}; it is not accounted in the analysis"
            )
        }
        Warning::LockIgnored { line, text, arch } => format!(
            "line {line}: no data for the locked form of `{text}` on {arch}; the plain form's \
             figures are used, and a locked operation takes longer"
        ),
        Warning::NoDividerData { line, text, arch } => format!(
            "line {line}: the {arch} data gives `{text}` no divider cycles (no `div_cycles` and \
             no throughput beyond its ports'); only its ports limit it, likely too fast"
        ),
        Warning::OwnMeasurement {
            line,
            text,
            arch,
            string,
            cpu,
        } => format!(
            "line {line}: the {arch} data has no `{string}` for `{text}`; suaca's own \
             measurement on {cpu} is used"
        ),
        Warning::NoConditionalJump => "-b: the region has no conditional jump".to_string(),
        Warning::Assembler(message) => message.clone(),
        Warning::Dataset(d) => dataset_message(d),
        Warning::IgnoredOption(note) => note.clone(),
        Warning::X87StackUnbalanced { pushed, lines } => {
            let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
            let (how, what) = if *pushed > 0 {
                ("grows", "every push past the eighth value overflows it")
            } else {
                ("shrinks", "every pop of an empty register underflows it")
            };
            let s = if lines.len() == 1 { "" } else { "s" };
            format!(
                "the x87 register stack {how} by {} per iteration (line{s} {}): repeated, {what} \
                 (a stack fault), which costs far more than the throughput above",
                pushed.abs(),
                lines.join(", ")
            )
        }
    }
}

/// Serializes warnings as their messages (`#[serde(serialize_with)]`: the schema's
/// `warnings` are strings).
pub fn serialize<S: Serializer>(warnings: &[Warning], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(warnings.iter().map(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_their_wording() {
        let w = Warning::NoData {
            line: 3,
            text: "add rax, 0x20".into(),
            arch: "SKL".into(),
        };
        assert_eq!(
            message(&w),
            "line 3: no data for `add rax, 0x20` on SKL; it is not accounted in the analysis"
        );
        assert_eq!(
            message(&Warning::NoConditionalJump),
            "-b: the region has no conditional jump"
        );
        let json = serde_json::to_string(&Wrapped(vec![w, Warning::Assembler("x.s:2: m".into())]))
            .expect("serializes");
        assert_eq!(
            json,
            r#"["line 3: no data for `add rax, 0x20` on SKL; it is not accounted in the analysis","x.s:2: m"]"#
        );
    }

    /// A list serialized as the report serializes its warnings.
    struct Wrapped(Vec<Warning>);

    impl serde::Serialize for Wrapped {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize(&self.0, s)
        }
    }
}
