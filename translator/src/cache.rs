//! A cache of per-file results, so that re-running `convert` on an unchanged tree only reads,
//! hashes and compares.
//!
//! Entries live under the cache directory (`$HIPPORT_CACHE_DIR`, else `$XDG_CACHE_HOME/hipport`,
//! else `~/.cache/hipport`), found by a 128-bit XXH3 key over: the file's bytes, its paths
//! (relative and as shown in diagnostics), whether it is translated, and a *salt* covering the
//! hipport version, the rules (every embedded data file and every `--rules` file) and the
//! translation options. Change any of them and the key changes, so stale entries are never read;
//! they are simply left behind (delete the directory to reclaim space).
//!
//! An entry stores what the translation produced, in two checksummed parts: a head (status,
//! diagnostics before `--allow`/`--deny`, which are applied afterwards, parse-error lines,
//! renames, and the [`Stamp`] of the output file it was last written to) and a body (the edits,
//! and the translated bytes only when applying the edits to the source would not give them back;
//! a diff is made from the edits when a patch or report asks for one). A re-run reads the head
//! alone unless a patch, a report or the output itself is needed: when the output file still
//! has its stamp it is neither read back nor written. The index of a whole run
//! ([`crate::tree_index`]) goes further: it lets a re-run skip reading unchanged sources too.
//!
//! Entries are kept in pack files (`v3/packs/` in the cache directory) of up to 65,536 entries
//! each, written by the run that stored them: each entry is appended with one `write`, so a run
//! over 150,000 files makes six files instead of 150,000 (creating a file costs far more than
//! appending to one). When a pack is full, or the run ends ([`Cache::flush`]), the run writes
//! the pack's index: every key with its offset and length, sorted, checksummed, written
//! atomically. A later run reads the indexes at its first lookup and searches them newest first.
//! The cache keeps at most 1,000,000 entries and 2 GiB (the newest), so what a run holds of the
//! indexes is bounded whatever the size of the tree. A pack whose run died before its index was
//! written is never read; a damaged or truncated entry is a miss. Files whose parse ran out of
//! time or failed to read are never cached.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use xxhash_rust::xxh3::{xxh3_128, xxh3_64, Xxh3};

use crate::diag::{Diagnostic, Severity};
use crate::edit::Edit;
use crate::project::{FileStatus, ReportEdit};
use crate::translate::Options;

const MAGIC: &[u8; 8] = b"HIPPC\x00\x03\x00";

/// The first bytes of a pack's index.
const INDEX_MAGIC: &[u8; 8] = b"HIPPX\x00\x01\x00";

/// One index record: key (16 bytes), offset (8) and length (4) of an entry in its pack.
const INDEX_RECORD: usize = 28;

/// A cache directory and the salt (version, rules, options) its keys are made with.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    salt: u128,
    /// This run's pack and the indexes of earlier ones (shared by clones).
    packs: Arc<Packs>,
    /// The most bytes of entries the packs keep (`HIPPORT_CACHE_MAX_MB`, default 2048).
    max_bytes: u64,
    /// The most entries the packs keep, and the most one run stores
    /// (`HIPPORT_CACHE_MAX_ENTRIES`, default [`MAX_ENTRIES`]): what a run holds of the indexes
    /// grows with their number, not with the tree.
    max_entries: usize,
    /// The most entries one pack holds before the run starts another (see [`PACK_ENTRIES`]).
    pack_entries: usize,
}

/// How many entries the cache keeps by default: a run that reads the indexes holds 32 bytes an
/// entry, and merging them twice that, so the cache's share of a run's memory stays under 100 MB
/// however large the tree.
pub const MAX_ENTRIES: usize = 1_000_000;

/// How many entries a pack holds before the run writes its index and starts the next one: the
/// keys of the pack being written are held in memory until then.
const PACK_ENTRIES: usize = 1 << 16;

/// Where an entry is: offset and length in its pack.
type Spot = (u64, u32);

/// The pack this run appends to, and the packs of earlier runs.
#[derive(Debug, Default)]
struct Packs {
    /// Made at the first store.
    writer: Mutex<Option<PackWriter>>,
    /// Read at the first lookup, newest first.
    earlier: OnceLock<Vec<PackIndex>>,
    /// Entries this run has stored (it stores no more than the cache keeps).
    stored: AtomicUsize,
}

/// The pack a run appends its entries to.
#[derive(Debug)]
struct PackWriter {
    /// Path of the pack, without its extension.
    stem: PathBuf,
    /// Buffered, so that the file grows by whole pages; `None` once a write has failed (the
    /// run's entries are then dropped: what reached the file is unknown).
    file: Option<std::io::BufWriter<fs::File>>,
    len: u64,
    spots: HashMap<u128, Spot>,
}

impl PackWriter {
    /// Appends the entry `data` (`len` bytes) for `key`; false once the pack cannot be written.
    fn append(&mut self, key: u128, data: &[u8], len: u32) -> bool {
        let Some(f) = self.file.as_mut() else {
            return false;
        };
        if f.write_all(data).is_err() {
            self.fail();
            return false;
        }
        self.spots.insert(key, (self.len, len));
        self.len += u64::from(len);
        true
    }

    /// Gives up on the pack after a failed write: none of its entries is trusted.
    fn fail(&mut self) {
        self.file = None;
        self.spots.clear();
    }

    /// The pack file with everything appended so far in it; `None` after a failure.
    fn written(&mut self) -> Option<&fs::File> {
        if self.file.as_mut()?.flush().is_err() {
            self.fail();
            return None;
        }
        self.file.as_ref().map(|f| f.get_ref())
    }
}

/// The buffer of a pack being written: entries of a few KiB reach the file in 1 MiB writes (a
/// write that fills part of a new page makes the kernel zero the rest, which cost a tenth of a
/// cache-filling run's time when each entry was written on its own).
const PACK_BUFFER: usize = 1 << 20;

/// An earlier run's pack, by its index.
#[derive(Debug)]
struct PackIndex {
    pack: PathBuf,
    /// Opened at the first read.
    file: OnceLock<Option<fs::File>>,
    /// Sorted by key.
    spots: Vec<(u128, Spot)>,
}

impl PackIndex {
    /// Reads and checks the index at `path`; `None` when it is damaged.
    fn read(path: &Path) -> Option<PackIndex> {
        let data = fs::read(path).ok()?;
        let body = data.strip_prefix(INDEX_MAGIC)?;
        let (body, sum) = body.split_at_checked(body.len().checked_sub(8)?)?;
        if xxh3_64(body).to_le_bytes() != sum {
            return None;
        }
        let (count, records) = body.split_first_chunk::<8>()?;
        let count = usize::try_from(u64::from_le_bytes(*count)).ok()?;
        if records.len() != count.checked_mul(INDEX_RECORD)? {
            return None;
        }
        let spots: Vec<(u128, Spot)> = records
            .chunks_exact(INDEX_RECORD)
            .map(|r| {
                let (key, rest) = r.split_first_chunk::<16>().expect("28 bytes");
                let (offset, len) = rest.split_first_chunk::<8>().expect("12 bytes");
                let len: [u8; 4] = len.try_into().expect("4 bytes");
                (
                    u128::from_le_bytes(*key),
                    (u64::from_le_bytes(*offset), u32::from_le_bytes(len)),
                )
            })
            .collect();
        if !spots.is_sorted_by_key(|s| s.0) {
            return None;
        }
        Some(PackIndex {
            pack: path.with_extension("pack"),
            file: OnceLock::new(),
            spots,
        })
    }

    fn find(&self, key: u128) -> Option<Spot> {
        let i = self.spots.binary_search_by_key(&key, |s| s.0).ok()?;
        Some(self.spots[i].1)
    }
}

/// The bytes of a pack's index over `spots`.
fn encode_index(mut spots: Vec<(u128, Spot)>) -> Vec<u8> {
    spots.sort_unstable_by_key(|s| s.0);
    let mut out = Vec::with_capacity(8 + 8 + spots.len() * INDEX_RECORD + 8);
    out.extend_from_slice(INDEX_MAGIC);
    out.extend_from_slice(&(spots.len() as u64).to_le_bytes());
    for (key, (offset, len)) in spots {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
    }
    let sum = xxh3_64(&out[INDEX_MAGIC.len()..]);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads `buf.len()` bytes of `file` at `offset`, without moving a shared file position.
fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            match std::os::windows::fs::FileExt::seek_read(
                file,
                &mut buf[done..],
                offset + done as u64,
            )? {
                0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                n => done += n,
            }
        }
        Ok(())
    }
}

/// Reads the entry for `key` at `spot` of a pack: its head alone unless `body`.
fn read_entry(file: &fs::File, (offset, len): Spot, key: u128, body: bool) -> Option<Entry> {
    let len = len as usize;
    // The head is nearly always within the first 4 KiB.
    let first = if body { len } else { len.min(4 * 1024) };
    let mut data = vec![0; first];
    read_at(file, &mut data, offset).ok()?;
    if first < len && head_len(&data).is_none_or(|n| n > first) {
        data.resize(len, 0);
        read_at(file, &mut data[first..], offset + first as u64).ok()?;
    }
    decode(&data, key, body)
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

/// `key` for a file whose result took facts from the project headers it includes (macros they
/// define as `warpSize` or from a test of the platform, their qualifier macros, which decide
/// what parses, the text of those with warp operations, whose device functions H001 reads, and
/// the integer constants they fix, which size the file's launches; see
/// [`crate::header_facts`]): a header that changes what it says changes the key of
/// every file that includes it. Without such facts, `key` itself.
pub fn key_with_headers(key: u128, taken: &crate::header_facts::Taken) -> u128 {
    if taken.aliases.is_empty()
        && taken.warp_headers.is_empty()
        && taken.defines.is_empty()
        && taken.qualifiers.is_empty()
        && taken.constants.is_empty()
    {
        return key;
    }
    let mut h = Xxh3::new();
    h.update(&key.to_le_bytes());
    let text = format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        taken.aliases, taken.warp_headers, taken.defines, taken.qualifiers, taken.constants
    );
    h.update(&(text.len() as u64).to_le_bytes());
    h.update(text.as_bytes());
    h.digest128()
}

/// `key` made to hold the includes of the file that find no file in the tree (T025's, each
/// with what its report names): a result is reused only while the same ones are missing.
pub(crate) fn key_with_missing(key: u128, missing: &[crate::includes::MissingInclude]) -> u128 {
    if missing.is_empty() {
        return key;
    }
    let mut h = Xxh3::new();
    h.update(&key.to_le_bytes());
    let text = format!("{missing:?}");
    h.update(&(text.len() as u64).to_le_bytes());
    h.update(text.as_bytes());
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
            packs: Arc::default(),
            max_bytes: std::env::var("HIPPORT_CACHE_MAX_MB")
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(2048)
                .saturating_mul(1 << 20),
            max_entries: std::env::var("HIPPORT_CACHE_MAX_ENTRIES")
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(MAX_ENTRIES),
            pack_entries: PACK_ENTRIES,
        }
    }

    /// The same cache for a run whose options changed after it was made (a renaming run learns
    /// its renames and include directories once the tree is listed): keys are salted by the
    /// options of `opts` that decide which includes are rewritten, so results made without them
    /// are not reused.
    pub fn with_renames(&self, opts: &Options) -> Cache {
        let text = format!(
            "renamed {:?}\ninclude search {:?}\n",
            opts.renamed, opts.include_search
        );
        let mut h = Xxh3::new();
        h.update(&self.salt.to_le_bytes());
        h.update(text.as_bytes());
        Cache {
            salt: h.digest128(),
            ..self.clone()
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

    fn pack_dir(&self) -> PathBuf {
        self.dir.join("v3").join("packs")
    }

    /// The packs of earlier runs, newest first (read at the first call).
    fn earlier(&self) -> &[PackIndex] {
        self.packs.earlier.get_or_init(|| self.read_indexes())
    }

    /// The entry stored under `key`, if there is an intact one. Without `body`, only its head
    /// is read (status, diagnostics, renames, stamp: usually the first few hundred bytes) and
    /// `edits` and `output` are left empty.
    pub fn get(&self, key: u128, body: bool) -> Option<Entry> {
        {
            let mut w = self.packs.writer.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(w) = w.as_mut() {
                if let Some(&spot) = w.spots.get(&key) {
                    return read_entry(w.written()?, spot, key, body);
                }
            }
        }
        let (pack, spot) = self
            .earlier()
            .iter()
            .find_map(|p| Some((p, p.find(key)?)))?;
        let file = pack
            .file
            .get_or_init(|| fs::File::open(&pack.pack).ok())
            .as_ref()?;
        read_entry(file, spot, key, body)
    }

    /// Stores an entry, appended to this run's pack; failures are ignored (the cache is an
    /// optimisation, never a reason to fail). Later runs see it once [`Cache::flush`] has run,
    /// or once its pack is full (this run then no longer finds it: a run looks each file up
    /// once). A run stores no more entries than the cache keeps.
    pub fn put(&self, key: u128, entry: &Entry) {
        if self.packs.stored.load(Ordering::Relaxed) >= self.max_entries {
            return;
        }
        let data = encode(entry, key);
        let Ok(len) = u32::try_from(data.len()) else {
            return;
        };
        let mut w = self.packs.writer.lock().unwrap_or_else(|e| e.into_inner());
        let pack = w.get_or_insert_with(|| self.new_pack());
        let before = pack.spots.len();
        if pack.append(key, &data, len) && pack.spots.len() > before {
            self.packs.stored.fetch_add(1, Ordering::Relaxed);
        }
        if pack.spots.len() >= self.pack_entries {
            if let Some(full) = w.take() {
                finish_pack(full);
            }
        }
    }

    /// Starts this run's pack, named by the time, the process and a counter.
    fn new_pack(&self) -> PackWriter {
        self.new_pack_at(crate::tree_index::now_ns())
    }

    /// Starts a pack named as if made at `time` (nanoseconds since the epoch): names order packs
    /// by age.
    fn new_pack_at(&self, time: u128) -> PackWriter {
        static SEQ: AtomicUsize = AtomicUsize::new(0);
        let dir = self.pack_dir();
        let stem = dir.join(format!(
            "{:032x}-{}-{}",
            time,
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let file = fs::create_dir_all(&dir).ok().and_then(|_| {
            fs::OpenOptions::new()
                .read(true)
                .append(true)
                .create_new(true)
                .open(stem.with_extension("pack"))
                .ok()
                .map(|f| std::io::BufWriter::with_capacity(PACK_BUFFER, f))
        });
        PackWriter {
            stem,
            file,
            len: 0,
            spots: HashMap::new(),
        }
    }

    /// Writes the index of the entries this run stored (atomically), so that later runs find
    /// them, and compacts the cache when it has grown (see [`Cache::compact`]); a pack with no
    /// entries is removed. Stores after this start a new pack.
    pub fn flush(&self) {
        let taken = self
            .packs
            .writer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let compact = match taken {
            Some(w) => finish_pack(w),
            // The last store may have filled a pack, which is closed already.
            None => self.packs.stored.load(Ordering::Relaxed) > 0,
        };
        if compact {
            self.compact();
        }
    }

    /// The indexes of the packs in the cache, newest first, read now.
    fn read_indexes(&self) -> Vec<PackIndex> {
        let Ok(dir) = fs::read_dir(self.pack_dir()) else {
            return Vec::new();
        };
        let mut names: Vec<PathBuf> = dir
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "idx"))
            .collect();
        // Names start with the time the pack was made, in fixed-width hex.
        names.sort_unstable_by(|a, b| b.cmp(a));
        names.iter().filter_map(|p| PackIndex::read(p)).collect()
    }

    /// Keeps the cache from growing with every run: each run that rewrites outputs stores their
    /// entries again (with new stamps), in a pack of its own, and a new hipport or new options
    /// make new keys. When there are more than [`MAX_PACKS`] packs, or they hold more than twice
    /// the bytes of the entries a lookup can still reach (the newest for each key), or more than
    /// the size limit, the reachable entries are copied into one new pack, the most recently
    /// stored first and up to the limit, and the old packs are removed (their indexes first, so
    /// no run starts reading them). An entry dropped for the limit is a miss, stored again by the
    /// run that misses it.
    fn compact(&self) {
        let mut packs = self.read_indexes();
        let total: u64 = packs
            .iter()
            .flat_map(|p| &p.spots)
            .map(|(_, s)| u64::from(s.1))
            .sum();
        let entries: usize = packs.iter().map(|p| p.spots.len()).sum();
        // One pack holds each key once: only the limits can call for a merge.
        if packs.len() <= 1 && total <= self.max_bytes && entries <= self.max_entries {
            return;
        }
        let (live_bytes, live_count) = live_size(&packs);
        // A merge writes full packs: more packs than that, or twice the bytes, is crowded.
        let crowded =
            packs.len() > MAX_PACKS + live_count / self.pack_entries || total > 2 * live_bytes;
        if packs.is_empty()
            || ((packs.len() == 1 || !crowded)
                && total <= self.max_bytes
                && entries <= self.max_entries)
        {
            return;
        }
        // Every entry (32 bytes each; the indexes are let go as they are read), then the newest
        // of each key: sorted by key and pack (newest first), the first of each key is kept.
        let mut live: Vec<Stored> = Vec::with_capacity(entries);
        for (i, p) in packs.iter_mut().enumerate() {
            let pack = i as u32;
            live.extend(
                std::mem::take(&mut p.spots)
                    .into_iter()
                    .map(|(key, (offset, len))| Stored {
                        key,
                        offset,
                        len,
                        pack,
                    }),
            );
        }
        live.sort_unstable_by_key(|e| (e.key, e.pack));
        live.dedup_by_key(|e| e.key);
        // Pack by pack, in the order each was written: reads that move forward; newest packs
        // first, so that what goes over the limits is the oldest.
        live.sort_unstable_by_key(|e| (e.pack, e.offset));
        let mut kept = 0u64;
        let keep = live
            .iter()
            .take(self.max_entries)
            .take_while(|e| {
                kept += u64::from(e.len);
                kept <= self.max_bytes
            })
            .count();
        live.truncate(keep);
        // The merged packs are named newest first, as the entries they take: the first gets the
        // latest time (all of them earlier than any later run's packs).
        let merges = live.len().div_ceil(self.pack_entries).max(1);
        let base = crate::tree_index::now_ns();
        let name = |i: usize| base + (merges - i.min(merges)) as u128;
        let mut merged: Vec<PathBuf> = Vec::new();
        let mut w = self.new_pack_at(name(0));
        let mut buf = Vec::new();
        let mut open: Option<(u32, Option<fs::File>)> = None;
        let mut failed = false;
        for e in live {
            if open.as_ref().is_none_or(|(at, _)| *at != e.pack) {
                open = Some((e.pack, fs::File::open(&packs[e.pack as usize].pack).ok()));
            }
            let Some((_, Some(src))) = &open else {
                continue;
            };
            buf.resize(e.len as usize, 0);
            if read_at(src, &mut buf, e.offset).is_err() {
                continue;
            }
            if !w.append(e.key, &buf, e.len) {
                failed = true;
                break;
            }
            if w.spots.len() >= self.pack_entries {
                let full = std::mem::replace(&mut w, self.new_pack_at(name(merged.len() + 1)));
                let stem = full.stem.clone();
                if !finish_pack(full) {
                    failed = true;
                    break;
                }
                merged.push(stem);
            }
        }
        let stem = w.stem.clone();
        // On a failure the old packs stay, and what was merged goes.
        let drop_merged = |merged: &[PathBuf]| {
            for m in merged {
                let _ = fs::remove_file(m.with_extension("idx"));
                let _ = fs::remove_file(m.with_extension("pack"));
            }
        };
        // (A last pack that could not be made but got no entry is no failure.)
        if failed {
            let _ = fs::remove_file(stem.with_extension("pack"));
            drop_merged(&merged);
            return;
        }
        // A last merged pack that kept nothing gets no index, and goes with the others.
        if w.spots.is_empty() {
            let _ = fs::remove_file(stem.with_extension("pack"));
        } else if !finish_pack(w) {
            drop_merged(&merged);
            return;
        }
        for p in &packs {
            let _ = fs::remove_file(p.pack.with_extension("idx"));
        }
        for p in &packs {
            let _ = fs::remove_file(&p.pack);
        }
    }
}

/// The bytes and the number of the entries a lookup can reach (the newest of each key), from
/// indexes sorted by key, newest pack first: a merge of the sorted lists that holds nothing
/// else, so deciding not to merge costs no memory.
fn live_size(packs: &[PackIndex]) -> (u64, usize) {
    use std::cmp::Reverse;
    let mut heap = std::collections::BinaryHeap::with_capacity(packs.len());
    for (i, p) in packs.iter().enumerate() {
        if let Some(&(key, _)) = p.spots.first() {
            heap.push(Reverse((key, i, 0usize)));
        }
    }
    let (mut bytes, mut count, mut last) = (0u64, 0usize, None);
    // Equal keys come out newest pack first (the lower index).
    while let Some(Reverse((key, i, at))) = heap.pop() {
        if last != Some(key) {
            bytes += u64::from(packs[i].spots[at].1 .1);
            count += 1;
            last = Some(key);
        }
        if let Some(&(next, _)) = packs[i].spots.get(at + 1) {
            heap.push(Reverse((next, i, at + 1)));
        }
    }
    (bytes, count)
}

/// One entry of a pack, while packs are merged.
#[derive(Clone, Copy)]
struct Stored {
    key: u128,
    offset: u64,
    len: u32,
    /// Which pack, in [`Cache::read_indexes`]'s order (newest first).
    pack: u32,
}

/// How many packs a cache keeps before [`Cache::compact`] merges them.
const MAX_PACKS: usize = 16;

/// Writes the index of a pack (atomically); removes the pack when it holds nothing or the index
/// cannot be written. Returns whether the pack is now readable.
fn finish_pack(mut w: PackWriter) -> bool {
    let pack = w.stem.with_extension("pack");
    if w.written().is_none() || w.spots.is_empty() {
        let _ = fs::remove_file(pack);
        return false;
    }
    let index = encode_index(w.spots.into_iter().collect());
    if crate::project::write_atomic_nosync(&w.stem.with_extension("idx"), &index).is_err() {
        let _ = fs::remove_file(pack);
        return false;
    }
    true
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
        let severity = Severity::parse(std::str::from_utf8(r.b()?).ok()?)?;
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
        // Later runs find the entries once the run has flushed its pack's index; a run that
        // stored nothing leaves no pack behind.
        cache.flush();
        let later = || Cache::new(tmp.path(), rules_fingerprint(&[]), &Options::default());
        assert_eq!(later().get(key, true), Some(entry()));
        assert_eq!(later().get(key3, true), Some(big.clone()));
        assert_eq!(later().get(key3, false).unwrap().diagnostics.len(), 200);
        let packs = || {
            let mut v: Vec<PathBuf> = fs::read_dir(tmp.path().join("v3/packs"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            v.sort();
            v
        };
        assert_eq!(packs().len(), 2, "{:?}", packs());
        later().flush();
        assert_eq!(packs().len(), 2, "{:?}", packs());
        // A newer pack answers for a key stored again (here with another output stamp).
        let newer = later();
        let mut restamped = entry();
        restamped.stamp = Some(Stamp([7, 6, 5, 4, 3, 2, 1]));
        newer.put(key, &restamped);
        newer.flush();
        assert_eq!(later().get(key, true), Some(restamped.clone()));
        assert_eq!(packs().len(), 4);
        // Truncation, a flipped byte, or an entry stored under another key: all misses.
        // (Sorted by name: the older pack's index and pack, then the newer's.)
        let (idx, pack) = (packs()[2].clone(), packs()[3].clone());
        let (offset, len) = PackIndex::read(&idx).unwrap().find(key).unwrap();
        let (offset, len) = (offset as usize, len as usize);
        let good = fs::read(&pack).unwrap();
        let with = |at: usize, bytes: &[u8]| {
            let mut b = good.clone();
            b[at..at + bytes.len()].copy_from_slice(bytes);
            fs::write(&pack, b).unwrap();
        };
        // (A pack holding only the one entry: truncation cuts it.)
        assert_eq!(good.len(), len);
        fs::write(&pack, &good[..len - 1]).unwrap();
        assert!(later().get(key, true).is_none());
        with(offset + len / 2, &[good[offset + len / 2] ^ 0x20]);
        assert!(later().get(key, true).is_none());
        // A damaged head is a miss even when only the head is read.
        with(offset + HEADER + 3, &[good[offset + HEADER + 3] ^ 0x20]);
        assert!(later().get(key, false).is_none());
        // Another key's entry at this key's place.
        let other = encode(&restamped, key2);
        fs::write(&pack, &other).unwrap();
        assert!(later().get(key, true).is_none());
        assert!(later().get(key, false).is_none());
        // A damaged index hides its whole pack; the older pack answers again.
        fs::write(&pack, &good).unwrap();
        assert_eq!(later().get(key, true), Some(restamped));
        let mut b = fs::read(&idx).unwrap();
        b[20] ^= 1;
        fs::write(&idx, b).unwrap();
        assert_eq!(later().get(key, true), Some(entry()));
    }

    #[test]
    fn packs_are_merged_when_most_of_them_cannot_be_reached_or_there_are_many() {
        let tmp = tempfile::tempdir().unwrap();
        let run = || Cache::new(tmp.path(), rules_fingerprint(&[]), &Options::default());
        let files = || fs::read_dir(tmp.path().join("v3/packs")).unwrap().count();
        let stamped = |n: u64| Entry {
            stamp: Some(Stamp([n; 7])),
            ..entry()
        };
        let c = run();
        c.put(1, &stamped(0));
        c.put(2, &stamped(0));
        c.flush();
        assert_eq!(files(), 2);
        // Each later run stores key 1 again, as a run that rewrote its output does.
        for n in 1..=3u64 {
            let c = run();
            c.put(1, &stamped(n));
            c.flush();
            // Three packs hold 4 entries for 2 keys; the fourth run's would hold 5: merged.
            let packs = if n < 3 { n as usize + 1 } else { 1 };
            assert_eq!(files(), 2 * packs, "after run {n}");
        }
        assert_eq!(run().get(1, true), Some(stamped(3)));
        assert_eq!(run().get(2, true), Some(stamped(0)));
        // Many packs of distinct keys are merged too, and every key survives.
        for k in 10..10 + MAX_PACKS as u128 {
            let c = run();
            c.put(k, &stamped(k as u64));
            c.flush();
        }
        assert_eq!(files(), 2);
        let c = run();
        for k in 10..10 + MAX_PACKS as u128 {
            assert_eq!(c.get(k, true), Some(stamped(k as u64)));
        }
        assert_eq!(c.get(1, false).unwrap().stamp, Some(Stamp([3; 7])));
        // Over the size limit, the most recently stored entries are kept.
        let size = encode(&stamped(0), 100).len() as u64;
        let limited = || {
            let mut c = run();
            c.max_bytes = 3 * size;
            c
        };
        for k in 100..104u128 {
            let c = limited();
            c.put(k, &stamped(0));
            c.flush();
        }
        let c = limited();
        assert_eq!(files(), 2);
        assert!(c.get(101, true).is_some() && c.get(103, true).is_some());
        assert!(c.get(100, true).is_none() && c.get(1, true).is_none());
        // A limit nothing fits under leaves no pack at all.
        let c = run();
        c.put(200, &stamped(0));
        let mut tiny = c.clone();
        tiny.max_bytes = 1;
        tiny.flush();
        assert_eq!(files(), 0);
    }

    #[test]
    fn full_packs_are_closed_and_the_cache_keeps_a_bounded_number_of_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let run = || {
            let mut c = Cache::new(tmp.path(), rules_fingerprint(&[]), &Options::default());
            c.pack_entries = 3;
            c.max_entries = 8;
            c
        };
        let indexes = || {
            fs::read_dir(tmp.path().join("v3/packs"))
                .unwrap()
                .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "idx")
                .count()
        };
        let stamped = |n: u64| Entry {
            stamp: Some(Stamp([n; 7])),
            ..entry()
        };
        // Seven entries in packs of three: two packs are closed while the run goes on (their
        // indexes written), the third when it flushes.
        let c = run();
        for k in 0..7u128 {
            c.put(k, &stamped(k as u64));
            if k == 5 {
                assert_eq!(indexes(), 2);
            }
        }
        c.flush();
        assert_eq!(indexes(), 3);
        let c = run();
        for k in 0..7u128 {
            assert_eq!(c.get(k, true), Some(stamped(k as u64)), "key {k}");
        }
        // A run stores no more than the cache keeps: ten puts, eight stored.
        let c = run();
        for k in 100..110u128 {
            c.put(k, &stamped(k as u64));
        }
        c.flush();
        let c = run();
        let found =
            |range: std::ops::Range<u128>| range.filter(|&k| c.get(k, false).is_some()).count();
        assert_eq!(found(100..110), 8);
        assert!(c.get(108, false).is_none() && c.get(109, false).is_none());
        // Fifteen entries in the packs, over the limit of eight: merged into full packs of the
        // most recently stored eight (this run's), and nothing older.
        assert_eq!(found(0..7), 0);
        assert_eq!(indexes(), 3);
        // A run whose last store fills its pack still merges at the end; what it keeps of the
        // last merge is that merge's newest (the previous run's last pack: 106 and 107), since
        // merged packs are named in the order of their entries' age.
        let c = run();
        for k in 200..206u128 {
            c.put(k, &stamped(k as u64));
        }
        c.flush();
        let c = run();
        let found = |range: std::ops::Range<u128>| {
            range
                .filter(|&k| c.get(k, false).is_some())
                .collect::<Vec<_>>()
        };
        assert_eq!(found(200..206).len(), 6);
        assert_eq!(found(100..110), [106, 107]);
        assert_eq!(indexes(), 3);
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
        // Renames and include directories, learnt after the cache was made, salt it too.
        let mut o = opts.clone();
        let renamed = [("a.h".to_string(), "a_hip.h".to_string())];
        o.renamed = Some(Arc::new(renamed.into_iter().collect()));
        let renaming = c.with_renames(&o);
        let k5 = renaming.key("x.cu", "d/x.cu", true, b"cudaMalloc");
        assert_ne!(k, k5);
        assert_eq!(
            k5,
            c.with_renames(&o)
                .key("x.cu", "d/x.cu", true, b"cudaMalloc")
        );
        o.include_search = Some(Arc::new(crate::includes::IncludeSearch::new(
            vec!["inc".into()],
            ["a.h"],
        )));
        assert_ne!(
            k5,
            c.with_renames(&o)
                .key("x.cu", "d/x.cu", true, b"cudaMalloc")
        );
    }
}
