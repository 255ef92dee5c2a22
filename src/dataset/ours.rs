//! Our own measurements compiled into the binary (`data/measured/README.md`): whole data
//! sets of archs uops.info does not publish, and supplements of forms its data lacks.

use super::{DataSource, EmbeddedData};

/// Whole data sets, `(arch, zstd XML)`: sources of their own, tried after the user's.
pub const EMBEDDED: &[(&str, &[u8])] =
    &[("ZEN4", include_bytes!("../../data/measured/ZEN4.xml.zst"))];

/// Supplements, `(arch, zstd XML)`: forms the source that has the arch lacks
/// ([`DataSource::Supplement`]), never a source alone. MTL-P: AVX-512 forms measured on a
/// Redwood Cove server core (Meteor Lake, which uops.info measured, has no AVX-512).
pub const SUPPLEMENTS: &[(&str, &[u8])] =
    &[("MTL-P", include_bytes!("../../data/measured/MTL-P.xml.zst"))];

/// The supplements as sources, to append to a source list.
pub fn supplements() -> impl Iterator<Item = DataSource> {
    SUPPLEMENTS
        .iter()
        .map(|&(name, zstd_xml)| DataSource::Supplement(EmbeddedData { name, zstd_xml }))
}

/// The embedded data set of `arch`, if there is one.
pub fn embedded(arch: &str) -> Option<DataSource> {
    EMBEDDED
        .iter()
        .find(|(name, _)| *name == arch)
        .map(|&(name, zstd_xml)| DataSource::Embedded(EmbeddedData { name, zstd_xml }))
}
