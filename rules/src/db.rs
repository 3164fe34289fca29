//! The rules model and the database: types, lookups and loading (shared with `build.rs`, which
//! runs the same loader at build time to pre-build the embedded tables).

use std::borrow::Cow;

use crate::calls::CallRewrite;
use crate::data;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// A small, fast, non-cryptographic hasher for the name indexes (keys are trusted rule names).
#[derive(Default, Clone, Copy)]
pub(crate) struct NameHasher(u64);

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // FxHash-style: fold eight bytes at a time into the state.
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
}

pub(crate) type NameMap<V> = HashMap<String, V, BuildHasherDefault<NameHasher>>;

/// Text in the rules: borrowed from the pre-built tables, or owned for rules read at run time.
pub type Text = Cow<'static, str>;

/// A release number such as `6.2.0`, compared numerically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Version {
    /// Major release.
    pub major: u16,
    /// Minor release.
    pub minor: u16,
    /// Patch release.
    pub patch: u16,
}

impl Version {
    /// Builds a version from its parts.
    pub const fn new(major: u16, minor: u16, patch: u16) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `X`, `X.Y` or `X.Y.Z`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Version::new(major, minor, patch))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The API family a mapping belongs to, used for counts and library choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// CUDA runtime API (`cuda*`).
    Runtime,
    /// CUDA driver API (`cu*`).
    Driver,
    /// Device functions and intrinsics.
    Device,
    /// NVRTC.
    Rtc,
    /// cuComplex.
    Complex,
    /// CUB.
    Cub,
    /// cuFFT.
    Cufft,
    /// cuBLAS.
    Cublas,
    /// cuRAND.
    Curand,
    /// cuSPARSE.
    Cusparse,
    /// cuSOLVER.
    Cusolver,
    /// cuDNN.
    Cudnn,
    /// NVTX (profiler annotations).
    Nvtx,
    /// NCCL collectives (RCCL keeps the `nccl*` names; only the header moves).
    Nccl,
    /// cuTENSOR → hipTensor.
    Cutensor,
    /// PyTorch extension API.
    Torch,
    /// Headers.
    Header,
}

impl Family {
    /// All families, in display order.
    pub const ALL: [Family; 17] = [
        Family::Runtime,
        Family::Driver,
        Family::Device,
        Family::Rtc,
        Family::Complex,
        Family::Cub,
        Family::Cufft,
        Family::Cublas,
        Family::Curand,
        Family::Cusparse,
        Family::Cusolver,
        Family::Cudnn,
        Family::Nvtx,
        Family::Nccl,
        Family::Cutensor,
        Family::Torch,
        Family::Header,
    ];

    /// The lowercase name used in data files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Runtime => "runtime",
            Family::Driver => "driver",
            Family::Device => "device",
            Family::Rtc => "rtc",
            Family::Complex => "complex",
            Family::Cub => "cub",
            Family::Cufft => "cufft",
            Family::Cublas => "cublas",
            Family::Curand => "curand",
            Family::Cusparse => "cusparse",
            Family::Cusolver => "cusolver",
            Family::Cudnn => "cudnn",
            Family::Nvtx => "nvtx",
            Family::Nccl => "nccl",
            Family::Cutensor => "cutensor",
            Family::Torch => "torch",
            Family::Header => "header",
        }
    }

    /// Parses the lowercase name.
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One CUDA name and what it becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    /// The CUDA name.
    pub cuda: Text,
    /// The HIP name; `None` when HIP has no equivalent.
    pub hip: Option<Text>,
    /// The roc* library name (rocBLAS, rocSPARSE, ..., MIOpen for cuDNN), if any.
    pub roc: Option<Text>,
    /// The family.
    pub family: Family,
    /// The section of the source table, e.g. `Memory Management`.
    pub section: Text,
    /// CUDA release that added the name.
    pub cuda_added: Option<Version>,
    /// CUDA release that deprecated it.
    pub cuda_deprecated: Option<Version>,
    /// CUDA release that changed its signature or meaning.
    pub cuda_changed: Option<Version>,
    /// CUDA release that removed it.
    pub cuda_removed: Option<Version>,
    /// HIP release that added the HIP name.
    pub hip_added: Option<Version>,
    /// HIP release that deprecated the HIP name.
    pub hip_deprecated: Option<Version>,
    /// HIP release that changed the HIP name's signature or meaning.
    pub hip_changed: Option<Version>,
    /// HIP release that removed the HIP name.
    pub hip_removed: Option<Version>,
    /// HIP release from which the HIP name exists as experimental.
    pub hip_experimental: Option<Version>,
    /// roc* release that added the roc name.
    pub roc_added: Option<Version>,
    /// roc* release that deprecated the roc name.
    pub roc_deprecated: Option<Version>,
    /// roc* release that removed the roc name.
    pub roc_removed: Option<Version>,
    /// Where the fact comes from (a HIPIFY table, or hipport's own note).
    pub source: Text,
    /// What to use instead of a deprecated HIP name, when known; for a name HIP lacks (`hip` is
    /// `None`), what to write in its place, which T001's help and `hipport explain` print.
    pub hip_replacement: Option<Text>,
    /// A HIP release whose installed headers lack the HIP name although `hip_added` says it
    /// exists (see `hip-absent.tsv`); releases up to this one are treated as lacking it.
    pub hip_absent_in: Option<Version>,
    /// Whether the `roc` function takes the CUDA call's arguments: `same` where it was checked to,
    /// else what differs (MIOpen's `miopenConvolutionForward` takes the workspace last), which the
    /// translation reports at each use (T015); `None` where nothing is recorded.
    pub roc_args: Option<Text>,
}

/// Whether a mapping's HIP name can be used with a given HIP release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Availability {
    /// The name exists and is neither deprecated nor experimental.
    Available,
    /// HIP has no such name at all.
    Missing,
    /// The name arrived in a later release.
    TooNew {
        /// The release that added it.
        added: Version,
    },
    /// The tables date the name at or before the release, but that release's headers lack it.
    Absent {
        /// The release whose headers were checked.
        checked: Version,
    },
    /// The name was removed at or before the release.
    Removed {
        /// The release that removed it.
        removed: Version,
    },
    /// The name exists but is deprecated.
    Deprecated {
        /// The release that deprecated it.
        since: Version,
        /// What to use instead, when known.
        replacement: Option<String>,
    },
    /// The name exists as an experimental API.
    Experimental,
}

impl Mapping {
    /// Whether the HIP name can be used with HIP release `hip`.
    ///
    /// A missing `hip_added` is taken as "present in every release" (the tables leave it empty
    /// only for rows without a HIP name, and hand-written rows always give it).
    pub fn status_for(&self, hip: Version) -> Availability {
        if self.hip.is_none() {
            return Availability::Missing;
        }
        if let Some(removed) = self.hip_removed.filter(|r| *r <= hip) {
            return Availability::Removed { removed };
        }
        if let Some(added) = self.hip_added.filter(|a| *a > hip) {
            return Availability::TooNew { added };
        }
        if let Some(checked) = self.hip_absent_in.filter(|c| hip <= *c) {
            return Availability::Absent { checked };
        }
        if self.hip_experimental.is_some_and(|e| e <= hip) {
            return Availability::Experimental;
        }
        if let Some(since) = self.hip_deprecated.filter(|d| *d <= hip) {
            return Availability::Deprecated {
                since,
                replacement: self.hip_replacement.as_deref().map(str::to_string),
            };
        }
        Availability::Available
    }

    /// Whether the roc* library name (rocBLAS, rocRAND, ..., MIOpen) can be used with the ROCm
    /// release that ships HIP `rocm` (HIP and ROCm share release numbers since ROCm 5; the
    /// tables' roc columns count in ROCm releases). A missing `roc_added` is taken as "present
    /// in every release", as for the HIP column.
    pub fn roc_status_for(&self, rocm: Version) -> Availability {
        if self.roc.is_none() {
            return Availability::Missing;
        }
        if let Some(removed) = self.roc_removed.filter(|r| *r <= rocm) {
            return Availability::Removed { removed };
        }
        if let Some(added) = self.roc_added.filter(|a| *a > rocm) {
            return Availability::TooNew { added };
        }
        if let Some(since) = self.roc_deprecated.filter(|d| *d <= rocm) {
            return Availability::Deprecated {
                since,
                replacement: None,
            };
        }
        Availability::Available
    }
}

/// A CUDA header and the header that replaces it.
///
/// A `cuda` ending in `/*` is a pattern for every header under that directory. In a pattern's
/// `hip`, `*` stands for the matched rest of the path as written, and `%` for the rest with
/// `CUDA`/`cuda` spelled `HIP`/`hip` (the way PyTorch's build names its hipified headers; a mixed
/// case `Cuda` stays, as in `ATen/hip/detail/PhiloxCudaStateRaw.cuh`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderMapping {
    /// The CUDA header as written in `#include`, e.g. `cuda_runtime.h`, or a `dir/*` pattern.
    pub cuda: Text,
    /// The HIP header; `None` when HIP has none.
    pub hip: Option<Text>,
    /// The roc* library header, if any.
    pub roc: Option<Text>,
    /// The family the header belongs to.
    pub family: Family,
    /// Where the fact comes from.
    pub source: Text,
    /// HIP release that added the HIP header, when recorded.
    pub hip_added: Option<Version>,
    /// For a header HIP has no form of: what ROCm offers instead (a library with another API,
    /// from which release), in plain words for the report's help; `None` when nothing does.
    pub instead: Option<Text>,
}

impl HeaderMapping {
    /// Whether this is a `dir/*` pattern.
    pub fn is_pattern(&self) -> bool {
        self.cuda.ends_with("/*")
    }

    /// The HIP header for `path` (which this mapping matched), with pattern parts filled in.
    pub fn hip_for(&self, path: &str) -> Option<String> {
        let hip = self.hip.as_deref()?;
        if !self.is_pattern() {
            return Some(hip.to_string());
        }
        let rest = path.strip_prefix(&self.cuda[..self.cuda.len() - 1])?;
        let renamed = rest.replace("CUDA", "HIP").replace("cuda", "hip");
        // One pass, so that a `*` or `%` inside the matched path is not substituted again.
        let mut out = String::with_capacity(hip.len() + 2 * rest.len());
        for c in hip.chars() {
            match c {
                '*' => out.push_str(rest),
                '%' => out.push_str(&renamed),
                c => out.push(c),
            }
        }
        Some(out)
    }
}

/// Where a namespace rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamespaceScope {
    /// Always.
    All,
    /// Only for PyTorch extensions ported with the v1 (masquerading) API.
    TorchV1,
    /// Only for PyTorch extensions ported with the v2 API.
    TorchV2,
}

impl NamespaceScope {
    /// Parses `all`, `torch-v1` or `torch-v2`.
    pub fn parse(s: &str) -> Option<NamespaceScope> {
        match s {
            "all" => Some(NamespaceScope::All),
            "torch-v1" => Some(NamespaceScope::TorchV1),
            "torch-v2" => Some(NamespaceScope::TorchV2),
            _ => None,
        }
    }

    fn applies(self, torch: TorchApi) -> bool {
        match self {
            NamespaceScope::All => true,
            NamespaceScope::TorchV1 => torch == TorchApi::V1,
            NamespaceScope::TorchV2 => torch == TorchApi::V2,
        }
    }
}

/// A C++ namespace (or qualified-name prefix) and what replaces it, e.g. `cub` -> `hipcub`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamespaceMapping {
    /// The CUDA namespace path, e.g. `thrust::cuda`.
    pub cuda: Text,
    /// The HIP namespace path; `None` when there is none.
    pub hip: Option<Text>,
    /// Where the rule applies.
    pub scope: NamespaceScope,
    /// Where the fact comes from.
    pub source: Text,
}

/// Which library a family's names go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Lib {
    /// The hip* wrapper library (hipBLAS, hipSPARSE, ...): the `hip` column.
    #[default]
    Hip,
    /// The roc* library (rocBLAS, rocSPARSE, ...): the `roc` column.
    Roc,
}

/// Which deep-learning library cuDNN maps to. hipDNN (the `hip` column of the cuDNN table) is
/// obsolete, so MIOpen (the `roc` column) is the only choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Dnn {
    /// MIOpen.
    #[default]
    MIOpen,
}

/// Which PyTorch extension API the port targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum TorchApi {
    /// torch <= 2.10: `at::cuda`/`c10::cuda` names renamed to `...MasqueradingAsCUDA`.
    V1,
    /// torch >= 2.11: names kept, only header paths move.
    #[default]
    V2,
}

/// The user's library choices; the default is hip* wrappers, MIOpen and the torch v2 API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Choices {
    /// cuBLAS -> hipBLAS or rocBLAS.
    pub blas: Lib,
    /// cuSPARSE -> hipSPARSE or rocSPARSE.
    pub sparse: Lib,
    /// cuRAND -> hipRAND or rocRAND.
    pub rand: Lib,
    /// cuSOLVER -> hipSOLVER or rocSOLVER.
    pub solver: Lib,
    /// cuFFT -> hipFFT or rocFFT.
    pub fft: Lib,
    /// cuDNN -> MIOpen.
    pub dnn: Dnn,
    /// PyTorch extension API.
    pub torch_api: TorchApi,
}

impl Choices {
    /// The library chosen for a family: `Roc` for cuDNN (MIOpen), the family's choice for the
    /// math libraries, `Hip` for everything else.
    pub fn lib_for(&self, family: Family) -> Lib {
        match family {
            Family::Cublas => self.blas,
            Family::Cusparse => self.sparse,
            Family::Curand => self.rand,
            Family::Cusolver => self.solver,
            Family::Cufft => self.fft,
            Family::Cudnn => match self.dnn {
                Dnn::MIOpen => Lib::Roc,
            },
            _ => Lib::Hip,
        }
    }
}

/// What a CUDA name becomes under some [`Choices`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'a> {
    /// Emit `name` (from the `hip` or `roc` column, as `lib` says).
    Name {
        /// The name to write.
        name: &'a str,
        /// Which column it came from.
        lib: Lib,
        /// The mapping.
        mapping: &'a Mapping,
    },
    /// The database knows the name, but the chosen library has no counterpart.
    Unsupported {
        /// The chosen library.
        lib: Lib,
        /// The mapping.
        mapping: &'a Mapping,
    },
    /// The database does not know the name.
    Unknown,
}

impl<'a> Target<'a> {
    /// The mapping, when the name is known.
    pub fn mapping(&self) -> Option<&'a Mapping> {
        match *self {
            Target::Name { mapping, .. } | Target::Unsupported { mapping, .. } => Some(mapping),
            Target::Unknown => None,
        }
    }
}

/// Counts for one family, for `hipport stats`-style reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyStats {
    /// The family.
    pub family: Family,
    /// Rules in the family.
    pub total: usize,
    /// Rules with a HIP or roc name.
    pub mapped: usize,
    /// Rules with neither.
    pub unsupported: usize,
    /// Rules whose HIP name is experimental.
    pub experimental: usize,
    /// Rules whose HIP name is deprecated.
    pub deprecated: usize,
}

/// Errors from reading rule files.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// A line of a rule file could not be read.
    #[error("{file}:{line}: {reason}")]
    BadLine {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// A row with a name to look it up by.
pub(crate) trait Keyed: Clone + 'static {
    fn key(&self) -> &str;
}

impl Keyed for Mapping {
    fn key(&self) -> &str {
        &self.cuda
    }
}

impl Keyed for HeaderMapping {
    fn key(&self) -> &str {
        &self.cuda
    }
}

impl Keyed for Absent {
    fn key(&self) -> &str {
        &self.hip
    }
}

impl Keyed for Renamed {
    fn key(&self) -> &str {
        &self.hip
    }
}

/// How a table finds a row by name: a perfect hash built at build time for the embedded
/// tables, a hash map once rules read at run time change the table.
#[derive(Clone, Debug)]
enum Index {
    Static(&'static crate::phf::Index),
    Owned(NameMap<usize>),
}

impl Default for Index {
    fn default() -> Self {
        Index::Owned(NameMap::default())
    }
}

/// A bit for each pair of first two bytes that a table's names begin with.
type Starts = Box<[u64; 1024]>;

/// Rows with unique names, in load order.
#[derive(Clone, Debug)]
pub(crate) struct Table<T: Keyed> {
    rows: Cow<'static, [T]>,
    index: Index,
    /// How the names begin, read from the rows at the first lookup (and again after a change):
    /// most identifiers of a source begin like no rule's name, and are passed over unhashed.
    starts: std::sync::OnceLock<Starts>,
}

impl<T: Keyed> Default for Table<T> {
    fn default() -> Self {
        Table {
            rows: Cow::Owned(Vec::new()),
            index: Index::default(),
            starts: std::sync::OnceLock::new(),
        }
    }
}

/// Where a name's first two bytes have their bit in [`Starts`] (None: a shorter name).
fn start_bit(key: &str) -> Option<(usize, u64)> {
    match key.as_bytes() {
        [a, b, ..] => {
            let i = (usize::from(*a) << 8) | usize::from(*b);
            Some((i >> 6, 1 << (i & 63)))
        }
        _ => None,
    }
}

impl<T: Keyed> Table<T> {
    /// A table over pre-built rows and their perfect-hash index.
    pub(crate) const fn new_static(rows: &'static [T], index: &'static crate::phf::Index) -> Self {
        Table {
            rows: Cow::Borrowed(rows),
            index: Index::Static(index),
            starts: std::sync::OnceLock::new(),
        }
    }

    /// Whether some name of the table may be `key`: false only when none begins as it does.
    fn may_hold(&self, key: &str) -> bool {
        let Some((word, bit)) = start_bit(key) else {
            return true;
        };
        let starts = self.starts.get_or_init(|| {
            let mut s: Starts = Box::new([0; 1024]);
            for (w, b) in self.rows.iter().filter_map(|r| start_bit(r.key())) {
                s[w] |= b;
            }
            s
        });
        starts[word] & bit != 0
    }

    fn position(&self, key: &str) -> Option<usize> {
        if !self.may_hold(key) {
            return None;
        }
        match &self.index {
            Index::Static(phf) => phf.candidate(key).filter(|&i| self.rows[i].key() == key),
            Index::Owned(map) => map.get(key).copied(),
        }
    }

    fn get(&self, key: &str) -> Option<&T> {
        self.position(key).map(|i| &self.rows[i])
    }

    fn rows(&self) -> &[T] {
        &self.rows
    }

    /// The rows and a hash index, for changes (copies pre-built rows the first time).
    fn owned(&mut self) -> (&mut Vec<T>, &mut NameMap<usize>) {
        // The rows may change: how their names begin is read again at the next lookup.
        self.starts = std::sync::OnceLock::new();
        if let Index::Static(_) = self.index {
            let mut map = NameMap::default();
            map.reserve(self.rows.len());
            for (i, r) in self.rows.iter().enumerate() {
                map.insert(r.key().to_string(), i);
            }
            self.index = Index::Owned(map);
        }
        let Index::Owned(map) = &mut self.index else {
            unreachable!("converted above")
        };
        (self.rows.to_mut(), map)
    }

    fn reserve(&mut self, n: usize) {
        let (rows, map) = self.owned();
        rows.reserve(n);
        map.reserve(n);
    }

    /// Adds a row, or lets `replace(old, &new)` decide whether it replaces the row of that name.
    fn add(&mut self, row: T, replace: impl FnOnce(&T, &T) -> bool) {
        let (rows, map) = self.owned();
        match map.get(row.key()) {
            Some(&i) => {
                if replace(&rows[i], &row) {
                    rows[i] = row;
                }
            }
            None => {
                map.insert(row.key().to_string(), rows.len());
                rows.push(row);
            }
        }
    }
}

type NameTable = Table<Mapping>;

impl NameTable {
    /// A later row for the same CUDA name wins unless it has no HIP (or roc) name and the
    /// earlier one does (the tables list some names twice).
    fn add_mapping(&mut self, m: Mapping) {
        self.add(m, |old, new| {
            new.hip.is_some() || new.roc.is_some() || old.hip.is_none()
        });
    }
}

type HeaderTable = Table<HeaderMapping>;

impl HeaderTable {
    /// Exact match first, then the longest `dir/*` pattern that covers the path.
    fn find(&self, path: &str) -> Option<&HeaderMapping> {
        if let Some(h) = self.get(path) {
            return Some(h);
        }
        let mut dir = path;
        let mut key = String::new();
        while let Some(cut) = dir.rfind('/') {
            dir = &dir[..cut];
            key.clear();
            key.push_str(dir);
            key.push_str("/*");
            if let Some(h) = self.get(&key) {
                return Some(h);
            }
        }
        None
    }
}

/// A HIP name (or header path) that a HIP release's installed headers lack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absent {
    /// The HIP name or header path.
    pub hip: Text,
    /// The newest release checked that lacks it.
    pub absent_in: Version,
    /// Where the fact comes from.
    pub source: Text,
}

/// A HIP name that a later release spells differently (hipBLAS 3.0 dropped the `_v2` suffix of
/// the API its 2.x releases offered under `_v2` names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamed {
    /// The HIP name in the tables.
    pub hip: Text,
    /// Its spelling from `since` on.
    pub renamed: Text,
    /// The first release with the new spelling.
    pub since: Version,
    /// Where the fact comes from.
    pub source: Text,
}

/// The qualifier rule a torch v1 rename of one plain name implies: a class the v1 API renames
/// (`CUDAStream` -> `HIPStreamMasqueradingAsCUDA`) is renamed where it qualifies a member too
/// (`c10::cuda::CUDAStream::UNCHECKED`), or the member would be looked up in a class ROCm
/// PyTorch does not have (`c10::hip::CUDAStream`). A renamed function or macro never qualifies
/// a name, so its rule never applies.
fn qualifier_rule(m: &Mapping) -> Option<NamespaceMapping> {
    let hip = m.hip.as_deref()?;
    let plain = |s: &str| {
        s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && s.bytes().next().is_some_and(|b| !b.is_ascii_digit())
    };
    if !plain(&m.cuda) || !plain(hip) || *m.cuda == *hip {
        return None;
    }
    Some(NamespaceMapping {
        cuda: m.cuda.clone(),
        hip: m.hip.clone(),
        scope: NamespaceScope::TorchV1,
        source: format!(
            "{}: the v1 API renames this class, so it is renamed where it qualifies a member too",
            m.source
        )
        .into(),
    })
}

/// The whole database: name, header, namespace and call-shape rules.
#[derive(Clone, Debug, Default)]
pub struct Database {
    main: NameTable,
    torch_v1: NameTable,
    headers: HeaderTable,
    torch_v1_headers: HeaderTable,
    namespaces: Cow<'static, [NamespaceMapping]>,
    calls: NameMap<Vec<CallRewrite>>,
    absent: Table<Absent>,
    renamed: Table<Renamed>,
}

/// The pre-built embedded tables (see `build.rs`), for [`Database::from_static`].
pub(crate) struct StaticTables {
    pub(crate) main: NameTable,
    pub(crate) torch_v1: NameTable,
    pub(crate) headers: HeaderTable,
    pub(crate) torch_v1_headers: HeaderTable,
    pub(crate) namespaces: &'static [NamespaceMapping],
    pub(crate) absent: Table<Absent>,
    pub(crate) renamed: Table<Renamed>,
}

impl Database {
    /// A database over pre-built tables; `calls` are the call rewrites per CUDA name, most
    /// specific first.
    #[allow(dead_code)] // not used by build.rs
    pub(crate) fn from_static(t: StaticTables, calls: NameMap<Vec<CallRewrite>>) -> Database {
        Database {
            main: t.main,
            torch_v1: t.torch_v1,
            headers: t.headers,
            torch_v1_headers: t.torch_v1_headers,
            namespaces: Cow::Borrowed(t.namespaces),
            calls,
            absent: t.absent,
            renamed: t.renamed,
        }
    }

    /// Parses the embedded data files into a new database at run time. [`Database::builtin`]
    /// holds the same database, built from tables that `build.rs` made from the same files with
    /// this loader.
    pub fn from_embedded() -> Result<Database, RuleError> {
        let mut db = Database::default();
        db.main.reserve(9_500);
        for f in data::DATA_FILES {
            db.load_into(f.name, f.text, f.table)?;
        }
        Ok(db)
    }

    /// Adds the rules of one data file (format chosen by the file's column line) to the main
    /// tables. A file named `torch-v1.tsv` goes to the torch v1 tables instead.
    pub fn load_str(&mut self, file: &str, text: &str) -> Result<(), RuleError> {
        let table = if file.rsplit('/').next() == Some("torch-v1.tsv") {
            data::Table::TorchV1
        } else {
            data::Table::Main
        };
        self.load_into(file, text, table)
    }

    fn load_into(&mut self, file: &str, text: &str, table: data::Table) -> Result<(), RuleError> {
        let rules = data::parse_file(file, text)?;
        let qualifiers: Vec<NamespaceMapping> = match table {
            data::Table::TorchV1 => rules.mappings.iter().filter_map(qualifier_rule).collect(),
            data::Table::Main => Vec::new(),
        };
        for (hip, absent_in, source) in rules.absent {
            let row = Absent {
                hip: hip.into(),
                absent_in,
                source: source.into(),
            };
            self.absent.add(row, |_, _| true);
        }
        for row in rules.renamed {
            self.renamed.add(row, |_, _| true);
        }
        for mut m in rules.mappings {
            if rules.simple && m.section == data::SIMPLE_NO_FAMILY {
                // The short format gives no family: keep the family of the rule it overrides.
                if let Some(old) = self.main.get(&m.cuda) {
                    m.family = old.family;
                }
            }
            match table {
                data::Table::Main => self.add_mapping(m),
                data::Table::TorchV1 => {
                    let m = self.with_absence(m);
                    self.torch_v1.add_mapping(m);
                }
            }
        }
        for h in rules.headers {
            match table {
                data::Table::Main => self.add_header(h),
                data::Table::TorchV1 => self.torch_v1_headers.add(h, |_, _| true),
            }
        }
        for n in rules.namespaces {
            let namespaces = self.namespaces.to_mut();
            namespaces.retain(|old| !(old.cuda == n.cuda && old.scope == n.scope));
            namespaces.push(n);
        }
        for q in qualifiers {
            // A written namespace rule for the name (`CUDACachingAllocator`, whose members go
            // to the masquerading allocator) wins, whichever file is loaded first.
            let namespaces = self.namespaces.to_mut();
            if !namespaces
                .iter()
                .any(|old| old.cuda == q.cuda && old.scope == q.scope)
            {
                namespaces.push(q);
            }
        }
        for c in rules.calls {
            let list = self.calls.entry(c.cuda.clone()).or_default();
            list.retain(|old| !(old.argc == c.argc && old.hip_before == c.hip_before));
            list.push(c);
            list.sort_by_key(|r| std::cmp::Reverse(r.specificity()));
        }
        self.refresh_absence();
        Ok(())
    }

    fn with_absence(&self, mut m: Mapping) -> Mapping {
        if self.absent.rows().is_empty() {
            return m;
        }
        m.hip_absent_in = absence(&self.absent, &m);
        m
    }

    fn refresh_absence(&mut self) {
        if self.absent.rows().is_empty() {
            return;
        }
        let absent = &self.absent;
        for t in [&mut self.main, &mut self.torch_v1] {
            let stale: Vec<(usize, Option<Version>)> = t
                .rows()
                .iter()
                .enumerate()
                .filter_map(|(i, m)| {
                    let want = absence(absent, m);
                    (want != m.hip_absent_in).then_some((i, want))
                })
                .collect();
            if stale.is_empty() {
                continue;
            }
            let (rows, _) = t.owned();
            for (i, v) in stale {
                rows[i].hip_absent_in = v;
            }
        }
    }

    /// A copy of this database with user rule files added on top (later files win). Each file is
    /// (path, contents) in any format [`data::parse_file`] reads, including the short `cuda hip`
    /// form. A bad file fails with `path:line: reason`.
    pub fn with_overrides(&self, files: &[(&str, &str)]) -> Result<Database, RuleError> {
        let mut db = self.clone();
        for (path, text) in files {
            db.load_into(path, text, data::Table::Main)?;
        }
        Ok(db)
    }

    /// Adds or replaces a mapping. A later row for the same CUDA name wins unless it
    /// has no HIP (or roc) name and the earlier one does (the tables list some names twice).
    pub fn add_mapping(&mut self, m: Mapping) {
        let m = self.with_absence(m);
        self.main.add_mapping(m);
    }

    /// Adds or replaces a header mapping.
    pub fn add_header(&mut self, h: HeaderMapping) {
        self.headers.add(h, |_, _| true);
    }

    /// The mapping for a CUDA name (main table; torch v1 names need [`Database::target`]).
    pub fn lookup(&self, cuda: &str) -> Option<&Mapping> {
        self.main.get(cuda)
    }

    /// The torch v1 mapping for a name (`...MasqueradingAsCUDA` renames), if any.
    pub fn torch_v1(&self, cuda: &str) -> Option<&Mapping> {
        self.torch_v1.get(cuda)
    }

    /// What a CUDA name becomes under `choices`: the torch v1 table first when chosen, then the
    /// main table; the `hip` or `roc` column as the family's library choice says.
    pub fn target(&self, cuda: &str, choices: &Choices) -> Target<'_> {
        let mapping = match choices.torch_api {
            TorchApi::V1 => self.torch_v1.get(cuda).or_else(|| self.main.get(cuda)),
            TorchApi::V2 => self.main.get(cuda),
        };
        let Some(mapping) = mapping else {
            return Target::Unknown;
        };
        let lib = choices.lib_for(mapping.family);
        let name = match lib {
            Lib::Hip => mapping.hip.as_deref(),
            Lib::Roc => mapping.roc.as_deref(),
        };
        match name {
            Some(name) => Target::Name { name, lib, mapping },
            None => Target::Unsupported { lib, mapping },
        }
    }

    /// What a CUDA name becomes under `choices` when targeting HIP release `hip`: as
    /// [`Database::target`], with a HIP name spelled as that release spells it
    /// ([`Database::hip_spelling`]).
    pub fn target_for(&self, cuda: &str, choices: &Choices, hip: Version) -> Target<'_> {
        match self.target(cuda, choices) {
            Target::Name {
                name,
                lib: Lib::Hip,
                mapping,
            } => Target::Name {
                name: self.hip_spelling(name, hip),
                lib: Lib::Hip,
                mapping,
            },
            t => t,
        }
    }

    /// The mapping for a CUDA header path as written in an include: an exact rule, else the
    /// longest `dir/*` pattern covering it (use [`HeaderMapping::hip_for`] for the new path).
    pub fn header(&self, cuda: &str) -> Option<&HeaderMapping> {
        self.headers.find(cuda)
    }

    /// Like [`Database::header`], but honouring the torch API choice.
    pub fn header_for(&self, cuda: &str, choices: &Choices) -> Option<&HeaderMapping> {
        match choices.torch_api {
            TorchApi::V1 => self
                .torch_v1_headers
                .find(cuda)
                .or_else(|| self.headers.find(cuda)),
            TorchApi::V2 => self.headers.find(cuda),
        }
    }

    /// Whether a header mapping's HIP header can be used with HIP release `hip` (its `hip_added`
    /// and the `hip-absent.tsv` list; patterns are checked against their written form).
    pub fn header_status(&self, h: &HeaderMapping, hip: Version) -> Availability {
        let Some(path) = h.hip.as_deref() else {
            return Availability::Missing;
        };
        if let Some(added) = h.hip_added.filter(|a| *a > hip) {
            return Availability::TooNew { added };
        }
        if let Some((checked, _)) = self.absent_in(path).filter(|(c, _)| hip <= *c) {
            return Availability::Absent { checked };
        }
        Availability::Available
    }

    /// The namespace rule that applies everywhere for a CUDA namespace path such as `cub` or
    /// `thrust::cuda`.
    pub fn namespace(&self, cuda: &str) -> Option<&NamespaceMapping> {
        self.namespaces
            .iter()
            .find(|n| n.cuda == cuda && n.scope == NamespaceScope::All)
    }

    /// The namespace rule for `cuda` under `choices` (torch-scoped rules first).
    pub fn namespace_for(&self, cuda: &str, choices: &Choices) -> Option<&NamespaceMapping> {
        self.namespaces
            .iter()
            .filter(|n| n.cuda == cuda && n.scope.applies(choices.torch_api))
            .max_by_key(|n| n.scope != NamespaceScope::All)
    }

    /// Every namespace rule, in load order.
    pub fn namespaces(&self) -> &[NamespaceMapping] {
        &self.namespaces
    }

    /// The call-shape rewrites for a CUDA function, most specific argument count first.
    pub fn calls(&self, cuda: &str) -> &[CallRewrite] {
        self.calls.get(cuda).map_or(&[], Vec::as_slice)
    }

    /// The rewrite to use for a call of `cuda` with `argc` arguments when targeting HIP `hip`.
    pub fn call_for(&self, cuda: &str, argc: usize, hip: Version) -> Option<&CallRewrite> {
        self.calls(cuda)
            .iter()
            .find(|r| r.matches_argc(argc) && r.applies_to(hip))
    }

    /// Every call-shape rewrite, sorted by CUDA name.
    pub fn all_calls(&self) -> Vec<&CallRewrite> {
        let mut v: Vec<&CallRewrite> = self.calls.values().flatten().collect();
        v.sort_by(|a, b| a.cuda.cmp(&b.cuda));
        v
    }

    /// Every HIP name (or header path) recorded as absent from a release's headers, in load order.
    pub fn absent_list(&self) -> &[Absent] {
        self.absent.rows()
    }

    /// The release in which a HIP name (or header path) is recorded as absent, with the source.
    pub fn absent_in(&self, hip: &str) -> Option<(Version, &str)> {
        self.absent.get(hip).map(|a| (a.absent_in, &*a.source))
    }

    /// Every HIP name a later release spells differently, in load order.
    pub fn renamed_list(&self) -> &[Renamed] {
        self.renamed.rows()
    }

    /// How HIP release `hip` spells the HIP name `name`: the table's spelling, or the later one
    /// from `hip-renamed.tsv` once the release has it.
    pub fn hip_spelling<'a>(&'a self, name: &'a str, hip: Version) -> &'a str {
        match self.renamed.get(name) {
            Some(r) if r.since <= hip => &r.renamed,
            _ => name,
        }
    }

    /// Every mapping of the main table, in load order.
    pub fn mappings(&self) -> &[Mapping] {
        self.main.rows()
    }

    /// Every torch v1 mapping, in load order.
    pub fn torch_v1_mappings(&self) -> &[Mapping] {
        self.torch_v1.rows()
    }

    /// Every header mapping of the main table, in load order.
    pub fn headers(&self) -> &[HeaderMapping] {
        self.headers.rows()
    }

    /// Every torch v1 header mapping, in load order.
    pub fn torch_v1_headers(&self) -> &[HeaderMapping] {
        self.torch_v1_headers.rows()
    }

    /// The mappings whose HIP or roc name is `hip` (main and torch v1 tables), for
    /// `hipport explain hipMalloc`.
    pub fn reverse(&self, hip: &str) -> Vec<&Mapping> {
        self.main
            .rows()
            .iter()
            .chain(self.torch_v1.rows())
            .filter(|m| m.hip.as_deref() == Some(hip) || m.roc.as_deref() == Some(hip))
            .collect()
    }

    /// Per-family counts over the name tables (main and torch v1); header rules are counted
    /// under [`Family::Header`] whatever their family.
    pub fn stats(&self) -> Vec<FamilyStats> {
        let mut out: Vec<FamilyStats> = Family::ALL
            .iter()
            .map(|&family| FamilyStats {
                family,
                total: 0,
                mapped: 0,
                unsupported: 0,
                experimental: 0,
                deprecated: 0,
            })
            .collect();
        let idx = |f: Family| Family::ALL.iter().position(|&g| g == f).unwrap_or(0);
        for m in self.main.rows().iter().chain(self.torch_v1.rows()) {
            let s = &mut out[idx(m.family)];
            s.total += 1;
            if m.hip.is_some() || m.roc.is_some() {
                s.mapped += 1;
            } else {
                s.unsupported += 1;
            }
            if m.hip.is_some() && m.hip_experimental.is_some() {
                s.experimental += 1;
            }
            if m.hip.is_some() && m.hip_deprecated.is_some() {
                s.deprecated += 1;
            }
        }
        let h = &mut out[idx(Family::Header)];
        for hm in self
            .headers
            .rows()
            .iter()
            .chain(self.torch_v1_headers.rows())
        {
            h.total += 1;
            if hm.hip.is_some() || hm.roc.is_some() {
                h.mapped += 1;
            } else {
                h.unsupported += 1;
            }
        }
        out.retain(|s| s.total > 0);
        out
    }
}

/// The release whose headers lack the HIP name of `m`, if recorded.
fn absence(absent: &Table<Absent>, m: &Mapping) -> Option<Version> {
    m.hip
        .as_deref()
        .and_then(|h| absent.get(h))
        .map(|a| a.absent_in)
}
