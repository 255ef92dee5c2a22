//! Streaming reader for `instructions.xml` (plain or zstd), one `InstrRecord` at a time.
//!
//! Owns: element/attribute recognition, value parsing, error positions.
//! Must not touch: the filesystem beyond `open`, the environment, the index cache (`dataset`).
//! Facts from: uops.info's `instructions.xml` (element and attribute names; docs/sources.md),
//! the shape of uops.info's `instructions.xml` (docs/sources.md), SUACA thesis §1.5 (2018 form: `total_uops`,
//! `portNN`, `startOp`/`targetOp`, `type="flag"`, `div-cycles`).
//!
//! This file is the reader core: opening, events, positions, the element stack, the
//! `<instruction>` loop. The elements inside an instruction are read in
//! [`operand`] (`<operand>`), [`measurement`] (`<architecture>`, `<measurement>`) and
//! [`latency`] (`<latency>` and its attribute names).

mod latency;
mod measurement;
mod operand;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use super::error::{AttrContext, Pos, XmlError};
use super::schema::InstrRecord;

pub(crate) use latency::{lat_key, LAT_ROLES};

/// zstd frame magic (RFC 8878), little-endian `0xFD2FB528`.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Which `<architecture>` nodes to keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ArchFilter {
    /// Every arch, and every instruction (also those without any measurement).
    #[default]
    All,
    /// Only these arch names; instructions without a measurement for one of them are dropped.
    Only(BTreeSet<String>),
}

impl ArchFilter {
    /// Keep only `archs`.
    pub fn only<I, S>(archs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ArchFilter::Only(archs.into_iter().map(Into::into).collect())
    }

    /// Whether arch `name` is kept.
    pub fn wants(&self, name: &str) -> bool {
        match self {
            ArchFilter::All => true,
            ArchFilter::Only(set) => set.contains(name),
        }
    }
}

/// Opens a plain or zstd-compressed XML file; the format is detected by the magic bytes, not
/// by the extension.
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, XmlError> {
    let open_err = |source| XmlError::Open {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(open_err)?;
    let mut br = BufReader::with_capacity(1 << 16, file);
    let head = br.fill_buf().map_err(open_err)?;
    if head.starts_with(&ZSTD_MAGIC) {
        let dec = zstd::stream::read::Decoder::with_buffer(br).map_err(open_err)?;
        Ok(Box::new(BufReader::with_capacity(1 << 16, dec)))
    } else {
        Ok(Box::new(br))
    }
}

/// Like [`open`], for bytes in memory (embedded data).
pub fn open_bytes(bytes: &[u8]) -> Result<Box<dyn BufRead + Send + '_>, XmlError> {
    if bytes.starts_with(&ZSTD_MAGIC) {
        let dec =
            zstd::stream::read::Decoder::with_buffer(bytes).map_err(|source| XmlError::Io {
                name: "<embedded>".into(),
                pos: Pos::default(),
                source,
            })?;
        Ok(Box::new(BufReader::with_capacity(1 << 16, dec)))
    } else {
        Ok(Box::new(bytes))
    }
}

/// Reads every instruction kept by `filter`, in document order.
pub fn read_instructions<R: BufRead>(
    r: R,
    filter: &ArchFilter,
) -> Result<Vec<InstrRecord>, XmlError> {
    InstrReader::new(r, "<input>", filter.clone()).collect()
}

/// [`open`] + [`read_instructions`], with the path in error messages.
pub fn read_file(path: &Path, filter: &ArchFilter) -> Result<Vec<InstrRecord>, XmlError> {
    InstrReader::new(open(path)?, &path.display().to_string(), filter.clone()).collect()
}

/// Instructions with a `<measurement>` per arch, e.g. `{"SKL": 3768, ...}`.
pub fn list_archs<R: BufRead>(r: R, name: &str) -> Result<BTreeMap<String, usize>, XmlError> {
    let mut counts = BTreeMap::new();
    for rec in InstrReader::new(r, name, ArchFilter::All) {
        for a in rec?.archs {
            if a.measurement.is_some() {
                *counts.entry(a.name).or_insert(0) += 1;
            }
        }
    }
    Ok(counts)
}

/// Counts the newlines the XML parser consumes, so errors can name a line without a second
/// pass over the file.
struct LineCounter<R> {
    inner: R,
    newlines: u64,
}

impl<R: BufRead> Read for LineCounter<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(out)?;
        self.newlines += count_newlines(&out[..n]);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineCounter<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        // A buffered reader hands back its current buffer without I/O here.
        if let Ok(buf) = self.inner.fill_buf() {
            self.newlines += count_newlines(&buf[..amt.min(buf.len())]);
        }
        self.inner.consume(amt);
    }
}

fn count_newlines(b: &[u8]) -> u64 {
    b.iter().filter(|&&c| c == b'\n').count() as u64
}

/// An owned parse event; whitespace-only text, comments, PIs and declarations are dropped.
enum Ev {
    Open {
        name: String,
        attrs: Vec<(String, String)>,
        empty: bool,
        pos: Pos,
    },
    Close,
    Text(String),
}

/// Streaming reader: an iterator over the kept `<instruction>` records.
pub struct InstrReader<R: BufRead> {
    xml: Reader<LineCounter<R>>,
    buf: Vec<u8>,
    name: String,
    filter: ArchFilter,
    /// Open elements (name, start) — for truncation errors and subtree skipping.
    open: Vec<(String, Pos)>,
    seen_root: bool,
    instructions: u64,
    done: bool,
}

impl<R: BufRead> InstrReader<R> {
    /// A reader over `r`; `name` (usually the path) appears in error messages.
    pub fn new(r: R, name: &str, filter: ArchFilter) -> Self {
        let mut xml = Reader::from_reader(LineCounter {
            inner: r,
            newlines: 0,
        });
        xml.config_mut().trim_text(false);
        InstrReader {
            xml,
            buf: Vec::with_capacity(4096),
            name: name.to_string(),
            filter,
            open: Vec::new(),
            seen_root: false,
            instructions: 0,
            done: false,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.xml.get_ref().newlines + 1,
            byte: self.xml.buffer_position(),
        }
    }

    fn syntax(&self, detail: String) -> XmlError {
        XmlError::Syntax {
            name: self.name.clone(),
            pos: Pos {
                line: self.xml.get_ref().newlines + 1,
                byte: self.xml.error_position(),
            },
            detail,
        }
    }

    fn map_xml_err(&self, e: quick_xml::Error) -> XmlError {
        match e {
            quick_xml::Error::Io(io) => XmlError::Io {
                name: self.name.clone(),
                pos: self.pos(),
                source: io::Error::new(io.kind(), io.to_string()),
            },
            quick_xml::Error::Syntax(s) if !self.open.is_empty() => {
                // A tag cut off by the end of the input.
                let (open, opened) = self.open_path();
                XmlError::Truncated {
                    name: self.name.clone(),
                    pos: self.pos(),
                    open: format!("{open} (in an unfinished tag: {s})"),
                    opened,
                }
            }
            other if !self.seen_root => XmlError::NotXml {
                name: self.name.clone(),
                pos: self.pos(),
                detail: other.to_string(),
            },
            other => self.syntax(other.to_string()),
        }
    }

    fn open_path(&self) -> (String, Pos) {
        let path = self
            .open
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join("/");
        (path, self.open.last().map(|o| o.1).unwrap_or_default())
    }

    /// Next significant event; `None` at a clean end of file.
    fn next_ev(&mut self) -> Result<Option<Ev>, XmlError> {
        loop {
            let pos = self.pos();
            self.buf.clear();
            let ev = match self.xml.read_event_into(&mut self.buf) {
                Ok(ev) => ev,
                Err(e) => return Err(self.map_xml_err(e)),
            };
            let out = match ev {
                Event::Eof => {
                    if !self.open.is_empty() {
                        let (open, opened) = self.open_path();
                        return Err(XmlError::Truncated {
                            name: self.name.clone(),
                            pos: self.pos(),
                            open,
                            opened,
                        });
                    }
                    return Ok(None);
                }
                ev => convert_event(ev, pos).map_err(|d| self.syntax(d))?,
            };
            match out {
                Some(Ev::Open {
                    ref name,
                    empty: false,
                    pos,
                    ..
                }) => self.open.push((name.clone(), pos)),
                Some(Ev::Close) => {
                    self.open.pop();
                }
                _ => {}
            }
            if let Some(ev) = out {
                return Ok(Some(ev));
            }
        }
    }

    /// Next event inside an element: end of file here is a truncation.
    fn next_inner(&mut self) -> Result<Ev, XmlError> {
        match self.next_ev()? {
            Some(ev) => Ok(ev),
            // `next_ev` reports EOF with open elements as truncation; this is the defensive
            // fallback for an inconsistent stack.
            None => Err(XmlError::Truncated {
                name: self.name.clone(),
                pos: self.pos(),
                open: "?".into(),
                opened: Pos::default(),
            }),
        }
    }

    /// Skips the rest of an element whose start was just read.
    fn skip_subtree(&mut self) -> Result<(), XmlError> {
        let depth = self.open.len();
        while self.open.len() >= depth {
            self.next_inner()?;
        }
        Ok(())
    }

    /// Reads the next kept instruction.
    fn next_record(&mut self) -> Result<Option<InstrRecord>, XmlError> {
        loop {
            let Some(ev) = self.next_ev()? else {
                return self.finish();
            };
            match ev {
                Ev::Open {
                    name,
                    attrs,
                    empty,
                    pos,
                } => {
                    if !self.seen_root {
                        if name != "root" {
                            return Err(XmlError::WrongSchema {
                                name: self.name.clone(),
                                detail: format!("root element is <{name}>, expected <root>"),
                            });
                        }
                        self.seen_root = true;
                        continue;
                    }
                    if name == "instruction" {
                        self.instructions += 1;
                        if let Some(rec) = self.read_instruction(attrs, empty, pos)? {
                            return Ok(Some(rec));
                        }
                    }
                    // Any other element outside an instruction is a container (`<extension>`):
                    // descend into it.
                }
                Ev::Close => {
                    if self.open.is_empty() {
                        // The root is closed; ignore whatever trails it.
                        return self.finish();
                    }
                }
                Ev::Text(t) => {
                    if !self.seen_root {
                        let shown: String = t.chars().take(40).collect();
                        return Err(XmlError::NotXml {
                            name: self.name.clone(),
                            pos: self.pos(),
                            detail: format!("text `{shown}` before any element"),
                        });
                    }
                }
            }
        }
    }

    fn finish(&mut self) -> Result<Option<InstrRecord>, XmlError> {
        self.done = true;
        if !self.seen_root {
            return Err(XmlError::NotXml {
                name: self.name.clone(),
                pos: self.pos(),
                detail: "no root element".into(),
            });
        }
        if self.instructions == 0 {
            return Err(XmlError::WrongSchema {
                name: self.name.clone(),
                detail: "no <instruction> element".into(),
            });
        }
        Ok(None)
    }

    fn read_instruction(
        &mut self,
        attrs: Vec<(String, String)>,
        empty: bool,
        pos: Pos,
    ) -> Result<Option<InstrRecord>, XmlError> {
        let mut rec = InstrRecord::default();
        let mut has_string = false;
        for (k, v) in attrs {
            match k.as_str() {
                "string" => {
                    rec.string = v;
                    has_string = true;
                }
                "asm" => rec.asm = v,
                "iform" => rec.iform = v,
                "iclass" => rec.iclass = v,
                "extension" => rec.extension = v,
                "isa-set" => rec.isa_set = v,
                "category" => rec.category = v,
                _ => {
                    rec.attrs.insert(k, v);
                }
            }
        }
        if !has_string {
            return Err(XmlError::MissingAttr {
                name: self.name.clone(),
                pos,
                ctx: Box::new(AttrContext {
                    element: "instruction".into(),
                    instruction: (!rec.iform.is_empty()).then(|| rec.iform.clone()),
                    arch: None,
                }),
                attr: "string".into(),
            });
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
                    } => match name.as_str() {
                        "operand" => {
                            let op = self.read_operand(&rec.string, attrs, empty, pos)?;
                            rec.operands.push(op);
                        }
                        "architecture" => {
                            if let Some(a) = self.read_arch(&rec.string, attrs, empty, pos)? {
                                rec.archs.push(a);
                            }
                        }
                        // `<IACA>`, `<doc>` and anything newer.
                        _ if !empty => self.skip_subtree()?,
                        _ => {}
                    },
                }
            }
        }
        if let ArchFilter::Only(_) = self.filter {
            if !rec.archs.iter().any(|a| a.measurement.is_some()) {
                return Ok(None);
            }
        }
        Ok(Some(rec))
    }

    fn ctx(&self, element: &str, instr: &str, arch: Option<&str>) -> Box<AttrContext> {
        Box::new(AttrContext {
            element: element.to_string(),
            instruction: Some(instr.to_string()),
            arch: arch.map(str::to_string),
        })
    }

    fn bad(
        &self,
        pos: Pos,
        ctx: Box<AttrContext>,
        attr: &str,
        value: &str,
        expected: impl Into<String>,
    ) -> XmlError {
        XmlError::BadAttr {
            name: self.name.clone(),
            pos,
            ctx,
            attr: attr.to_string(),
            value: value.to_string(),
            expected: expected.into(),
        }
    }
}

impl<R: BufRead> Iterator for InstrReader<R> {
    type Item = Result<InstrRecord, XmlError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_record() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => None,
            Err(e) => {
                // No recovery: after an error the stream position is unreliable.
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Copies what we need out of a borrowed quick-xml event; `Err` is a syntax detail.
fn convert_event(ev: Event<'_>, pos: Pos) -> Result<Option<Ev>, String> {
    Ok(match ev {
        Event::Start(ref e) | Event::Empty(ref e) => {
            let empty = matches!(ev, Event::Empty(_));
            // quick-xml checks UTF-8 itself and hands names over as `str`.
            let name = e.name().as_ref().to_string();
            let mut attrs = Vec::new();
            for a in e.attributes() {
                let a = a.map_err(|e| format!("in <{name}>: {e}"))?;
                let key = a.key.as_ref().to_string();
                let value = attribute_value(&a.value)
                    .map_err(|e| format!("in <{name}>, attribute `{key}`: {e}"))?;
                attrs.push((key, value));
            }
            Some(Ev::Open {
                name,
                attrs,
                empty,
                pos,
            })
        }
        Event::End(_) => Some(Ev::Close),
        Event::Text(t) => {
            let s = t.xml10_content();
            let s = s.trim();
            (!s.is_empty()).then(|| Ev::Text(s.to_string()))
        }
        // quick-xml reports `&amp;`, `&#x41;` in text as events of their own.
        Event::GeneralRef(r) => Some(Ev::Text(general_ref(&r)?)),
        Event::CData(t) => {
            let s = t.trim().to_string();
            (!s.is_empty()).then_some(Ev::Text(s))
        }
        // Declarations, comments, processing instructions, doctype.
        _ => None,
    })
}

fn parse_flag01(v: &str) -> Option<bool> {
    match v {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// A finite number; NaN and infinities are malformed here.
fn parse_f64(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// An attribute value with its character and predefined entity references replaced.
fn attribute_value(text: &str) -> Result<String, String> {
    quick_xml::escape::unescape(text)
        .map(std::borrow::Cow::into_owned)
        .map_err(|e| e.to_string())
}

/// The text a reference in element content stands for (`&amp;` → `&`, `&#x41;` → `A`).
fn general_ref(r: &quick_xml::events::BytesRef<'_>) -> Result<String, String> {
    if let Some(c) = r
        .resolve_char_ref()
        .map_err(|e| format!("bad character reference: {e}"))?
    {
        return Ok(c.to_string());
    }
    let name: &str = r;
    quick_xml::escape::resolve_predefined_entity(name)
        .map(str::to_string)
        .ok_or_else(|| format!("unknown entity `&{name};`"))
}
