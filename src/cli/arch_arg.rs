//! `--arch` as clap sees it: any spelling of `uarch::names` (uops.info or LLVM, any case),
//! turned into the uops.info name at parse time, with every name offered to shell
//! completions.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;

use crate::uarch::{self, names};

/// Parses an arch name into its uops.info spelling (`skylake` → `SKL`).
#[derive(Copy, Clone, Debug, Default)]
pub struct ArchParser;

impl TypedValueParser for ArchParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let flag = arg.map_or_else(|| "--arch".to_string(), ToString::to_string);
        let text = value.to_str().ok_or_else(|| {
            clap::Error::raw(ErrorKind::InvalidUtf8, format!("{flag}: not UTF-8\n")).with_cmd(cmd)
        })?;
        uarch::canonical_name(text)
            .map(str::to_string)
            .map_err(|e| {
                clap::Error::raw(ErrorKind::InvalidValue, format!("{flag}: {e}\n")).with_cmd(cmd)
            })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values = names::ARCHS.iter().flat_map(|a| {
            std::iter::once(PossibleValue::new(a.name).help(a.title)).chain(
                a.llvm
                    .iter()
                    .map(move |l| PossibleValue::new(*l).help(format!("{} ({})", a.title, a.name))),
            )
        });
        Some(Box::new(values))
    }
}
