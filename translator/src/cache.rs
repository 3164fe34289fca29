//! A cache of per-file results, so that re-running `convert` on an unchanged tree only reads,
//! hashes and compares.
//!
//! Each entry is one small file under the cache directory (`$HIPPORT_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/hipport`, else `~/.cache/hipport`), named by a 128-bit XXH3 key over:
//! the file's bytes, its paths (relative and as shown in diagnostics), whether it is translated,
//! and a *salt* covering the hipport version, the rules (every embedded data file and every
//! `--rules` file) and the translation options. Change any of them and the key changes, so stale
//! entries are never read; they are simply left behind (delete the directory to reclaim space).
//!
//! An entry stores what the translation produced, in two checksummed parts: a head (status,
//! diagnostics before `--allow`/`--deny`, which are applied afterwards, parse-error lines,
//! renames, and the [`Stamp`] of the output file it was last written to) and a body (the edits,
//! and the translated bytes only when applying the edits to the source would not give them back;
//! a diff is made from the edits when a patch or report asks for one). A re-run reads the head
//! alone unless a patch, a report or the output itself is needed: when the output file still
//! has its stamp it is neither read back nor written. The index of a whole run
//! ([`crate::tree_index`]) goes further: it lets a re-run skip reading unchanged sources too.
//! A new entry is created exclusively and written in place; one that replaces another is written
//! atomically (temporary file and rename). A damaged or truncated entry is a miss. Files whose
//! parse ran out of time or failed to read are never cached.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use xxhash_rust::xxh3::{xxh3_128, xxh3_64, Xxh3};

use crate::diag::{Diagnostic, Severity};
use crate::edit::Edit;
use crate::project::{FileStatus, ReportEdit};
use crate::translate::Options;

const MAGIC: &[u8; 8] = b"HIPPC\x00\x03\x00";

/// A cache directory and the salt (version, rules, options) its keys are made with.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    salt: u128,
    /// Which of the 256 entry directories this run has made (shared by clones).
    made: Arc<[AtomicBool; 256]>,
}

/// What a cache entry holds for one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// What happened to the file.
    pub status: FileStatus,
    /// Edits applied.
    pub edits: Vec<ReportEdit>,
    /// Diagnostics, before allow/deny.
    pub diagnostics: Vec<Diagnostic>,
    /// Lines the parser could not read.
    pub parse_errors: Vec<(usize, usize)>,
    /// Renames by family.
    pub renames: BTreeMap<String, usize>,
    /// The translated bytes, when they differ from the input.
    pub output: Option<Vec<u8>>,
    /// The translated bytes are the input with `edits` applied, so the entry keeps no copy of
    /// them (`output` is then `None`); most entries are such, which halves what a run writes.
    pub from_edits: bool,
    /// Whether `edits` and `output` were read (see [`Cache::get`]); a head alone leaves
    /// them empty.
    pub body: bool,
    /// The output file as it was when this result was last written or checked there, so that a
    /// re-run can trust it by its metadata instead of reading it back.
    pub stamp: Option<Stamp>,
}

/// The identity and times of a file (device, inode, size, modification and change times): equal
/// stamps mean the file was not written in between, since no user can set a file's change time
/// (a write in the same clock tick as hipport's own, with the same size, is the one blind spot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp([u64; 7]);

impl Stamp {
    /// The stamp of the regular file at `path`; `None` for anything else, or off Unix.
    pub fn of(path: &Path) -> Option<Stamp> {
        Stamp::of_metadata(&fs::symlink_metadata(path).ok()?)
    }

    /// The stamp of a regular file from its metadata; `None` for anything else, or off Unix.
    pub fn of_metadata(m: &fs::Metadata) -> Option<Stamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            m.is_file().then(|| {
                Stamp([
                    m.dev(),
                    m.ino(),
                    m.size(),
                    m.mtime() as u64,
                    m.mtime_nsec() as u64,
                    m.ctime() as u64,
                    m.ctime_nsec() as u64,
                ])
            })
        }
        #[cfg(not(unix))]
        {
            let _ = m;
            None
        }
    }

    /// When the file last changed (its change time), in nanoseconds since the epoch.
    pub fn changed_ns(&self) -> u128 {
        u128::from(self.0[5]) * 1_000_000_000 + u128::from(self.0[6])
    }

    /// A stamp from its fields, for tests.
    #[cfg(test)]
    pub(crate) fn from_words(w: [u64; 7]) -> Stamp {
        Stamp(w)
    }
}

/// A fingerprint of the rules: every embedded data file plus the given `(path, text)` rule files.
pub fn rules_fingerprint(extra: &[(&str, &str)]) -> u128 {
    let mut h = Xxh3::new();
    for f in hipport_rules::data::DATA_FILES {
        h.update(f.name.as_bytes());
        h.update(&(f.text.len() as u64).to_le_bytes());
        h.update(f.text.as_bytes());
    }
    for (path, text) in extra {
        h.update(b"\x00user\x00");
        h.update(path.as_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    h.digest128()
}

/// The default cache directory: `$HIPPORT_CACHE_DIR`, `$XDG_CACHE_HOME/hipport`, or
/// `$HOME/.cache/hipport`.
pub fn default_dir() -> Option<PathBuf> {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = non_empty("HIPPORT_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = non_empty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("hipport"));
    }
    non_empty("HOME").map(|h| PathBuf::from(h).join(".cache").join("hipport"))
}

impl Cache {
    /// A cache in `dir` for results made with these rules (see [`rules_fingerprint`]) and options.
    /// The directory is created when the first entry is stored.
    pub fn new(dir: impl Into<PathBuf>, rules: u128, opts: &Options) -> Cache {
        // Every option that changes results, via Debug so that new fields are covered too. The
        // rules are covered by their fingerprint; the parse budget only decides whether a result
        // exists, and timed-out files are never stored.
        let mut o = opts.clone();
        o.rules = None;
        o.parse_budget = std::time::Duration::ZERO;
        let text = format!(
            "hipport {} build {}\nrules {rules:032x}\noptions {o:?}\n",
            env!("CARGO_PKG_VERSION"),
            env!("HIPPORT_BUILD_ID")
        );
        Cache {
            dir: dir.into(),
            salt: xxh3_128(text.as_bytes()),
            made: Arc::new([const { AtomicBool::new(false) }; 256]),
        }
    }

    /// The directory entries live in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the index of a run over one tree lives (see [`crate::tree_index`]): named by the
    /// salt and `tag` (the inputs as given and the output), so that it serves only the same run.
    pub fn index_path(&self, tag: &[u8]) -> PathBuf {
        let mut h = Xxh3::new();
        h.update(&self.salt.to_le_bytes());
        h.update(tag);
        self.dir
            .join("v2-index")
            .join(format!("{:032x}", h.digest128()))
    }

    /// The key of one file's result.
    pub fn key(&self, rel: &str, shown: &str, translate: bool, src: &[u8]) -> u128 {
        let mut h = Xxh3::new();
        h.update(&self.salt.to_le_bytes());
        for s in [rel, shown] {
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }
        h.update(&[translate as u8]);
        h.update(&(src.len() as u64).to_le_bytes());
        h.update(src);
        h.digest128()
    }

    fn path(&self, key: u128) -> PathBuf {
        let hex = format!("{key:032x}");
        self.dir.join("v1").join(&hex[..2]).join(&hex[2..])
    }

    /// The entry stored under `key`, if there is an intact one. Without `body`, only its head
    /// is read (status, diagnostics, renames, stamp: usually the first few hundred bytes) and
    /// `edits` and `output` are left empty.
    pub fn get(&self, key: u128, body: bool) -> Option<Entry> {
        // One `read` gets most entries whole (a head alone almost always). A short read is the end
        // of the file, and a truncated entry fails its checksum (a miss).
        let mut f = fs::File::open(self.path(key)).ok()?;
        let first = if body { 64 * 1024 } else { 4 * 1024 };
        let mut data = crate::project::read_whole(&mut f, first, first as u64, true).ok()?;
        if data.len() == first && (body || head_len(&data).is_none_or(|n| n > data.len())) {
            use std::io::Read;
            // Through `Take`: `File::read_to_end` would `stat` and `lseek` for a size hint.
            f.take(u64::MAX).read_to_end(&mut data).ok()?;
        }
        decode(&data, key, body)
    }
    /// Stores an entry; failures are ignored (the cache is an optimisation, never a reason to fail).
    pub fn put(&self, key: u128, entry: &Entry) {
        let path = self.path(key);
        let data = encode(entry, key);
        // Entries fan out over 256 directories: each is made once per run, not stat'ed for
        // every entry; if one has gone since, the write fails and is retried after making it.
        let slot = &self.made[(key >> 120) as usize];
        if slot.load(Ordering::Relaxed) {
            match crate::project::write_regenerable(&path, &data, false) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                _ => return,
            }
        }
        if let Some(parent) = path.parent() {
            if fs::create_dir_all(parent).is_err() {
                return;
            }
        }
        slot.store(true, Ordering::Relaxed);
        let _ = crate::project::write_regenerable(&path, &data, false);
    }
}

/// Little-endian writer of the cache's (and the run index's) records.
pub(crate) struct W(pub(crate) Vec<u8>);

impl W {
    pub(crate) fn n(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn b(&mut self, v: &[u8]) {
        self.n(v.len() as u64);
        self.0.extend_from_slice(v);
    }
    pub(crate) fn wide(&mut self, v: u128) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn stamp(&mut self, v: &Stamp) {
        for x in v.0 {
            self.n(x);
        }
    }
    fn opt(&mut self, v: Option<&str>) {
        match v {
            Some(s) => {
                self.n(1);
                self.b(s.as_bytes());
            }
            None => self.n(0),
        }
    }
    fn edit(&mut self, e: &Edit) {
        self.n(e.start as u64);
        self.n(e.end as u64);
        self.b(e.text.as_bytes());
        self.b(e.rule.as_bytes());
    }
}

/// Reader of what [`W`] writes; every method is `None` on truncated or malformed data.
pub(crate) struct R<'a>(pub(crate) &'a [u8]);

impl<'a> R<'a> {
    pub(crate) fn n(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*head))
    }
    fn u(&mut self) -> Option<usize> {
        usize::try_from(self.n()?).ok()
    }
    pub(crate) fn b(&mut self) -> Option<&'a [u8]> {
        let len = self.u()?;
        if len > self.0.len() {
            return None;
        }
        let (v, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(v)
    }
    pub(crate) fn s(&mut self) -> Option<String> {
        String::from_utf8(self.b()?.to_vec()).ok()
    }
    pub(crate) fn wide(&mut self) -> Option<u128> {
        let (head, rest) = self.0.split_first_chunk::<16>()?;
        self.0 = rest;
        Some(u128::from_le_bytes(*head))
    }
    pub(crate) fn stamp(&mut self) -> Option<Stamp> {
        let mut v = [0u64; 7];
        for x in &mut v {
            *x = self.n()?;
        }
        Some(Stamp(v))
    }
    fn opt(&mut self) -> Option<Option<String>> {
        match self.n()? {
            0 => Some(None),
            1 => Some(Some(self.s()?)),
            _ => None,
        }
    }
    fn edit(&mut self) -> Option<Edit> {
        Some(Edit {
            start: self.u()?,
            end: self.u()?,
            text: self.s()?,
            rule: self.s()?,
        })
    }
    /// A count of items that each take at least `min` bytes, checked against what is left.
    fn count(&mut self, min: usize) -> Option<usize> {
        let n = self.u()?;
        (n.checked_mul(min)? <= self.0.len()).then_some(n)
    }
}

const STATUSES: [FileStatus; 5] = [
    FileStatus::Changed,
    FileStatus::Unchanged,
    FileStatus::Copied,
    FileStatus::Skipped,
    FileStatus::Failed,
];

/// An entry's layout: magic, key, head length, head checksum, head (status, diagnostics,
/// parse errors, renames, stamp), body checksum, body (edits, output).
const HEADER: usize = 8 + 16 + 8 + 8;

/// The head of an entry (see [`HEADER`]): what a re-run needs when it writes nothing. Taken
/// by parts, so that an outcome's fields need no copy into an [`Entry`].
pub(crate) fn encode_head(
    status: FileStatus,
    diagnostics: &[Diagnostic],
    parse_errors: &[(usize, usize)],
    renames: &BTreeMap<String, usize>,
    stamp: Option<&Stamp>,
) -> Vec<u8> {
    let mut w = W(Vec::with_capacity(256));
    w.n(STATUSES.iter().position(|s| *s == status).unwrap_or(0) as u64);
    w.n(diagnostics.len() as u64);
    for d in diagnostics {
        w.b(d.id.as_bytes());
        w.b(d.severity.as_str().as_bytes());
        w.b(d.file.as_bytes());
        w.n(d.line as u64);
        w.n(d.column as u64);
        w.n(d.offset as u64);
        w.b(d.message.as_bytes());
        w.opt(d.help.as_deref());
        w.n(d.fix.len() as u64);
        for f in &d.fix {
            w.edit(f);
        }
    }
    w.n(parse_errors.len() as u64);
    for &(a, b) in parse_errors {
        w.n(a as u64);
        w.n(b as u64);
    }
    w.n(renames.len() as u64);
    for (k, v) in renames {
        w.b(k.as_bytes());
        w.n(*v as u64);
    }
    match stamp {
        Some(st) => {
            w.n(1);
            w.stamp(st);
        }
        None => w.n(0),
    }
    w.0
}

fn encode(e: &Entry, key: u128) -> Vec<u8> {
    let head = encode_head(
        e.status,
        &e.diagnostics,
        &e.parse_errors,
        &e.renames,
        e.stamp.as_ref(),
    );
    let mut w = W(Vec::with_capacity(
        64 + e.output.as_ref().map_or(0, Vec::len),
    ));
    w.n(e.edits.len() as u64);
    for x in &e.edits {
        w.n(x.start as u64);
        w.n(x.end as u64);
        w.b(x.old.as_bytes());
        w.b(x.new.as_bytes());
        w.b(x.rule.as_bytes());
    }
    match &e.output {
        Some(o) => {
            w.n(1);
            w.b(o);
        }
        None if e.from_edits => w.n(2),
        None => w.n(0),
    }
    let body = w.0;
    let mut out = Vec::with_capacity(HEADER + head.len() + 8 + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&(head.len() as u64).to_le_bytes());
    out.extend_from_slice(&xxh3_64(&head).to_le_bytes());
    out.extend_from_slice(&head);
    out.extend_from_slice(&xxh3_64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The length of an entry up to the end of its head, if its header is there.
fn head_len(data: &[u8]) -> Option<usize> {
    let len = data.get(24..32)?;
    let n = u64::from_le_bytes(len.try_into().ok()?);
    usize::try_from(n).ok()?.checked_add(HEADER)
}

fn decode(data: &[u8], key: u128, with_body: bool) -> Option<Entry> {
    let rest = data.strip_prefix(MAGIC)?;
    let (k, _) = rest.split_first_chunk::<16>()?;
    if u128::from_le_bytes(*k) != key {
        return None;
    }
    let end = head_len(data)?;
    let head = data.get(HEADER..end)?;
    if data[32..40] != xxh3_64(head).to_le_bytes() {
        return None;
    }
    let mut e = decode_head(head)?;
    if !with_body {
        return Some(e);
    }
    let (sum, body) = data[end..].split_first_chunk::<8>()?;
    if *sum != xxh3_64(body).to_le_bytes() {
        return None;
    }
    let mut r = R(body);
    for _ in 0..r.count(40)? {
        e.edits.push(ReportEdit {
            start: r.u()?,
            end: r.u()?,
            old: r.s()?,
            new: r.s()?,
            rule: r.s()?,
        });
    }
    e.output = match r.n()? {
        0 => None,
        1 => Some(r.b()?.to_vec()),
        2 => {
            e.from_edits = true;
            None
        }
        _ => return None,
    };
    e.body = true;
    r.0.is_empty().then_some(e)
}

/// An entry from its head alone (see [`encode_head`]): no edits or output.
pub(crate) fn decode_head(head: &[u8]) -> Option<Entry> {
    let mut r = R(head);
    let status = *STATUSES.get(r.u()?)?;
    let mut diagnostics = Vec::new();
    for _ in 0..r.count(80)? {
        let id = r.s()?;
        let severity = Severity::parse(&r.s()?)?;
        let file = r.s()?;
        let (line, column, offset) = (r.u()?, r.u()?, r.u()?);
        let message = r.s()?;
        let help = r.opt()?;
        let mut fix = Vec::new();
        for _ in 0..r.count(32)? {
            fix.push(r.edit()?);
        }
        diagnostics.push(Diagnostic {
            id,
            severity,
            file,
            line,
            column,
            offset,
            message,
            help,
            fix,
        });
    }
    let mut parse_errors = Vec::new();
    for _ in 0..r.count(16)? {
        parse_errors.push((r.u()?, r.u()?));
    }
    let mut renames = BTreeMap::new();
    for _ in 0..r.count(16)? {
        let k = r.s()?;
        renames.insert(k, r.u()?);
    }
    let stamp = match r.n()? {
        0 => None,
        1 => Some(r.stamp()?),
        _ => return None,
    };
    r.0.is_empty().then_some(Entry {
        status,
        edits: Vec::new(),
        diagnostics,
        parse_errors,
        renames,
        output: None,
        from_edits: false,
        body: false,
        stamp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            status: FileStatus::Changed,
            edits: vec![ReportEdit {
                start: 3,
                end: 13,
                old: "cudaMalloc".into(),
                new: "hipMalloc".into(),
                rule: "runtime".into(),
            }],
            diagnostics: vec![Diagnostic {
                id: "H001".into(),
                severity: Severity::Warning,
                file: "a/b.cu".into(),
                line: 2,
                column: 5,
                offset: 17,
                message: "lane mask".into(),
                help: Some("use uint64_t".into()),
                fix: vec![Edit::replace(17, 25, "uint64_t", "H001")],
            }],
            parse_errors: vec![(4, 6)],
            renames: [("runtime".to_string(), 1)].into_iter().collect(),
            output: Some(b"int hipMalloc;\xff".to_vec()),
            from_edits: false,
            body: true,
            stamp: Some(Stamp([1, 2, 3, 4, 5, 6, 7])),
        }
    }

    #[test]
    fn entries_round_trip_and_damage_is_a_miss() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::new(tmp.path(), rules_fingerprint(&[]), &Options::default());
        let key = cache.key("b.cu", "a/b.cu", true, b"int cudaMalloc;\xff");
        assert!(cache.get(key, true).is_none());
        cache.put(key, &entry());
        assert_eq!(cache.get(key, true), Some(entry()));
        // The head alone: everything but edits and output.
        let head = Entry {
            edits: vec![],
            output: None,
            body: false,
            ..entry()
        };
        assert_eq!(cache.get(key, false), Some(head));
        let mut unchanged = entry();
        unchanged.status = FileStatus::Unchanged;
        unchanged.output = None;
        unchanged.stamp = None;
        let key2 = key ^ 1;
        cache.put(key2, &unchanged);
        assert_eq!(cache.get(key2, true), Some(unchanged));
        // Output kept as "the input with the edits applied": no copy, the flag comes back.
        let mut rebuilt = entry();
        rebuilt.output = None;
        rebuilt.from_edits = true;
        cache.put(key ^ 3, &rebuilt);
        assert_eq!(cache.get(key ^ 3, true), Some(rebuilt.clone()));
        let head = cache.get(key ^ 3, false).unwrap();
        assert!(!head.from_edits && head.edits.is_empty());
        // A head longer than the first read (many diagnostics) and a body longer than 64 KiB.
        let mut big = entry();
        big.diagnostics = vec![entry().diagnostics[0].clone(); 200];
        big.output = Some(vec![b'x'; 200_000]);
        let key3 = key ^ 2;
        cache.put(key3, &big);
        assert_eq!(cache.get(key3, true), Some(big.clone()));
        assert_eq!(cache.get(key3, false).unwrap().diagnostics.len(), 200);
        // Truncation, a flipped byte, or an entry stored under another key: all misses.
        let path = cache.path(key);
        let good = fs::read(&path).unwrap();
        for bad in [good[..good.len() - 1].to_vec(), {
            let mut b = good.clone();
            let i = b.len() / 2;
            b[i] ^= 0x20;
            b
        }] {
            fs::write(&path, bad).unwrap();
            assert!(cache.get(key, true).is_none());
        }
        // A damaged head is a miss even when only the head is read.
        let mut b = good.clone();
        b[HEADER + 3] ^= 0x20;
        fs::write(&path, b).unwrap();
        assert!(cache.get(key, false).is_none());
        fs::write(&path, fs::read(cache.path(key2)).unwrap()).unwrap();
        assert!(cache.get(key, true).is_none());
        assert!(cache.get(key, false).is_none());
    }

    #[test]
    fn keys_depend_on_content_paths_rules_and_options() {
        let opts = Options::default();
        let c = Cache::new("/nonexistent", rules_fingerprint(&[]), &opts);
        let k = c.key("x.cu", "d/x.cu", true, b"cudaMalloc");
        assert_eq!(k, c.key("x.cu", "d/x.cu", true, b"cudaMalloc"));
        assert_ne!(k, c.key("x.cu", "d/x.cu", true, b"cudaFree"));
        assert_ne!(k, c.key("y.cu", "d/y.cu", true, b"cudaMalloc"));
        assert_ne!(k, c.key("x.cu", "d/x.cu", false, b"cudaMalloc"));
        let rules = rules_fingerprint(&[("mine.tsv", "cudaFoo hipFoo\n")]);
        assert_ne!(rules, rules_fingerprint(&[]));
        let c2 = Cache::new("/nonexistent", rules, &opts);
        assert_ne!(k, c2.key("x.cu", "d/x.cu", true, b"cudaMalloc"));
        let mut o = opts.clone();
        o.annotate = true;
        let c3 = Cache::new("/nonexistent", rules_fingerprint(&[]), &o);
        assert_ne!(k, c3.key("x.cu", "d/x.cu", true, b"cudaMalloc"));
        let mut o = opts.clone();
        o.parse_budget = std::time::Duration::from_millis(1);
        let c4 = Cache::new("/nonexistent", rules_fingerprint(&[]), &o);
        assert_eq!(k, c4.key("x.cu", "d/x.cu", true, b"cudaMalloc"));
    }
}
