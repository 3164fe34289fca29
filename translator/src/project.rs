//! Converting whole trees: discovery, per-file translation in parallel, output, patch and report.
//!
//! Files are found with the `ignore` crate (so `.gitignore` is honoured), translated in parallel
//! with one parser per thread, and written each once. Results come back in discovery order, so
//! patches and reports are deterministic.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Serialize;

use crate::cache::{self, Cache};
use crate::diag::{DiagInfo, Diagnostic, Severity};
use crate::edit::Edit;
use crate::header_facts::HeaderFacts;
use crate::patch;
use crate::translate::{self, TranslateError};
use crate::tree_index::{self, Record};

/// Source extensions translated by default.
pub const DEFAULT_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "cpp", "cc", "cxx", "c", "h", "hpp", "hxx", "inl",
];

/// Name of the marker file that identifies a directory as hipport output.
pub const OUTPUT_MARKER: &str = ".hipport-output";

/// Where converted files go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputMode {
    /// A complete translated copy under this directory.
    Dir(PathBuf),
    /// Rewrite the inputs, keeping `FILE.prehip` backups when `backup` is set.
    InPlace {
        /// Keep a backup of each changed file.
        backup: bool,
    },
    /// Write nothing (for `--check`, `--stdout`, `--diff`).
    Nothing,
}

/// How output files are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RenameMode {
    /// Keep every file name.
    #[default]
    None,
    /// `.cu` -> `.hip`.
    Hip,
    /// PyTorch's layout: `.cu` -> `.hip`, `cuda/` -> `hip/`, `x.cpp` -> `x_hip.cpp` when changed.
    Torch,
}

/// What `convert` produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Translate the sources to HIP.
    #[default]
    Translate,
    /// Keep the sources building for CUDA and add HIP support through a generated header.
    Header,
}

/// Everything `convert` needs to know.
#[derive(Clone, Debug)]
pub struct ConvertConfig {
    /// Input files and directories.
    pub inputs: Vec<PathBuf>,
    /// Where output goes.
    pub output: OutputMode,
    /// Overwrite an output directory that holds files hipport did not write.
    pub force: bool,
    /// Extensions (without dot) of files to translate.
    pub extensions: Vec<String>,
    /// Globs of paths to leave out.
    pub excludes: Vec<String>,
    /// Translation options.
    pub translate: translate::Options,
    /// How output files are named.
    pub rename: RenameMode,
    /// Full translation or single-source header mode.
    pub mode: Mode,
    /// Options for build files (setup.py, CMake, Makefiles).
    pub build: crate::buildfiles::BuildOptions,
    /// Diagnostic IDs or names never reported.
    pub allow: Vec<String>,
    /// Diagnostic IDs or names raised to errors.
    pub deny: Vec<String>,
    /// Per-file result cache; `None` translates every file.
    pub cache: Option<Cache>,
    /// Worker threads (0: one per available core).
    pub jobs: usize,
    /// Whether outcomes carry their edits and diff (for patches and reports); without them a
    /// cached re-run reads only the head of each cache entry.
    pub details: bool,
}

impl ConvertConfig {
    /// A configuration with default extensions, no excludes and default translation options.
    pub fn new(inputs: Vec<PathBuf>, output: OutputMode) -> ConvertConfig {
        ConvertConfig {
            inputs,
            output,
            force: false,
            extensions: DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            excludes: Vec::new(),
            translate: translate::Options::default(),
            rename: RenameMode::None,
            mode: Mode::Translate,
            build: crate::buildfiles::BuildOptions::default(),
            allow: Vec::new(),
            deny: Vec::new(),
            cache: None,
            jobs: 0,
            details: true,
        }
    }
}

/// Errors that stop a whole run before or while it starts.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// An input path does not exist or cannot be read.
    #[error("{path}: {source}")]
    Input {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The output directory is inside an input.
    #[error("output directory {out} is inside the input {input}; choose a directory outside it")]
    OutputInsideInput {
        /// Output directory.
        out: String,
        /// Input directory.
        input: String,
    },
    /// The output directory holds files hipport did not write.
    #[error("output directory {0} already holds files that hipport did not write; empty it, choose another, or pass --force")]
    OutputNotEmpty(String),
    /// An output path could not be written.
    #[error("{path}: {source}")]
    Output {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// An `--exclude` glob is malformed.
    #[error("bad --exclude glob `{glob}`: {reason}")]
    BadGlob {
        /// The glob.
        glob: String,
        /// Why.
        reason: String,
    },
    /// A usage problem.
    #[error("{0}")]
    Usage(String),
}

/// What happened to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// Translated, with changes.
    Changed,
    /// Translated, nothing to change.
    Unchanged,
    /// Not a source file: copied as it is.
    Copied,
    /// Left out (binary, or too slow to parse); copied as it is.
    Skipped,
    /// Could not be read or written.
    Failed,
}

/// One edit as shown in reports: byte range, old text, new text, rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportEdit {
    /// First byte replaced.
    pub start: usize,
    /// One past the last byte replaced.
    pub end: usize,
    /// The original text.
    pub old: String,
    /// The replacement.
    pub new: String,
    /// The rule that made it.
    pub rule: String,
}

/// The outcome for one file.
#[derive(Clone, Debug, Serialize)]
pub struct FileOutcome {
    /// Path relative to the input root, with `/` separators.
    pub path: String,
    /// The output path, when `--rename` gave the file a new name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
    /// What happened.
    pub status: FileStatus,
    /// Edits applied.
    pub edits: Vec<ReportEdit>,
    /// Diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Lines the parser could not read.
    pub parse_errors: Vec<(usize, usize)>,
    /// Renames by family.
    #[serde(skip)]
    pub renames: BTreeMap<String, usize>,
    /// The unified diff of this file (empty when unchanged).
    #[serde(skip)]
    pub diff: Vec<u8>,
    /// The translated text, kept only for `--stdout`.
    #[serde(skip)]
    pub output: Option<Vec<u8>>,
    /// The path on disk.
    #[serde(skip)]
    pub source_path: PathBuf,
    /// In header mode, what this file needs from the compatibility header.
    #[serde(skip)]
    pub needs: Option<crate::header_mode::Needs>,
    /// Whether the result came from the cache.
    #[serde(skip)]
    pub from_cache: bool,
    /// Whether the translation read other files (headers' macros), so that a result keyed by
    /// this file's content alone must not be cached.
    #[serde(skip)]
    pub read_other_files: bool,
    /// Whether the run's index vouched for the source, so that it was not even read.
    #[serde(skip)]
    pub unread: bool,
    /// Size of the input in bytes.
    #[serde(skip)]
    pub bytes: u64,
    /// The output file's stamp when the worker wrote or checked it, so that the run's list of
    /// outputs need not look at the file again (`None`: not known).
    #[serde(skip)]
    pub out_stamp: Option<cache::Stamp>,
}

/// Counts for the summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Files looked at.
    pub files_scanned: usize,
    /// Files whose translation changed them.
    pub files_changed: usize,
    /// Source files left as they were.
    pub files_unchanged: usize,
    /// Files copied or skipped without translation.
    pub files_copied: usize,
    /// Files that could not be read or written.
    pub files_failed: usize,
    /// Files with parse errors.
    pub files_with_parse_errors: usize,
    /// Files whose result came from the cache.
    pub files_from_cache: usize,
    /// Of those, sources the run's index vouched for unchanged (by their stamps), so that
    /// neither they nor their outputs were read.
    pub sources_unread: usize,
    /// Bytes read from the inputs.
    pub bytes_read: u64,
    /// Renames by API family.
    pub renames_by_family: BTreeMap<String, usize>,
    /// Diagnostics by severity.
    pub diagnostics_by_severity: BTreeMap<String, usize>,
    /// Wall time in seconds.
    pub elapsed_seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// hipport version.
    pub hipport_version: String,
    /// HIP release targeted.
    pub hip_version: String,
    /// The macros the run took as defined by the HIP build (`NAME` or `NAME=VALUE`), from
    /// `--define`, `hipport.toml` and a PyTorch `setup.py`: they decide which branches count.
    pub defines: Vec<String>,
    /// The macros the run took as not defined (`--undefine`, `hipport.toml`'s `undefines`).
    pub undefines: Vec<String>,
    /// The input root that relative paths start from.
    pub root: String,
    /// Per-file outcomes, in discovery order.
    pub files: Vec<FileOutcome>,
    /// Counts.
    pub summary: Summary,
}

impl RunReport {
    /// The unified patch of the whole run.
    pub fn patch(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for f in &self.files {
            out.extend_from_slice(&f.diff);
        }
        out
    }

    /// Every diagnostic, in file order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| f.diagnostics.iter())
    }

    /// The highest severity present, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.diagnostics().map(|d| d.severity).max()
    }

    /// Whether any file would change.
    pub fn any_change(&self) -> bool {
        self.files.iter().any(|f| f.status == FileStatus::Changed)
    }
}

/// Diagnostics the driver itself emits.
pub const BINARY_SKIPPED: DiagInfo = DiagInfo {
    id: "T020",
    name: "binary-file-skipped",
    severity: Severity::Note,
    summary: "A file with a source extension looks binary and was copied without translation",
    explain: "The file has a source extension but contains NUL bytes, so hipport treats it as binary: it is copied to the output unchanged and not translated.\n\nWhat to do: if the file is really source code (for example UTF-16 encoded), convert it to UTF-8 and run hipport again.",
};

/// A file that could not be parsed in time.
pub const PARSE_TIMEOUT: DiagInfo = DiagInfo {
    id: "T021",
    name: "parse-budget-exceeded",
    severity: Severity::Error,
    summary: "Parsing a file took longer than the per-file budget; it was copied untranslated",
    explain: "hipport gives each file a parse time budget so that one pathological file cannot stall a whole run. This file exceeded it and was copied to the output unchanged.\n\nWhat to do: raise the budget with `--parse-timeout SECONDS`, or split the file.",
};

/// A file that could not be read or written.
pub const IO_FAILED: DiagInfo = DiagInfo {
    id: "T022",
    name: "io-error",
    severity: Severity::Error,
    summary: "A file could not be read or written",
    explain: "hipport could not read an input file or write its output. The message names the path and the operating system's reason. Nothing was written for that file; other files were converted.",
};

/// A file on which hipport itself failed.
pub const INTERNAL_ERROR: DiagInfo = DiagInfo {
    id: "T023",
    name: "internal-error",
    severity: Severity::Error,
    summary: "hipport failed on this file (a bug in hipport); it was not converted",
    explain: "Converting this file stopped on an internal error of hipport (a panic), which no input should cause. Nothing was written for the file; the other files were converted as usual, and the input was not modified.\n\nWhat to do: please report it with the file (or a smaller file that shows the same message) and the message printed above the diagnostic, which names the place in hipport's source.",
};

/// An output file an earlier run wrote for a source this run no longer converts.
pub const STALE_OUTPUT: DiagInfo = DiagInfo {
    id: "T024",
    name: "stale-output-file",
    severity: Severity::Warning,
    summary: "An output file from an earlier run has no source any more",
    explain: "hipport records in the output directory's `.hipport-output` file which files a run wrote there. When a later run into the same directory no longer converts the source of one (it was deleted, renamed or excluded since), the old output would stay beside the new ones, and a build that globs the directory (`glob.glob(\"src/*.cu\")`, CMake's `file(GLOB)`) would compile both. A file still as hipport wrote it is removed, and the run lists it in a note; one that changed since hipport wrote it (an edit of yours) is kept, with this warning.\n\nWhat to do: delete the file if it is no longer wanted, or move your changes to the source it came from.",
};

/// An include that finds no file in the tree on the branch hipcc compiles (R19-c, R18-b).
pub const MISSING_INCLUDE: DiagInfo = DiagInfo {
    id: "T025",
    name: "include-not-in-tree",
    severity: Severity::Warning,
    summary: "An include finds no file in the input, so hipport converted nothing of it",
    explain: "A quoted `#include` (or a `<dir/x.h>` one that names hipify's output, or a cuda-samples helper) finds no file beside the including file, in the include directories the build files name, at the input root, under the directories above the file, or anywhere in the input as a file whose path ends with the include's (where an `-I` hipport was not told of would find it). hipport converts only what the input holds: whatever that file is, its CUDA is not ported, and the output may not compile. The system's and the toolkits' headers (`<...>` without a directory, the CUDA toolkit's own `cuda_runtime.h`, `cuda_fp16.h` and the rest, `ATen/`, `torch/`, `hip/`) are not reported (a project's own `\"cuda_utils.h\"` is), nor includes in a branch hipcc skips, nor a path whose first directory the input has nowhere it looks (another project's headers, which its build finds outside the input: `\"tensorflow/core/framework/op_kernel.h\"` in a TensorFlow custom op) unless a generator or hipify's naming explains it.\n\nFour common causes, each named in the message:\n- the file is written at build time by a Python generator in the tree (fairseq's `cuda_function_gen.py` writes `lightconv_cuda_forward.cu`): the CUDA it writes must be ported too; run the generator and convert its output, or port the code the generator writes;\n- the path is hipify's name for a file of the tree (`rnnt/hip/math_hip.cuh` for `rnnt/gpu/math.cuh`, written in a `#ifdef __HIP_PLATFORM_AMD__` branch): hipport converts the file under its own name, so include that name (or run with `--rename` and include the name it gives);\n- the file is cuda-samples' `Common/` helper (`helper_cuda.h`, `helper_functions.h`: `checkCudaErrors`, `findCudaDevice`, timers), written against the CUDA runtime: convert the samples' `Common/` directory with the sample, and put it on the include path (a note where the include is `<helper_cuda.h>`);\n- the file is one of the old CUDA SDK's (4.x) utility headers (`cutil.h`, `cutil_inline.h`, `cutil_math.h`, `shrUtils.h`): part of neither CUDA since 5.0 nor HIP (one note for them all, with what replaces their macros, timers and vector maths).\n\nWhat to do otherwise: add the directory that holds the file to the input, or ignore the warning where the build finds it outside the project.",
};

/// Two files of the tree that `--rename` would give one name (verify7).
pub const RENAME_CLASH: DiagInfo = DiagInfo {
    id: "T026",
    name: "rename-clash",
    severity: Severity::Warning,
    summary: "Two files would get the same new name: this one keeps another",
    explain: "`--rename` gives files hipify's names: `.cu` becomes `.hip`, a `cuda` directory becomes `hip`, and with `--rename torch` `cuda` in a file's stem becomes `hip` (`corr_cuda_kernel.cu` is `corr_hip_kernel.hip`), as PyTorch's hipify does. Where the tree already holds a file of that name, or another file gets it too (`a_cuda.cu` and `a_hip.cu`, or `src/cuda/x.cu` and `src/hip/x.cu`, all become one `.hip` file), one of them would overwrite the other. hipport gives the second file the name it would have without the stem rule, or its own name, and warns; the includes and build files that name it follow.\n\nWhat to do: check that the build compiles both files under the names given (or rename one of them in the tree: hipify's own tools have the same clash).",
};

/// Diagnostics of the driver.
pub const DIAGS: &[DiagInfo] = &[
    BINARY_SKIPPED,
    PARSE_TIMEOUT,
    IO_FAILED,
    INTERNAL_ERROR,
    STALE_OUTPUT,
    MISSING_INCLUDE,
    RENAME_CLASH,
];

/// Files found, and (path, error) pairs for entries that could not be read.
/// Each file is boxed: the list grows without a known end, and growing a list of pointers copies
/// 8 bytes a file where a list of entries copied 128 (and held both copies at the peak).
pub type Discovered = (Vec<Box<FoundFile>>, Vec<(String, String)>);

/// One file found by discovery. A run that renames files keeps the list of a whole tree, so a
/// file's entry holds its path on disk only where `rel` cannot give it (see [`FoundFile::path`]).
#[derive(Clone, Debug)]
pub struct FoundFile {
    /// Path relative to the root, `/`-separated.
    pub rel: String,
    /// Where it is on disk.
    at: OnDisk,
    /// Whether it is translated (source extension) or copied.
    pub translate: bool,
    /// Size in bytes when discovered (for progress).
    pub size: u64,
    /// Its stamp when discovered (see [`crate::tree_index`]).
    pub stamp: Option<cache::Stamp>,
    /// Whether `size` and `stamp` are still to be read ([`FoundFile::settle`]): the ordered walk
    /// leaves that `stat` to the worker that takes the file, since one `stat` after another on
    /// the walk's thread bounded a re-run's wall time.
    unsettled: bool,
}

/// Where a found file is on disk, without a copy of its whole path for every file (on a tree of
/// 750,000 files, those copies were a third of the run's peak memory).
#[derive(Clone, Debug)]
enum OnDisk {
    /// The input as given, joined with `rel` from byte `tail` on.
    Under {
        input: std::sync::Arc<Path>,
        tail: u32,
    },
    /// The path itself, where that join would not give it back byte for byte (names that are not
    /// UTF-8, `\\` separators, files found through a canonicalized path).
    Path(Box<Path>),
}

impl OnDisk {
    /// Where the file at `path`, found under `input` (as given), is: `input` and `tail` when
    /// `rel` is `/`-separated from byte `tail` on and joining the two gives `path` byte for byte,
    /// else `path` itself.
    fn of(input: &std::sync::Arc<Path>, path: PathBuf, rel: &str, tail: Option<usize>) -> OnDisk {
        let text = tail.and_then(|t| Some((u32::try_from(t).ok()?, rel.get(t..)?)));
        match text {
            Some((tail, text)) if input.join(text).as_os_str() == path.as_os_str() => {
                OnDisk::Under {
                    input: std::sync::Arc::clone(input),
                    tail,
                }
            }
            _ => OnDisk::Path(path.into_boxed_path()),
        }
    }
}

impl FoundFile {
    /// A file at `path` with relative path `rel`.
    pub fn new(
        path: PathBuf,
        rel: String,
        translate: bool,
        size: u64,
        stamp: Option<cache::Stamp>,
    ) -> FoundFile {
        FoundFile {
            rel,
            at: OnDisk::Path(path.into_boxed_path()),
            translate,
            size,
            stamp,
            unsettled: false,
        }
    }

    /// Reads the size and stamp that discovery left to be read, if it did; true when it did.
    pub fn settle(&mut self) -> bool {
        if !std::mem::take(&mut self.unsettled) {
            return false;
        }
        let meta = fs::symlink_metadata(self.path_ref()).ok();
        self.size = meta.as_ref().map_or(0, |m| m.len());
        self.stamp = meta.as_ref().and_then(cache::Stamp::of_metadata);
        true
    }

    /// The file's path on disk, as discovery found it (the input as given, then the names below
    /// it): for reading it, and for showing it in messages.
    pub fn path(&self) -> PathBuf {
        self.path_ref().into_owned()
    }

    /// [`FoundFile::path`], borrowed where the entry holds it.
    fn path_ref(&self) -> std::borrow::Cow<'_, Path> {
        match &self.at {
            OnDisk::Under { input, tail } => join_sized(input, &self.rel[*tail as usize..]).into(),
            OnDisk::Path(p) => std::borrow::Cow::Borrowed(p),
        }
    }

    /// Discovery order of two files of one input (see [`walk_order`]); files under the same
    /// input compare by their tails, which is what comparing their paths decides.
    fn walk_cmp(&self, other: &FoundFile) -> std::cmp::Ordering {
        match (&self.at, &other.at) {
            (OnDisk::Under { input: a, tail: x }, OnDisk::Under { input: b, tail: y })
                if std::sync::Arc::ptr_eq(a, b) =>
            {
                tree_index::discovery_order(
                    &self.rel.as_bytes()[*x as usize..],
                    &other.rel.as_bytes()[*y as usize..],
                )
            }
            _ => walk_order(&self.path_ref(), &other.path_ref()),
        }
    }
}

/// The common root of the inputs: a single directory itself, a single file's parent, or the
/// deepest common ancestor of several inputs.
pub fn input_root(inputs: &[PathBuf]) -> Result<PathBuf, ProjectError> {
    let mut canon = Vec::new();
    for i in inputs {
        let c = fs::canonicalize(i).map_err(|source| ProjectError::Input {
            path: i.display().to_string(),
            source,
        })?;
        canon.push(c);
    }
    if canon.len() == 1 {
        let c = &canon[0];
        return Ok(if c.is_dir() {
            c.clone()
        } else {
            c.parent().unwrap_or(c).to_path_buf()
        });
    }
    let mut root = canon[0].parent().map(Path::to_path_buf).unwrap_or_default();
    for c in &canon[1..] {
        while !c.starts_with(&root) {
            if !root.pop() {
                break;
            }
        }
    }
    Ok(root)
}

/// Whether a path's text is its components: no empty or `.` components, no trailing `/`
/// (then comparing or cutting the text is comparing or cutting the components).
#[cfg(unix)]
fn plain(b: &[u8]) -> bool {
    !b.is_empty()
        && !b.ends_with(b"/")
        && b != b"."
        && !b.starts_with(b"./")
        // After each `/`: neither another `/` nor a `.` component.
        && memchr::memchr_iter(b'/', b).all(|i| match b.get(i + 1) {
            Some(b'/') => false,
            Some(b'.') => !matches!(b.get(i + 2), None | Some(b'/')),
            _ => true,
        })
}

/// `Path::strip_prefix`, by comparing bytes where that gives the same answer: `Path`'s version
/// parses both paths into components, several thousand instructions for each of a tree's files.
fn strip_dir<'a>(path: &'a Path, dir: &Path) -> Option<&'a Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (p, d) = (path.as_os_str().as_bytes(), dir.as_os_str().as_bytes());
        if plain(d) && plain(p) {
            // Both are their components: a prefix of components is a prefix of bytes.
            return match p.strip_prefix(d)? {
                [] => Some(Path::new("")),
                [b'/', tail @ ..] => Some(Path::new(std::ffi::OsStr::from_bytes(tail))),
                _ => None,
            };
        }
    }
    path.strip_prefix(dir).ok()
}

/// The order of a depth-first walk that visits each directory's entries sorted by name (see
/// [`tree_index::discovery_order`]).
fn walk_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    tree_index::discovery_order(
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    )
}

/// `base.join(rel)` in one allocation (`Path::join` grows its buffer once or twice: a tenth of
/// a re-run's instructions went to the two joins of each file).
fn join_sized(base: &Path, rel: &str) -> PathBuf {
    let mut p = PathBuf::with_capacity(base.as_os_str().len() + rel.len() + 1);
    p.push(base);
    p.push(rel);
    p
}

/// `path` relative to `root`, with `/` between components (lossy for names that are not UTF-8).
fn rel_string(root: &Path, path: &Path) -> String {
    rel_text(strip_dir(path, root).unwrap_or(path))
}

/// A relative path's components joined with `/`. Discovery's paths are canonical already: on
/// Unix their text is the answer, which spares a run over 150,000 files an allocation per
/// component.
fn rel_text(rel: &Path) -> String {
    #[cfg(unix)]
    if let Some(text) = rel.to_str() {
        // (An absolute path's components start with the root, which joins as `//`.)
        if !text.starts_with('/') && plain(text.as_bytes()) {
            return text.to_string();
        }
    }
    joined_components(rel)
}

/// The components of `rel` joined with `/` (lossy for names that are not UTF-8).
fn joined_components(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn build_globs(excludes: &[String]) -> Result<GlobSet, ProjectError> {
    let mut b = GlobSetBuilder::new();
    for g in excludes {
        let glob = Glob::new(g).map_err(|e| ProjectError::BadGlob {
            glob: g.clone(),
            reason: e.to_string(),
        })?;
        b.add(glob);
    }
    b.build().map_err(|e| ProjectError::BadGlob {
        glob: excludes.join(","),
        reason: e.to_string(),
    })
}

/// What discovery needs to know of one input: how to turn the walker's entries under it into
/// [`FoundFile`]s. Shared by the parallel walk that lists a whole tree ([`discover`]) and the
/// ordered walk that hands files over one at a time ([`discover_each`]).
struct InputWalk<'a> {
    cfg: &'a ConvertConfig,
    /// Where relative paths start from.
    root: &'a Path,
    globs: &'a GlobSet,
    out_dir: Option<&'a Path>,
    input: &'a Path,
    given: std::sync::Arc<Path>,
    /// The input's real path: links are not followed, so a file's real path is this joined with
    /// the rest (one canonicalize per input instead of one per file).
    input_canon: Option<PathBuf>,
    /// The input's real path relative to the root: a file's relative path is this and the rest
    /// of its path.
    input_rel: Option<String>,
    /// Whether the output directory is inside this input or around it (only then can files under
    /// it turn up, and they are skipped).
    out_inside: bool,
    /// The cache directory, as the walk spells it, when it is inside this input: the run writes
    /// there as it goes, so the walk leaves it out.
    cache_inside: Option<PathBuf>,
}

impl<'a> InputWalk<'a> {
    fn new(
        cfg: &'a ConvertConfig,
        root: &'a Path,
        globs: &'a GlobSet,
        out_dir: Option<&'a Path>,
        input: &'a Path,
    ) -> InputWalk<'a> {
        let input_canon = fs::canonicalize(input).ok();
        let input_rel = input_canon.as_deref().map(|c| rel_string(root, c));
        let out_inside = out_dir
            .zip(input_canon.as_deref())
            .is_some_and(|(o, c)| strip_dir(o, c).is_some() || strip_dir(c, o).is_some());
        let cache_inside = cfg
            .cache
            .as_ref()
            .and_then(|c| fs::canonicalize(c.dir()).ok())
            .zip(input_canon.as_deref())
            .and_then(|(c, i)| Some(input.join(strip_dir(&c, i)?)));
        InputWalk {
            cfg,
            cache_inside,
            root,
            globs,
            out_dir,
            input,
            given: std::sync::Arc::from(input),
            input_canon,
            input_rel,
            out_inside,
        }
    }

    /// The walker over this input: `.gitignore` and `.ignore` files honoured, links not
    /// followed, `.git` left out.
    fn builder(&self) -> ignore::WalkBuilder {
        let mut walker = ignore::WalkBuilder::new(self.input);
        walker
            .hidden(false)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(true)
            .require_git(false)
            .ignore(true)
            .follow_links(false);
        let cache = self.cache_inside.clone();
        walker.filter_entry(move |e| {
            e.file_name() != ".git" && cache.as_deref().is_none_or(|c| e.path() != c)
        });
        walker
    }

    /// The file an entry of the walk is, an error to report, or `None` for what is not a file
    /// to convert (directories, excluded paths, the output directory's files).
    /// With `stat` false, and on Unix, the file's size and stamp are left to be read
    /// ([`FoundFile::settle`]); elsewhere the walk has them without a system call of its own.
    fn visit(
        &self,
        entry: Result<ignore::DirEntry, ignore::Error>,
        stat: bool,
    ) -> Option<Result<FoundFile, (String, String)>> {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = match &e {
                    ignore::Error::WithPath { path, .. } => path.display().to_string(),
                    _ => self.input.display().to_string(),
                };
                return Some(Err((path, e.to_string())));
            }
        };
        if !entry.file_type()?.is_file() {
            return None;
        }
        let path = entry.path().to_path_buf();
        let rest = strip_dir(&path, self.input).filter(|r| !r.as_os_str().is_empty());
        // The relative path, and where in it the path below the input starts (None: the
        // relative path is not made of it).
        let (rel, tail) = match (&self.input_canon, &self.input_rel, rest) {
            (Some(c), Some(prefix), Some(rest)) => {
                if self.out_inside
                    && self
                        .out_dir
                        .is_some_and(|o| strip_dir(&c.join(rest), o).is_some())
                {
                    return None;
                }
                match (prefix.as_str(), rel_text(rest)) {
                    ("", rest) => (rest, Some(0)),
                    (prefix, rest) => (format!("{prefix}/{rest}"), Some(prefix.len() + 1)),
                }
            }
            _ => {
                let canon = fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                if self.out_dir.is_some_and(|o| strip_dir(&canon, o).is_some()) {
                    return None;
                }
                (rel_string(self.root, &canon), None)
            }
        };
        if !self.globs.is_empty()
            && (self.globs.is_match(&rel) || self.globs.is_match(path.as_path()))
        {
            return None;
        }
        if entry.file_name() == OUTPUT_MARKER || is_temporary(entry.file_name()) {
            return None;
        }
        // Header mode writes the compatibility headers itself (at the root, in Python
        // packages): one a run left there is not an input.
        if self.cfg.mode == Mode::Header
            && rel.rsplit('/').next() == Some(crate::header_mode::COMPAT_HEADER)
            && crate::header_mode::package_header(&rel, |d| {
                self.root.join(d).join("__init__.py").is_file()
            }) == rel
            && generated_header_at(&path)
        {
            return None;
        }
        let translate = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            self.cfg
                .extensions
                .iter()
                .any(|x| x.eq_ignore_ascii_case(e))
        });
        let unsettled = !stat && cfg!(unix);
        let meta = if unsettled {
            None
        } else {
            entry.metadata().ok()
        };
        Some(Ok(FoundFile {
            at: OnDisk::of(&self.given, path, &rel, tail),
            rel,
            translate,
            size: meta.as_ref().map_or(0, |m| m.len()),
            stamp: meta.as_ref().and_then(cache::Stamp::of_metadata),
            unsettled,
        }))
    }
}

/// Whether the file at `path` starts as a compatibility header hipport generated.
fn generated_header_at(path: &Path) -> bool {
    let mut head = vec![0u8; crate::header_mode::MARKER.len() + 3];
    let n = fs::File::open(path)
        .and_then(|mut f| {
            let mut n = 0;
            while n < head.len() {
                match f.read(&mut head[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(n)
        })
        .unwrap_or(0);
    crate::header_mode::is_generated(&head[..n])
}

/// Whether a file name is one of hipport's temporary files (`.NAME.hipport-PID[-N].tmp`, made
/// beside a file being written): never an input, even when a run writes into the tree it reads.
fn is_temporary(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    let Some(inner) = name
        .strip_prefix(b".")
        .and_then(|n| n.strip_suffix(b".tmp"))
    else {
        return false;
    };
    let Some(at) = memchr::memmem::rfind(inner, b".hipport-") else {
        return false;
    };
    let tag = &inner[at + b".hipport-".len()..];
    !tag.is_empty()
        && tag[0].is_ascii_digit()
        && tag.iter().all(|&c| c.is_ascii_digit() || c == b'-')
}

/// Finds the files under the inputs, honouring `.gitignore` and excludes, in a stable order.
/// Unreadable entries are returned as errors beside the files, so the run can report them.
/// The whole list is held (about 200 bytes a file): [`discover_each`] hands files over instead.
pub fn discover(cfg: &ConvertConfig, root: &Path) -> Result<Discovered, ProjectError> {
    let globs = build_globs(&cfg.excludes)?;
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let out_dir = output_dir_canon(cfg);
    for input in &cfg.inputs {
        let walk = InputWalk::new(cfg, root, &globs, out_dir.as_deref(), input);
        let mut walker = walk.builder();
        walker.threads(cfg.jobs);
        // The walk runs on several threads (a tree's `stat` calls and ignore-rule matching are
        // most of a re-run); this input's files are put in walk order afterwards, once.
        let first = files.len();
        let found = Mutex::new((std::mem::take(&mut files), std::mem::take(&mut errors)));
        walker.build_parallel().run(|| {
            // Each thread hands what it finds over in batches (see `BATCH_FILES`).
            let mut batch = Batch {
                found: Vec::with_capacity(BATCH_FILES),
                errors: Vec::new(),
                into: &found,
            };
            let walk = &walk;
            Box::new(move |entry| {
                match walk.visit(entry, true) {
                    Some(Ok(f)) => {
                        batch.found.push(Box::new(f));
                        if batch.found.len() == BATCH_FILES {
                            batch.hand_over();
                        }
                    }
                    Some(Err(e)) => batch.errors.push(e),
                    None => {}
                }
                ignore::WalkState::Continue
            })
        });
        (files, errors) = found.into_inner().unwrap_or_else(|e| e.into_inner());
        files[first..].sort_unstable_by(|x, y| x.walk_cmp(y));
    }
    errors.sort_by(|x, y| walk_order(Path::new(&x.0), Path::new(&y.0)));
    files.dedup_by(|a, b| a.rel == b.rel);
    Ok((files, errors))
}

/// [`discover`] without the list: hands each file to `file` in the same order, as one walk
/// (each directory read and sorted when the walk reaches it) finds it, so that memory does not
/// grow with the tree. On Unix a file comes without its size and stamp: [`FoundFile::settle`]
/// reads them where the file is taken up. Stops early when `file` returns false or `stop` is set (it is read at
/// every entry, so that a run that fails stops without walking the rest of the tree, files or
/// not). Returns the errors, in the order [`discover`] gives them.
pub fn discover_each(
    cfg: &ConvertConfig,
    root: &Path,
    stop: &std::sync::atomic::AtomicBool,
    mut file: impl FnMut(FoundFile) -> bool,
) -> Result<Vec<(String, String)>, ProjectError> {
    let globs = build_globs(&cfg.excludes)?;
    let mut errors = Vec::new();
    let out_dir = output_dir_canon(cfg);
    let mut last: Option<String> = None;
    for input in &cfg.inputs {
        let walk = InputWalk::new(cfg, root, &globs, out_dir.as_deref(), input);
        let mut walker = walk.builder();
        // Siblings by name, byte for byte: the order `walk_cmp` sorts [`discover`]'s list in.
        // Compared as whole paths, whose first difference is in the names (siblings' paths are
        // their directory's path joined with their names), since taking a path's file name
        // parses it: that cost a sixth of a re-run's instructions.
        walker.sort_by_file_path(walk_order);
        for entry in walker.build() {
            if stop.load(Ordering::Relaxed) {
                return Ok(errors);
            }
            match walk.visit(entry, false) {
                Some(Ok(f)) => {
                    // The same file through two inputs comes once (as `discover` keeps it).
                    if last.as_deref() == Some(f.rel.as_str()) {
                        continue;
                    }
                    last = Some(f.rel.clone());
                    if !file(f) {
                        return Ok(errors);
                    }
                }
                Some(Err(e)) => errors.push(e),
                None => {}
            }
        }
    }
    errors.sort_by(|x, y| walk_order(Path::new(&x.0), Path::new(&y.0)));
    Ok(errors)
}

/// The output directory's real path, when the run writes one that exists.
fn output_dir_canon(cfg: &ConvertConfig) -> Option<PathBuf> {
    match &cfg.output {
        OutputMode::Dir(d) => fs::canonicalize(d).ok(),
        _ => None,
    }
}

/// How many files a discovery thread gathers before adding them to the shared list: its own list
/// is allocated at this size once, and never holds a large part of the tree beside the shared one.
const BATCH_FILES: usize = 1024;

/// What one discovery thread found and has not handed over yet; the rest is handed over when
/// the thread is done.
struct Batch<'a> {
    #[allow(
        clippy::vec_box,
        reason = "the shared list holds boxes (see `Discovered`)"
    )]
    found: Vec<Box<FoundFile>>,
    errors: Vec<(String, String)>,
    into: &'a Mutex<Discovered>,
}

impl Batch<'_> {
    /// Adds what this thread found to the shared lists.
    fn hand_over(&mut self) {
        let mut all = self.into.lock().unwrap_or_else(|e| e.into_inner());
        all.0.append(&mut self.found);
        all.1.append(&mut self.errors);
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.hand_over();
    }
}

/// Checks the output directory: not inside an input, and empty or hipport's own (or `--force`).
pub fn prepare_output_dir(cfg: &ConvertConfig, out: &Path) -> Result<(), ProjectError> {
    let out_abs = absolute(out);
    for input in &cfg.inputs {
        let inp = fs::canonicalize(input).map_err(|source| ProjectError::Input {
            path: input.display().to_string(),
            source,
        })?;
        if inp.is_dir() && (out_abs.starts_with(&inp) || out_abs == inp) {
            return Err(ProjectError::OutputInsideInput {
                out: out.display().to_string(),
                input: input.display().to_string(),
            });
        }
    }
    if out.exists() {
        let meta = fs::metadata(out).map_err(|source| ProjectError::Output {
            path: out.display().to_string(),
            source,
        })?;
        if !meta.is_dir() {
            return Err(ProjectError::Output {
                path: out.display().to_string(),
                source: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "exists and is not a directory",
                ),
            });
        }
        let mut entries = fs::read_dir(out).map_err(|source| ProjectError::Output {
            path: out.display().to_string(),
            source,
        })?;
        let non_empty = entries.next().is_some();
        if non_empty && !out.join(OUTPUT_MARKER).exists() && !cfg.force {
            return Err(ProjectError::OutputNotEmpty(out.display().to_string()));
        }
    }
    fs::create_dir_all(out).map_err(|source| ProjectError::Output {
        path: out.display().to_string(),
        source,
    })?;
    // A marker already there keeps the list of the files the last run wrote (see
    // [`OutputFiles`]) until this run's replaces it.
    if out.join(OUTPUT_MARKER).is_file() {
        return Ok(());
    }
    fs::write(out.join(OUTPUT_MARKER), MARKER_HEAD).map_err(|source| ProjectError::Output {
        path: out.join(OUTPUT_MARKER).display().to_string(),
        source,
    })
}

/// The first line of the output marker.
const MARKER_HEAD: &str =
    "This directory was written by `hipport convert`; hipport may overwrite it.\n";

/// The line of the output marker before its list of files.
const MARKER_LIST: &str = "# Files the last run wrote (stamp, path): the next run removes those it no longer writes, while unchanged.\n";

/// The files a run writes into an output directory, recorded in its marker ([`OUTPUT_MARKER`])
/// with their stamps, so that the next run can tell which output files have no source any more
/// (deleted, renamed or excluded since): those still as hipport wrote them are removed, so that
/// a build globbing the directory does not compile stale copies beside the new files; those
/// changed since are kept, with a warning ([`STALE_OUTPUT`]). This run's files are held as
/// hashes of their paths (8 bytes each); the lists are streamed.
struct OutputFiles {
    /// The output directory.
    out: PathBuf,
    /// The new marker, written as outcomes come.
    marker: Option<AtomicWriter>,
    /// Hashes of the output paths of every file of this run (written or not).
    this_run: std::collections::HashSet<u64>,
}

impl OutputFiles {
    /// Starts the record of a run into `out` (`None` when the marker cannot be written: then
    /// nothing is removed, and the old marker stays).
    fn start(out: &Path) -> Option<OutputFiles> {
        let mut marker = AtomicWriter::create(&out.join(OUTPUT_MARKER)).ok()?;
        marker.write_all(MARKER_HEAD.as_bytes()).ok()?;
        marker.write_all(MARKER_LIST.as_bytes()).ok()?;
        Some(OutputFiles {
            out: out.to_path_buf(),
            marker: Some(marker),
            this_run: std::collections::HashSet::new(),
        })
    }

    /// Records the output of one outcome (its path relative to the output directory).
    /// `stamp` is the output's when the worker already knows it (else it is looked up).
    fn add(&mut self, rel: &str, written: bool, stamp: Option<cache::Stamp>) {
        self.this_run
            .insert(xxhash_rust::xxh3::xxh3_64(rel.as_bytes()));
        if !written {
            return;
        }
        if let Some(stamp) = stamp.or_else(|| cache::Stamp::of(&self.out.join(rel))) {
            self.line(rel, &stamp);
        }
    }

    /// Appends the marker's line for `rel` (paths that would break a line are left out, and
    /// so never removed).
    fn line(&mut self, rel: &str, stamp: &cache::Stamp) {
        if rel.contains(['\n', '\r', '\t']) {
            return;
        }
        let mut w = cache::W(Vec::new());
        w.stamp(stamp);
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut line = Vec::with_capacity(w.0.len() * 2 + rel.len() + 2);
        for &b in &w.0 {
            line.extend_from_slice(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]]);
        }
        line.push(b'\t');
        line.extend_from_slice(rel.as_bytes());
        line.push(b'\n');
        if self
            .marker
            .as_mut()
            .is_some_and(|m| m.write_all(&line).is_err())
        {
            self.marker = None;
        }
    }

    /// Compares the last run's list with this run's: removes the files still as the last run
    /// left them that this run did not write, and puts the new marker in place. Returns the
    /// diagnostics saying what was removed and what was kept.
    fn finish(mut self) -> Vec<Diagnostic> {
        let mut removed = Vec::new();
        let mut kept = Vec::new();
        let marker_path = self.out.join(OUTPUT_MARKER);
        if self.marker.is_some() {
            if let Ok(list) = fs::read(&marker_path) {
                for line in list.split(|&b| b == b'\n').skip(2) {
                    let Some((hex, rel)) = std::str::from_utf8(line)
                        .ok()
                        .and_then(|l| l.split_once('\t'))
                    else {
                        continue;
                    };
                    // Most of the list is this run's own outputs: passed over before the stamp
                    // is decoded.
                    let hash = xxhash_rust::xxh3::xxh3_64(rel.as_bytes());
                    if self.this_run.contains(&hash) || !safe_rel(rel) {
                        continue;
                    }
                    let Some(stamp) = parse_marker_stamp(hex) else {
                        continue;
                    };
                    let path = self.out.join(rel);
                    match cache::Stamp::of(&path) {
                        None => {}
                        Some(now) if now == stamp && fs::remove_file(&path).is_ok() => {
                            remove_empty_dirs(&self.out, rel);
                            removed.push(rel.to_string());
                        }
                        Some(_) => {
                            // Kept on the list: the warning comes again until it is dealt with.
                            self.line(rel, &stamp);
                            kept.push(rel.to_string());
                        }
                    }
                }
            }
        }
        if let Some(m) = self.marker.take() {
            let _ = m.finish();
        }
        let shown = |rel: &str| self.out.join(rel).display().to_string();
        let mut out = Vec::new();
        if !removed.is_empty() {
            let mut d = file_diag(
                &STALE_OUTPUT,
                &marker_path.display().to_string(),
                format!(
                    "removed {} output file{} of an earlier run whose source{} this run no longer converts: {}",
                    removed.len(),
                    if removed.len() == 1 { "" } else { "s" },
                    if removed.len() == 1 { "" } else { "s" },
                    removed.join(", ")
                ),
            );
            d.severity = Severity::Note;
            out.push(d);
        }
        for rel in kept {
            let mut d = file_diag(
                &STALE_OUTPUT,
                &shown(&rel),
                format!("{rel} was written by an earlier run for a source this run no longer converts, and changed since: kept"),
            );
            d.help = Some("delete it if it is no longer wanted: a build that globs its directory compiles it beside the new files".into());
            out.push(d);
        }
        out
    }
}

/// The stamp of one line of the output marker's list, from its hexadecimal text.
fn parse_marker_stamp(hex: &str) -> Option<cache::Stamp> {
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
        return None;
    }
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect::<Option<_>>()?;
    cache::R(&bytes).stamp()
}

/// Whether a path from the marker stays inside the output directory (relative, no `..`).
fn safe_rel(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Removes the directories of `rel` under `out` that its removal left empty, deepest first.
fn remove_empty_dirs(out: &Path, rel: &str) {
    let mut dir = Path::new(rel).parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if fs::remove_dir(out.join(d)).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// An absolute form of a path that may not exist yet (its existing ancestor canonicalized).
fn absolute(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut existing = p.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        match existing.file_name() {
            Some(n) => rest.push(n.to_os_string()),
            None => break,
        }
        if !existing.pop() {
            break;
        }
    }
    let mut out = fs::canonicalize(&existing).unwrap_or(existing);
    for r in rest.into_iter().rev() {
        out.push(r);
    }
    out
}

/// Writes `data` to `path` atomically: a temporary file beside it, flushed to disk, then a rename.
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, data, true, true)
}

/// Like [`write_atomic`] without the flush to disk: for output that can be regenerated (an output
/// tree, cache entries), where a crash may lose the file but never leaves it half-written.
pub fn write_atomic_nosync(path: &Path, data: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, data, false, true)
}

/// Writes a file hipport can make again (an output tree's file, a cache entry). A path that holds
/// nothing yet is created exclusively (`O_EXCL`) and written in place: one directory update
/// instead of the two of a temporary file and a rename, and no `stat` for permissions to keep.
/// A path that holds anything is replaced atomically, keeping its permissions when `keep_mode`,
/// unless it is a regular file that already holds `data`: that one is left as it is, so that a
/// re-run does not touch the times of files it would write unchanged (a build of the output
/// tree then rebuilds only what changed). A run interrupted in the middle of a new file can leave it short; hipport never trusts such a
/// file: an output is trusted only by the stamp recorded after its write completed, and a cache
/// entry checks its own length and checksum. A failed write removes the file it created.
pub(crate) fn write_regenerable(path: &Path, data: &[u8], keep_mode: bool) -> std::io::Result<()> {
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(mut f) => f.write_all(data).inspect_err(|_| {
            let _ = fs::remove_file(path);
        }),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if same_content(path, data) {
                return Ok(());
            }
            write_atomic_with(path, data, false, keep_mode)
        }
        Err(e) => Err(e),
    }
}

fn write_atomic_with(path: &Path, data: &[u8], sync: bool, keep_mode: bool) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    // `process::id` is a system call each time; the id does not change.
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let tmp = dir.join(format!(
        ".{name}.hipport-{}-{}.tmp",
        PID.get_or_init(std::process::id),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(data)?;
        if sync {
            f.sync_all()?;
        }
        if keep_mode {
            if let Ok(meta) = fs::metadata(path) {
                fs::set_permissions(&tmp, meta.permissions())?;
            }
        }
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// A file written in pieces that appears at its path only when complete: it is written to a
/// temporary file beside the path and renamed over it by [`AtomicWriter::finish`]. Dropped
/// without `finish`, the temporary file is removed and the path is left as it was. A regular file
/// already at the path is read along as the bytes come: while they are its own, nothing is
/// written, and a file that ends up the same is left as it was (a re-run's index and output list
/// cost no write and no flush to disk).
pub struct AtomicWriter {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
    /// While every byte so far is the old file's own: that file, read along, and how many
    /// bytes matched.
    same: Option<(std::io::BufReader<fs::File>, u64)>,
    scratch: Vec<u8>,
}

impl AtomicWriter {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> std::io::Result<AtomicWriter> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.hipport-{}.tmp", std::process::id()));
        // `--patch out/x.patch` before `out/` exists: made as `--out` makes its directory.
        fs::create_dir_all(dir)?;
        let mut w = AtomicWriter {
            path: path.to_path_buf(),
            tmp,
            file: None,
            same: open_regular(path).map(|f| (std::io::BufReader::with_capacity(1 << 16, f), 0)),
            scratch: Vec::new(),
        };
        if w.same.is_none() {
            w.part()?;
        }
        Ok(w)
    }

    /// The path being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts the temporary file, with the bytes that matched the old file so far.
    fn part(&mut self) -> std::io::Result<()> {
        let matched = self.same.take().map_or(0, |(_, n)| n);
        let mut file = std::io::BufWriter::with_capacity(1 << 16, fs::File::create(&self.tmp)?);
        self.file = None;
        if matched > 0 {
            let copied = fs::File::open(&self.path)
                .and_then(|old| std::io::copy(&mut old.take(matched), &mut file));
            if let Err(e) = copied.and_then(|n| match n == matched {
                true => Ok(()),
                false => Err(std::io::Error::other(
                    "the file changed while being replaced",
                )),
            }) {
                drop(file);
                let _ = fs::remove_file(&self.tmp);
                return Err(e);
            }
        }
        self.file = Some(file);
        Ok(())
    }

    /// Flushes the data to disk and renames the file into place (a file that already held
    /// exactly these bytes is left as it was).
    pub fn finish(mut self) -> std::io::Result<()> {
        if let Some((old, _)) = &mut self.same {
            let mut one = [0u8; 1];
            if matches!(old.read(&mut one), Ok(0)) {
                return Ok(());
            }
            self.part()?;
        }
        let Some(file) = self.file.take() else {
            return Err(std::io::Error::other("nothing to finish"));
        };
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&self.tmp, &self.path)
    }
}

/// The regular file at `path`, opened to read (not through a link, and never blocking on a FIFO).
fn open_regular(path: &Path) -> Option<fs::File> {
    let mut opts = fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let f = opts.open(path).ok()?;
    f.metadata().ok()?.is_file().then_some(f)
}

impl Write for AtomicWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some((old, matched)) = &mut self.same {
            self.scratch.resize(buf.len(), 0);
            if old.read_exact(&mut self.scratch).is_ok() && self.scratch == buf {
                *matched += buf.len() as u64;
                return Ok(buf.len());
            }
            self.part()?;
        }
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("already finished")),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicWriter {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

fn io_diag(file: &str, what: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic {
        id: IO_FAILED.id.into(),
        severity: Severity::Error,
        file: file.to_string(),
        line: 1,
        column: 1,
        offset: 0,
        message: format!("cannot {what} {file}: {e}"),
        help: None,
        fix: Vec::new(),
    }
}

fn file_diag(info: &DiagInfo, file: &str, message: String) -> Diagnostic {
    Diagnostic {
        id: info.id.into(),
        severity: info.severity,
        file: file.to_string(),
        line: 1,
        column: 1,
        offset: 0,
        message,
        help: None,
        fix: Vec::new(),
    }
}

/// Shown path of a file in diagnostics: relative to the working directory when possible.
fn shown_path(path: &Path) -> String {
    path.display().to_string()
}

/// [`process`], with a panic on one file turned into a failure of that file (diagnostic
/// [`INTERNAL_ERROR`]), so that a bug hit by one input costs that file, not the run.
fn process_guarded(
    cfg: &ConvertConfig,
    builds: &BuildMemo,
    f: &FoundFile,
    keep_output: bool,
    indexed: Option<Record>,
) -> (FileOutcome, Option<Record>) {
    let run = std::panic::AssertUnwindSafe(|| process(cfg, builds, f, keep_output, indexed));
    std::panic::catch_unwind(run).unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        let shown = shown_path(&f.path());
        let mut d = file_diag(
            &INTERNAL_ERROR,
            &shown,
            format!("{shown}: hipport failed on this file ({why}); nothing was written for it"),
        );
        d.help = Some("a bug in hipport: please report it with this file".into());
        let outcome = FileOutcome {
            path: f.rel.clone(),
            renamed_to: None,
            needs: None,
            status: FileStatus::Failed,
            edits: Vec::new(),
            diagnostics: vec![d],
            parse_errors: Vec::new(),
            renames: BTreeMap::new(),
            diff: Vec::new(),
            output: None,
            source_path: f.path(),
            from_cache: false,
            read_other_files: false,
            unread: false,
            bytes: f.size,
            out_stamp: None,
        };
        (outcome, None)
    })
}

/// Translates (or copies) one file and writes its output; with the file's record in the index
/// of the last run, if any. Returns the record for the new index, if the result is cacheable.
fn process(
    cfg: &ConvertConfig,
    builds: &BuildMemo,
    f: &FoundFile,
    keep_output: bool,
    indexed: Option<Record>,
) -> (FileOutcome, Option<Record>) {
    #[cfg(test)]
    if f.rel.ends_with(tests::PANICS) {
        panic!("a file named to make the translation panic");
    }
    let path = f.path();
    let shown = shown_path(&path);
    let new_rel = cfg
        .translate
        .renamed
        .as_ref()
        .and_then(|m| m.get(&f.rel))
        .cloned();
    let out_rel = new_rel.as_deref().unwrap_or(&f.rel).to_string();
    let moved = out_rel != f.rel;
    let mut outcome = FileOutcome {
        path: f.rel.clone(),
        renamed_to: new_rel.clone(),
        needs: None,
        status: FileStatus::Copied,
        edits: Vec::new(),
        diagnostics: Vec::new(),
        parse_errors: Vec::new(),
        renames: BTreeMap::new(),
        diff: Vec::new(),
        output: None,
        source_path: path.clone(),
        from_cache: false,
        read_other_files: false,
        unread: false,
        bytes: f.size,
        out_stamp: None,
    };
    let dest = match &cfg.output {
        OutputMode::Dir(out) => Some(join_sized(out, &out_rel)),
        _ => None,
    };
    let cacheable = cfg.cache.is_some() && f.translate && cfg.mode == Mode::Translate;
    // The index vouches for the source and its output is as hipport left it: nothing to read
    // or write, the result is the head in the index.
    let facts = cfg.translate.header_facts.as_ref();
    let header_stamp = |rel: &str| facts.and_then(|h| h.stamp(rel));
    let header_present = |rel: &str| facts.is_some_and(|h| h.present(rel));
    if let Some(r) = indexed.filter(|r| {
        cacheable
            && !cfg.details
            && !keep_output
            && !moved
            && r.vouches_for(f)
            && r.headers_hold(header_stamp, header_present)
    }) {
        if let Some(head) = cache::decode_head(&r.head) {
            let output_ok = match &cfg.output {
                OutputMode::Dir(_) => output_untouched(dest.as_deref(), &head),
                OutputMode::Nothing => true,
                OutputMode::InPlace { .. } => false,
            };
            if output_ok {
                outcome.out_stamp = head.stamp;
                take_entry(&mut outcome, head);
                outcome.unread = true;
                return (outcome, Some(r));
            }
        }
    }
    let read_at = tree_index::now_ns();
    let src = match read_sized(&path, f.size) {
        Ok(s) => s,
        Err(e) => {
            outcome.status = FileStatus::Failed;
            outcome.diagnostics.push(io_diag(&shown, "read", &e));
            return (outcome, None);
        }
    };
    outcome.bytes = src.len() as u64;
    // What the project headers the file includes tell its analysis (H002's `warpSize` macros,
    // H001's segment functions): part of its result, so part of its cache key.
    let taken = cfg
        .translate
        .header_facts
        .as_ref()
        .filter(|_| f.translate && crate::buildfiles::classify(&path).is_none())
        .map(|h| h.for_file(&src, &f.rel))
        .unwrap_or_default();
    let load = || {
        cfg.translate
            .header_facts
            .as_ref()
            .map(|h| h.functions(&taken))
            .unwrap_or_default()
    };
    let included = crate::analysis::Included {
        warp_aliases: &taken.aliases,
        functions: (!taken.warp_headers.is_empty())
            .then_some(&load as &dyn Fn() -> Vec<crate::analysis::HeaderFunction>),
        defines: &taken.defines,
        qualifiers: &taken.qualifiers,
        constants: &taken.constants,
    };
    let key = cfg.cache.as_ref().filter(|_| cacheable).map(|c| {
        let k = c.key(&f.rel, &shown, f.translate, &src);
        // A source's T025 reports follow the tree: the includes missing now are in the key.
        let missing = match crate::buildfiles::classify(&path) {
            None => unresolved_includes(cfg, &src, &f.rel, &path),
            Some(_) => Vec::new(),
        };
        (
            c,
            cache::key_with_missing(cache::key_with_headers(k, &taken), &missing),
        )
    });
    let mut output: Option<Vec<u8>> = None;
    // A hit reads the entry's head first; the body (edits, diff, translated bytes) only when
    // something needs it. The output file is trusted by its stamp when it is the one this
    // entry last wrote or checked: then it is neither read nor written.
    let hit = key.and_then(|(c, k)| {
        let head = c.get(k, false)?;
        let trusted = output_untouched(dest.as_deref(), &head);
        let need_body = cfg.details
            || keep_output
            || moved
            || match &cfg.output {
                OutputMode::Dir(_) => !trusted,
                OutputMode::InPlace { .. } => head.status == FileStatus::Changed,
                OutputMode::Nothing => false,
            };
        let e = if need_body { c.get(k, true)? } else { head };
        let rebuilt = match e.from_edits {
            true => Some(apply_report_edits(&src, &e.edits)?),
            false => None,
        };
        Some((e, trusted, rebuilt))
    });
    let mut trusted = false;
    let mut out_stamp = None;
    // The entry to store once the output is written (with the output's new stamp).
    let mut store: Option<cache::Entry> = None;
    if let Some((e, t, rebuilt)) = hit {
        trusted = t;
        out_stamp = e.stamp;
        if !trusted && e.body {
            store = Some(e.clone());
        }
        output = take_entry(&mut outcome, e).or(rebuilt);
    } else {
        translate_file(
            cfg,
            builds,
            f,
            &path,
            &shown,
            (&src, included),
            &mut outcome,
            &mut output,
        );
        if key.is_some() && matches!(outcome.status, FileStatus::Changed | FileStatus::Unchanged) {
            // Translated bytes that the edits rebuild from the source are not stored twice.
            let changed = output.as_ref().filter(|o| **o != src);
            let from_edits =
                changed.is_some() && apply_report_edits(&src, &outcome.edits).as_ref() == changed;
            store = Some(cache::Entry {
                status: outcome.status,
                edits: outcome.edits.clone(),
                diagnostics: outcome.diagnostics.clone(),
                parse_errors: outcome.parse_errors.clone(),
                renames: outcome.renames.clone(),
                output: changed.filter(|_| !from_edits).cloned(),
                from_edits,
                body: true,
                stamp: None,
            });
        }
    }
    let new = output.as_deref().unwrap_or(&src);
    if moved {
        outcome.diff = patch::file_diff_renamed(&f.rel, &out_rel, &src, new);
    } else if cfg.details {
        outcome.diff = file_diff(&f.rel, &src, new, &outcome.edits);
    }
    let write = match (&cfg.output, &dest) {
        (OutputMode::Dir(_), Some(dest)) => {
            if trusted {
                Ok(())
            } else {
                write_output(dest, new).map_err(|e| (dest.display().to_string(), e))
            }
        }
        (OutputMode::InPlace { backup }, _) if outcome.status == FileStatus::Changed || moved => {
            let r = (|| {
                if *backup {
                    let mut b = path.clone().into_os_string();
                    b.push(".prehip");
                    write_atomic(Path::new(&b), &src)?;
                }
                if moved {
                    let dest = root_dir_of(&path, &f.rel).join(&out_rel);
                    if let Some(p) = dest.parent() {
                        fs::create_dir_all(p)?;
                    }
                    write_atomic(&dest, new)?;
                    fs::remove_file(&path)
                } else {
                    write_atomic(&path, new)
                }
            })();
            r.map_err(|e| (shown.clone(), e))
        }
        _ => Ok(()),
    };
    match write {
        Err((path, e)) => {
            outcome.status = FileStatus::Failed;
            outcome.diagnostics.push(io_diag(&path, "write", &e));
        }
        Ok(()) => {
            // Stamps serve the cache and the run index alone.
            if !trusted && key.is_some() {
                out_stamp = dest.as_deref().and_then(cache::Stamp::of);
            }
            outcome.out_stamp = out_stamp.filter(|_| dest.is_some());
            if let (Some((c, k)), Some(mut e), false) = (key, store, outcome.read_other_files) {
                e.stamp = out_stamp;
                if !outcome.from_cache || e.stamp.is_some() {
                    c.put(k, &e);
                }
            }
        }
    }
    // What the next run's index holds for this source.
    // The headers the result took facts from, each with its stamp (none: not indexed). A result
    // that took what the whole tree defines (a file's own switches) is not indexed: the index
    // would vouch for it without reading the other files again.
    let headers: Option<Vec<(String, cache::Stamp)>> = taken
        .headers
        .into_iter()
        .map(|(rel, stamp)| Some((rel, stamp?)))
        .collect::<Option<Vec<_>>>()
        .filter(|_| !taken.tree_wide);
    let record = match (key, f.stamp, headers) {
        (Some((_, k)), Some(stamp), Some(headers))
            if matches!(outcome.status, FileStatus::Changed | FileStatus::Unchanged)
                && !outcome.read_other_files =>
        {
            Some(Record {
                rel: f.rel.clone(),
                translate: f.translate,
                stamp,
                read_at,
                key: k,
                head: cache::encode_head(
                    outcome.status,
                    &outcome.diagnostics,
                    &outcome.parse_errors,
                    &outcome.renames,
                    out_stamp.as_ref(),
                ),
                headers,
                absent: taken.absent,
            })
        }
        _ => None,
    };
    if keep_output {
        outcome.output = Some(new.to_vec());
    }
    (outcome, record)
}

/// Whether the output file at `dest` is the one `entry` last wrote or checked (its stamp).
fn output_untouched(dest: Option<&Path>, entry: &cache::Entry) -> bool {
    entry.stamp.is_some() && dest.and_then(cache::Stamp::of) == entry.stamp
}

/// Fills `outcome` from a cache entry (or its head alone); returns the translated bytes.
fn take_entry(outcome: &mut FileOutcome, e: cache::Entry) -> Option<Vec<u8>> {
    outcome.status = e.status;
    outcome.edits = e.edits;
    outcome.diagnostics = e.diagnostics;
    outcome.parse_errors = e.parse_errors;
    outcome.renames = e.renames;
    outcome.from_cache = true;
    e.output
}

/// Writes one output file (see [`write_regenerable`]), creating its directory. Each worker remembers the last
/// directory it created, so a tree's files skip the `mkdir` and `stat` of `create_dir_all`; if the
/// directory has gone since, the write fails with `NotFound` and is retried after creating it.
fn write_output(dest: &Path, data: &[u8]) -> std::io::Result<()> {
    thread_local! {
        static LAST_DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
    }
    let Some(dir) = dest.parent() else {
        return write_regenerable(dest, data, true);
    };
    let known = LAST_DIR.with(|d| d.borrow().as_deref() == Some(dir));
    if known {
        match write_regenerable(dest, data, true) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            r => return r,
        }
    }
    fs::create_dir_all(dir)?;
    LAST_DIR.with(|d| *d.borrow_mut() = Some(dir.to_path_buf()));
    write_regenerable(dest, data, true)
}

/// Whether the file at `path` holds exactly `data`: one `open`, one `read` of one byte more than
/// `data` and one `close` when it does (the read of a regular file is short only at its end; a
/// longer file is not read whole). Opened non-blocking, so a FIFO in its place cannot hang the
/// run, and without following a symbolic link, which is never the same as a file of its own.
fn same_content(path: &Path, data: &[u8]) -> bool {
    let Some(mut f) = open_regular(path) else {
        return false;
    };
    read_whole(&mut f, data.len(), data.len() as u64 + 1, false).is_ok_and(|buf| buf == data)
}

/// Reads a file whose size discovery saw (a hint: the whole file is read whatever its size),
/// without the `stat` that `fs::read` makes for its buffer size, and in one `read` when the file
/// still has that size.
fn read_sized(path: &Path, size: u64) -> std::io::Result<Vec<u8>> {
    let mut f = fs::File::open(path)?;
    read_whole(
        &mut f,
        usize::try_from(size).unwrap_or(usize::MAX - 1),
        u64::MAX,
        false,
    )
}

/// Reads at most `limit` bytes of `f`, expecting `expected`: one `read` of `expected + 1` bytes
/// suffices when it returns exactly `expected` (a regular file's read is short only at its end),
/// or when it returns less and `short_is_end` (for data that checks its own length, such as cache
/// entries); otherwise reading goes on to the end. No `stat`, no `lseek`.
pub(crate) fn read_whole(
    f: &mut fs::File,
    expected: usize,
    limit: u64,
    short_is_end: bool,
) -> std::io::Result<Vec<u8>> {
    // The first buffer is capped (a size hint is not a promise); the rest grows as it is read.
    let want = expected
        .saturating_add(1)
        .min(usize::try_from(limit).unwrap_or(usize::MAX))
        .min(1 << 28);
    let mut buf = vec![0u8; want];
    let n = loop {
        match f.read(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r?,
        }
    };
    buf.truncate(n);
    if n == expected || (short_is_end && n < want) || n as u64 >= limit {
        return Ok(buf);
    }
    // Through `Take`: `File::read_to_end` would `stat` and `lseek` for its own size hint.
    f.take(limit - n as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Translates (or analyses) one file's bytes (with what the project headers it includes tell
/// its analysis) into `outcome` and `output`, with its diff.
#[allow(clippy::too_many_arguments)]
fn translate_file(
    cfg: &ConvertConfig,
    builds: &BuildMemo,
    f: &FoundFile,
    path: &Path,
    shown: &str,
    (src, included): (&[u8], crate::analysis::Included),
    outcome: &mut FileOutcome,
    output: &mut Option<Vec<u8>>,
) {
    if let Some(kind) = crate::buildfiles::classify(path) {
        let (mut edits, diags) = builds.translate(cfg, kind, src, f);
        // What the tree's sources hold (Thrust or CUB for the C++ standard, the warp-sync
        // builtins for setup.py's define) is no part of this file's cache key.
        outcome.read_other_files = crate::buildfiles::may_name_old_standard(src)
            || crate::buildfiles::may_drop_libraries(src)
            || matches!(
                kind,
                crate::buildfiles::BuildKind::SetupPy
                    | crate::buildfiles::BuildKind::Python
                    | crate::buildfiles::BuildKind::CMake
                    | crate::buildfiles::BuildKind::Makefile
                    | crate::buildfiles::BuildKind::Shell
            ) && cfg.build.warp_sync_define;
        if cfg.mode == Mode::Header {
            // Header mode keeps the tree building for CUDA: build files are copied as they
            // are. Those translate mode would change get the note (the run keeps the first).
            outcome.status = FileStatus::Copied;
            // A shell script is a build file only where it runs nvcc (R44-d).
            if (kind.is_build_file() && kind != crate::buildfiles::BuildKind::Shell)
                || !edits.is_empty()
            {
                outcome
                    .diagnostics
                    .push(crate::header_mode::build_files_kept(shown));
            }
            *output = Some(src.to_vec());
        } else {
            outcome.diagnostics.extend(diags.into_iter().map(|mut d| {
                d.file = shown.to_string();
                d
            }));
            let build_edits = edits.len();
            // The CUDA in `load_inline` strings, translated like a source; its edits never
            // touch what the build-file pass rewrote (flag lists), checked all the same.
            let mut inline =
                crate::buildfiles::translate_inline_sources(src, shown, &cfg.translate);
            crate::buildfiles::settle_warp_sync_help(&mut inline.diagnostics, &outcome.diagnostics);
            // Against the build edits alone, by bisection (a file of thousands of strings).
            edits.sort_by_key(|b| (b.start, b.end));
            let build_ends: Vec<usize> = edits
                .iter()
                .scan(0, |end, b| {
                    *end = b.end.max(*end);
                    Some(*end)
                })
                .collect();
            let overlaps_build = |e: &crate::edit::Edit| {
                // The build edits that start before `e` ends, and the furthest end among them.
                let k = edits.partition_point(|b| b.start < e.end);
                k > 0 && build_ends[k - 1] > e.start
            };
            let keep: Vec<crate::edit::Edit> = inline
                .edits
                .into_iter()
                .filter(|e| !overlaps_build(e))
                .collect();
            edits.extend(keep);
            outcome.diagnostics.extend(inline.diagnostics);
            outcome.diagnostics.sort_by_key(|d| d.offset);
            for (family, n) in inline.renames {
                *outcome.renames.entry(family).or_default() += n;
            }
            match crate::edit::apply(src, &mut edits) {
                Ok(out) => {
                    outcome.status = if out != src {
                        FileStatus::Changed
                    } else if kind.is_build_file() {
                        FileStatus::Unchanged
                    } else {
                        // Other Python code is copied as it is when none of its nvcc flags change.
                        FileStatus::Copied
                    };
                    outcome.edits = report_edits(src, &edits);
                    if build_edits > 0 {
                        *outcome.renames.entry("build".into()).or_default() += build_edits;
                    }
                    *output = Some(out);
                }
                Err(e) => {
                    outcome.status = FileStatus::Failed;
                    outcome
                        .diagnostics
                        .push(file_diag(&IO_FAILED, shown, format!("{shown}: {e}")));
                }
            }
        }
    } else if f.translate && crate::header_mode::is_generated(src) {
        // hipport's own compatibility header: never translated, reported on or counted as
        // a source; copied as it is.
        outcome.status = FileStatus::Copied;
    } else if f.translate {
        let head = &src[..src.len().min(8192)];
        if head.contains(&0) {
            outcome.status = FileStatus::Skipped;
            outcome.diagnostics.push(file_diag(
                &BINARY_SKIPPED,
                shown,
                format!("{shown} looks binary (it contains NUL bytes); copied without translation"),
            ));
        } else {
            let r = translate::translate_source_with_headers(
                src,
                shown,
                &f.rel,
                &cfg.translate,
                included,
            );
            match r {
                Ok(mut r) => {
                    if cfg.mode == Mode::Header {
                        let root = root_dir_of(&f.path(), &f.rel);
                        let header = crate::header_mode::package_header(&f.rel, |d| {
                            root.join(d).join("__init__.py").is_file()
                        });
                        let single = crate::header_mode::single_source_at(
                            src,
                            &f.rel,
                            &header,
                            &r,
                            &cfg.translate,
                        );
                        let mut edits = single.edits;
                        // What the summary counts is what was done to the file: header mode
                        // renames nothing in it.
                        r.renames = single.counts;
                        match crate::edit::apply(src, &mut edits) {
                            Ok(out) => {
                                r.output = out;
                                r.edits = edits;
                            }
                            Err(e) => {
                                outcome.diagnostics.push(file_diag(
                                    &IO_FAILED,
                                    shown,
                                    format!("{shown}: {e}"),
                                ));
                                r.output = src.to_vec();
                                r.edits.clear();
                                r.renames.clear();
                            }
                        }
                        crate::header_mode::adjust_diagnostics(&mut r.diagnostics);
                        outcome.needs = Some(single.needs);
                    }
                    outcome.status = if r.output == src {
                        FileStatus::Unchanged
                    } else {
                        FileStatus::Changed
                    };
                    outcome.edits = report_edits(src, &r.edits);
                    outcome.diagnostics.append(&mut r.diagnostics);
                    // The includes missing are part of the cache key (`key_with_missing`).
                    let missing = missing_includes(cfg, src, shown, &f.rel, &f.path());
                    if !missing.is_empty() {
                        outcome.diagnostics.extend(missing);
                        outcome.diagnostics.sort_by_key(|d| d.offset);
                    }
                    outcome.parse_errors = r.parse_errors;
                    outcome.renames = r.renames;
                    outcome.read_other_files |= r.read_other_files;
                    *output = Some(r.output);
                }
                Err(TranslateError::Parse { source, .. }) => {
                    outcome.status = FileStatus::Skipped;
                    let mut d = file_diag(&PARSE_TIMEOUT, shown, format!("{shown}: {source}"));
                    d.help = Some(
                        "raise the budget with --parse-timeout SECONDS, or split the file".into(),
                    );
                    outcome.diagnostics.push(d);
                }
                Err(e @ TranslateError::Overlap { .. }) => {
                    outcome.status = FileStatus::Failed;
                    outcome
                        .diagnostics
                        .push(file_diag(&IO_FAILED, shown, e.to_string()));
                }
            }
        }
    }
    // R41-c: a Cargo build script that compiles CUDA is copied; one warning says so.
    outcome
        .diagnostics
        .extend(crate::buildfiles::cargo_build_script(
            &f.rel,
            src,
            shown,
            &cfg.build.offload_arch,
        ));
    if path.extension().is_some_and(|e| e == "py") {
        outcome
            .diagnostics
            .extend(crate::analysis::analyze_python(src, shown));
        crate::analysis::apply_suppressions_in(src, shown, &mut outcome.diagnostics);
    }
}

/// The includes of `src` (the file at `rel`, on disk at `path`) that find no file in the tree,
/// on any branch: the cheap part of [`missing_includes`], no parse.
fn unresolved_includes(
    cfg: &ConvertConfig,
    src: &[u8],
    rel: &str,
    path: &Path,
) -> Vec<crate::includes::MissingInclude> {
    let opts = &cfg.translate;
    let db = opts.db();
    let known = |inner: &str| db.header_for(inner, &opts.libs).is_some();
    let root = root_dir_of(path, rel);
    crate::includes::missing_includes(src, rel, &root, opts.include_search.as_deref(), known)
}

/// Reports ([`MISSING_INCLUDE`]) the includes of `src` that find no file in the tree (see
/// [`crate::includes::missing_includes`]) on the branches hipcc compiles: the file is parsed
/// again only where there is one, to tell the branches (`#ifdef __HIP_PLATFORM_AMD__`).
/// `<helper_cuda.h>` and the other cuda-samples helpers written with `<...>` make one note.
fn missing_includes(
    cfg: &ConvertConfig,
    src: &[u8],
    shown: &str,
    rel: &str,
    path: &Path,
) -> Vec<Diagnostic> {
    let opts = &cfg.translate;
    let mut missing = unresolved_includes(cfg, src, rel, path);
    if missing.is_empty() {
        return Vec::new();
    }
    if let Ok(tree) = crate::parse::parse(src, opts.parse_budget) {
        let view =
            crate::analysis::HipccView::new(src, tree.root_node(), &opts.defines, opts.hip_version);
        missing.retain(|m| view.skips(src, tree.root_node(), m.at).is_none());
    }
    let index = crate::diag::LineIndex::new(src);
    let samples = |inner: &str| {
        let name = inner.rsplit(['/', '\\']).next().unwrap_or(inner);
        crate::includes::CUDA_SAMPLES_HELPERS.contains(&name)
    };
    const SAMPLES_HELP: &str = "this is cuda-samples' `Common/` helper, written against the CUDA runtime (`checkCudaErrors`, `findCudaDevice`, CUDA error enums, an SM-version table): convert the samples' `Common/` directory with hipport along with the sample and put it on the include path";
    let mut out = Vec::new();
    let helpers: Vec<&str> = missing
        .iter()
        .filter(|m| m.angle && samples(&m.inner))
        .map(|m| m.inner.as_str())
        .collect();
    if let Some(first) = missing.iter().find(|m| m.angle && samples(&m.inner)) {
        let list = helpers
            .iter()
            .map(|h| format!("`<{h}>`"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut help = crate::includes::samples_helpers_without_cuda_help(&helpers)
            .unwrap_or_else(|| SAMPLES_HELP.to_string());
        // helper_cuda.h's table of cores per SM, keyed by NVIDIA's compute capability: AMD
        // devices report their gfx version as major/minor instead (R18-b).
        if crate::lexer::whole_words(src, "_ConvertSMVer2Cores")
            .next()
            .is_some()
        {
            help.push_str("; and `_ConvertSMVer2Cores(major, minor)`, which this file calls, looks up NVIDIA's SM versions, which an AMD device's `major`/`minor` (its gfx version) are not: size what it sizes from `multiProcessorCount` alone, or keep a table of AMD targets");
        }
        let mut d = Diagnostic::at(
            &MISSING_INCLUDE,
            shown,
            &index,
            first.at,
            format!("{list} is not in the input: cuda-samples' `Common/` headers, which hipport did not convert"),
            Some(help),
        );
        d.severity = Severity::Note;
        out.push(d);
    }
    for m in missing.iter().filter(|m| !(m.angle && samples(&m.inner))) {
        let inner = &m.inner;
        let (message, help) = if let Some(source) = &m.hipify_source {
            let written = opts
                .renamed
                .as_ref()
                .and_then(|r| r.get(source))
                .unwrap_or(source);
            (
                if written == source {
                    format!("`{inner}` is not in the input: the include expects hipify's output file names, and hipport writes its HIP form of `{source}` under that file's own name")
                } else {
                    format!("`{inner}` is not in the input: the include expects hipify's output file names, and hipport writes its HIP form of `{source}` as `{written}`")
                },
                format!("include `{}` here (hipport's output of it is HIP code), or run hipify to make `{inner}`", crate::includes::rewritten(&inner.replace('\\', "/"), written)),
            )
        } else if let Some(script) = &m.generator {
            (
                format!("`{inner}` is not in the input: `{script}` names it, so it is generated at build time, and hipport did not convert it"),
                format!("the CUDA that `{script}` writes must be ported too: run it and convert its output with hipport, or port the code it generates"),
            )
        } else if let Some(help) = samples(inner)
            .then(|| crate::includes::samples_helpers_without_cuda_help(&[inner]))
            .flatten()
        {
            // No CUDA in it: the build needs the file, not a conversion (R46-2).
            let mut d = Diagnostic::at(
                &MISSING_INCLUDE,
                shown,
                &index,
                m.at,
                format!("`{inner}` is not in the input: a cuda-samples `Common/` helper"),
                Some(help),
            );
            d.severity = Severity::Note;
            out.push(d);
            continue;
        } else if samples(inner) {
            (
                format!("`{inner}` is not in the input, so hipport did not convert it"),
                SAMPLES_HELP.to_string(),
            )
        } else {
            (
                format!("`{inner}` is not in the input, so hipport did not convert it, and the output may not compile"),
                "add the directory that holds it to the input (or, where the build makes it, convert it once it is made)".to_string(),
            )
        };
        out.push(Diagnostic::at(
            &MISSING_INCLUDE,
            shown,
            &index,
            m.at,
            message,
            Some(help),
        ));
    }
    out
}

/// The unified diff of one file from its edits (only runs that show or save diffs make one).
fn file_diff(rel: &str, src: &[u8], new: &[u8], edits: &[ReportEdit]) -> Vec<u8> {
    if new == src {
        return Vec::new();
    }
    let edits: Vec<(usize, usize, &[u8])> = edits
        .iter()
        .map(|e| (e.start, e.end, e.new.as_bytes()))
        .collect();
    patch::edits_diff(rel, src, &edits)
}

/// `src` with report edits applied (`None` if they overlap).
fn apply_report_edits(src: &[u8], edits: &[ReportEdit]) -> Option<Vec<u8>> {
    let mut edits: Vec<Edit> = edits
        .iter()
        .map(|e| Edit::replace(e.start, e.end, e.new.as_str(), e.rule.as_str()))
        .collect();
    crate::edit::apply(src, &mut edits).ok()
}

/// Edits as shown in reports, with the text they replace.
fn report_edits(src: &[u8], edits: &[Edit]) -> Vec<ReportEdit> {
    edits
        .iter()
        .map(|e| ReportEdit {
            start: e.start,
            end: e.end,
            old: String::from_utf8_lossy(&src[e.start..e.end]).into_owned(),
            new: e.text.clone(),
            rule: e.rule.clone(),
        })
        .collect()
}

/// Writes the single-source compatibility header for everything the files need at `rel`
/// (relative to the root: the root's, or a Python package's, see
/// [`crate::header_mode::package_header`]). It is changed (and written, in place) only when it
/// differs from the one in the input tree; a file of that name that hipport did not generate is
/// never overwritten. One inside a Python package gets a warning: a setup.py that ships the
/// package's sources as `package_data` must list it too, and header mode leaves build files as
/// they are.
fn write_compat_header(
    cfg: &ConvertConfig,
    root: &Path,
    needs: &crate::header_mode::Needs,
    rel: &str,
) -> FileOutcome {
    use crate::header_mode::{compat_header, is_generated, BUILD_FILES_KEPT, COMPAT_HEADER};
    let text = compat_header(needs, cfg.translate.db(), cfg.translate.hip_version).into_bytes();
    let at_root = root.join(rel);
    let existing = fs::read(&at_root).ok();
    let dest = match &cfg.output {
        OutputMode::Dir(out) => Some(out.join(rel)),
        OutputMode::InPlace { .. } => Some(at_root.clone()),
        OutputMode::Nothing => None,
    };
    let mut outcome = FileOutcome {
        path: rel.to_string(),
        renamed_to: None,
        status: FileStatus::Changed,
        edits: Vec::new(),
        diagnostics: Vec::new(),
        parse_errors: Vec::new(),
        renames: BTreeMap::new(),
        diff: Vec::new(),
        output: None,
        source_path: dest.clone().unwrap_or_else(|| at_root.clone()),
        needs: None,
        from_cache: false,
        read_other_files: false,
        unread: false,
        bytes: 0,
        out_stamp: None,
    };
    match &existing {
        Some(old) if !is_generated(old) => {
            outcome.status = FileStatus::Failed;
            let shown = at_root.display().to_string();
            let mut d = file_diag(
                &IO_FAILED,
                &shown,
                format!("{shown} is not a header hipport generated (its first line is not hipport's), so it is not overwritten, and the tree has no compatibility header"),
            );
            d.help = Some(format!(
                "rename or move the file, then run again: header mode writes its own {COMPAT_HEADER} there"
            ));
            outcome.diagnostics.push(d);
            return outcome;
        }
        Some(old) if *old == text => outcome.status = FileStatus::Unchanged,
        Some(old) => outcome.diff = patch::file_diff(rel, old, &text),
        None => outcome.diff = patch::new_file_diff(rel, &text),
    }
    if let Some((package, _)) = rel.rsplit_once('/').filter(|(p, _)| !ships_header(root, p)) {
        let shown = dest.as_deref().unwrap_or(&at_root).display().to_string();
        let mut d = file_diag(
            &BUILD_FILES_KEPT,
            &shown,
            format!("{COMPAT_HEADER} is written in the Python package `{package}`, whose sources include it: an installed package has it only if the build ships it, and a setup.py `package_data` list of the sources must name it too (build files are copied unchanged)"),
        );
        d.severity = Severity::Warning;
        d.help = Some(format!(
            "add \"{}\" to the package's package_data (the path is relative to the package), or ship it with include_package_data and MANIFEST.in",
            COMPAT_HEADER
        ));
        outcome.diagnostics.push(d);
    }
    let write = match (&cfg.output, dest) {
        (OutputMode::Dir(_), Some(dest)) => Some(dest),
        (OutputMode::InPlace { .. }, Some(dest)) if outcome.status == FileStatus::Changed => {
            Some(dest)
        }
        _ => None,
    };
    if let Some(dest) = write {
        if let Err(e) = write_atomic(&dest, &text) {
            outcome.status = FileStatus::Failed;
            outcome
                .diagnostics
                .push(io_diag(&dest.display().to_string(), "write", &e));
        }
    }
    outcome
}

/// Whether a packaging file above the Python package at `package` (its `setup.py`,
/// `setup.cfg`, `pyproject.toml` or `MANIFEST.in`, up to the root) names the compatibility
/// header, so that the installed package has it.
fn ships_header(root: &Path, package: &str) -> bool {
    let mut dir = Some(package);
    while let Some(d) = dir {
        let d = d.rsplit_once('/').map(|(p, _)| p);
        let at = d.map_or_else(|| root.to_path_buf(), |d| root.join(d));
        for name in ["setup.py", "setup.cfg", "pyproject.toml", "MANIFEST.in"] {
            if fs::read(at.join(name)).is_ok_and(|t| {
                memchr::memmem::find(&t, crate::header_mode::COMPAT_HEADER.as_bytes()).is_some()
            }) {
                return true;
            }
        }
        dir = d;
    }
    false
}

/// The input root a file at `path` with relative path `rel` lives under.
fn root_dir_of(path: &Path, rel: &str) -> PathBuf {
    let mut root = path.to_path_buf();
    for _ in rel.split('/') {
        root.pop();
    }
    root
}

/// The new relative path of each file under a rename mode; files that keep their name are absent.
/// The new names of the files `--rename` renames, and the clashes it settled: (file, the name
/// it would have had, the file that has that name).
pub fn compute_renames(cfg: &ConvertConfig, found: &[Box<FoundFile>]) -> Renames {
    let mut out = BTreeMap::new();
    // Per renamed file, the name it gets without the torch stem rule (`None`: the same).
    let mut plain: BTreeMap<String, String> = BTreeMap::new();
    if cfg.rename == RenameMode::None {
        return (out, Vec::new());
    }
    let changed: Vec<bool> = if cfg.rename == RenameMode::Torch {
        let mut quick = cfg.translate.clone();
        quick.analyze = false;
        found
            .iter()
            .map(|f| {
                f.translate
                    && fs::read(f.path()).is_ok_and(|src| {
                        !src[..src.len().min(8192)].contains(&0)
                            && translate::translate_source(&src, &f.rel, &quick)
                                .is_ok_and(|r| r.output != src)
                    })
            })
            .collect()
    } else {
        vec![false; found.len()]
    };
    let packages = python_package_dirs(found);
    for (f, changed) in found.iter().zip(changed) {
        let mut parts: Vec<String> = f.rel.split('/').map(str::to_string).collect();
        let n = parts.len();
        let mut moved = false;
        if cfg.rename == RenameMode::Torch {
            // A `cuda` directory becomes `hip`; one that is a Python package keeps its name:
            // `import pkg.cuda`. (PyTorch's hipify spells `cuda` as `hip` anywhere in a
            // directory path, `cuda_ops/` too; here only a directory named `cuda` moves, since
            // the build files that enter a directory by name, `add_subdirectory(cuda_ops)` and
            // `$(MAKE) -C cuda_ops`, are not followed: verify8.)
            let root = root_dir_of(&f.path(), &f.rel);
            for (i, p) in parts.iter_mut().enumerate().take(n - 1) {
                if p == "cuda" {
                    let dir = f.rel.split('/').take(i + 1).collect::<Vec<_>>().join("/");
                    if !packages.contains(&dir) && !root.join(&dir).join("__init__.py").is_file() {
                        *p = "hip".into();
                        moved = true;
                    }
                }
            }
        }
        let name = &parts[n - 1];
        let (stem, ext) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
        // PyTorch's hipify (`get_hip_file_path` of torch/utils/hipify/hipify_python.py, for
        // extensions) spells `cuda` and `CUDA` in a file's stem `hip` and `HIP`
        // (`corr_cuda_kernel.cu` -> `corr_hip_kernel.hip`), for every file it writes: a `.cu`,
        // one whose content changed, one whose directory moved (R20-c).
        let torch_stem =
            (cfg.rename == RenameMode::Torch && f.translate && (ext == "cu" || changed || moved))
                .then(|| stem.replace("cuda", "hip").replace("CUDA", "HIP"))
                .filter(|s| s != stem);
        // The `_hip` name a changed file gets where its directory does not move.
        let hip_suffixed = (cfg.rename == RenameMode::Torch
            && changed
            && !matches!(ext, "cu" | "cuh")
            && !stem.ends_with("_hip")
            && f.translate)
            .then(|| format!("{stem}_hip.{ext}"));
        let new_name = match (&torch_stem, ext) {
            (Some(s), "cu") => format!("{s}.hip"),
            (Some(s), "") => s.clone(),
            (Some(s), ext) => format!("{s}.{ext}"),
            (None, "cu") => format!("{stem}.hip"),
            // A name hipify leaves as it is, in a directory that did not move, gets `_hip`,
            // unless it is a `.cuh` (R20-c: hipify adds it only where nothing else changed).
            (None, _) if !moved && hip_suffixed.is_some() => {
                hip_suffixed.clone().unwrap_or_default()
            }
            (None, _) => name.clone(),
        };
        if let (None, true, Some(suffixed)) = (&torch_stem, moved, &hip_suffixed) {
            // Moved into a directory that already has a file of its name (a hand-written
            // `hip/utils.h` beside `cuda/utils.h`), it takes the `_hip` name there rather than
            // staying behind, where its includers, moved, would find the other file (verify8).
            let mut p = parts.clone();
            p[n - 1] = suffixed.clone();
            plain.insert(f.rel.clone(), p.join("/"));
        } else if torch_stem.is_some() {
            let plain_name = match ext {
                "cu" => format!("{stem}.hip"),
                _ => name.clone(),
            };
            let mut p = parts.clone();
            p[n - 1] = plain_name;
            plain.insert(f.rel.clone(), p.join("/"));
        }
        parts[n - 1] = new_name;
        let new_rel = parts.join("/");
        if new_rel != f.rel {
            out.insert(f.rel.clone(), new_rel);
        }
    }
    let clashes = settle_rename_clashes(found, &mut out, &plain);
    (out, clashes)
}

/// New names and settled clashes (see [`compute_renames`]).
pub type Renames = (BTreeMap<String, String>, Vec<(String, String, String)>);

/// Two files must not get one name (`a_cuda.cu` and `a_hip.cu` both `a_hip.hip` by the torch
/// stem rule; `src/cuda/x.cu` and `src/hip/x.cu` both `src/hip/x.hip`): one would overwrite the
/// other. A file that keeps its own name keeps it; of renamed files, one renamed without the
/// stem rule comes before one renamed with it, and then the first in the tree's order keeps the
/// name; each other one takes the name it has without the stem rule, or else its own. Returns (file, the name it would have had, the file that has it).
fn settle_rename_clashes(
    found: &[Box<FoundFile>],
    renamed: &mut BTreeMap<String, String>,
    plain: &BTreeMap<String, String>,
) -> Vec<(String, String, String)> {
    let mut clashes = Vec::new();
    // Each pass moves at least one renamed file back a step (to its plain name, then to its
    // own), so the passes end.
    for _ in 0..=2 * found.len() {
        let mut holder: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        let mut clash = None;
        // Files keeping their names first: they hold their names whatever comes later; then
        // files renamed without the stem rule (`a_hip.cu` is `a_hip.hip` before `a_cuda.cu` is).
        let tier = |f: &&FoundFile| match renamed.get(&f.rel) {
            None => 0,
            Some(to) if plain.get(&f.rel).is_some_and(|p| p != to) => 2,
            Some(_) => 1,
        };
        let mut order: Vec<&FoundFile> = found.iter().map(|f| &**f).collect();
        order.sort_by_key(tier);
        for f in order {
            let to = renamed.get(&f.rel).map_or(f.rel.as_str(), String::as_str);
            if let Some(&first) = holder.get(to) {
                clash = Some((f.rel.clone(), to.to_string(), first.to_string()));
                break;
            }
            holder.insert(to, &f.rel);
        }
        let Some((rel, to, first)) = clash else {
            break;
        };
        match plain.get(&rel).filter(|p| **p != to) {
            Some(p) if *p != rel => {
                renamed.insert(rel.clone(), p.clone());
            }
            _ => {
                renamed.remove(&rel);
            }
        }
        if !clashes
            .iter()
            .any(|(r, _, _): &(String, String, String)| *r == rel)
        {
            clashes.push((rel, to, first));
        }
    }
    clashes
}

/// The directories of the tree that are Python packages or hold Python modules: those of its
/// `.py` files and those its setup.py files name in `packages=` (a package whose `__init__.py`
/// the run leaves out is found on disk by [`compute_renames`]).
fn python_package_dirs(found: &[Box<FoundFile>]) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for f in found.iter().filter(|f| f.rel.ends_with(".py")) {
        if let Some((dir, _)) = f.rel.rsplit_once('/') {
            out.insert(dir.to_string());
        }
        if f.rel.rsplit('/').next() == Some("setup.py") {
            if let Ok(src) = fs::read(f.path()) {
                out.extend(crate::buildfiles::python_package_dirs(&src, &f.rel));
            }
        }
    }
    out
}

/// The Python modules that the tree's builds import (see [`crate::buildfiles::python_helpers`]).
fn python_helpers(found: &[Box<FoundFile>]) -> BTreeMap<String, String> {
    let py: std::collections::HashMap<&str, &FoundFile> = found
        .iter()
        .filter(|f| f.rel.ends_with(".py"))
        .map(|f| (f.rel.as_str(), &**f))
        .collect();
    let rels: Vec<&str> = found
        .iter()
        .map(|f| f.rel.as_str())
        .filter(|r| py.contains_key(r))
        .collect();
    let mut read = |rel: &str| fs::read(py.get(rel)?.path()).ok();
    crate::buildfiles::python_helpers(&rels, &mut read)
}

/// The directories the renames move whole (see [`crate::buildfiles::moved_dirs`]), judged on the
/// tree the run leaves: with `--out`, the listed files under their new names; otherwise (in
/// place, or a patch for the original tree) also the files on disk that the run does not list
/// (ignored or excluded ones), which stay where they are.
fn moved_dirs(
    cfg: &ConvertConfig,
    root: &Path,
    found: &[Box<FoundFile>],
    renamed: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let after = || {
        found
            .iter()
            .map(|f| renamed.get(&f.rel).map_or(f.rel.as_str(), String::as_str))
    };
    let moved = crate::buildfiles::moved_dirs(renamed, after());
    if moved.is_empty() || matches!(cfg.output, OutputMode::Dir(_)) {
        return moved;
    }
    let listed: std::collections::HashSet<&str> = found.iter().map(|f| f.rel.as_str()).collect();
    let mut left: Vec<String> = Vec::new();
    for dir in moved.keys() {
        let mut pending = vec![root.join(dir)];
        while let Some(d) = pending.pop() {
            let Ok(entries) = fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    pending.push(p);
                } else if let Ok(rel) = p.strip_prefix(root) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    if !listed.contains(rel.as_str()) {
                        left.push(rel);
                    }
                }
            }
        }
    }
    crate::buildfiles::moved_dirs(renamed, after().chain(left.iter().map(String::as_str)))
}

/// The tree's build files that can be read, with their kind and text (one that cannot be read
/// is reported when it is processed).
fn readable_build_files(
    found: &[Box<FoundFile>],
) -> impl Iterator<Item = (&FoundFile, crate::buildfiles::BuildKind, Vec<u8>)> {
    found.iter().filter_map(|f| {
        let path = f.path();
        let kind = crate::buildfiles::classify(&path)?;
        let src = fs::read(&path).ok()?;
        Some((&**f, kind, src))
    })
}

/// Where includes that may reach renamed files are looked up (see [`crate::includes`]): the
/// include directories the tree's build files name, in discovery order, and the tree's files.
/// A build file that cannot be read names none here (its error is reported when it is
/// processed).
fn include_search(found: &[Box<FoundFile>]) -> crate::includes::IncludeSearch {
    let mut dirs: Vec<String> = Vec::new();
    for (f, kind, src) in readable_build_files(found) {
        for d in crate::buildfiles::include_dirs(kind, &src, &f.rel) {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    crate::includes::IncludeSearch::new(dirs, found.iter().map(|f| f.rel.as_str()))
}

/// The macros the HIP build of `inputs` defines that hipport can tell from the project, each with
/// the file that shows it (for all inputs, or none: a run applies one set): a
/// `setup.py` that builds with PyTorch's `torch.utils.cpp_extension` (in an input directory, the
/// directory of an input file, or up to three directories above, stopping at a repository's
/// root) means `USE_ROCM`, which that module passes to hipcc for every source, and the macros
/// it adds to `define_macros` only for ROCm builds of PyTorch.
pub fn project_defines(inputs: &[PathBuf]) -> Vec<(crate::analysis::Define, PathBuf)> {
    let torch_setup = crate::buildfiles::torch_build_file;
    // Every input must be built by such a setup.py: the run applies one set of macros to all.
    let setups: Vec<Option<PathBuf>> = inputs
        .iter()
        .map(|input| {
            let start = if input.is_dir() {
                Some(input.as_path())
            } else {
                input.parent()
            };
            let start = start.map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            })?;
            let start = fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
            for dir in start.ancestors().take(4) {
                if let Some(setup) = torch_setup(dir) {
                    return Some(setup);
                }
                if dir.join(".git").exists() {
                    break;
                }
            }
            None
        })
        .collect();
    let found = if setups.iter().all(Option::is_some) {
        setups.into_iter().flatten().next()
    } else {
        None
    };
    let Some(setup) = found else {
        return build_warp_sizes(inputs);
    };
    let mut out = vec![(
        crate::analysis::Define {
            name: "USE_ROCM".into(),
            value: Some(1),
            undefined: false,
        },
        setup.clone(),
    )];
    // And what it adds to `define_macros` for ROCm builds only (`MMCV_WITH_HIP`, `WITH_HIP`).
    let text = fs::read(&setup).unwrap_or_default();
    for (name, value) in crate::analysis::rocm_define_macros(&text) {
        if !out.iter().any(|(d, _)| d.name == name) {
            let define = crate::analysis::Define {
                name,
                value,
                undefined: false,
            };
            out.push((define, setup.clone()));
        }
    }
    out
}

/// The build files at the top of each input directory (`Makefile`, `CMakeLists.txt`).
const TOP_BUILD_FILES: [&str; 4] = ["Makefile", "makefile", "GNUmakefile", "CMakeLists.txt"];

/// Warp-size macros the build files at the top of the input directories define with a number
/// (`-DWARP_SIZE=32 -DHALF_WARP_SIZE=16` in HeCBench's Makefiles, realuser26 R26-c): the
/// sources use them as if they wrote `#define WARP_SIZE 32`, and the wave64 checks must see
/// that value. Only names with `WARP` in them, since one set of macros applies to every file
/// of the run; a name two build files give different values is left out.
fn build_warp_sizes(inputs: &[PathBuf]) -> Vec<(crate::analysis::Define, PathBuf)> {
    let mut out: Vec<(crate::analysis::Define, PathBuf)> = Vec::new();
    let mut clash: Vec<String> = Vec::new();
    for dir in inputs.iter().filter(|p| p.is_dir()) {
        for name in TOP_BUILD_FILES {
            let path = dir.join(name);
            let Ok(text) = fs::read(&path) else {
                continue;
            };
            for define in warp_size_flags(&text) {
                match out.iter().find(|(d, _)| d.name == define.name) {
                    Some((d, _)) if d.value != define.value => clash.push(define.name),
                    Some(_) => {}
                    None => out.push((define, path.clone())),
                }
            }
        }
    }
    out.retain(|(d, _)| !clash.contains(&d.name));
    out
}

/// The `-DNAME=N` flags of a build file's text whose NAME holds `WARP` (outside `#` comments),
/// read as the command line's `-D` is ([`crate::analysis::Define::parse`]): glued (`-DNAME=N`,
/// also after an assignment, `CFLAGS=-DWARP_SIZE=32`) or spaced (`-D WARP_SIZE=32`), and CMake's
/// `NAME=N` in `add_compile_definitions(...)` and `target_compile_definitions(...)`. Each value
/// a name is given once, in order: two values (a Makefile's `ifeq` arms) make
/// [`build_warp_sizes`] leave the name out.
fn warp_size_flags(text: &[u8]) -> Vec<crate::analysis::Define> {
    let text = String::from_utf8_lossy(text);
    let mut out: Vec<crate::analysis::Define> = Vec::new();
    // Inside a CMake definitions command, across lines until its `)`.
    let mut in_definitions = false;
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or_default();
        let lower = code.to_ascii_lowercase();
        let opens = ["add_compile_definitions", "target_compile_definitions"]
            .iter()
            .filter_map(|c| lower.find(c).map(|at| at + c.len()))
            .min();
        let mut flags: Vec<&str> = Vec::new();
        let mut words = code
            .split(|c: char| c.is_ascii_whitespace() || "()\"'".contains(c))
            .filter(|w| !w.is_empty())
            .peekable();
        // Bytes of `code` before each word, to tell a definitions command's words.
        let mut at = 0;
        while let Some(w) = words.next() {
            let start = code[at..].find(w).map_or(at, |i| at + i);
            at = start + w.len();
            if w == "-D" {
                // `-D WARP_SIZE=32`: the next word is the flag.
                if let Some(next) = words.peek() {
                    flags.push(next);
                }
            } else if let Some(f) = w
                .strip_prefix("-D")
                .or_else(|| w.split_once("=-D").map(|(_, f)| f))
            {
                flags.push(f);
            } else if in_definitions || opens.is_some_and(|o| start >= o) {
                flags.push(w);
            }
        }
        if opens.is_some() {
            in_definitions = true;
        }
        if in_definitions && code[opens.unwrap_or(0)..].contains(')') {
            in_definitions = false;
        }
        for flag in flags {
            let Some((name, value)) = flag.split_once('=') else {
                continue;
            };
            if !name.contains("WARP")
                || value.is_empty()
                || !value.bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            if let Ok(d) = crate::analysis::Define::parse(flag) {
                if d.value.is_some() && !out.iter().any(|o| o.name == d.name && o.value == d.value)
                {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// The run's macros as reports list them: those defined (`NAME`, `NAME=VALUE`), then the names
/// left undefined.
pub fn report_defines(defines: &[crate::analysis::Define]) -> (Vec<String>, Vec<String>) {
    let (undefined, defined): (Vec<_>, Vec<_>) = defines.iter().partition(|d| d.undefined);
    let names = |v: Vec<&crate::analysis::Define>| v.iter().map(ToString::to_string).collect();
    (names(defined), names(undefined))
}

/// Whether `id` names the diagnostic (by ID, case-insensitive, or by its kebab-case name).
fn names_diag(list: &[String], id: &str) -> bool {
    let name = crate::diag::find(id).map(|d| d.name);
    list.iter()
        .any(|x| x.eq_ignore_ascii_case(id) || Some(x.as_str()) == name)
}

/// Drops `--allow`ed diagnostics and raises `--deny`ed ones to errors, then folds what a
/// hazard report restates into it ([`crate::analysis::merge_restated`]): each ID acts as it
/// would alone (`--allow T001` leaves the hazard's own report of a name HIP lacks as it was).
fn apply_allow_deny(cfg: &ConvertConfig, files: &mut [FileOutcome]) {
    for f in files {
        if !cfg.allow.is_empty() || !cfg.deny.is_empty() {
            f.diagnostics.retain(|d| !names_diag(&cfg.allow, &d.id));
            for d in &mut f.diagnostics {
                if names_diag(&cfg.deny, &d.id) {
                    d.severity = Severity::Error;
                }
            }
        }
        crate::analysis::merge_restated(&mut f.diagnostics);
        // A denied ID stays an error whatever it was folded with.
        for d in &mut f.diagnostics {
            if names_diag(&cfg.deny, &d.id) {
                d.severity = Severity::Error;
            }
        }
    }
}

/// A build rule of the converted tree that writes a module file with hipcc's `--genco` (an AMD
/// code object bundle, which hipModuleLoad takes): an H040 error on loading that file is a note.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GencoRule {
    /// The file it writes, without its directory (`k.fatbin`).
    output: String,
    /// The build file, relative to the root.
    file: String,
    /// The line of its `--genco` in the build file as the user has it (1-based).
    line: usize,
}

/// The last `/`-separated part of a path, without quotes.
fn base_name(path: &str) -> &str {
    let p = path.trim().trim_matches('"');
    p.rsplit('/').next().unwrap_or(p)
}

/// The rules of the run's build files that the conversion writes with `--genco` (see
/// [`GencoRule`]); none in header mode, which keeps the build files as they are.
fn genco_rules(
    cfg: &ConvertConfig,
    builds: &BuildMemo,
    root: &Path,
    tree: Option<&[Box<FoundFile>]>,
) -> Vec<GencoRule> {
    if cfg.mode != Mode::Translate {
        return Vec::new();
    }
    let Some(found) = tree_files(cfg, root, tree) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in found.iter() {
        let path = f.path();
        let Some(kind) = crate::buildfiles::classify(&path).filter(|k| k.is_build_file()) else {
            continue;
        };
        let Ok(src) = fs::read(&path) else { continue };
        if !["fatbin", "cubin", "genco"]
            .iter()
            .any(|w| memchr::memmem::find(&src, w.as_bytes()).is_some())
        {
            continue;
        }
        let (mut edits, _) = builds.translate(cfg, kind, &src, f);
        let Ok(converted) = crate::edit::apply(&src, &mut edits) else {
            continue;
        };
        for (at, output) in genco_outputs(&String::from_utf8_lossy(&converted)) {
            // Back to the user's file: an offset past an edit moves by what the edits before
            // it changed; one inside an edit's text is at that edit.
            let mut shift: isize = 0;
            let mut orig = None;
            for e in &edits {
                let new_start = (e.start as isize + shift) as usize;
                if at < new_start {
                    break;
                }
                if at < new_start + e.text.len() {
                    orig = Some(e.start);
                    break;
                }
                shift += e.text.len() as isize - (e.end - e.start) as isize;
            }
            let orig = orig.unwrap_or((at as isize - shift).max(0) as usize);
            let line = 1 + memchr::memchr_iter(b'\n', &src[..orig.min(src.len())]).count();
            out.push(GencoRule {
                output: base_name(&output).to_string(),
                file: f.rel.clone(),
                line,
            });
        }
    }
    out
}

/// Each `--genco` in build-file text with the file its command writes: the `-o` of its command
/// line (continued lines joined), a Makefile rule's target for `-o $@`, or the `OUTPUT` of the
/// CMake `add_custom_command` around it. Names made from variables are left out.
fn genco_outputs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("--genco") {
        let end = at + "--genco".len();
        if (at > 0 && word(bytes[at - 1])) || bytes.get(end).is_some_and(|&b| word(b)) {
            continue;
        }
        // The command line, with its `\` continuations.
        let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        while start >= 2 && bytes[start - 2] == b'\\' {
            start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        }
        let mut stop = at;
        loop {
            stop = text[stop..].find('\n').map_or(text.len(), |i| stop + i);
            if stop > 0 && stop < text.len() && bytes[stop - 1] == b'\\' {
                stop += 1;
                continue;
            }
            break;
        }
        let words: Vec<&str> = text[start..stop]
            .split(|c: char| c.is_whitespace() || c == '\\')
            .filter(|w| !w.is_empty())
            .collect();
        let mut name = words.iter().enumerate().find_map(|(i, w)| {
            let w = w.trim_matches('"');
            match w {
                "-o" | "--output-file" => words.get(i + 1).map(|n| n.trim_matches('"')),
                _ => w.strip_prefix("--output-file=").or_else(|| {
                    w.strip_prefix("-o")
                        .filter(|n| !n.is_empty() && !n.starts_with('-'))
                }),
            }
        });
        if name == Some("$@") {
            // The target of the rule whose recipe this is: the last line above that is not a
            // recipe line and has a `:`.
            name = text[..start]
                .lines()
                .rev()
                .find(|l| !l.starts_with('\t') && l.contains(':'))
                .and_then(|l| l.split(':').next())
                .and_then(|t| t.split_whitespace().next());
        }
        if name.is_none() {
            // A CMake custom command's OUTPUT.
            let open = text[..at].rfind("add_custom_command(");
            name = open.and_then(|o| {
                let args = &text[o..at];
                let mut it = args
                    .split_whitespace()
                    .skip_while(|w| !w.ends_with("OUTPUT"));
                it.next()?;
                it.next().map(|n| n.trim_matches('"'))
            });
        }
        let name = name.map(|n| variable_value(text, n).unwrap_or(n));
        if let Some(n) = name.filter(|n| !base_name(n).contains('$') && !base_name(n).is_empty()) {
            out.push((at, n.to_string()));
        }
    }
    out
}

/// The value build-file text gives variable reference `reference` (`${FATBIN}` or `$(FATBIN)`)
/// where it sets it once: CMake's `set(FATBIN "${CMAKE_CURRENT_BINARY_DIR}/k.fatbin")`, make's
/// `FATBIN := k.fatbin` (vectorAddDrv names its fatbin so).
fn variable_value<'t>(text: &'t str, reference: &str) -> Option<&'t str> {
    let name = reference
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| {
            reference
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'))
        })?;
    let mut values = text.lines().filter_map(|l| {
        let l = l.trim();
        if let Some(args) = l.strip_prefix("set(") {
            let mut words = args.trim_end_matches(')').split_whitespace();
            (words.next()? == name).then_some(())?;
            return Some(words.next()?.trim_matches('"'));
        }
        let (lhs, rhs) = l.split_once('=')?;
        let lhs = lhs.trim_end_matches([':', '?', '+', ' ', '\t']);
        (lhs == name && !l.contains("+=")).then(|| rhs.trim())
    });
    let value = values.next()?;
    values.next().is_none().then_some(value)
}

/// Receives the outcomes of a conversion in discovery order while it runs, so that patches and
/// reports can be written as files finish instead of being held in memory.
pub trait Sink {
    /// Called once, before any outcome, with the input root, the number of files and their
    /// total size when the run lists the tree first (else 0 and 0: see [`Sink::found`]).
    fn start(&mut self, _root: &Path, _files: usize, _bytes: u64) {}
    /// Called, between outcomes, when discovery has found more: the files and bytes found so
    /// far, and whether that is all of them (the totals [`Sink::start`] gives only for runs
    /// that list the tree first).
    fn found(&mut self, _files: usize, _bytes: u64, _complete: bool) {}
    /// Called with each outcome, in discovery order. An error stops the run.
    fn file(&mut self, outcome: FileOutcome) -> Result<(), ProjectError>;
}

/// What a streamed conversion returns: the root relative paths start from, and the counts.
#[derive(Clone, Debug)]
pub struct StreamSummary {
    /// The input root.
    pub root: PathBuf,
    /// Counts.
    pub summary: Summary,
}

impl Summary {
    /// Adds one file's outcome to the counts.
    pub fn add(&mut self, f: &FileOutcome) {
        self.files_scanned += 1;
        match f.status {
            FileStatus::Changed => self.files_changed += 1,
            FileStatus::Unchanged => self.files_unchanged += 1,
            FileStatus::Copied | FileStatus::Skipped => self.files_copied += 1,
            FileStatus::Failed => self.files_failed += 1,
        }
        if f.from_cache {
            self.files_from_cache += 1;
        }
        if f.unread {
            self.sources_unread += 1;
        }
        if !f.parse_errors.is_empty() {
            self.files_with_parse_errors += 1;
        }
        for (fam, n) in &f.renames {
            *self.renames_by_family.entry(fam.clone()).or_default() += n;
        }
        for d in &f.diagnostics {
            *self
                .diagnostics_by_severity
                .entry(d.severity.as_str().to_string())
                .or_default() += 1;
        }
    }
}

/// Stack size of worker threads.
const WORKER_STACK: usize = 512 << 20;

/// How many finished outcomes may wait for an earlier, slower file before workers pause.
const REORDER_WINDOW: usize = 64;

/// The most files a worker takes at once (see [`convert_streaming`]).
const CHUNK_FILES: usize = 16;

/// The most bytes of sources a worker takes at once, unless one file is larger.
const CHUNK_BYTES: u64 = 1 << 20;

/// The errors of the discovery thread's walk; its panic, if it panicked, goes on here.
fn join_discovery(
    p: std::thread::ScopedJoinHandle<'_, Result<Vec<(String, String)>, ProjectError>>,
) -> Result<Vec<(String, String)>, ProjectError> {
    p.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// The shared state of a streamed run's threads, released by a thread that unwinds: it stops
/// discovery, wakes the workers waiting on the window and tells them to stop, and drops the
/// chunk receiver (so that a discovery blocked on a full channel returns). Without it, a panic
/// on one thread left the others waiting for each other, and the run hung instead of failing.
struct Unblock<'a, R, I> {
    stop: &'a std::sync::atomic::AtomicBool,
    emitted: &'a (Mutex<(usize, usize)>, Condvar),
    feed: &'a Mutex<(Option<R>, I)>,
}

impl<R, I> Drop for Unblock<'_, R, I> {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        self.stop.store(true, Ordering::Relaxed);
        let (lock, cv) = self.emitted;
        lock.lock().unwrap_or_else(|e| e.into_inner()).0 = usize::MAX;
        cv.notify_all();
        self.feed.lock().unwrap_or_else(|e| e.into_inner()).0 = None;
    }
}

/// How many chunks discovery may find ahead of the workers.
const CHUNKS_AHEAD: usize = 64;

/// The run's store of what its project headers tell the files that include them (see
/// [`crate::header_facts`]), with the include directories where the run knows them.
fn header_facts(cfg: &ConvertConfig, root: &Path) -> std::sync::Arc<HeaderFacts> {
    std::sync::Arc::new(HeaderFacts::new(
        root.to_path_buf(),
        cfg.translate.include_search.clone(),
        cfg.translate.defines.clone(),
        cfg.translate.parse_budget,
    ))
}

/// Runs a whole conversion, handing each outcome to `sink` in discovery order. One thread finds
/// the files ([`discover_each`]) and hands them, in chunks, to worker threads that translate them
/// (one parser each); at most [`CHUNKS_AHEAD`] chunks wait for a worker and [`REORDER_WINDOW`]
/// outcomes for an earlier file, so memory does not grow with the size of the tree. Only a run
/// that renames files lists the whole tree first ([`discover`]).
pub fn convert_streaming(
    cfg: &ConvertConfig,
    keep_output: bool,
    sink: &mut dyn Sink,
) -> Result<StreamSummary, ProjectError> {
    let start = Instant::now();
    if cfg.inputs.is_empty() {
        return Err(ProjectError::Usage("no input paths given".into()));
    }
    let root = input_root(&cfg.inputs)?;
    if let OutputMode::Dir(out) = &cfg.output {
        prepare_output_dir(cfg, out)?;
    }
    // New file names need the whole list first (a build file or an include may name a file found
    // later); otherwise files go to the workers as the walk finds them, and no list of the tree
    // is ever held.
    let listed = if cfg.rename == RenameMode::None {
        // Bad globs fail the run before it starts, as they do for a listed run.
        build_globs(&cfg.excludes)?;
        None
    } else {
        Some(discover(cfg, &root)?)
    };
    let (renamed, rename_clashes) = listed
        .as_ref()
        .map(|(found, _)| compute_renames(cfg, found))
        .unwrap_or_default();
    let run_cfg;
    let cfg = if renamed.is_empty() && !cfg.translate.analyze {
        cfg
    } else if renamed.is_empty() {
        let mut c = cfg.clone();
        c.translate.header_facts = Some(header_facts(&c, &root));
        run_cfg = c;
        &run_cfg
    } else {
        let mut c = cfg.clone();
        if let Some((found, _)) = &listed {
            c.translate.include_search = Some(std::sync::Arc::new(include_search(found)));
        }
        if let Some((found, _)) = &listed {
            c.build.moved_dirs = moved_dirs(cfg, &root, found, &renamed);
            c.build.python_helpers = python_helpers(found);
        }
        c.build.renamed = renamed.clone();
        c.translate.renamed = Some(std::sync::Arc::new(renamed));
        // The cache was salted before the renames were known: results made without them (the
        // same sources converted without --rename) must not serve this run.
        c.cache = c.cache.as_ref().map(|k| k.with_renames(&c.translate));
        if c.translate.analyze {
            c.translate.header_facts = Some(header_facts(&c, &root));
        }
        run_cfg = c;
        &run_cfg
    };
    // A listed run knows its totals from the start (a streamed one learns them as it goes).
    let listed_totals = listed.as_ref().map(|(found, errors)| {
        (
            found.len() + errors.len(),
            found.iter().map(|f| f.size).sum::<u64>(),
        )
    });
    let (files, bytes) = listed_totals.unwrap_or_default();
    sink.start(&root, files, bytes);
    let mut summary = Summary::default();
    let mut output_files = match &cfg.output {
        OutputMode::Dir(out) => OutputFiles::start(out),
        _ => None,
    };
    let needs = std::cell::RefCell::new(crate::header_mode::Needs::default());
    let mut build_note_given = false;
    let genco = std::cell::OnceCell::new();
    let warp_builds = std::cell::OnceCell::new();
    let includes = std::cell::OnceCell::new();
    let build_memo = BuildMemo::default();
    let builds = &build_memo;
    // The listing's build files, for those two (the listing itself goes to the workers).
    let build_files: Option<Vec<Box<FoundFile>>> = listed.as_ref().map(|(found, _)| {
        found
            .iter()
            .filter(|f| crate::buildfiles::classify(&f.path()).is_some())
            .cloned()
            .collect()
    });
    let tree = build_files.as_deref();
    // Hands an outcome to the sink, after telling it what discovery has found (`found`: files,
    // bytes, and whether that is all), when that changed.
    let mut emit = |mut o: FileOutcome,
                    summary: &mut Summary,
                    found: Option<(usize, u64, bool)>| {
        if let Some((files, bytes, complete)) = found {
            sink.found(files, bytes, complete);
        }
        if let Some(n) = o.needs.take() {
            needs.borrow_mut().merge(&n);
        }
        // The note that build files are kept is given once, on the first of them.
        let kept = |d: &Diagnostic| {
            d.id == crate::header_mode::BUILD_FILES_KEPT.id && d.severity == Severity::Note
        };
        if o.diagnostics.iter().any(kept) {
            if build_note_given {
                o.diagnostics.retain(|d| !kept(d));
            }
            build_note_given = true;
        }
        // A file whose new name another file has (see [`settle_rename_clashes`]).
        for (rel, wanted, first) in rename_clashes.iter().filter(|(r, _, _)| *r == o.path) {
            let given = o.renamed_to.as_deref().unwrap_or(&o.path);
            o.diagnostics.push(file_diag(
                    &RENAME_CLASH,
                    &shown_path(&o.source_path),
                    format!("`{rel}` would be written as `{wanted}`, which is `{first}`'s new name (or its own): it is written as `{given}` instead"),
                ));
        }
        // R38-2: the H003 advice to compile with the warp-sync define, where a build file of
        // this run got it and names this source (read once, the first time it is given).
        if o.diagnostics.iter().any(warp_sync_advice) {
            let builds = warp_builds.get_or_init(|| warp_defining_builds(cfg, builds, &root, tree));
            let mut found: Vec<&WarpDefining> =
                builds.iter().filter(|b| b.names_source(&o.path)).collect();
            if found.is_empty() {
                // V18-h: a header is compiled by the builds that compile a source including it
                // (the tree's includes are read once a run, the first time they are needed);
                // V21-i: each of them is named.
                let index = includes.get_or_init(|| IncludeIndex::read(cfg, &root));
                found = index.builds_of_includers(builds, &o.path);
            }
            if !found.is_empty() {
                for d in o.diagnostics.iter_mut().filter(|d| warp_sync_advice(d)) {
                    let shown = d.file.strip_suffix(o.path.as_str()).unwrap_or("");
                    let named: Vec<String> = found
                        .iter()
                        .map(|b| format!("`{shown}{}`", b.rel))
                        .collect();
                    let (list, verb) = match named.as_slice() {
                        [one] => (one.clone(), "compiles"),
                        [rest @ .., last] => (format!("{} and {last}", rest.join(", ")), "compile"),
                        [] => continue,
                    };
                    d.help = Some(format!(
                        "hipport added -D{WARP_SYNC_MACRO} to {list}, which {verb} this file; HIP 7.0 and newer declare them without it"
                    ));
                }
            }
        }
        // A module file the converted build makes for AMD (verify3 regression 1): read the
        // tree's build rules once, the first time a load is reported.
        for d in &mut o.diagnostics {
            let Some(file) = crate::analysis::h040_module_file(d) else {
                continue;
            };
            let rules = genco.get_or_init(|| genco_rules(cfg, builds, &root, tree));
            if let Some(r) = rules.iter().find(|r| r.output == base_name(file)) {
                crate::analysis::built_for_amd(d, &format!("{}:{}", r.file, r.line));
            }
        }
        apply_allow_deny(cfg, std::slice::from_mut(&mut o));
        summary.add(&o);
        if let Some(files) = output_files.as_mut() {
            let rel = o.renamed_to.as_deref().unwrap_or(&o.path);
            files.add(rel, o.status != FileStatus::Failed, o.out_stamp);
        }
        sink.file(o)
    };
    // As many workers as cores, but no more than there are files when that is known.
    let most = match &listed {
        Some((found, _)) => found.len(),
        None if cfg.inputs.iter().all(|i| i.is_file()) => cfg.inputs.len(),
        None => usize::MAX,
    };
    let jobs = if cfg.jobs > 0 {
        cfg.jobs
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
    .min(most.max(1));
    // The last run's index, read as workers take chunks (in order, under its lock), and the new
    // one, written as outcomes are emitted (in order).
    let index_path = cfg
        .cache
        .as_ref()
        .filter(|_| cfg.mode == Mode::Translate)
        // By the inputs as given (they make the paths diagnostics show) and the output; a
        // record serves only the very file it was made for (same device, inode and times).
        .map(|c| c.index_path(format!("{:?}\n{:?}", cfg.inputs, cfg.output).as_bytes()));
    let index_in = index_path.as_deref().and_then(tree_index::Reader::open);
    let mut index_out = index_path
        .as_deref()
        .and_then(|p| tree_index::Writer::create(p).ok());
    // Files go to workers in chunks of neighbours (at most CHUNK_FILES files and CHUNK_BYTES
    // bytes), at most CHUNKS_AHEAD chunks ahead of them, and come back a chunk per message: one
    // wake-up of the sink per chunk, not per file. Workers take chunks and read their index
    // records under one lock, so that the index is read in order; the receiver is dropped when
    // a worker stops early, which stops discovery too.
    type Files = Vec<FoundFile>;
    let (chunk_tx, chunk_rx) = std::sync::mpsc::sync_channel::<(usize, Files)>(CHUNKS_AHEAD);
    let feed = Mutex::new((Some(chunk_rx), index_in));
    // What discovery has found so far (files, bytes), and whether it is done, for the progress.
    let found_files = AtomicUsize::new(0);
    let found_bytes = std::sync::atomic::AtomicU64::new(0);
    let discovered = std::sync::atomic::AtomicBool::new(false);
    // Files found whose size is not read yet (see [`FoundFile::settle`]): the totals are final
    // when discovery is done and none is left.
    let unsettled = AtomicUsize::new(0);
    // Reads the sizes and stamps of a chunk's files where the walk left them, and counts them.
    let settle = |files: &mut Files| {
        for f in files {
            if f.settle() {
                found_bytes.fetch_add(f.size, Ordering::Relaxed);
                unsettled.fetch_sub(1, Ordering::Release);
            }
        }
    };
    // Set when the run stops: the walk ends at its next entry.
    let stop = std::sync::atomic::AtomicBool::new(false);
    // The index of the next outcome the sink waits for; workers do not run ahead of it by more
    // than the window. `usize::MAX` tells them to stop (the sink failed).
    // The lock also counts the workers waiting on the window, so that the sink wakes them only
    // when one waits (a condvar notify is a system call even with no waiter).
    let emitted = (Mutex::new((0usize, 0usize)), Condvar::new());
    type Chunk = Vec<(FileOutcome, Option<Record>)>;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Chunk)>();
    let mut result = Ok(());
    let mut walk_errors = Vec::new();
    // The totals the sink was last told (a listed run's, complete, from the start).
    let mut told = listed_totals.map_or((0, 0, false), |(files, bytes)| (files, bytes, true));
    // Cuts the files, in order, into chunks and hands each to `send`; false when it refuses.
    let listed = Mutex::new(listed);
    let produce = |send: &mut dyn FnMut(usize, Files) -> bool| {
        let mut chunk: Files = Vec::with_capacity(CHUNK_FILES);
        let (mut first, mut bytes, mut n) = (0usize, 0u64, 0usize);
        let mut add = |f: FoundFile| {
            if !chunk.is_empty() && (chunk.len() >= CHUNK_FILES || bytes + f.size > CHUNK_BYTES) {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_FILES));
                if !send(first, full) {
                    return false;
                }
                first = n;
                bytes = 0;
            }
            bytes += f.size;
            n += 1;
            found_files.fetch_add(1, Ordering::Relaxed);
            if f.unsettled {
                unsettled.fetch_add(1, Ordering::Relaxed);
            }
            found_bytes.fetch_add(f.size, Ordering::Relaxed);
            chunk.push(f);
            true
        };
        let list = listed.lock().unwrap_or_else(|e| e.into_inner()).take();
        let errors = match list {
            Some((found, errors)) => {
                for f in found {
                    if !add(*f) {
                        break;
                    }
                }
                Ok(errors)
            }
            None => discover_each(cfg, &root, &stop, &mut add),
        };
        // The totals are final before the last chunk goes: the sink learns them, complete,
        // when that chunk is emitted.
        if let Ok(errors) = &errors {
            found_files.fetch_add(errors.len(), Ordering::Relaxed);
        }
        discovered.store(true, Ordering::Release);
        if !chunk.is_empty() {
            send(first, chunk);
        }
        errors
    };
    std::thread::scope(|scope| -> Result<(), ProjectError> {
        let produce = &produce;
        let producer = std::thread::Builder::new()
            .name("hipport-discovery".into())
            .spawn_scoped(scope, move || {
                produce(&mut |first, files| chunk_tx.send((first, files)).is_ok())
            });
        let mut workers = 0;
        if producer.is_ok() {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (emitted, feed, stop, settle) = (&emitted, &feed, &stop, &settle);
                // Deeply nested sources make recursive tree walks deep: give workers room
                // (the memory is only reserved, and committed as it is used).
                let spawned = std::thread::Builder::new()
                    .name("hipport-worker".into())
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, move || {
                        let _unblock = Unblock {
                            stop,
                            emitted,
                            feed,
                        };
                        loop {
                            let (start, mut files, records) = {
                                let mut feed = feed.lock().unwrap_or_else(|e| e.into_inner());
                                let Some(Ok((start, files))) = feed.0.as_ref().map(|r| r.recv())
                                else {
                                    break;
                                };
                                let records: Vec<Option<Record>> = files
                                    .iter()
                                    .map(|f| feed.1.as_mut().and_then(|r| r.find(&f.rel)))
                                    .collect();
                                (start, files, records)
                            };
                            settle(&mut files);
                            {
                                let (lock, cv) = emitted;
                                let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
                                while state.0 != usize::MAX && start >= state.0 + REORDER_WINDOW {
                                    state.1 += 1;
                                    state = cv.wait(state).unwrap_or_else(|e| e.into_inner());
                                    state.1 -= 1;
                                }
                                if state.0 == usize::MAX {
                                    break;
                                }
                            }
                            let outcomes = files
                                .iter()
                                .zip(records)
                                .map(|(f, r)| process_guarded(cfg, builds, f, keep_output, r))
                                .collect();
                            if tx.send((start, outcomes)).is_err() {
                                break;
                            }
                        }
                        // Stopping early (or at the end): discovery stops with the workers.
                        stop.store(true, Ordering::Relaxed);
                        feed.lock().unwrap_or_else(|e| e.into_inner()).0 = None;
                    });
                if spawned.is_err() {
                    break;
                }
                workers += 1;
            }
        }
        // Hands one finished outcome to the sink and its record to the new index.
        let mut take = |o: FileOutcome,
                        record: Option<Record>,
                        result: &mut Result<(), _>,
                        found: Option<(usize, u64, bool)>| {
            if let (Some(w), Some(r)) = (&mut index_out, record) {
                if w.add(&r).is_err() {
                    index_out = None;
                }
            }
            if result.is_ok() {
                *result = emit(o, &mut summary, found);
            }
        };
        if workers == 0 {
            // No worker could be started: translate here, in order, the chunks of the
            // discovery thread or, when that could not start either, those of a walk run here.
            let mut feed = feed.lock().unwrap_or_else(|e| e.into_inner());
            let (chunks, index) = (feed.0.take(), &mut feed.1);
            let mut translate = |mut files: Files| {
                settle(&mut files);
                for f in files {
                    let record = index.as_mut().and_then(|r| r.find(&f.rel));
                    let (o, record) = process_guarded(cfg, builds, &f, keep_output, record);
                    take(o, record, &mut result, None);
                }
                result.is_ok()
            };
            walk_errors = match producer {
                Ok(p) => {
                    if let Some(chunks) = chunks {
                        for (_, files) in chunks.iter() {
                            if !translate(files) {
                                break;
                            }
                        }
                        // (Dropped here: a discovery blocked on the channel stops.)
                    }
                    stop.store(true, Ordering::Relaxed);
                    join_discovery(p)?
                }
                Err(_) => produce(&mut |_, files| translate(files))?,
            };
            return Ok(());
        }
        drop(tx);
        let _unblock = Unblock {
            stop: &stop,
            emitted: &emitted,
            feed: &feed,
        };
        let mut pending: BTreeMap<usize, Chunk> = BTreeMap::new();
        let mut want = 0usize;
        for (i, o) in rx.iter() {
            pending.insert(i, o);
            while let Some(chunk) = pending.remove(&want) {
                // What discovery has found so far, for the progress (its last count is exact;
                // a listed run gave the sink its totals at the start).
                let now = match listed_totals {
                    Some(_) => told,
                    None => {
                        // Read first: once none is left to settle, the bytes are all counted.
                        let complete = discovered.load(Ordering::Acquire)
                            && unsettled.load(Ordering::Acquire) == 0;
                        (
                            found_files.load(Ordering::Relaxed),
                            found_bytes.load(Ordering::Relaxed),
                            complete,
                        )
                    }
                };
                let mut found = (now != told).then_some(now);
                told = now;
                want += chunk.len();
                for (o, record) in chunk {
                    take(o, record, &mut result, found.take());
                }
                let (lock, cv) = &emitted;
                let waiting = {
                    let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
                    // (An abort, by the sink or by a thread that panicked, is final.)
                    state.0 = if result.is_ok() && state.0 != usize::MAX {
                        want
                    } else {
                        usize::MAX
                    };
                    state.1 > 0
                };
                if waiting {
                    cv.notify_all();
                }
            }
            if result.is_err() {
                break;
            }
        }
        // Workers that stopped early dropped the feed; discovery has ended too.
        stop.store(true, Ordering::Relaxed);
        feed.lock().unwrap_or_else(|e| e.into_inner()).0 = None;
        if let Ok(p) = producer {
            walk_errors = join_discovery(p)?;
        }
        Ok(())
    })?;
    if let Some(c) = &cfg.cache {
        // What this run stored becomes visible to later runs (it only saves work: a failure
        // fails nothing).
        c.flush();
    }
    result?;
    if let Some(w) = index_out {
        // The index only saves work: a failure to write it fails nothing.
        let _ = w.finish();
    }
    for (path, err) in walk_errors {
        // A tree of nothing but unreadable entries has emitted nothing yet to carry its totals.
        let now = (
            found_files.load(Ordering::Relaxed),
            found_bytes.load(Ordering::Relaxed),
            true,
        );
        let found = (listed_totals.is_none() && now != told).then_some(now);
        told = now;
        let o = FileOutcome {
            path: path.clone(),
            renamed_to: None,
            needs: None,
            status: FileStatus::Failed,
            edits: Vec::new(),
            diagnostics: vec![file_diag(
                &IO_FAILED,
                &path,
                format!("cannot read {path}: {err}"),
            )],
            parse_errors: Vec::new(),
            renames: BTreeMap::new(),
            diff: Vec::new(),
            output: None,
            source_path: PathBuf::from(&path),
            from_cache: false,
            read_other_files: false,
            unread: false,
            bytes: 0,
            out_stamp: None,
        };
        emit(o, &mut summary, found)?;
    }
    if cfg.mode == Mode::Header {
        let all = needs.borrow().clone();
        let at_root = [crate::header_mode::COMPAT_HEADER.to_string()];
        let places: Vec<&String> = if all.headers.is_empty() {
            at_root.iter().collect()
        } else {
            all.headers.iter().collect()
        };
        for rel in places {
            let o = write_compat_header(cfg, &root, &all, rel);
            emit(o, &mut summary, None)?;
        }
    }
    if let Some(files) = output_files {
        // What this run's files replaced: a report of the output directory, not a file of the
        // inputs (its diagnostics count, the file does not).
        let diagnostics = files.finish();
        if !diagnostics.is_empty() {
            for d in &diagnostics {
                *summary
                    .diagnostics_by_severity
                    .entry(d.severity.as_str().to_string())
                    .or_default() += 1;
            }
            sink.file(FileOutcome {
                path: OUTPUT_MARKER.to_string(),
                renamed_to: None,
                needs: None,
                status: FileStatus::Changed,
                edits: Vec::new(),
                diagnostics,
                parse_errors: Vec::new(),
                renames: BTreeMap::new(),
                diff: Vec::new(),
                output: None,
                source_path: PathBuf::from(OUTPUT_MARKER),
                from_cache: false,
                read_other_files: false,
                unread: false,
                bytes: 0,
                out_stamp: None,
            })?;
        }
    }
    summary.bytes_read = found_bytes.into_inner();
    summary.elapsed_seconds = start.elapsed().as_secs_f64();
    Ok(StreamSummary { root, summary })
}

use crate::buildfiles::WARP_SYNC_MACRO;

/// Whether `d` is H003's advice on a `_sync` builtin at HIP 6.2 to 6.4: compile with the
/// define (the warnings and errors about 32-bit masks are not).
fn warp_sync_advice(d: &Diagnostic) -> bool {
    d.id == "H003"
        && d.severity == Severity::Note
        && d.help
            .as_deref()
            .is_some_and(|h| h.starts_with("compile with -DHIP_ENABLE_WARP_SYNC_BUILTINS,"))
}

/// The build files this run has translated, each by its path and a hash of its bytes: the
/// workers, [`warp_defining_builds`] and [`genco_rules`] need the same translation of a build
/// file, and a re-run from the cache needs it too (a build that reads the tree is not cached),
/// so it is made once.
#[derive(Default)]
struct BuildMemo(Mutex<HashMap<(String, u128), BuildResult>>);

/// A build file's translation: its edits and diagnostics.
type BuildResult = (Vec<Edit>, Vec<Diagnostic>);

impl BuildMemo {
    /// [`crate::buildfiles::translate_build`] of `f` (its bytes `src`, of kind `kind`), made
    /// once. Where the warp-sync define or the C++ standard (Thrust and CUB need C++14) depends
    /// on a build's sources, they are read from the tree (its root found from `f`'s path when
    /// the options name none).
    fn translate(
        &self,
        cfg: &ConvertConfig,
        kind: crate::buildfiles::BuildKind,
        src: &[u8],
        f: &FoundFile,
    ) -> BuildResult {
        let key = (f.rel.clone(), xxhash_rust::xxh3::xxh3_128(src));
        let memo = || self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = memo().get(&key) {
            return r.clone();
        }
        let with_root;
        let build = if cfg.build.tree_root.is_none() || cfg.translate.fix != cfg.build.fix {
            with_root = crate::buildfiles::BuildOptions {
                tree_root: cfg
                    .build
                    .tree_root
                    .clone()
                    .or_else(|| Some(root_dir_of(&f.path(), &f.rel))),
                fix: cfg.translate.fix,
                ..cfg.build.clone()
            };
            &with_root
        } else {
            &cfg.build
        };
        let r = crate::buildfiles::translate_build(kind, src, &f.rel, build);
        memo().insert(key, r.clone());
        r
    }
}

/// The tree's files (its build files at least): those the run has listed, else a new listing
/// (`None` where it fails).
fn tree_files<'a>(
    cfg: &ConvertConfig,
    root: &Path,
    tree: Option<&'a [Box<FoundFile>]>,
) -> Option<std::borrow::Cow<'a, [Box<FoundFile>]>> {
    match tree {
        Some(t) => Some(std::borrow::Cow::Borrowed(t)),
        None => discover(cfg, root).ok().map(|(found, _)| found.into()),
    }
}

/// R38-2: a build file that this run gives `-DHIP_ENABLE_WARP_SYNC_BUILTINS` (B011 in a
/// setup.py or JIT build, hipcc in a Makefile, the CMake epilogue), and its text.
struct WarpDefining {
    /// Its path relative to the input root.
    rel: String,
    text: String,
}

impl WarpDefining {
    /// Whether the build names the source at `source` (relative to the input root): its path
    /// from the build file's directory, or its name after a `/` or a quote (a joined path),
    /// or a glob of its directory (`*.cu`, `src/*.cu`, `${DIR}/src/*.cu`).
    fn names_source(&self, source: &str) -> bool {
        let dir = self.rel.rsplit_once('/').map_or("", |(d, _)| d);
        let Some(under) = (if dir.is_empty() {
            Some(source)
        } else {
            source.strip_prefix(dir).and_then(|s| s.strip_prefix('/'))
        }) else {
            return false;
        };
        let (sub, name) = under.rsplit_once('/').unwrap_or(("", under));
        let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
        let t = self.text.as_bytes();
        let bounded = |at: usize, len: usize| {
            (at == 0 || !word(t[at - 1])) && t.get(at + len).is_none_or(|&c| !word(c))
        };
        if memchr::memmem::find_iter(t, name.as_bytes()).any(|at| bounded(at, name.len())) {
            return true;
        }
        let Some((_, ext)) = name.rsplit_once('.') else {
            return false;
        };
        let glob = format!("*.{ext}");
        memchr::memmem::find_iter(t, glob.as_bytes()).any(|at| {
            if !bounded(at + 1, glob.len() - 1) {
                return false;
            }
            // The path before the pattern, from the last space, quote or bracket, less a
            // leading variable (`${CMAKE_CURRENT_SOURCE_DIR}/`) and `./`.
            let from = t[..at]
                .iter()
                .rposition(|&c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'(' | b'['))
                .map_or(0, |p| p + 1);
            let mut path = &self.text[from..at];
            if path.starts_with("${") || path.starts_with("$(") {
                match path.find(['}', ')']) {
                    Some(e) => path = path[e + 1..].trim_start_matches('/'),
                    None => return false,
                }
            }
            let path = path.trim_start_matches("./").trim_end_matches('/');
            path == sub
        })
    }
}

/// The extensions of headers, which a build compiles through the sources including them.
const HEADER_EXTS: &[&str] = &["h", "cuh", "hpp", "hh", "hxx", "inl", "cuinl", "inc"];

/// V18-h: the tree's sources and headers with the paths their `#include`s name, read once a
/// run (a walk and one read of each), so that finding a header's build costs no more reads.
struct IncludeIndex(Vec<(String, Vec<String>)>);

impl IncludeIndex {
    /// Lists the tree (the run's listing keeps only its build files) and reads the
    /// `#include`s of each source and header; an unreadable tree gives an empty index.
    fn read(cfg: &ConvertConfig, root: &Path) -> Self {
        const SOURCES: &[&str] = &["cu", "cpp", "cc", "cxx", "c"];
        let Ok((found, _)) = discover(cfg, root) else {
            return Self(Vec::new());
        };
        let wanted = |rel: &str| {
            let e = file_ext(rel);
            SOURCES.contains(&e.as_str()) || HEADER_EXTS.contains(&e.as_str())
        };
        let included = |text: &[u8]| -> Vec<String> {
            crate::includes::include_directives(text)
                .into_iter()
                .map(|(_, p)| p.inner.to_string())
                .collect()
        };
        let files = found
            .iter()
            .filter(|f| wanted(&f.rel))
            .filter_map(|f| {
                std::fs::read(f.path())
                    .ok()
                    .map(|t| (f.rel.clone(), included(&t)))
            })
            .collect();
        Self(files)
    }

    /// The builds of `builds` that compile a source including the header at `header`
    /// (relative to the input root), directly or through other headers of the tree: an
    /// `#include` whose path ends with the header's name; each once, in the order of `builds`.
    /// None for a file that is not a header, or one no named source includes.
    fn builds_of_includers<'a>(
        &self,
        builds: &'a [WarpDefining],
        header: &str,
    ) -> Vec<&'a WarpDefining> {
        let is_header = |p: &str| HEADER_EXTS.contains(&file_ext(p).as_str());
        let mut out: Vec<&'a WarpDefining> = Vec::new();
        if builds.is_empty() || !is_header(header) {
            return out;
        }
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::from([header]);
        let mut wanted: Vec<&str> = vec![header];
        while let Some(h) = wanted.pop() {
            let name = h.rsplit_once('/').map_or(h, |(_, n)| n);
            let names = |p: &String| p == name || p.ends_with(&format!("/{name}"));
            for (rel, paths) in &self.0 {
                if seen.contains(rel.as_str()) || !paths.iter().any(names) {
                    continue;
                }
                seen.insert(rel);
                let compiling: Vec<&'a WarpDefining> =
                    builds.iter().filter(|b| b.names_source(rel)).collect();
                if !compiling.is_empty() {
                    for b in compiling {
                        if !out.iter().any(|o| std::ptr::eq(*o, b)) {
                            out.push(b);
                        }
                    }
                } else if is_header(rel) {
                    wanted.push(rel);
                }
            }
        }
        // In the order of the builds (the tree's order), whatever order the includes were read in.
        out.sort_by_key(|b| builds.iter().position(|x| std::ptr::eq(x, *b)));
        out
    }
}

/// The lower-case extension of the path `p` (empty where it has none).
fn file_ext(p: &str) -> String {
    p.rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase()
}

/// The build files of the tree that this run gives the warp-sync define (see [`WarpDefining`]):
/// each is converted as the run converts it, and counts where its output defines the macro
/// more often than its text does and it left no call without it (B011's warning).
fn warp_defining_builds(
    cfg: &ConvertConfig,
    builds: &BuildMemo,
    root: &Path,
    tree: Option<&[Box<FoundFile>]>,
) -> Vec<WarpDefining> {
    if cfg.mode == Mode::Header || !cfg.build.warp_sync_define {
        return Vec::new();
    }
    let Some(found) = tree_files(cfg, root, tree) else {
        return Vec::new();
    };
    let count = |t: &[u8]| memchr::memmem::find_iter(t, WARP_SYNC_MACRO.as_bytes()).count();
    let mut out = Vec::new();
    for (f, kind, src) in readable_build_files(&found) {
        let has = |w: &[u8]| memchr::memmem::find(&src, w).is_some();
        let candidate = match kind {
            crate::buildfiles::BuildKind::SetupPy | crate::buildfiles::BuildKind::Python => {
                has(b"cpp_extension") || has(b"CUDAExtension")
            }
            _ => has(b"nvcc") || has(b"CUDA") || has(b".cu"),
        };
        if !candidate {
            continue;
        }
        let (mut edits, diags) = builds.translate(cfg, kind, &src, f);
        if diags
            .iter()
            .any(|d| d.severity != Severity::Note && d.message.contains(WARP_SYNC_MACRO))
        {
            continue;
        }
        let Ok(new) = crate::edit::apply(&src, &mut edits) else {
            continue;
        };
        if count(&new) > count(&src) {
            out.push(WarpDefining {
                rel: f.rel.clone(),
                text: String::from_utf8_lossy(&src).into_owned(),
            });
        }
    }
    out
}

/// A sink that keeps every outcome, for [`convert`].
struct Collect(Vec<FileOutcome>);

impl Sink for Collect {
    fn file(&mut self, outcome: FileOutcome) -> Result<(), ProjectError> {
        self.0.push(outcome);
        Ok(())
    }
}

/// Runs a whole conversion and keeps every outcome in memory (see [`convert_streaming`] for big
/// trees). Per-file problems become diagnostics; only setup problems are errors.
pub fn convert(cfg: &ConvertConfig, keep_output: bool) -> Result<RunReport, ProjectError> {
    let mut files = Collect(Vec::new());
    let s = convert_streaming(cfg, keep_output, &mut files)?;
    let (defines, undefines) = report_defines(&cfg.translate.defines);
    Ok(RunReport {
        hipport_version: env!("CARGO_PKG_VERSION").to_string(),
        hip_version: cfg.translate.hip_version.to_string(),
        defines,
        undefines,
        root: s.root.display().to_string(),
        files: files.0,
        summary: s.summary,
    })
}

/// Default parse budget per file.
pub const DEFAULT_PARSE_BUDGET: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    /// realuser26 R26-c: HeCBench's `-DWARP_SIZE=32 -DHALF_WARP_SIZE=16`, in the forms build
    /// files write; other macros, comments and values that are not numbers are left out.
    #[test]
    fn build_files_warp_size_flags() {
        let got: Vec<(String, i64)> = warp_size_flags(
            b"CFLAGS := -std=c++14 -DWARP_SIZE=32 -DHALF_WARP_SIZE=16 -DUSE_MPI -DN=4\n\
              # -DWARP_SIZE=64 in a comment\n\
              add_definitions(-DSUB_WARP=8 \"-DWARPS=$(W)\")\n\
              X = -DMY_WARP_SIZE=32x a-DWARP_B=4\n",
        )
        .into_iter()
        .filter_map(|d| Some((d.name, d.value?)))
        .collect();
        assert_eq!(
            got,
            [
                ("WARP_SIZE".to_string(), 32),
                ("HALF_WARP_SIZE".to_string(), 16),
                ("SUB_WARP".to_string(), 8)
            ]
        );
        // Two build files that disagree: the name is left out; one file alone gives its values.
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("Makefile"),
            "F = -DWARP_SIZE=32 -DHALF_WARP=16\n",
        )
        .unwrap();
        let names = |d: &Path| -> Vec<String> {
            build_warp_sizes(&[d.to_path_buf()])
                .into_iter()
                .map(|(d, _)| d.to_string())
                .collect()
        };
        assert_eq!(names(dir.path()), ["WARP_SIZE=32", "HALF_WARP=16"]);
        fs::write(
            dir.path().join("CMakeLists.txt"),
            "add_definitions(-DWARP_SIZE=64)\n",
        )
        .unwrap();
        assert_eq!(names(dir.path()), ["HALF_WARP=16"]);
        // verify10: one Makefile that gives two values (`ifeq` arms) leaves the name out too;
        // `-D NAME=N` with a space, and CMake's definitions commands, count.
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("Makefile"),
            "ifeq ($(TARGET),CUDA)\n  F = -DWARP_SIZE=32\nelse\n  F = -DWARP_SIZE=64\nendif\nG = -D HALF_WARP=16\n",
        )
        .unwrap();
        assert_eq!(names(dir.path()), ["HALF_WARP=16"]);
        for cmake in [
            "add_compile_definitions(WARP_SIZE=32)\n",
            "target_compile_definitions(app PRIVATE\n  USE_X WARP_SIZE=32\n)\nset(OTHER_WARP=8)\n",
            "target_compile_definitions(app PUBLIC \"WARP_SIZE=32\")\n",
        ] {
            let dir = tempfile::tempdir().unwrap();
            fs::write(dir.path().join("CMakeLists.txt"), cmake).unwrap();
            assert_eq!(names(dir.path()), ["WARP_SIZE=32"], "{cmake}");
        }
    }

    /// verify3 regression 1: the file each `--genco` command writes, in the forms build files
    /// name it; names hipport cannot resolve are left out.
    #[test]
    fn genco_outputs_name_the_file_each_command_writes() {
        let names =
            |t: &str| -> Vec<String> { genco_outputs(t).into_iter().map(|(_, n)| n).collect() };
        assert_eq!(
            names(
                "add_custom_command(OUTPUT k.fatbin\n  COMMAND hipcc --genco -o k.fatbin k.cu)\n"
            ),
            ["k.fatbin"]
        );
        assert_eq!(
            names("add_custom_command(OUTPUT \"${D}/a.co\"\n  COMMAND ${CMAKE_CXX_COMPILER} --genco a.cu)\n"),
            ["${D}/a.co"]
        );
        assert_eq!(
            names("set(F \"${CMAKE_CURRENT_BINARY_DIR}/v.fatbin\")\nadd_custom_command(OUTPUT ${F}\n COMMAND hipcc -o ${F} --genco v.cu)\n"),
            ["${CMAKE_CURRENT_BINARY_DIR}/v.fatbin"]
        );
        assert_eq!(
            names("K := k.hsaco\n$(K): k.cu\n\thipcc \\\n\t  --genco -o $@ $<\nx.co: x.cu\n\thipcc --genco -ox.co x.cu\n"),
            ["k.hsaco", "x.co"]
        );
        assert!(names("all:\n\thipcc --genco -o $(OUT)/$(NAME) k.cu\n").is_empty());
        assert!(names("hipcc --gencode -o k.co k.cu\n").is_empty());
    }

    #[test]
    fn a_rerun_removes_the_outputs_of_sources_gone_since_and_keeps_edited_ones() {
        // H-i: a glob build of the output would compile a stale copy beside the renamed file.
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        let o = dir.path().join("o");
        fs::create_dir_all(t.join("sub")).unwrap();
        let kernel =
            "__global__ void b(float* p) { p[0] = 2; }\nvoid run_b(float* p) { b<<<1, 1>>>(p); }\n";
        fs::write(t.join("y.cu"), kernel).unwrap();
        fs::write(t.join("sub/w.cu"), kernel).unwrap();
        fs::write(t.join("main.cpp"), "int main() { return 0; }\n").unwrap();
        let mut cfg = ConvertConfig::new(vec![t.clone()], OutputMode::Dir(o.clone()));
        cfg.cache = None;
        let stale = |r: &RunReport| -> Vec<(Severity, String)> {
            r.files
                .iter()
                .flat_map(|f| &f.diagnostics)
                .filter(|d| d.id == STALE_OUTPUT.id)
                .map(|d| (d.severity, d.message.clone()))
                .collect()
        };
        let first = convert(&cfg, false).unwrap();
        assert!(stale(&first).is_empty());
        assert!(o.join("y.cu").exists() && o.join("sub/w.cu").exists());
        // A rename and a deletion in the tree; a file of the user's in the output.
        fs::rename(t.join("y.cu"), t.join("z.cu")).unwrap();
        fs::remove_dir_all(t.join("sub")).unwrap();
        fs::write(o.join("notes.txt"), "mine\n").unwrap();
        let second = convert(&cfg, false).unwrap();
        assert!(!o.join("y.cu").exists() && !o.join("sub").exists());
        assert!(o.join("z.cu").exists() && o.join("notes.txt").exists());
        assert_eq!(
            stale(&second),
            [(
                Severity::Note,
                "removed 2 output files of an earlier run whose sources this run no longer converts: sub/w.cu, y.cu".to_string()
            )]
        );
        assert_eq!(second.summary.files_scanned, 2);
        // An output edited since hipport wrote it is kept, with a warning, run after run.
        fs::write(o.join("z.cu"), "// edited\n").unwrap();
        fs::rename(t.join("z.cu"), t.join("q.cu")).unwrap();
        for _ in 0..2 {
            let third = convert(&cfg, false).unwrap();
            assert_eq!(fs::read_to_string(o.join("z.cu")).unwrap(), "// edited\n");
            let warned = stale(&third);
            assert!(
                warned.len() == 1
                    && warned[0].0 == Severity::Warning
                    && warned[0]
                        .1
                        .starts_with("z.cu was written by an earlier run"),
                "{warned:?}"
            );
        }
        // Nothing else of the output was touched.
        let mut left: Vec<String> = fs::read_dir(&o)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [OUTPUT_MARKER, "main.cpp", "notes.txt", "q.cu", "z.cu"]
        );
    }

    #[test]
    fn python_jit_flags_are_rewritten_and_other_python_files_copied() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        fs::create_dir_all(&t).unwrap();
        let jit = "from torch.utils.cpp_extension import load\n\
                   m = load('m', ['m.cu'], extra_cuda_cflags=['-O3', '--use_fast_math'])\n";
        fs::write(t.join("jit.py"), jit).unwrap();
        fs::write(t.join("plain.py"), "flags = ['--use_fast_math']\n").unwrap();
        let mut cfg = ConvertConfig::new(vec![t.clone()], OutputMode::Dir(dir.path().join("o")));
        cfg.cache = None;
        let report = convert(&cfg, false).unwrap();
        let outcome = |rel: &str| report.files.iter().find(|f| f.path == rel).unwrap();
        assert_eq!(outcome("jit.py").status, FileStatus::Changed);
        assert_eq!(
            outcome("jit.py")
                .diagnostics
                .iter()
                .map(|d| (d.id.as_str(), d.line))
                .collect::<Vec<_>>(),
            [("B001", 2)]
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("o/jit.py")).unwrap(),
            jit.replace("--use_fast_math", "-ffast-math")
        );
        assert_eq!(outcome("plain.py").status, FileStatus::Copied);
        assert_eq!(
            fs::read_to_string(dir.path().join("o/plain.py")).unwrap(),
            "flags = ['--use_fast_math']\n"
        );
    }

    #[test]
    fn includes_missing_from_the_tree_are_reported_on_the_branch_hipcc_compiles() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        fs::create_dir_all(t.join("gpu")).unwrap();
        fs::write(t.join("gpu/math.cuh"), "#pragma once\n").unwrap();
        fs::write(t.join("gen.py"), "open('k_fwd.cu', 'w').write(src)\n").unwrap();
        let src = "#include <cuda_runtime.h>\n\
                   #ifdef __HIP_PLATFORM_AMD__\n\
                   #include \"hip/math_hip.cuh\"\n\
                   #else\n\
                   #include \"gpu/math.cuh\"\n\
                   #include \"cuda_only.h\"\n\
                   #endif\n\
                   #include \"k_fwd.cu\"\n\
                   #include <helper_cuda.h>\n\
                   #include <helper_functions.h>\n\
                   __global__ void k(float* p) { p[threadIdx.x] = 0.f; }\n\
                   int cores(int a, int b) { return _ConvertSMVer2Cores(a, b); }\n";
        fs::write(t.join("k.cu"), src).unwrap();
        for rename in [RenameMode::None, RenameMode::Hip] {
            let mut cfg = ConvertConfig::new(vec![t.clone()], OutputMode::Nothing);
            cfg.cache = None;
            cfg.rename = rename;
            let report = convert(&cfg, false).unwrap();
            let got: Vec<(&str, usize, Severity)> = report
                .diagnostics()
                .filter(|d| d.id == MISSING_INCLUDE.id)
                .map(|d| (d.message.as_str(), d.line, d.severity))
                .collect();
            assert_eq!(got.len(), 3, "{rename:?}: {got:#?}");
            assert!(got[0].0.contains("hipify's output file names"), "{got:#?}");
            assert!(got[0].0.contains("`gpu/math.cuh`"), "{got:#?}");
            assert_eq!((got[0].1, got[0].2), (3, Severity::Warning));
            assert!(got[1].0.contains("`gen.py` names it"), "{got:#?}");
            assert_eq!((got[1].1, got[1].2), (8, Severity::Warning));
            assert!(got[2]
                .0
                .contains("`<helper_cuda.h>`, `<helper_functions.h>`"));
            assert_eq!((got[2].1, got[2].2), (9, Severity::Note));
            let note = report.diagnostics().find(|d| d.line == 9).unwrap();
            assert!(note
                .help
                .as_deref()
                .unwrap()
                .contains("`_ConvertSMVer2Cores(major, minor)`"));
            if rename == RenameMode::Hip {
                let d = report.diagnostics().find(|d| d.line == 3).unwrap();
                assert!(d.help.as_deref().unwrap().contains("include `"), "{d:?}");
            }
        }
    }

    #[test]
    fn whole_files_are_read_whatever_the_size_hint() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        let data: Vec<u8> = (0..70_000u32).map(|i| (i % 251) as u8).collect();
        fs::write(&p, &data).unwrap();
        for hint in [0, 1, 69_999, 70_000, 70_001, 1 << 20] {
            assert_eq!(read_sized(&p, hint).unwrap(), data, "hint {hint}");
        }
        // Short reads end the file only when asked (cache entries check their own length).
        let mut f = fs::File::open(&p).unwrap();
        assert_eq!(read_whole(&mut f, 64 * 1024, u64::MAX, true).unwrap(), data);
        let mut f = fs::File::open(&p).unwrap();
        assert_eq!(read_whole(&mut f, 100, 10, false).unwrap(), &data[..10]);
    }

    #[test]
    fn paths_are_ordered_as_a_sorted_depth_first_walk_visits_them() {
        // A directory's entries sorted by name, each directory's files before its next sibling.
        let walk = [
            "t/a/x.cu",
            "t/a/z/y.cu",
            "t/a-b.cu",
            "t/a.cu",
            "t/aa/k.cu",
            "t/b.cu",
        ];
        // Short paths, and the same under a long common prefix (compared eight bytes at a time).
        for prefix in ["", "/home/user/projects/extension/"] {
            let walk: Vec<PathBuf> = walk
                .iter()
                .map(|w| PathBuf::from(format!("{prefix}{w}")))
                .collect();
            let mut sorted = walk.clone();
            sorted.reverse();
            sorted.sort_by(|x, y| walk_order(x, y));
            assert_eq!(sorted, walk);
            for x in &walk {
                for y in &walk {
                    let components = x.components().cmp(y.components());
                    assert_eq!(walk_order(x, y), components, "{x:?} {y:?}");
                }
            }
        }
    }

    #[test]
    fn streamed_runs_honour_ignores_and_excludes_and_stop_when_the_sink_fails() {
        // More files than discovery may find ahead of the workers, so that it is blocked
        // handing a chunk over when the sink fails; ignored and excluded files, an output
        // directory inside the tree: the listed walk and the streamed one agree on all of it.
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        let n = CHUNKS_AHEAD * CHUNK_FILES * 2;
        for i in 0..n {
            let p = t.join(format!("d{:02}/k{i:05}.cu", i % 37));
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, "void f() { cudaDeviceSynchronize(); }\n").unwrap();
        }
        fs::write(t.join(".gitignore"), "d01/\n").unwrap();
        fs::create_dir_all(t.join("out")).unwrap();
        fs::write(t.join("out/old.cu"), "int x;\n").unwrap();
        let mut cfg = ConvertConfig::new(vec![t.clone()], OutputMode::Dir(t.join("out")));
        cfg.excludes = vec!["**/d02/**".into()];
        cfg.cache = None;
        let root = input_root(&cfg.inputs).unwrap();
        let (listed, _) = discover(&cfg, &root).unwrap();
        let mut streamed = Vec::new();
        discover_each(&cfg, &root, &Default::default(), |f| {
            streamed.push(f.rel);
            true
        })
        .unwrap();
        let listed: Vec<String> = listed.iter().map(|f| f.rel.clone()).collect();
        assert_eq!(streamed, listed);
        assert!(!listed
            .iter()
            .any(|r| r.contains("/d01/") || r.contains("/d02/") || r.contains("/out/")));
        assert!(listed.len() > n * 9 / 10, "{}", listed.len());
        // (A run refuses an output directory inside its input: these write nothing.)
        cfg.output = OutputMode::Nothing;
        fs::remove_dir_all(t.join("out")).unwrap();

        // hipport's own temporary files and a cache inside the tree are never inputs.
        fs::write(t.join("d00/.k00000.cu.hipport-77.tmp"), "x").unwrap();
        fs::write(t.join("d00/.k00000.cu.hipport-77-3.tmp"), "x").unwrap();
        fs::write(t.join("d00/.k00000.cu.hipport-x.tmp"), "x").unwrap();
        fs::create_dir_all(t.join("cache/v3")).unwrap();
        fs::write(t.join("cache/v3/p.pack"), "x").unwrap();
        let mut with_cache = cfg.clone();
        with_cache.cache = Some(Cache::new(
            t.join("cache"),
            cache::rules_fingerprint(&[]),
            &cfg.translate,
        ));
        let mut seen = Vec::new();
        discover_each(&with_cache, &root, &Default::default(), |f| {
            seen.push(f.rel);
            true
        })
        .unwrap();
        let (all_listed, _) = discover(&with_cache, &root).unwrap();
        assert_eq!(
            seen,
            all_listed.iter().map(|f| f.rel.clone()).collect::<Vec<_>>()
        );
        let extra: Vec<&String> = seen.iter().filter(|r| !listed.contains(r)).collect();
        assert_eq!(extra, ["d00/.k00000.cu.hipport-x.tmp"]);
        fs::remove_dir_all(t.join("cache")).unwrap();
        for f in ["77", "77-3", "x"] {
            fs::remove_file(t.join(format!("d00/.k00000.cu.hipport-{f}.tmp"))).unwrap();
        }

        struct FailAt(usize, usize);
        impl Sink for FailAt {
            fn file(&mut self, _: FileOutcome) -> Result<(), ProjectError> {
                self.0 += 1;
                if self.0 == self.1 {
                    return Err(ProjectError::Usage("stop".into()));
                }
                Ok(())
            }
        }
        let mut sink = FailAt(0, 2);
        let err = convert_streaming(&cfg, false, &mut sink).unwrap_err();
        assert!(matches!(err, ProjectError::Usage(_)), "{err}");
        assert_eq!(sink.0, 2, "no outcome after the failure");
        // A run that goes through sees every file once, in order.
        struct Rels(Vec<String>);
        impl Sink for Rels {
            fn file(&mut self, o: FileOutcome) -> Result<(), ProjectError> {
                self.0.push(o.path);
                Ok(())
            }
        }
        let mut all = Rels(Vec::new());
        convert_streaming(&cfg, false, &mut all).unwrap();
        assert_eq!(all.0.len(), listed.len());
        for (shown, rel) in all.0.iter().zip(&listed) {
            assert!(shown.ends_with(rel.as_str()), "{shown} is not {rel}");
        }
        // The totals the sink is told: found as the walk goes (the last of them final), or,
        // for a run that renames files and so lists the tree first, once at the start.
        #[derive(Default)]
        struct Totals(Option<usize>, Vec<(usize, bool)>, Vec<u64>);
        impl Sink for Totals {
            fn start(&mut self, _: &Path, files: usize, _: u64) {
                self.0 = Some(files);
            }
            fn found(&mut self, files: usize, bytes: u64, complete: bool) {
                self.1.push((files, complete));
                self.2.push(bytes);
            }
            fn file(&mut self, _: FileOutcome) -> Result<(), ProjectError> {
                Ok(())
            }
        }
        let mut streamed = Totals::default();
        convert_streaming(&cfg, false, &mut streamed).unwrap();
        assert_eq!(streamed.0, Some(0));
        assert!(streamed.1.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(streamed
            .1
            .iter()
            .all(|&(n, done)| n <= listed.len() && (!done || n == listed.len())));
        // The last chunk goes after the walk has ended: the sink always learns the final total.
        assert_eq!(streamed.1.last(), Some(&(listed.len(), true)));
        // The bytes grow as the workers read the sizes the walk left them, and are all counted
        // when the totals are final.
        let total: u64 = listed
            .iter()
            .map(|r| fs::metadata(root.join(r)).unwrap().len())
            .sum();
        assert!(streamed.2.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(streamed.2.last(), Some(&total));
        let mut renaming = Totals::default();
        let mut cfg = cfg.clone();
        cfg.rename = RenameMode::Hip;
        convert_streaming(&cfg, false, &mut renaming).unwrap();
        assert_eq!(renaming.0, Some(listed.len()));
        assert!(
            renaming.1.is_empty(),
            "{:?}",
            &renaming.1[..3.min(renaming.1.len())]
        );
    }

    /// A file whose name ends so makes `process` panic (in this crate's unit tests only).
    pub(super) const PANICS: &str = "panics-in-tests.cu";

    /// Runs `f` on a thread of its own; its result, or `None` when it has not ended within two
    /// minutes (a hung run; the thread is left behind).
    fn ends_within_two_minutes<T: Send + 'static>(
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<std::thread::Result<T>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        });
        rx.recv_timeout(std::time::Duration::from_secs(120)).ok()
    }

    #[test]
    fn a_panic_on_one_file_fails_that_file_and_a_panic_in_the_sink_fails_the_run() {
        // More files than the reorder window and the chunks discovery may find ahead, so that
        // every party of the run is waiting on another when the panic strikes.
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        let n = CHUNKS_AHEAD * CHUNK_FILES * 2;
        let mut rels = Vec::new();
        for i in 0..n {
            let name = if i == 5 {
                format!("k{i:05}-{PANICS}")
            } else {
                format!("k{i:05}.cu")
            };
            let rel = format!("d{:02}/{name}", i / 100);
            let p = t.join(&rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, "void f() { cudaDeviceSynchronize(); }\n").unwrap();
            rels.push(rel);
        }
        rels.sort();
        for jobs in [1, 2, 3] {
            let mut cfg =
                ConvertConfig::new(vec![t.clone()], OutputMode::Dir(dir.path().join("o")));
            cfg.cache = None;
            cfg.jobs = jobs;
            cfg.force = true;
            // A panic while translating one file fails that file, with a diagnostic naming it;
            // every other file is converted, in order.
            let run = cfg.clone();
            let outcomes = ends_within_two_minutes(move || {
                struct All(Vec<FileOutcome>);
                impl Sink for All {
                    fn file(&mut self, o: FileOutcome) -> Result<(), ProjectError> {
                        self.0.push(o);
                        Ok(())
                    }
                }
                let mut all = All(Vec::new());
                convert_streaming(&run, false, &mut all).map(|_| all.0)
            })
            .expect("a run with a panicking file hung")
            .expect("a panic on one file ended the run")
            .unwrap();
            assert_eq!(outcomes.len(), n, "-j {jobs}");
            for (o, rel) in outcomes.iter().zip(&rels) {
                assert_eq!(&o.path, rel);
                if rel.ends_with(PANICS) {
                    assert_eq!(o.status, FileStatus::Failed);
                    let d = &o.diagnostics[0];
                    assert_eq!(d.id, INTERNAL_ERROR.id);
                    assert!(d.message.contains(rel.as_str()), "{}", d.message);
                    assert!(
                        d.message.contains("make the translation panic"),
                        "{}",
                        d.message
                    );
                    assert!(!dir.path().join("o").join(rel).exists());
                } else {
                    assert_eq!(o.status, FileStatus::Changed, "{rel}");
                }
            }
            // A panic on the thread that receives the outcomes (in the sink) ends the run with
            // that panic, instead of leaving the workers and the walk waiting for it.
            let run = cfg.clone();
            let ended = ends_within_two_minutes(move || {
                struct PanicAt(usize);
                impl Sink for PanicAt {
                    fn file(&mut self, _: FileOutcome) -> Result<(), ProjectError> {
                        self.0 -= 1;
                        assert!(self.0 > 0, "the sink's own panic");
                        Ok(())
                    }
                }
                let _ = convert_streaming(&run, false, &mut PanicAt(10));
            })
            .expect("a run whose sink panicked hung");
            let payload = ended.expect_err("the sink's panic was lost");
            let why = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            assert!(why.contains("the sink's own panic"), "{why}");
        }
    }

    #[test]
    fn found_files_give_back_the_paths_the_walk_found() {
        // Every file's path, as reading and messages use it, is the walker's path byte for
        // byte, however the inputs are spelled; the order is that of the paths.
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        for f in [
            "a/x.cu",
            "a/z/y.cu",
            "a-b.cu",
            "a.cu",
            "aa/k.cu",
            "sp ace/\u{fc}.cu",
        ] {
            let p = t.join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, "int x;\n").unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let name = std::ffi::OsStr::from_bytes(b"bad\xff.cu");
            fs::write(t.join("a").join(name), "int y;\n").unwrap();
        }
        let t_text = t.to_str().unwrap();
        let spellings = [
            vec![t.clone()],
            vec![PathBuf::from(format!("{t_text}/"))],
            vec![PathBuf::from(format!("{t_text}/./a"))],
            vec![PathBuf::from(format!("{t_text}//a"))],
            vec![t.join("a"), t.join("aa")],
            vec![t.join("a.cu")],
        ];
        for inputs in spellings {
            let cfg = ConvertConfig::new(inputs.clone(), OutputMode::Nothing);
            let root = input_root(&inputs).unwrap();
            let (found, errors) = discover(&cfg, &root).unwrap();
            assert!(errors.is_empty(), "{errors:?}");
            let mut walked = Vec::new();
            for input in &inputs {
                let mut mine: Vec<PathBuf> = ignore::WalkBuilder::new(input)
                    .build()
                    .map(|e| e.unwrap())
                    .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                    .map(|e| e.into_path())
                    .collect();
                mine.sort_by(|x, y| x.components().cmp(y.components()));
                walked.extend(mine);
            }
            let paths: Vec<PathBuf> = found.iter().map(|f| f.path()).collect();
            // The walk that hands files over one at a time finds the same, in the same order.
            let mut each = Vec::new();
            let each_errors = discover_each(&cfg, &root, &Default::default(), |mut f| {
                // On Unix the size and stamp are left to the worker; settled, they are the
                // parallel walk's, and settling again reads nothing.
                assert_eq!(f.settle(), cfg!(unix), "{}", f.rel);
                assert!(!f.settle());
                each.push(f);
                true
            })
            .unwrap();
            assert!(each_errors.is_empty(), "{each_errors:?}");
            let fields = |f: &FoundFile| (f.path(), f.rel.clone(), f.translate, f.size, f.stamp);
            assert_eq!(
                each.iter().map(fields).collect::<Vec<_>>(),
                found.iter().map(|f| fields(f)).collect::<Vec<_>>(),
                "{inputs:?}"
            );
            let bytes = |v: &[PathBuf]| -> Vec<Vec<u8>> {
                v.iter()
                    .map(|p| p.as_os_str().as_encoded_bytes().to_vec())
                    .collect()
            };
            assert_eq!(bytes(&paths), bytes(&walked), "{inputs:?}");
            for f in &found {
                let path = f.path();
                assert_eq!(
                    fs::read(&path).unwrap_or_default().len(),
                    f.size as usize,
                    "{path:?}"
                );
            }
        }
    }

    #[test]
    fn relative_paths_read_from_the_text_match_their_components() {
        let root = Path::new("/work/tree");
        for rel in [
            "a.cu",
            "lib/mod/k.cu",
            "lib//mod/k.cu",
            "./lib/k.cu",
            "lib/./k.cu",
            "lib/k.cu/",
            "lib/k.cu/.",
            "x/../y.cu",
            "sp ace/ü.cu",
            ".hidden/.k.cu",
        ] {
            let path = root.join(rel);
            let expected = joined_components(path.strip_prefix(root).unwrap());
            assert_eq!(rel_string(root, &path), expected, "{rel}");
        }
        // Byte comparison answers as `Path::strip_prefix` does, whatever the spelling.
        let paths = [
            "/work/tree/a/b.cu",
            "/work/tree",
            "/work/tree/",
            "/work/treex/a",
            "/work/tree//a",
            "/work/tree/./a",
            "/work/./tree/a",
            "work/tree/a",
            "./work/tree/a",
            "/work",
            "/",
            "",
            ".",
        ];
        for p in paths {
            for d in paths {
                let (p, d) = (Path::new(p), Path::new(d));
                assert_eq!(strip_dir(p, d), p.strip_prefix(d).ok(), "{p:?} in {d:?}");
            }
        }
        // Outside the root: the path itself, as components.
        assert_eq!(
            joined_components(Path::new("/else/k.cu")),
            rel_string(root, Path::new("/else/k.cu"))
        );
    }

    #[test]
    fn same_content_compares_every_byte_and_the_length() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.cu");
        fs::write(&p, b"int x;\n").unwrap();
        assert!(same_content(&p, b"int x;\n"));
        assert!(!same_content(&p, b"int x;"));
        assert!(!same_content(&p, b"int x;\n\n"));
        assert!(!same_content(&p, b"int y;\n"));
        assert!(!same_content(&dir.path().join("missing"), b""));
        assert!(!same_content(dir.path(), b""));
    }

    #[cfg(unix)]
    #[test]
    fn regenerable_files_are_made_in_place_and_replaced_whole() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let names = || {
            let mut v: Vec<_> = fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        let p = dir.path().join("out.cu");
        write_regenerable(&p, b"first\n", true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"first\n");
        // A file already there (here, one left short) is replaced, keeping its permissions.
        fs::write(&p, b"fi").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        let old_inode = std::os::unix::fs::MetadataExt::ino(&fs::metadata(&p).unwrap());
        write_regenerable(&p, b"second, longer\n", true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"second, longer\n");
        let meta = fs::metadata(&p).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        // Replaced by a rename: a reader holding the old file never sees a mix.
        assert_ne!(std::os::unix::fs::MetadataExt::ino(&meta), old_inode);
        // A file that already holds the bytes is left as it is: same inode, same times.
        let before = fs::metadata(&p).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_regenerable(&p, b"second, longer\n", true).unwrap();
        let after = fs::metadata(&p).unwrap();
        assert_eq!(
            std::os::unix::fs::MetadataExt::ino(&after),
            std::os::unix::fs::MetadataExt::ino(&before)
        );
        assert_eq!(after.modified().unwrap(), before.modified().unwrap());
        // A symbolic link to a file with those bytes is no file of its own: it is replaced.
        let target = dir.path().join("target");
        fs::write(&target, b"same\n").unwrap();
        let link = dir.path().join("link.cu");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(!same_content(&link, b"same\n"));
        write_regenerable(&link, b"same\n", true).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
        assert_eq!(fs::read(&target).unwrap(), b"same\n");
        fs::remove_file(&link).unwrap();
        fs::remove_file(&target).unwrap();
        // Without `keep_mode` (cache entries) the replacement has the default permissions.
        let q = dir.path().join("entry");
        fs::write(&q, b"x").unwrap();
        fs::set_permissions(&q, fs::Permissions::from_mode(0o600)).unwrap();
        write_regenerable(&q, b"entry", false).unwrap();
        assert_eq!(fs::read(&q).unwrap(), b"entry");
        let fresh = dir.path().join("fresh");
        fs::write(&fresh, b"").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&q), mode(&fresh));
        // No temporary file is left behind, and a missing directory is an error, not a panic.
        assert_eq!(names(), ["entry", "fresh", "out.cu"]);
        let e = write_regenerable(&dir.path().join("no/such/dir"), b"x", true).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn an_atomic_writer_leaves_a_file_that_ends_up_the_same_as_it_was() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("list");
        let write = |pieces: &[&[u8]]| {
            let mut w = AtomicWriter::create(&p).unwrap();
            for piece in pieces {
                w.write_all(piece).unwrap();
            }
            w.finish().unwrap();
            let m = fs::metadata(&p).unwrap();
            (fs::read(&p).unwrap(), m.ino(), m.modified().unwrap())
        };
        let (body, ino, time) = write(&[b"head\n", b"one\n", b"two\n"]);
        assert_eq!(body, b"head\none\ntwo\n");
        std::thread::sleep(std::time::Duration::from_millis(20));
        // The same bytes, cut otherwise: not written.
        assert_eq!(
            write(&[b"head\none", b"\ntwo\n"]),
            (body.clone(), ino, time)
        );
        // Bytes that part from the file's in the middle, at its end, or stop short of it: the
        // whole new text, in a new file (made while the old one still was: another inode).
        let mut last = ino;
        for pieces in [
            &[&b"head\n"[..], b"ONE\n", b"two\n"][..],
            &[b"head\none\ntwo\n", b"three\n"],
            &[b"head\none\n"],
            &[],
        ] {
            let (now, new_ino, _) = write(pieces);
            assert_eq!(now, pieces.concat());
            assert_ne!(new_ino, last);
            last = new_ino;
        }
        // Dropped without `finish` while comparing or after parting: the file is as it was, and
        // no temporary file is left.
        fs::write(&p, b"kept\n").unwrap();
        for piece in [&b"ke"[..], b"other"] {
            let mut w = AtomicWriter::create(&p).unwrap();
            w.write_all(piece).unwrap();
            drop(w);
            assert_eq!(fs::read(&p).unwrap(), b"kept\n");
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn same_content_does_not_hang_on_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pipe.cu");
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        assert!(!same_content(&p, b"int x;\n"));
    }
}
