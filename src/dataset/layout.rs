//! One index file on disk (format 2): framing, section checksums, the record table, and
//! reading single records on demand.
//!
//! Owns: the byte layout below and its checks. Must not touch: what the sections mean beyond
//! the record table (the key directory is `directory`, the manifest is `index`).
//!
//! ```text
//! MAGIC | u32 format | u32 header length | postcard Header | u64 checksum of the header
//!       | section 0 | section 1 | … (each with its length and checksum in the header)
//!       | records (arch files: their offsets, lengths and checksums are in the record table)
//! ```
//!
//! Opening a file reads and checks the header (sizes, format, version, source); a section or
//! a record is read (`pread`) and its checksum checked when it is first asked for. So a warm
//! start touches only what an analysis looks up (an arch file's record table, its iclass
//! keys and a few dozen records: about 2% of the ZEN4 file), and damage anywhere is still
//! found before any of it is used.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::checksum::{checksum, Checksum};
use super::index::{Probe, SourceKey};
use crate::uopsxml::InstrRecord;

/// Bump when the on-disk layout or the record types change.
pub const INDEX_FORMAT: u32 = 2;
const MAGIC: &[u8; 8] = b"SUACAIX\0";
/// MAGIC, format, header length.
const PREFIX: usize = 16;
/// A header is a few hundred bytes; more than this is damage.
const MAX_HEADER: usize = 1 << 20;
/// Bytes of one record-table entry: u32 offset, u32 length, u64 checksum.
const TABLE_ENTRY: usize = 16;

/// What a file is, for which source, and where its parts are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header {
    pub suaca: String,
    pub source: SourceKey,
    /// Arch of the records, or empty for the manifest.
    pub arch: String,
    /// Records (arch files) or archs (manifest).
    pub count: u32,
    pub sections: Vec<Section>,
    /// Bytes of records after the sections.
    pub records_len: u64,
}

/// Length and checksum of one section.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Section {
    pub len: u64,
    pub sum: u64,
}

/// A section's content, written twice: once into its checksum, once into the file.
pub(crate) type SectionWriter<'a> = &'a dyn Fn(&mut dyn Write) -> io::Result<()>;

/// Writes a whole file to `w`. `header.sections` is filled in here from `sections`
/// (length, writer); `records` writes `header.records_len` bytes.
pub(crate) fn write(
    w: &mut dyn Write,
    mut header: Header,
    sections: &[(u64, SectionWriter<'_>)],
    records: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    header.sections.clear();
    for &(len, write_section) in sections {
        let mut sum = Checksum::new(len);
        write_section(&mut sum)?;
        header.sections.push(Section {
            len,
            sum: sum.finish(),
        });
    }
    let hbytes = postcard::to_allocvec(&header).map_err(io::Error::other)?;
    w.write_all(MAGIC)?;
    w.write_all(&INDEX_FORMAT.to_le_bytes())?;
    w.write_all(&(hbytes.len() as u32).to_le_bytes())?;
    w.write_all(&hbytes)?;
    w.write_all(&checksum(&hbytes).to_le_bytes())?;
    for &(_, write_section) in sections {
        write_section(w)?;
    }
    records(w)
}

/// Where a file's bytes are: on disk (read piecewise) or in memory (built for one run).
#[derive(Debug)]
pub(crate) enum Blob {
    #[cfg(unix)]
    File(fs::File),
    Memory(Vec<u8>),
}

impl Blob {
    fn len(&self) -> io::Result<u64> {
        match self {
            #[cfg(unix)]
            Blob::File(f) => Ok(f.metadata()?.len()),
            Blob::Memory(v) => Ok(v.len() as u64),
        }
    }

    /// Exactly `len` bytes at `offset`.
    fn read(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        match self {
            #[cfg(unix)]
            Blob::File(f) => {
                let mut buf = vec![0u8; len];
                read_exact_at(f, &mut buf, offset)?;
                Ok(buf)
            }
            Blob::Memory(v) => usize::try_from(offset)
                .ok()
                .and_then(|o| v.get(o..o.checked_add(len)?))
                .map(<[u8]>::to_vec)
                .ok_or_else(|| io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

/// A positioned read (`pread`): threads read records of one file at the same time.
#[cfg(unix)]
fn read_exact_at(f: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

/// A file whose header is checked; its sections and records are still where they were.
#[derive(Debug)]
pub(crate) struct Opened {
    pub header: Header,
    blob: Blob,
    /// Where each section starts, then where the records start.
    starts: Vec<u64>,
}

impl Opened {
    /// Reads section `i` and checks its checksum.
    pub fn section(&self, i: usize) -> Result<Vec<u8>, String> {
        let s = self
            .header
            .sections
            .get(i)
            .ok_or_else(|| format!("section {i} is missing"))?;
        // `check` made the sizes add up to the file's, so a section fits in memory as the
        // file does.
        let bytes = self
            .blob
            .read(self.starts[i], s.len as usize)
            .map_err(|e| format!("section {i}: cannot read: {e}"))?;
        if checksum(&bytes) != s.sum {
            return Err(format!("section {i}: checksum mismatch"));
        }
        Ok(bytes)
    }

    fn records_start(&self) -> u64 {
        self.starts[self.header.sections.len()]
    }
}

/// Opens an index file and checks its header against `key`/`arch`.
pub(crate) fn open_file(path: &Path, key: &SourceKey, arch: &str) -> Probe<Opened> {
    // Without `pread` (not unix) the whole file is read: correct, only not lazy.
    #[cfg(unix)]
    let blob = fs::File::open(path).map(Blob::File);
    #[cfg(not(unix))]
    let blob = fs::read(path).map(Blob::Memory);
    match blob {
        Ok(b) => open(b, key, arch),
        // Not there, or the cache path is unusable: building will tell (and warn) if the
        // cache cannot be written.
        Err(_) => Probe::Missing,
    }
}

/// Opens a file's bytes: format, version and source decide staleness; anything else that is
/// wrong is damage.
pub(crate) fn open(blob: Blob, key: &SourceKey, arch: &str) -> Probe<Opened> {
    match check(blob, key, arch) {
        Ok(Ok(o)) => Probe::Fresh(o),
        Ok(Err(())) => Probe::Stale,
        Err(reason) => Probe::Corrupt(reason),
    }
}

/// `Ok(Err(()))`: stale.
fn check(blob: Blob, key: &SourceKey, arch: &str) -> Result<Result<Opened, ()>, String> {
    let io = |e: io::Error| format!("cannot read: {e}");
    let file_len = blob.len().map_err(io)?;
    let prefix = blob.read(0, PREFIX.min(file_len as usize)).map_err(io)?;
    if !prefix.starts_with(MAGIC) {
        return Err("bad magic".into());
    }
    if prefix.len() < PREFIX {
        return Err("short header".into());
    }
    let word = |at: usize| {
        u32::from_le_bytes([prefix[at], prefix[at + 1], prefix[at + 2], prefix[at + 3]])
    };
    // Format 1 put the header length here: any other number than ours is another format.
    if word(8) != INDEX_FORMAT {
        return Ok(Err(()));
    }
    let hlen = word(12) as usize;
    let header_end = (PREFIX + hlen + 8) as u64;
    if hlen > MAX_HEADER || header_end > file_len {
        return Err("short header".into());
    }
    let hbytes = blob.read(PREFIX as u64, hlen + 8).map_err(io)?;
    let (hbytes, sum) = hbytes.split_at(hlen);
    if checksum(hbytes).to_le_bytes() != sum {
        return Err("header checksum mismatch".into());
    }
    let header: Header = postcard::from_bytes(hbytes).map_err(|e| format!("header: {e}"))?;
    if header.suaca != env!("CARGO_PKG_VERSION") || header.source != *key {
        return Ok(Err(()));
    }
    if header.arch != arch {
        return Err(format!("holds arch `{}`", header.arch));
    }
    let mut starts = vec![header_end];
    for s in &header.sections {
        let next = starts[starts.len() - 1].checked_add(s.len);
        starts.push(next.ok_or("section sizes overflow")?);
    }
    if starts[starts.len() - 1].checked_add(header.records_len) != Some(file_len) {
        return Err(format!(
            "file is {file_len} bytes, its header says otherwise"
        ));
    }
    Ok(Ok(Opened {
        header,
        blob,
        starts,
    }))
}

/// Builds the record table (one entry per record, in id order) while records are written.
#[derive(Default)]
pub(crate) struct TableBuilder {
    bytes: Vec<u8>,
    len: u64,
}

impl TableBuilder {
    /// A builder for `records` records.
    pub fn with_capacity(records: usize) -> TableBuilder {
        TableBuilder {
            bytes: Vec::with_capacity(records * TABLE_ENTRY),
            len: 0,
        }
    }

    /// The next record; fails past 4 GiB of records (offsets are u32).
    pub fn push(&mut self, record: &[u8]) -> io::Result<()> {
        let too_big = || io::Error::other("one arch has more than 4 GiB of records");
        let offset = u32::try_from(self.len).map_err(|_| too_big())?;
        let len = u32::try_from(record.len()).map_err(|_| too_big())?;
        self.len += record.len() as u64;
        if self.len > u64::from(u32::MAX) {
            return Err(too_big());
        }
        self.bytes.extend_from_slice(&offset.to_le_bytes());
        self.bytes.extend_from_slice(&len.to_le_bytes());
        self.bytes
            .extend_from_slice(&checksum(record).to_le_bytes());
        Ok(())
    }

    /// The section's bytes and the records' total length.
    pub fn finish(self) -> (Vec<u8>, u64) {
        (self.bytes, self.len)
    }
}

/// An opened arch file: its record table is checked, its key tables and records are read
/// (and checked) when asked for.
#[derive(Debug)]
pub(crate) struct ArchFile {
    opened: Opened,
    table: Vec<u8>,
}

impl ArchFile {
    /// Reads and checks the record table, section `table_section` (`count` entries,
    /// contiguous, ending at the end of the records).
    pub fn new(opened: Opened, table_section: usize) -> Result<ArchFile, String> {
        let table = opened.section(table_section)?;
        let count = opened.header.count as usize;
        if Some(table.len()) != count.checked_mul(TABLE_ENTRY) {
            return Err("record table size does not match the record count".into());
        }
        let file = ArchFile { opened, table };
        let mut end = 0u64;
        for i in 0..count {
            let (offset, len, _) = file.entry(i);
            if offset != end {
                return Err(format!("record {i}: offset out of sequence"));
            }
            end += len;
        }
        if end != file.opened.header.records_len {
            return Err("records do not end where the header says".into());
        }
        Ok(file)
    }

    /// Number of records.
    pub fn count(&self) -> u32 {
        self.opened.header.count
    }

    /// Reads section `i` and checks its checksum.
    pub fn section(&self, i: usize) -> Result<Vec<u8>, String> {
        self.opened.section(i)
    }

    fn entry(&self, i: usize) -> (u64, u64, u64) {
        let b = &self.table[i * TABLE_ENTRY..(i + 1) * TABLE_ENTRY];
        let u32_at = |k: usize| u64::from(u32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]));
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&b[8..16]);
        (u32_at(0), u32_at(4), u64::from_le_bytes(sum))
    }

    /// Reads, checks and decodes record `i`; an `Err` says what was wrong.
    pub fn read(&self, i: usize) -> Result<InstrRecord, String> {
        if i >= self.table.len() / TABLE_ENTRY {
            return Err(format!("record {i} does not exist"));
        }
        let (offset, len, sum) = self.entry(i);
        let bytes = self
            .opened
            .blob
            .read(self.opened.records_start() + offset, len as usize)
            .map_err(|e| format!("record {i}: cannot read: {e}"))?;
        decode_record(i, &bytes, sum)
    }

    /// Reads, checks and decodes every record with one read of the record area (thousands
    /// of `pread`s cost a batch run's start more than the records' bytes); the first
    /// damaged record's `Err` says what was wrong.
    pub fn read_all(&self) -> Result<Vec<InstrRecord>, String> {
        let area = self
            .opened
            .blob
            .read(
                self.opened.records_start(),
                self.opened.header.records_len as usize,
            )
            .map_err(|e| format!("records: cannot read: {e}"))?;
        (0..self.table.len() / TABLE_ENTRY)
            .map(|i| {
                // `new` checked that the offsets are contiguous and end at `records_len`.
                let (offset, len, sum) = self.entry(i);
                decode_record(i, &area[offset as usize..(offset + len) as usize], sum)
            })
            .collect()
    }
}

/// Checks record `i`'s bytes against its checksum and decodes them.
fn decode_record(i: usize, bytes: &[u8], sum: u64) -> Result<InstrRecord, String> {
    if checksum(bytes) != sum {
        return Err(format!("record {i}: checksum mismatch"));
    }
    postcard::from_bytes(bytes).map_err(|e| format!("record {i}: {e}"))
}
