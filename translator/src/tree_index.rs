//! The index of a conversion run: one file per tree (inputs, output and salt), holding for every
//! cached source its stamp, its cache key and the head of its cache entry. A re-run takes a
//! source whose stamp is unchanged as unchanged, without reading it, and finds its result
//! without opening its cache entry: an unchanged tree costs a `stat` per source and per output
//! and one sequential read, instead of reading every source and entry from a cold disk.
//!
//! The index is read as a stream in discovery order (no whole-tree state in memory) and written
//! anew, atomically, at the end of every complete run. A source is trusted only when it had not
//! changed for a second when it was read, so a write in the same clock tick as the read cannot
//! go unseen (git's "racy clean" rule); anything the index does not vouch for takes the ordinary
//! path (read, hash, look the entry up). A damaged record ends the index there.

use std::cmp::Ordering;
use std::fs;
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use xxhash_rust::xxh3::xxh3_64;

use crate::cache::{Stamp, R, W};
use crate::project::{AtomicWriter, FoundFile};

const MAGIC: &[u8; 8] = b"HIPPI\x00\x04\x00";

/// How long a source must have been unchanged when it was read for its stamp to be trusted.
const SETTLED_NS: u128 = 1_000_000_000;

/// What the index holds for one source.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Path relative to the input root.
    pub rel: String,
    /// Whether it was translated.
    pub translate: bool,
    /// Its stamp when discovered.
    pub stamp: Stamp,
    /// When it was read, in nanoseconds since the epoch (taken before reading).
    pub read_at: u128,
    /// Its cache key (content, paths, rules, options).
    pub key: u128,
    /// The head of its cache entry ([`crate::cache::encode_head`]).
    pub head: Vec<u8>,
    /// The project headers its result took facts from (see [`crate::header_facts`]), relative
    /// to the root, with their stamps when read: the record holds while they are unchanged.
    pub headers: Vec<(String, Stamp)>,
    /// Where its includes were looked for and found no header (relative to the root): the
    /// record holds while none appears there.
    pub absent: Vec<String>,
}

impl Record {
    /// Whether `f` is this source, unchanged since it was read.
    pub fn vouches_for(&self, f: &FoundFile) -> bool {
        self.rel == f.rel
            && self.translate == f.translate
            && f.stamp == Some(self.stamp)
            && self.stamp.changed_ns() + SETTLED_NS < self.read_at
    }

    /// Whether every header the result took facts from is as it was when read (`now` gives a
    /// header's stamp in this run), settled as the source must be, and no header has appeared
    /// where an include found none (`present` says whether one is there in this run).
    pub fn headers_hold(
        &self,
        now: impl Fn(&str) -> Option<Stamp>,
        present: impl Fn(&str) -> bool,
    ) -> bool {
        self.headers.iter().all(|(rel, stamp)| {
            now(rel) == Some(*stamp) && stamp.changed_ns() + SETTLED_NS < self.read_at
        }) && !self.absent.iter().any(|rel| present(rel))
    }
}

/// Nanoseconds since the epoch, now.
pub fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Discovery order: depth first, siblings by name, which is the order of the components
/// compared one by one; here the bytes of two paths (or `/`-separated relative paths) compared
/// with each separator made the lowest byte (no name holds a NUL). Only the first byte that
/// differs decides; equal runs are skipped eight at a time.
pub(crate) fn discovery_order(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    if i == n {
        return a.len().cmp(&b.len());
    }
    let low = |c: u8| {
        if std::path::is_separator(char::from(c)) {
            0
        } else {
            c
        }
    };
    low(a[i]).cmp(&low(b[i]))
}

/// Reads an index as a stream, in discovery order.
pub struct Reader {
    r: BufReader<fs::File>,
    next: Option<Record>,
}

impl Reader {
    /// Opens the index at `path`; `None` when there is none or it is not an index.
    pub fn open(path: &Path) -> Option<Reader> {
        let mut r = BufReader::with_capacity(1 << 16, fs::File::open(path).ok()?);
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).ok()?;
        if &magic != MAGIC {
            return None;
        }
        let mut reader = Reader { r, next: None };
        reader.next = reader.read_one();
        Some(reader)
    }

    fn read_one(&mut self) -> Option<Record> {
        let mut len = [0u8; 8];
        self.r.read_exact(&mut len).ok()?;
        let len = usize::try_from(u64::from_le_bytes(len)).ok()?;
        if len > 1 << 30 {
            return None;
        }
        let mut sum = [0u8; 8];
        self.r.read_exact(&mut sum).ok()?;
        let mut payload = vec![0u8; len];
        self.r.read_exact(&mut payload).ok()?;
        if u64::from_le_bytes(sum) != xxh3_64(&payload) {
            return None;
        }
        decode(&payload)
    }

    /// The record of `rel`, if the index has one; records of files before it (in discovery
    /// order) are passed over. Files must be asked for in discovery order.
    pub fn find(&mut self, rel: &str) -> Option<Record> {
        loop {
            let next = self.next.as_ref()?;
            match discovery_order(next.rel.as_bytes(), rel.as_bytes()) {
                Ordering::Less => self.next = self.read_one(),
                Ordering::Equal => {
                    let found = self.next.take();
                    self.next = self.read_one();
                    return found;
                }
                Ordering::Greater => return None,
            }
        }
    }
}

/// Writes a new index; it replaces the old one only when [`Writer::finish`] runs.
pub struct Writer {
    w: AtomicWriter,
}

impl Writer {
    /// Starts the index at `path` (its directory is made if needed).
    pub fn create(path: &Path) -> std::io::Result<Writer> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut w = AtomicWriter::create(path)?;
        w.write_all(MAGIC)?;
        Ok(Writer { w })
    }

    /// Appends one record (records must come in discovery order).
    pub fn add(&mut self, r: &Record) -> std::io::Result<()> {
        let payload = encode(r);
        self.w.write_all(&(payload.len() as u64).to_le_bytes())?;
        self.w.write_all(&xxh3_64(&payload).to_le_bytes())?;
        self.w.write_all(&payload)
    }

    /// Puts the new index in place of the old one.
    pub fn finish(self) -> std::io::Result<()> {
        self.w.finish()
    }
}

fn encode(r: &Record) -> Vec<u8> {
    let mut w = W(Vec::with_capacity(r.rel.len() + r.head.len() + 120));
    w.b(r.rel.as_bytes());
    w.n(r.translate as u64);
    w.stamp(&r.stamp);
    w.wide(r.read_at);
    w.wide(r.key);
    w.b(&r.head);
    w.n(r.headers.len() as u64);
    for (rel, stamp) in &r.headers {
        w.b(rel.as_bytes());
        w.stamp(stamp);
    }
    w.n(r.absent.len() as u64);
    for rel in &r.absent {
        w.b(rel.as_bytes());
    }
    w.0
}

fn decode(p: &[u8]) -> Option<Record> {
    let mut r = R(p);
    let record = Record {
        rel: r.s()?,
        translate: r.n()? != 0,
        stamp: r.stamp()?,
        read_at: r.wide()?,
        key: r.wide()?,
        head: r.b()?.to_vec(),
        headers: Vec::new(),
        absent: Vec::new(),
    };
    let mut record = record;
    let n = r.n()?;
    for _ in 0..n {
        let rel = r.s()?;
        record.headers.push((rel, r.stamp()?));
    }
    let n = r.n()?;
    for _ in 0..n {
        record.absent.push(r.s()?);
    }
    r.0.is_empty().then_some(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(rel: &str) -> Record {
        Record {
            rel: rel.into(),
            translate: true,
            stamp: Stamp::from_words([1, 2, 3, 4, 5, 6, 7]),
            read_at: 99_000_000_000,
            key: 0x1234 << 70,
            head: b"head bytes".to_vec(),
            headers: vec![(
                "inc/compat.h".into(),
                Stamp::from_words([1, 9, 3, 4, 5, 6, 7]),
            )],
            absent: vec!["a/compat.h".into()],
        }
    }

    #[test]
    fn records_stream_back_in_discovery_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i/index");
        let rels = ["a/b.cu", "a/c/d.cu", "a-b.cu", "z.cu"];
        let mut w = Writer::create(&path).unwrap();
        for r in rels {
            w.add(&record(r)).unwrap();
        }
        w.finish().unwrap();
        // Asked for in discovery order, with files the index does not know in between.
        let mut r = Reader::open(&path).unwrap();
        assert_eq!(r.find("a/a.cu"), None);
        assert_eq!(r.find("a/b.cu"), Some(record("a/b.cu")));
        assert_eq!(r.find("a/c/d.cu"), Some(record("a/c/d.cu")));
        assert_eq!(r.find("a/d.cu"), None);
        assert_eq!(r.find("z.cu"), Some(record("z.cu")));
        assert_eq!(r.find("zz.cu"), None);
        // A damaged record ends the index there.
        let mut data = fs::read(&path).unwrap();
        let n = data.len();
        data[n - 3] ^= 1;
        fs::write(&path, &data).unwrap();
        let mut r = Reader::open(&path).unwrap();
        assert!(r.find("a/b.cu").is_some());
        assert_eq!(r.find("z.cu"), None);
        fs::write(&path, b"not an index").unwrap();
        assert!(Reader::open(&path).is_none());
    }

    #[test]
    fn discovery_order_compares_components() {
        let rels = [
            "a", "a/b.cu", "a/c/d.cu", "a-b.cu", "a.cu", "aa/x", "b", "", "a/", "a//b", "ü/x",
        ];
        for x in rels {
            for y in rels {
                assert_eq!(
                    discovery_order(x.as_bytes(), y.as_bytes()),
                    x.split('/').cmp(y.split('/')),
                    "{x:?} {y:?}"
                );
            }
        }
    }

    #[test]
    fn a_record_vouches_only_for_a_settled_unchanged_source() {
        let f = |stamp: Option<Stamp>| FoundFile::new("x".into(), "a/b.cu".into(), true, 3, stamp);
        let r = record("a/b.cu");
        assert!(r.vouches_for(&f(Some(r.stamp))));
        assert!(!r.vouches_for(&f(None)));
        assert!(!r.vouches_for(&f(Some(Stamp::from_words([1, 2, 3, 4, 5, 6, 8])))));
        // Read within a second of its last change: not trusted.
        let racy = Record {
            read_at: r.stamp.changed_ns() + 500_000_000,
            ..r.clone()
        };
        assert!(!racy.vouches_for(&f(Some(r.stamp))));
    }

    #[test]
    fn a_record_holds_only_while_its_headers_are_unchanged() {
        let r = record("a/b.cu");
        let (rel, stamp) = r.headers[0].clone();
        let none = |_: &str| false;
        assert!(r.headers_hold(|h| (h == rel).then_some(stamp), none));
        // Changed, gone, or read within a second of its last change.
        let changed = Stamp::from_words([1, 9, 3, 4, 5, 6, 8]);
        assert!(!r.headers_hold(|_| Some(changed), none));
        assert!(!r.headers_hold(|_| None, none));
        let racy = Record {
            read_at: stamp.changed_ns() + 500_000_000,
            ..r.clone()
        };
        assert!(!racy.headers_hold(|_| Some(stamp), none));
        // A header has appeared where an include found none.
        assert!(!r.headers_hold(|_| Some(stamp), |h| h == "a/compat.h"));
        assert!(r.headers_hold(|_| Some(stamp), |h| h == "inc/compat.h"));
    }
}
