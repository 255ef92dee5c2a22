//! IACA and MSVC byte markers: where regions start and end inside a chunk of bytes.
//!
//! Owns: the four marker byte patterns and the pairing rules below.
//! Must not touch: file formats (a [`Chunk`] is just a name, an address and bytes), decoding,
//! symbols.
//! Facts: the byte sequences are those emitted by Intel's `iacaMarks.h` (IACA 2.x/3.0):
//! `IACA_START` is `mov ebx, 111` followed by `fs addr32 nop` (`64 67 90`), `IACA_END` the same
//! with 222; the MSVC variants (`IACA_MSC64_START`/`_END`) are `__writegsbyte(111, 111)` and
//! `__writegsbyte(222, 222)`, i.e. `mov byte ptr gs:[111], 111` (SUACA thesis §1.3).
//!
//! # Rules
//!
//! - A region is the bytes strictly between the end of a start marker and the first byte of
//!   the next end marker; markers are never part of a region.
//! - Any start marker pairs with any end marker (IACA or MSVC flavour).
//! - Markers are searched byte by byte, like IACA does, without decoding: a marker pattern that
//!   happens to sit inside another instruction's immediate is still a marker.
//! - Each chunk is paired on its own: a start in one section never matches an end in another.
//! - Errors: an end marker with no open start ([`MarkerError::EndBeforeStart`]), a start while
//!   another start is open ([`MarkerError::NestedStart`]), a start immediately followed by an
//!   end ([`MarkerError::EmptyRegion`]), and a start still open at the end of the chunk
//!   ([`MarkerError::StartWithoutEnd`]). The first error in byte order wins.

use crate::ir::Region;

/// `mov ebx, 111; fs addr32 nop`: the start marker of `iacaMarks.h`.
pub const IACA_START: [u8; 8] = [0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90];
/// `mov ebx, 222; fs addr32 nop`: the end marker of `iacaMarks.h`.
pub const IACA_END: [u8; 8] = [0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90];
/// `mov byte ptr gs:[111], 111`: the MSVC start marker (`__writegsbyte(111, 111)`).
pub const MSVC_START: [u8; 9] = [0x65, 0xC6, 0x04, 0x25, 0x6F, 0x00, 0x00, 0x00, 0x6F];
/// `mov byte ptr gs:[222], 222`: the MSVC end marker (`__writegsbyte(222, 222)`).
pub const MSVC_END: [u8; 9] = [0x65, 0xC6, 0x04, 0x25, 0xDE, 0x00, 0x00, 0x00, 0xDE];

/// Which marker was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// [`IACA_START`].
    IacaStart,
    /// [`IACA_END`].
    IacaEnd,
    /// [`MSVC_START`].
    MsvcStart,
    /// [`MSVC_END`].
    MsvcEnd,
}

impl MarkerKind {
    /// Every kind, in the order they are tried at a position.
    pub const ALL: [MarkerKind; 4] = [
        MarkerKind::IacaStart,
        MarkerKind::IacaEnd,
        MarkerKind::MsvcStart,
        MarkerKind::MsvcEnd,
    ];

    /// The marker's bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            MarkerKind::IacaStart => &IACA_START,
            MarkerKind::IacaEnd => &IACA_END,
            MarkerKind::MsvcStart => &MSVC_START,
            MarkerKind::MsvcEnd => &MSVC_END,
        }
    }

    /// Whether this marker opens a region.
    pub fn is_start(self) -> bool {
        matches!(self, MarkerKind::IacaStart | MarkerKind::MsvcStart)
    }
}

/// A marker found at a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    /// Which marker.
    pub kind: MarkerKind,
    /// Offset of its first byte in the searched bytes.
    pub offset: usize,
}

impl Marker {
    /// Offset one past its last byte.
    pub fn end(&self) -> usize {
        self.offset + self.kind.bytes().len()
    }
}

/// A region's byte range inside a chunk: `bytes[start..end]`, markers excluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte after the start marker.
    pub start: usize,
    /// First byte of the end marker.
    pub end: usize,
}

/// A marker pairing problem, located by byte offsets in the searched bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerError {
    /// The start marker at `offset` has no end marker after it.
    StartWithoutEnd {
        /// Offset of the start marker.
        offset: usize,
    },
    /// The end marker at `offset` has no open start marker before it.
    EndBeforeStart {
        /// Offset of the end marker.
        offset: usize,
    },
    /// The start marker at `offset` comes while the one at `outer` is still open.
    NestedStart {
        /// Offset of the open start marker.
        outer: usize,
        /// Offset of the second start marker.
        offset: usize,
    },
    /// The start marker at `offset` is directly followed by an end marker.
    EmptyRegion {
        /// Offset of the start marker.
        offset: usize,
    },
}

/// Bytes to search, with the name and address used to locate what is found.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    /// Name reported in regions and errors (a section name, `<raw>`, ...).
    pub name: &'a str,
    /// Address of `bytes[0]`. The caller guarantees `address + bytes.len()` fits in a `u64`.
    pub address: u64,
    /// The bytes.
    pub bytes: &'a [u8],
}

/// All markers in `bytes`, in byte order. A match is skipped over as a whole, so markers never
/// overlap.
pub fn find_markers(bytes: &[u8]) -> Vec<Marker> {
    let mut found = Vec::new();
    let mut pos = 0;
    while let Some(rest) = bytes.get(pos..) {
        if rest.is_empty() {
            break;
        }
        match MarkerKind::ALL
            .into_iter()
            .find(|kind| rest.starts_with(kind.bytes()))
        {
            Some(kind) => {
                found.push(Marker { kind, offset: pos });
                pos += kind.bytes().len();
            }
            None => pos += 1,
        }
    }
    found
}

/// Pairs markers (in byte order, as [`find_markers`] returns them) into region spans.
pub fn pair_markers(markers: &[Marker]) -> Result<Vec<Span>, MarkerError> {
    let mut spans = Vec::new();
    let mut open: Option<Marker> = None;
    for marker in markers {
        match (open, marker.kind.is_start()) {
            (None, true) => open = Some(*marker),
            (None, false) => {
                return Err(MarkerError::EndBeforeStart {
                    offset: marker.offset,
                })
            }
            (Some(start), true) => {
                return Err(MarkerError::NestedStart {
                    outer: start.offset,
                    offset: marker.offset,
                })
            }
            (Some(start), false) => {
                if marker.offset <= start.end() {
                    return Err(MarkerError::EmptyRegion {
                        offset: start.offset,
                    });
                }
                spans.push(Span {
                    start: start.end(),
                    end: marker.offset,
                });
                open = None;
            }
        }
    }
    match open {
        Some(start) => Err(MarkerError::StartWithoutEnd {
            offset: start.offset,
        }),
        None => Ok(spans),
    }
}

/// The marked regions of one chunk, numbered from `first_index` in byte order. `symbol` is
/// left `None`: naming code is the caller's business.
pub fn regions_in_chunk(chunk: &Chunk<'_>, first_index: usize) -> Result<Vec<Region>, MarkerError> {
    let spans = pair_markers(&find_markers(chunk.bytes))?;
    Ok(spans
        .into_iter()
        .enumerate()
        .map(|(i, span)| Region {
            index: first_index + i,
            section: chunk.name.to_owned(),
            // Cannot overflow: the chunk's end address fits in a u64 (see `Chunk::address`).
            address: chunk.address.saturating_add(span.start as u64),
            bytes: chunk
                .bytes
                .get(span.start..span.end)
                .unwrap_or_default()
                .to_vec(),
            symbol: None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: [u8; 3] = [0x48, 0x01, 0xD8]; // add rax, rbx
    const NOP: [u8; 1] = [0x90];

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn finds_all_four_markers_in_order() {
        let bytes = cat(&[&NOP, &IACA_START, &ADD, &IACA_END, &MSVC_START, &MSVC_END]);
        let kinds: Vec<_> = find_markers(&bytes)
            .iter()
            .map(|m| (m.kind, m.offset))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (MarkerKind::IacaStart, 1),
                (MarkerKind::IacaEnd, 12),
                (MarkerKind::MsvcStart, 20),
                (MarkerKind::MsvcEnd, 29),
            ]
        );
    }

    #[test]
    fn partial_marker_at_end_is_not_a_marker() {
        let bytes = cat(&[&ADD, &IACA_START[..7]]);
        assert!(find_markers(&bytes).is_empty());
        assert!(find_markers(&[]).is_empty());
    }

    #[test]
    fn region_is_strictly_between_markers() {
        let bytes = cat(&[&NOP, &IACA_START, &ADD, &ADD, &IACA_END, &NOP]);
        let chunk = Chunk {
            name: ".text",
            address: 0x1000,
            bytes: &bytes,
        };
        let regions = regions_in_chunk(&chunk, 3).unwrap();
        assert_eq!(regions.len(), 1);
        assert_eq!(regions[0].index, 3);
        assert_eq!(regions[0].section, ".text");
        assert_eq!(regions[0].address, 0x1009);
        assert_eq!(regions[0].bytes, cat(&[&ADD, &ADD]));
        assert_eq!(regions[0].symbol, None);
    }

    #[test]
    fn several_regions_and_mixed_flavours() {
        let bytes = cat(&[
            &IACA_START,
            &ADD,
            &MSVC_END,
            &NOP,
            &MSVC_START,
            &NOP,
            &IACA_END,
        ]);
        let spans = pair_markers(&find_markers(&bytes)).unwrap();
        assert_eq!(
            spans,
            vec![Span { start: 8, end: 11 }, Span { start: 30, end: 31 }]
        );
    }

    #[test]
    fn start_without_end() {
        let bytes = cat(&[&IACA_START, &ADD, &IACA_END, &NOP, &IACA_START, &ADD]);
        assert_eq!(
            pair_markers(&find_markers(&bytes)),
            Err(MarkerError::StartWithoutEnd { offset: 20 })
        );
    }

    #[test]
    fn end_before_start() {
        let bytes = cat(&[&ADD, &MSVC_END, &IACA_START, &ADD, &IACA_END]);
        assert_eq!(
            pair_markers(&find_markers(&bytes)),
            Err(MarkerError::EndBeforeStart { offset: 3 })
        );
    }

    #[test]
    fn nested_start() {
        let bytes = cat(&[&IACA_START, &ADD, &MSVC_START, &ADD, &IACA_END]);
        assert_eq!(
            pair_markers(&find_markers(&bytes)),
            Err(MarkerError::NestedStart {
                outer: 0,
                offset: 11
            })
        );
    }

    #[test]
    fn empty_region() {
        let bytes = cat(&[&NOP, &IACA_START, &IACA_END]);
        assert_eq!(
            pair_markers(&find_markers(&bytes)),
            Err(MarkerError::EmptyRegion { offset: 1 })
        );
    }

    #[test]
    fn no_markers_is_no_regions() {
        assert_eq!(pair_markers(&find_markers(&cat(&[&ADD, &NOP]))), Ok(vec![]));
    }

    #[test]
    fn first_error_in_byte_order_wins() {
        // A stray end before an unterminated start: the stray end is reported.
        let bytes = cat(&[&IACA_END, &IACA_START]);
        assert_eq!(
            pair_markers(&find_markers(&bytes)),
            Err(MarkerError::EndBeforeStart { offset: 0 })
        );
    }
}
