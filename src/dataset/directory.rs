//! The key directory of one arch's records: instruction `string`, `iform` and `iclass` →
//! record ids, as three sorted tables, each a section of its own, searched in place.
//!
//! Owns: a key table's bytes (written by [`DirectoryBuilder`], checked and searched by
//! [`KeyTable`]). A lookup is a binary search over the encoded bytes: loading an index
//! allocates no string per record, and a table is read only when its kind of key is first
//! looked up (an analysis looks up iclasses only), which is what keeps a warm start in
//! milliseconds.
//!
//! ```text
//! u32 n | u32 blob_len                                (little-endian)
//! n entries: u32 key_start | u32 key_len | u32 record id
//! blob: the key bytes the entries point into
//! ```
//!
//! A table is sorted by (key bytes, record id), so equal keys are adjacent, in document order.

use std::io::{self, Write};

/// Which key of a record a table maps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum KeyKind {
    String = 0,
    Iform = 1,
    Iclass = 2,
}

impl KeyKind {
    /// The three kinds, in section order.
    pub const ALL: [KeyKind; 3] = [KeyKind::String, KeyKind::Iform, KeyKind::Iclass];
}

const KINDS: usize = 3;
const PREAMBLE: usize = 8;
const ENTRY: usize = 12;

/// One table entry: a key (range in the blob) and the record it names.
#[derive(Copy, Clone, Debug)]
struct Entry {
    start: u32,
    len: u32,
    id: u32,
}

/// Collects the keys of records in id order; sorts and writes them as a directory section.
/// Holds each key once in one buffer, so a large arch costs its key bytes and 12 bytes per key.
#[derive(Default)]
pub(crate) struct DirectoryBuilder {
    blob: Vec<u8>,
    tables: [Vec<Entry>; KINDS],
}

impl DirectoryBuilder {
    /// A builder for `records` records (so the tables never grow past their size).
    pub fn with_capacity(records: usize) -> DirectoryBuilder {
        DirectoryBuilder {
            blob: Vec::new(),
            tables: std::array::from_fn(|_| Vec::with_capacity(records)),
        }
    }

    /// The keys of record `id` (ids are added in increasing order).
    pub fn add(&mut self, id: u32, string: &str, iform: &str, iclass: &str) -> io::Result<()> {
        for (kind, key) in [string, iform, iclass].into_iter().enumerate() {
            let too_big = || io::Error::other("the keys of one arch exceed 4 GiB");
            let start = u32::try_from(self.blob.len()).map_err(|_| too_big())?;
            let len = u32::try_from(key.len()).map_err(|_| too_big())?;
            start.checked_add(len).ok_or_else(too_big)?;
            self.blob.extend_from_slice(key.as_bytes());
            self.tables[kind].push(Entry { start, len, id });
        }
        Ok(())
    }

    /// Sorts the tables; then [`Self::encoded_len`] and [`Self::write_to`] give the section.
    pub fn finish(mut self) -> SortedDirectory {
        let blob = &self.blob;
        let key = |e: &Entry| &blob[e.start as usize..(e.start + e.len) as usize];
        for t in &mut self.tables {
            t.sort_unstable_by(|a, b| key(a).cmp(key(b)).then(a.id.cmp(&b.id)));
        }
        SortedDirectory(self)
    }
}

/// A [`DirectoryBuilder`] whose tables are sorted, ready to be written.
pub(crate) struct SortedDirectory(DirectoryBuilder);

impl SortedDirectory {
    /// Bytes [`Self::write_to`] writes for `kind`'s table.
    pub fn encoded_len(&self, kind: KeyKind) -> u64 {
        let t = &self.0.tables[kind as usize];
        let keys: u64 = t.iter().map(|e| u64::from(e.len)).sum();
        (PREAMBLE + t.len() * ENTRY) as u64 + keys
    }

    /// Writes `kind`'s table (streamed: the caller checksums it by writing it twice). Its
    /// blob holds the keys of this kind only, in table order.
    pub fn write_to(&self, kind: KeyKind, w: &mut dyn Write) -> io::Result<()> {
        let t = &self.0.tables[kind as usize];
        let blob_len: u64 = t.iter().map(|e| u64::from(e.len)).sum();
        let too_big = || io::Error::other("the keys of one arch exceed 4 GiB");
        let mut pre = Vec::with_capacity(PREAMBLE);
        pre.extend_from_slice(&(t.len() as u32).to_le_bytes());
        pre.extend_from_slice(
            &u32::try_from(blob_len)
                .map_err(|_| too_big())?
                .to_le_bytes(),
        );
        w.write_all(&pre)?;
        let mut chunk = Vec::with_capacity(ENTRY * 1024);
        let mut at = 0u32;
        for e in t {
            for v in [at, e.len, e.id] {
                chunk.extend_from_slice(&v.to_le_bytes());
            }
            at += e.len;
            if chunk.len() >= ENTRY * 1024 {
                w.write_all(&chunk)?;
                chunk.clear();
            }
        }
        w.write_all(&chunk)?;
        for e in t {
            w.write_all(&self.0.blob[e.start as usize..(e.start + e.len) as usize])?;
        }
        Ok(())
    }

    /// `kind`'s table in memory (for records that never were in a file).
    pub fn to_bytes(&self, kind: KeyKind) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len(kind) as usize);
        // Writing to a Vec cannot fail, and `add` kept the sizes within u32.
        let _ = self.write_to(kind, &mut out);
        out
    }
}

/// A checked key table, searched without decoding it.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    bytes: Vec<u8>,
    count: usize,
    blob_start: usize,
}

impl KeyTable {
    /// Checks a table against the record count (every record has one key of each kind):
    /// sizes, key ranges, ids, UTF-8 keys and the sort order (binary search relies on it).
    /// Any violation is damage.
    pub fn decode(bytes: Vec<u8>, records: u32) -> Result<KeyTable, String> {
        if bytes.len() < PREAMBLE {
            return Err("key table cut short".into());
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
        };
        let (count, blob_len) = (word(0), word(4));
        if count != records as usize {
            return Err(format!("key table has {count} keys for {records} records"));
        }
        let blob_start = count
            .checked_mul(ENTRY)
            .and_then(|n| n.checked_add(PREAMBLE))
            .ok_or("key table sizes overflow")?;
        if blob_start.checked_add(blob_len) != Some(bytes.len()) {
            return Err("key table sizes do not match its length".into());
        }
        let t = KeyTable {
            bytes,
            count,
            blob_start,
        };
        // UTF-8 checked once for the whole blob; each key must then start and end on a
        // character boundary to be a `str` itself.
        let blob = std::str::from_utf8(&t.bytes[blob_start..])
            .map_err(|_| "keys are not UTF-8".to_string())?;
        let mut prev: Option<(&[u8], u32)> = None;
        for i in 0..count {
            let e = t.entry(i);
            let key = t
                .key_bytes(e)
                .ok_or_else(|| format!("key entry {i} points outside the keys"))?;
            let (start, end) = (e.start as usize, e.start as usize + e.len as usize);
            if e.id >= records || !blob.is_char_boundary(start) || !blob.is_char_boundary(end) {
                return Err(format!("key entry {i} is invalid"));
            }
            if prev.is_some_and(|p| p >= (key, e.id)) {
                return Err(format!("key entry {i} is out of order"));
            }
            prev = Some((key, e.id));
        }
        Ok(t)
    }

    fn entry(&self, i: usize) -> Entry {
        let at = PREAMBLE + i * ENTRY;
        let w = |k: usize| {
            let b = &self.bytes[at + k * 4..at + k * 4 + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        Entry {
            start: w(0),
            len: w(1),
            id: w(2),
        }
    }

    fn key_bytes(&self, e: Entry) -> Option<&[u8]> {
        let start = self.blob_start.checked_add(e.start as usize)?;
        self.bytes.get(start..start.checked_add(e.len as usize)?)
    }

    /// `decode` checked every key, so this never yields "".
    fn key(&self, e: Entry) -> &str {
        self.key_bytes(e)
            .and_then(|k| std::str::from_utf8(k).ok())
            .unwrap_or_default()
    }

    /// The record ids with this key, in document order.
    pub fn ids<'a>(&'a self, key: &'a str) -> impl Iterator<Item = usize> + 'a {
        let key = key.as_bytes();
        // First entry whose key is not below `key`.
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_bytes(self.entry(mid)).unwrap_or_default() < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.count)
            .map(|i| self.entry(i))
            .take_while(move |e| self.key_bytes(*e) == Some(key))
            .map(|e| e.id as usize)
    }

    /// The distinct keys, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        let mut prev: Option<&str> = None;
        (0..self.count).filter_map(move |i| {
            let k = self.key(self.entry(i));
            let new = prev != Some(k);
            prev = Some(k);
            new.then_some(k)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> [KeyTable; 3] {
        let mut b = DirectoryBuilder::default();
        b.add(0, "ADD_01 (R64, R64)", "ADD_GPRv_GPRv_01", "ADD")
            .unwrap();
        b.add(1, "SUB (R64, R64)", "SUB_GPRv_GPRv_29", "SUB")
            .unwrap();
        b.add(2, "ADD (R64, I8)", "ADD_GPRv_IMMb", "ADD").unwrap();
        b.add(3, "ADD_01 (R64, R64)", "ADD_GPRv_GPRv_01", "ADD")
            .unwrap();
        let s = b.finish();
        KeyKind::ALL.map(|k| {
            let bytes = s.to_bytes(k);
            assert_eq!(bytes.len() as u64, s.encoded_len(k));
            KeyTable::decode(bytes, 4).unwrap()
        })
    }

    #[test]
    fn lookups_give_ids_in_document_order() {
        let [strings, iforms, iclasses] = sample();
        let ids = |t: &KeyTable, key| t.ids(key).collect::<Vec<_>>();
        assert_eq!(ids(&strings, "ADD_01 (R64, R64)"), [0, 3]);
        assert_eq!(ids(&strings, "SUB (R64, R64)"), [1]);
        assert_eq!(ids(&iclasses, "ADD"), [0, 2, 3]);
        assert_eq!(ids(&iforms, "ADD_GPRv_IMMb"), [2]);
        assert!(ids(&iclasses, "AD").is_empty());
        assert!(ids(&iclasses, "ZZZ").is_empty());
        assert!(ids(&iclasses, "").is_empty());
        assert_eq!(
            strings.keys().collect::<Vec<_>>(),
            ["ADD (R64, I8)", "ADD_01 (R64, R64)", "SUB (R64, R64)"]
        );
    }

    #[test]
    fn damaged_tables_are_refused() {
        let [strings, ..] = sample();
        let good = strings.bytes;
        assert!(KeyTable::decode(good.clone(), 5).is_err(), "wrong count");
        assert!(KeyTable::decode(good[..good.len() - 1].to_vec(), 4).is_err());
        assert!(KeyTable::decode(good[..6].to_vec(), 4).is_err());
        // An id out of range, a key out of the blob, two entries swapped.
        let mut bad_id = good.clone();
        bad_id[PREAMBLE + 8] = 9;
        let mut bad_key = good.clone();
        bad_key[PREAMBLE + 4] = 200;
        let mut swapped = good.clone();
        let (a, b) = (PREAMBLE, PREAMBLE + ENTRY);
        let first: Vec<u8> = swapped[a..b].to_vec();
        swapped.copy_within(b..b + ENTRY, a);
        swapped[b..b + ENTRY].copy_from_slice(&first);
        for bad in [bad_id, bad_key, swapped] {
            assert!(KeyTable::decode(bad, 4).is_err());
        }
    }
}
