//! What a project's own headers tell the files that include them: the macros a header defines as
//! `warpSize` for the HIP build (`#define WARP_SIZE warpSize` under `USE_ROCM` in vLLM's
//! `cuda_compat.h`), so that H002 reads `WARP_SIZE` in a template default of a `.cu` that includes
//! it as the `warpSize` it is under hipcc; and how its device functions with warp-level work
//! treat a 64-lane wavefront, so that H001 knows a `.cu` whose kernels reduce 32-lane segments
//! with a header's `segmentSum` for segment code; and the names a header defines, so that T006
//! leaves a project's own `cudaCheckError()` alone in the files that include its header.
//!
//! Sits above [`crate::analysis`] (which finds such macros within one file) and
//! [`crate::includes`] (which says where an include lands). One [`HeaderFacts`] serves a whole
//! run: each header is read at most once, by whichever worker asks first, and its facts are
//! shared. A header with neither `warpSize` in a `#define` nor a warp operation is never parsed; a file with no include
//! of a project header never asks. Includes written with `<...>` are followed as well, where
//! an `-I` at the root of the project's headers would find them (see [`HeaderFacts::resolve`]).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::analysis::{AnalysisOptions, Define, HeaderAlias, HeaderFunction};
use crate::cache::Stamp;
use crate::diag::LineIndex;
use crate::includes::{normalize_rel, IncludeSearch};

/// How deep includes of includes are followed.
const DEPTH: usize = 8;

/// Headers larger than this are not read.
const MAX_HEADER_BYTES: u64 = 4 << 20;

/// What one header holds that matters to the files including it.
#[derive(Debug, Default)]
struct Header {
    /// Its includes, as written (`/`-separated), each with whether it is written with `<...>`.
    includes: Vec<(String, bool)>,
    /// Macros it defines as `warpSize` in a branch hipcc may compile, with the line of each.
    aliases: Vec<(String, usize)>,
    /// Constants it fixes at 32 under a warp-size name (see [`fixed_warp_sizes`]), with the
    /// line of each.
    fixed: Vec<(String, usize)>,
    /// The integer constants it fixes (see [`fixed_constants`]), with their values.
    constants: Vec<(String, i64)>,
    /// Where it has warp operations: a digest of its text, the text, and its device functions
    /// that do warp-level work (H001's segment code), found at the first question.
    warp_work: Option<WarpWork>,
    /// Its stamp when it was read (see [`crate::tree_index`]).
    stamp: Option<Stamp>,
    /// The macros it defines in conditional code that hipcc's view decides (`#if
    /// defined(__HIPCC__)` / `#define MY_HIP 1`), as defines and undefines.
    platform: Vec<Define>,
    /// Its qualifier macros (`#define DS_D_INLINE __device__ __forceinline__`), as `#define`
    /// lines tree-sitter is to know them by in the files that include it.
    qualifiers: Vec<u8>,
    /// The names it defines (see [`defined_names`]), read at the first question.
    names: OnceLock<HashSet<String>>,
}

/// A header with warp operations: what H001 may ask of it.
#[derive(Debug)]
struct WarpWork {
    digest: u64,
    text: Vec<u8>,
    functions: OnceLock<Vec<HeaderFunction>>,
}

/// What a file took from the project headers it includes.
#[derive(Debug, Default)]
pub struct Taken {
    /// The macros they define as `warpSize`.
    pub aliases: Vec<HeaderAlias>,
    /// The headers reached that have warp operations (relative to the root), with a digest of
    /// each one's text: their device functions are read only where H001 asks
    /// ([`HeaderFacts::functions`]), but the result depends on them all the same.
    pub warp_headers: Vec<(String, u64)>,
    /// Every header reached (relative to the root), with its stamp when read, and the build
    /// files whose include directories were searched: the file's result holds while they are
    /// unchanged.
    pub headers: Vec<(String, Option<Stamp>)>,
    /// The macros they define in conditional code that hipcc's view decides, as defines (and
    /// undefines) for the including file's branches; the first header to define a name wins.
    pub defines: Vec<Define>,
    /// The places an include was looked for and no header was found (relative to the root):
    /// the file's result holds while none of them appears.
    pub absent: Vec<String>,
    /// Their qualifier macros, as `#define` lines (see [`crate::parse::parse_with_qualifiers`]).
    pub qualifiers: Vec<u8>,
    /// The integer constants they fix (`static const int tblock_size = 32;`), with their
    /// values; the first header to fix a name wins (block sizes of the file's launches).
    pub constants: Vec<(String, i64)>,
    /// Whether `defines` hold what the whole tree decides (see [`HeaderFacts::own_switches`]):
    /// the result then depends on files the run index does not follow for it.
    pub tree_wide: bool,
}

/// The facts of a tree's headers, read lazily, once per run, shared by the run's workers.
pub struct HeaderFacts {
    /// The input root (headers outside it are not read).
    root: PathBuf,
    /// The build files' include directories and the tree's files, where the run knows them.
    search: Option<Arc<IncludeSearch>>,
    /// How the HIP build is judged (`--define`), and the parse budget of a header.
    opts: AnalysisOptions,
    budget: Duration,
    /// Header (relative to the root) -> its facts, `None` where there is no such file.
    memo: Mutex<HashMap<String, Slot>>,
    /// What the tree's other files and build files define (read at the first question).
    tree: crate::analysis::TreeDefines,
    /// Directory (relative to the root) -> the include directories its build files name, read
    /// at the first question, for a run without `search` (see [`HeaderFacts::build_dirs`]).
    build_dir_memo: Mutex<HashMap<String, Arc<DirBuild>>>,
}

/// What the build files directly in one directory say of includes (see
/// [`HeaderFacts::build_dirs`]).
#[derive(Debug, Default)]
struct DirBuild {
    /// The include directories they name (relative to the root), in file-name order.
    dirs: Vec<String>,
    /// The build files read (relative to the root), with their stamps: a file whose includes
    /// were looked for through them holds its result while they are unchanged.
    files: Vec<(String, Option<Stamp>)>,
}

/// A header's facts, filled by the first worker that asks.
type Slot = Arc<OnceLock<Option<Arc<Header>>>>;

impl std::fmt::Debug for HeaderFacts {
    // Options print into the cache's salt: what the headers say is keyed per file instead.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HeaderFacts")
    }
}

impl HeaderFacts {
    /// The facts of the headers under `root`, looked up through `search` where given (else
    /// beside the including file, then at the root), with the HIP build's `defines`.
    pub fn new(
        root: PathBuf,
        search: Option<Arc<IncludeSearch>>,
        defines: Vec<Define>,
        budget: Duration,
    ) -> HeaderFacts {
        HeaderFacts {
            tree: crate::analysis::TreeDefines::new(root.clone(), defines.clone(), budget),
            root,
            search,
            opts: AnalysisOptions {
                defines,
                ..AnalysisOptions::default()
            },
            budget,
            memo: Mutex::new(HashMap::new()),
            build_dir_memo: Mutex::new(HashMap::new()),
        }
    }

    /// What the project headers that `src`, the file at `rel` (relative to the root), includes
    /// (see [`HeaderFacts::resolve`] for where each is looked for; in a run with no include
    /// search, also in the include directories of the build files above the file, as the build
    /// finds them: verify21 V21-f), directly or through other headers (at most [`DEPTH`] deep, each header
    /// once), tell its analysis: the macros they define as `warpSize` and their device
    /// functions with warp-level work, with the headers reached. The first definition of a
    /// name wins. Headers not found, or outside the root, add nothing.
    ///
    /// And, for the names the file tests in `#if`/`#ifdef` that it defines itself or that the
    /// headers give as undefined, what the tree says (see [`HeaderFacts::own_switches`]).
    pub fn for_file(&self, src: &[u8], rel: &str) -> Taken {
        let mut taken = self.headers_taken(src, rel, true);
        // Where includes were looked for through the build files' include directories, those
        // files are followed as the headers are: one that changes may move an include.
        if self.search.is_none() && !(taken.headers.is_empty() && taken.absent.is_empty()) {
            let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
            taken.headers.extend(self.build_dirs(dir).1);
        }
        self.own_switches(src, &mut taken);
        taken
    }

    /// A file's own switches (DeepSpeed's `PTX_AVAILABLE`, which `src` tests and defines, only
    /// under `#if __CUDA_ARCH__ >= 530`): undefined under hipcc (a `-U` in `taken.defines`)
    /// only where no other file of the tree defines the name where hipcc may compile it and no
    /// build file names it (verify12 REG-1, REG-2). A header's `-U` for a name the file tests
    /// is kept on the same terms. Names hipcc's own view decides are left alone.
    fn own_switches(&self, src: &[u8], taken: &mut Taken) {
        let given = |name: &str| self.opts.defines.iter().any(|d| d.name == name);
        let mut own = crate::analysis::own_switches(src);
        // The names whose branches hold the file's definitions of CUDA-only macros (an editor
        // block's `#define __CUDA_ARCH__ 520` under `#ifdef EDITOR_HINTS`): off too where nothing
        // defines them (realuser34 R34-c).
        for name in crate::analysis::cuda_macro_guards(src) {
            if !own.contains(&name) {
                own.push(name);
            }
        }
        let header_off = taken
            .defines
            .iter()
            .any(|d| d.undefined && !crate::analysis::platform_macro(&d.name));
        if own.is_empty() && !header_off {
            return;
        }
        let tested = if header_off {
            crate::analysis::tested_names(src)
        } else {
            Default::default()
        };
        let mut tree_wide = false;
        taken.defines.retain(|d| {
            if !d.undefined
                || crate::analysis::platform_macro(&d.name)
                || !tested.contains(&d.name)
                || given(&d.name)
            {
                return true;
            }
            tree_wide = true;
            !self.tree.may_define(&d.name)
        });
        for name in own {
            if given(&name) || taken.defines.iter().any(|d| d.name == name) {
                continue;
            }
            tree_wide = true;
            if !self.tree.may_define(&name) {
                taken.defines.push(Define {
                    name,
                    value: None,
                    undefined: true,
                });
            }
        }
        taken.tree_wide |= tree_wide;
    }

    /// [`HeaderFacts::for_file`]'s part that reads the headers; with `build_dirs`, where the
    /// run has no include search, the include directories of the build files above the file
    /// are looked in too (see [`HeaderFacts::build_dirs`]).
    fn headers_taken(&self, src: &[u8], rel: &str, build_dirs: bool) -> Taken {
        let mut taken = Taken::default();
        if memchr::memmem::find(src, b"include").is_none() {
            return taken;
        }
        let direct = project_includes(src);
        if direct.is_empty() {
            return taken;
        }
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let extra = if build_dirs && self.search.is_none() {
            self.build_dirs(&dir).0
        } else {
            Vec::new()
        };
        let mut found: Vec<HeaderAlias> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        // (directory of the including header, include as written, whether with `<...>`, depth,
        // the file's include)
        type Queued = (String, String, bool, usize, usize);
        let mut queue: std::collections::VecDeque<Queued> = direct
            .into_iter()
            .map(|(at, inc, angle)| (dir.clone(), inc, angle, 1, at))
            .collect();
        while let Some((from, inc, angle, depth, at)) = queue.pop_front() {
            let Some((hrel, header)) = self.resolve(&from, &inc, angle, &extra, &mut taken.absent)
            else {
                continue;
            };
            if !seen.insert(hrel.clone()) {
                continue;
            }
            taken.headers.push((hrel.clone(), header.stamp));
            if let Some(w) = &header.warp_work {
                taken.warp_headers.push((hrel.clone(), w.digest));
            }
            for d in &header.platform {
                if !taken.defines.iter().any(|x| x.name == d.name) {
                    taken.defines.push(d.clone());
                }
            }
            taken.qualifiers.extend_from_slice(&header.qualifiers);
            for (name, v) in &header.constants {
                if !taken.constants.iter().any(|(n, _)| n == name) {
                    taken.constants.push((name.clone(), *v));
                }
            }
            let fixed = header.fixed.iter().map(|(n, l)| (n, l, true));
            for (name, line, fixed_32) in header
                .aliases
                .iter()
                .map(|(n, l)| (n, l, false))
                .chain(fixed)
            {
                if !found.iter().any(|h| h.name == *name) {
                    found.push(HeaderAlias {
                        name: name.clone(),
                        header: hrel.clone(),
                        line: *line,
                        after: at,
                        fixed_32,
                    });
                }
            }
            if depth < DEPTH {
                let here = hrel.rsplit_once('/').map_or("", |(d, _)| d);
                for (i, angle) in &header.includes {
                    queue.push_back((here.to_string(), i.clone(), *angle, depth + 1, at));
                }
            }
        }
        taken.aliases = found;
        taken
    }

    /// The device functions with warp-level work of the headers a file reached (`taken`), each
    /// header analysed once per run, at the first question; the first definition of a name wins.
    pub fn functions(&self, taken: &Taken) -> Vec<HeaderFunction> {
        let mut out: Vec<HeaderFunction> = Vec::new();
        for (rel, _) in &taken.warp_headers {
            let Some(h) = self.header(rel) else { continue };
            let Some(w) = &h.warp_work else { continue };
            let fns = w.functions.get_or_init(|| {
                crate::parse::parse(&w.text, self.budget)
                    .map(|tree| crate::analysis::segment_functions(&w.text, &tree, &self.opts))
                    .unwrap_or_default()
            });
            for f in fns {
                if !out.iter().any(|g| g.name == f.name) {
                    out.push(f.clone());
                }
            }
        }
        out
    }

    /// Whether a project header that `src`, the file at `rel`, includes, directly or through
    /// other headers (found as for [`HeaderFacts::for_file`]), defines `name` (see
    /// [`defined_names`]): a helper header's `#define cudaCheckError() ...` makes the name the
    /// project's in the files that include it (realuser40 R40-2). `None` where the file
    /// reaches no project header: the answer then depends on no other file. Where the run has
    /// no include search (it renames no file, so it lists no tree first), an include is looked
    /// for in the include directories of the build files above the file too (verify18 V18-i:
    /// `include/util.h` through CMake's `target_include_directories(e PRIVATE include)`).
    pub fn header_defines(&self, src: &[u8], rel: &str, name: &str) -> Option<bool> {
        let taken = self.headers_taken(src, rel, true);
        if taken.headers.is_empty() {
            return None;
        }
        Some(taken.headers.iter().any(|(h, _)| {
            self.header(h).is_some_and(|header| {
                header
                    .names
                    .get_or_init(|| {
                        std::fs::read(self.root.join(h))
                            .ok()
                            .and_then(|text| {
                                let tree = crate::parse::parse(&text, self.budget).ok()?;
                                Some(defined_names(&text, &tree))
                            })
                            .unwrap_or_default()
                    })
                    .contains(name)
            })
        }))
    }

    /// The stamp header `rel` had when this run read it, or, where this run has not read it,
    /// the stamp it has now (`None` when there is no such file, one too large to read, or off
    /// Unix). Only its metadata is looked at then: the tree index asks this of an unchanged
    /// file's headers, which that file's cached result spares reading.
    pub fn stamp(&self, rel: &str) -> Option<Stamp> {
        let read = {
            let memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            memo.get(rel).and_then(|c| c.get().cloned())
        };
        if let Some(h) = read {
            return h?.stamp;
        }
        let meta = std::fs::metadata(self.root.join(rel)).ok()?;
        if !meta.is_file() || meta.len() > MAX_HEADER_BYTES {
            return None;
        }
        Stamp::of_metadata(&meta)
    }

    /// Whether a header at `rel` is one this run reads (it exists, is not too large, and is in
    /// the tree's files where the run knows them).
    pub fn present(&self, rel: &str) -> bool {
        self.search.as_deref().is_none_or(|s| s.has_file(rel)) && self.header(rel).is_some()
    }

    /// Where include `inc`, written in a file of directory `from`, lands, and that header's
    /// facts; the first place that holds it wins. A quoted include is looked for beside the
    /// file, in the include directories, at the root. One written with `<...>` (`<raft/util/
    /// defs.cuh>`, which the build finds through an `-I` hipport is not told of) is looked for
    /// in the include directories, then, where it names a directory, under each directory
    /// above the file, nearest first, and in that directory's `include/`: where an `-I` at the
    /// root of the project's headers finds it (`cpp/include/` for `cpp/include/raft/core/x.cuh`
    /// and for `cpp/src/y.cu`). The places looked at before, where there is no header, are
    /// added to `absent`. The directories of `extra` (see [`HeaderFacts::build_dirs`]) come
    /// after the include directories.
    fn resolve(
        &self,
        from: &str,
        inc: &str,
        angle: bool,
        extra: &[String],
        absent: &mut Vec<String>,
    ) -> Option<(String, Arc<Header>)> {
        let inc = inc.replace('\\', "/");
        let dirs = self.search.as_deref().map_or(&[][..], |s| s.dirs());
        let mut places: Vec<String> = Vec::new();
        if angle {
            places.extend(dirs.iter().cloned());
            places.extend(extra.iter().cloned());
            if inc.contains('/') {
                places.extend(include_roots(from));
            }
        } else {
            places.push(from.to_string());
            places.extend(dirs.iter().cloned());
            places.extend(extra.iter().cloned());
            places.push(String::new());
        }
        let candidates = places
            .iter()
            .filter_map(|d| normalize_rel(&format!("{d}/{inc}")));
        for cand in candidates {
            if self.search.as_deref().is_none_or(|s| s.has_file(&cand)) {
                if let Some(h) = self.header(&cand) {
                    return Some((cand, h));
                }
            }
            if !absent.contains(&cand) {
                absent.push(cand);
            }
        }
        None
    }

    /// The include directories (relative to the root) that the build files in directory `dir`
    /// and the directories above it, up to the root, name (CMake's `include_directories` and
    /// `target_include_directories`, `-I` flags, setup.py's `include_dirs`; see
    /// [`crate::buildfiles::include_dirs`]), nearest directory first: where the build that
    /// compiles a file of `dir` looks for its includes, for a run that lists no tree (and so
    /// has no [`IncludeSearch`]). Each directory's build files are read once per run, at the
    /// first question; a directory is listed, the tree below it is not walked.
    /// With them, the build files read, with their stamps.
    fn build_dirs(&self, dir: &str) -> (Vec<String>, Vec<(String, Option<Stamp>)>) {
        let mut out: Vec<String> = Vec::new();
        let mut files: Vec<(String, Option<Stamp>)> = Vec::new();
        let mut at = Some(dir);
        while let Some(d) = at {
            let here = self.dir_build_dirs(d);
            for inc in &here.dirs {
                if !out.contains(inc) {
                    out.push(inc.clone());
                }
            }
            files.extend(here.files.iter().cloned());
            at = (!d.is_empty()).then(|| d.rsplit_once('/').map_or("", |(up, _)| up));
        }
        (out, files)
    }

    /// The include directories the build files directly in `dir` name (see
    /// [`HeaderFacts::build_dirs`]), in file-name order, and those files.
    fn dir_build_dirs(&self, dir: &str) -> Arc<DirBuild> {
        if let Some(known) = self
            .build_dir_memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(dir)
        {
            return Arc::clone(known);
        }
        let mut names: Vec<String> = std::fs::read_dir(self.root.join(dir))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        let mut found = DirBuild::default();
        for name in names {
            let Some(kind) = crate::buildfiles::classify(std::path::Path::new(&name)) else {
                continue;
            };
            let rel = if dir.is_empty() {
                name
            } else {
                format!("{dir}/{name}")
            };
            let path = self.root.join(&rel);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.len() > MAX_HEADER_BYTES {
                continue;
            }
            let Ok(text) = std::fs::read(&path) else {
                continue;
            };
            for inc in crate::buildfiles::include_dirs(kind, &text, &rel) {
                if !found.dirs.contains(&inc) {
                    found.dirs.push(inc);
                }
            }
            found.files.push((rel, Stamp::of_metadata(&meta)));
        }
        let found = Arc::new(found);
        self.build_dir_memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(dir.to_string(), Arc::clone(&found));
        found
    }

    /// The facts of the header at `rel`, read at the first question.
    fn header(&self, rel: &str) -> Option<Arc<Header>> {
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            match memo.get(rel) {
                Some(c) => Arc::clone(c),
                None => {
                    let c = Arc::new(OnceLock::new());
                    memo.insert(rel.to_string(), Arc::clone(&c));
                    c
                }
            }
        };
        cell.get_or_init(|| self.read(rel)).clone()
    }

    fn read(&self, rel: &str) -> Option<Arc<Header>> {
        let path = self.root.join(rel);
        let meta = std::fs::metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > MAX_HEADER_BYTES {
            return None;
        }
        let text = std::fs::read(&path).ok()?;
        let mut h = facts_of(&text, &self.opts, self.budget);
        h.stamp = Stamp::of_metadata(&meta);
        Some(Arc::new(h))
    }
}

/// A header's facts from its text: its includes, and, where it names `warpSize` at all,
/// the macros it defines as it (parsed, judged as within one file).
fn facts_of(text: &[u8], opts: &AnalysisOptions, budget: Duration) -> Header {
    let includes = project_includes(text)
        .into_iter()
        .map(|(_, i, angle)| (i, angle))
        .collect();
    let mut aliases = Vec::new();
    let mut platform = Vec::new();
    let warp = defines_warp_size(text);
    let decides = platform_test(text);
    if warp || decides {
        if let Ok(tree) = crate::parse::parse(text, budget) {
            if warp {
                let index = LineIndex::new(text);
                aliases = crate::analysis::warp_size_aliases(text, &tree, opts)
                    .into_iter()
                    .map(|(name, at)| (name, index.position(at).0))
                    .collect();
            }
            if decides {
                platform = crate::analysis::HipccView::new(
                    text,
                    tree.root_node(),
                    &opts.defines,
                    opts.hip_version,
                )
                .decided();
            }
        }
    }
    let warp_work = WARP_OPS
        .iter()
        .any(|w| memchr::memmem::find(text, w).is_some())
        .then(|| WarpWork {
            digest: xxhash_rust::xxh3::xxh3_64(text),
            text: text.to_vec(),
            functions: OnceLock::new(),
        });
    Header {
        includes,
        aliases,
        fixed: fixed_warp_sizes(text, &opts.defines),
        constants: fixed_constants(text, &opts.defines)
            .into_iter()
            .map(|(name, _, v)| (name, v))
            .collect(),
        warp_work,
        stamp: None,
        platform,
        qualifiers: crate::parse::qualifier_defines(text),
        names: OnceLock::new(),
    }
}

/// The names `text` (a header, parsed as `tree`) defines, in any branch: its macros, the
/// functions it declares or defines, its types (`struct`, `class`, `union` and `enum` with a
/// body, `typedef`s, `using` aliases), its enumerators, variables and namespaces. Members
/// (fields, a class's own functions) are left out: their uses are qualified or members.
pub fn defined_names(text: &[u8], tree: &tree_sitter::Tree) -> HashSet<String> {
    use tree_sitter::Node;
    // The name a declarator declares, under its pointer, array, function and init declarators.
    fn declared<'t>(mut d: Node<'t>) -> Option<Node<'t>> {
        loop {
            match d.kind() {
                "identifier" | "type_identifier" => return Some(d),
                "qualified_identifier"
                | "field_identifier"
                | "operator_name"
                | "destructor_name" => return None,
                _ => d = d.child_by_field_name("declarator")?,
            }
        }
    }
    let mut names = HashSet::new();
    let mut add = |n: Node| {
        if let Ok(s) = std::str::from_utf8(&text[n.byte_range()]) {
            names.insert(s.to_string());
        }
    };
    for n in crate::parse::Flat::new(tree.root_node()).nodes {
        match n.kind() {
            "preproc_def"
            | "preproc_function_def"
            | "alias_declaration"
            | "enumerator"
            | "namespace_definition" => {
                if let Some(name) = n.child_by_field_name("name") {
                    add(name);
                }
            }
            "struct_specifier" | "class_specifier" | "union_specifier" | "enum_specifier"
                if n.child_by_field_name("body").is_some() =>
            {
                if let Some(name) = n
                    .child_by_field_name("name")
                    .filter(|x| x.kind() == "type_identifier")
                {
                    add(name);
                }
            }
            "declaration" | "function_definition" | "type_definition" => {
                // Not a class's members: a `field_declaration_list` holds those.
                if n.parent()
                    .is_some_and(|p| p.kind() == "field_declaration_list")
                {
                    continue;
                }
                let mut c = n.walk();
                let ds: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
                for d in ds {
                    if let Some(name) = declared(d) {
                        add(name);
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// The constants `text` (a header) fixes at 32 under a name that says it holds the warp size
/// (`constexpr int WARP_SIZE = 32;`, `#define WARP_SIZE 32`, SUNDIALS' CUDA policies header),
/// each with its line: the files that include it compute with that 32 where they name it
/// (realuser22 R22-e). Only a name defined once, outside conditional code (an include guard
/// aside), counts: a header that chooses the value per platform decides it there. A test of
/// the project's own switch (`#ifdef DARKNET_GPU`, no platform's name in it) chooses no value:
/// where the name is defined it is 32, unless the build's `defines` (`-U DARKNET_GPU`) decide
/// the branch away (realuser28 R28-c).
fn fixed_warp_sizes(text: &[u8], defines: &[Define]) -> Vec<(String, usize)> {
    if memchr::memmem::find(text, b"32").is_none() {
        return Vec::new();
    }
    fixed_constants(text, defines)
        .into_iter()
        .filter(|(name, _, v)| {
            *v == 32 && name != "warpSize" && crate::analysis::warp_size_name(name)
        })
        .map(|(name, line, _)| (name, line))
        .collect()
}

/// A name's definitions in a header: how many, and the line and value of one at depth 0 that
/// is an integer.
type ConstantDefs = (String, usize, Option<(usize, i64)>);

/// The integer constants `text` (a header) fixes under one name, with the same rules as
/// [`fixed_warp_sizes`] (defined once, outside conditional code but an include guard or a
/// project switch the build takes), each with its line and value: `static const int
/// tblock_size = 32;`, `#define THREADS 32`. The files that include it launch with them
/// (`k<<<n / tblock_size, tblock_size>>>`, cuSZp: realuser48 R48-c).
fn fixed_constants(text: &[u8], defines: &[Define]) -> Vec<(String, usize, i64)> {
    let ident = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !s.as_bytes()[0].is_ascii_digit()
    };
    let int_value = |v: &str| {
        let v = v.trim();
        let v = v
            .strip_prefix('(')
            .and_then(|v| v.strip_suffix(')'))
            .unwrap_or(v)
            .trim();
        let v = v.trim_end_matches(['u', 'U', 'l', 'L']);
        match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            Some(h) => i64::from_str_radix(h, 16).ok(),
            None => v.parse::<i64>().ok(),
        }
    };
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    // Open conditionals, each with whether it is an include guard, and, for a project
    // switch's ([`project_switch`]), whether the build decides its branch (`Some(false)`: away).
    let mut open: Vec<(bool, Option<Option<bool>>)> = Vec::new();
    // Name -> (definitions seen, the line and value of a depth-0 definition as an integer).
    let mut defs: Vec<ConstantDefs> = Vec::new();
    let mut note =
        |name: &str, at: Option<(usize, i64)>| match defs.iter_mut().find(|d| d.0 == name) {
            Some(d) => {
                d.1 += 1;
                d.2 = d.2.or(at);
            }
            None => defs.push((name.to_string(), 1, at)),
        };
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let depth = open
            .iter()
            .filter(|(g, p)| !*g && !matches!(p, Some(None | Some(true))))
            .count();
        if let Some(d) = line.strip_prefix('#') {
            let d = d.trim_start();
            let word: String = d
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    // `#ifndef X` right before `#define X` at the top: an include guard.
                    let guarded = word == "ifndef" && open.is_empty() && {
                        let name = d[word.len()..].trim();
                        lines.get(i + 1).is_some_and(|n| {
                            let n = n.trim().trim_start_matches('#').trim_start();
                            n.strip_prefix("define")
                                .is_some_and(|r| r.split_whitespace().next() == Some(name))
                        })
                    };
                    open.push((
                        guarded,
                        project_switch(&word, d[word.len()..].trim(), defines),
                    ));
                }
                // The other branch of a switch is still no platform's choice.
                "else" => {
                    if let Some((_, Some(taken))) = open.last_mut() {
                        *taken = taken.map(|t| !t);
                    }
                }
                "elif" => {
                    if let Some((_, switch)) = open.last_mut() {
                        let elif = project_switch("if", d[word.len()..].trim(), &[]);
                        *switch = switch.and(elif).map(|_| None);
                    }
                }
                "endif" => {
                    open.pop();
                }
                "define" => {
                    let rest = d[word.len()..].trim_start();
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if ident(&name) {
                        let value = &rest[name.len()..];
                        let at = (depth == 0 && !value.starts_with('('))
                            .then(|| int_value(value))
                            .flatten()
                            .map(|v| (i + 1, v));
                        note(&name, at);
                    }
                }
                _ => {}
            }
            continue;
        }
        // `[static] constexpr int NAME = 32;`, `const unsigned NAME = 32;`
        let Some((lhs, rhs)) = line.strip_suffix(';').and_then(|l| l.split_once('=')) else {
            continue;
        };
        let words: Vec<&str> = lhs.split_whitespace().collect();
        let Some(&name) = words.last() else { continue };
        if words.len() < 3
            || !ident(name)
            || !words.iter().any(|w| matches!(*w, "const" | "constexpr"))
            || rhs.starts_with('=')
        {
            continue;
        }
        let at = (depth == 0)
            .then(|| int_value(rhs))
            .flatten()
            .map(|v| (i + 1, v));
        note(name, at);
    }
    defs.into_iter()
        .filter(|(_, count, _)| *count == 1)
        .filter_map(|(name, _, at)| at.map(|(line, v)| (name, line, v)))
        .collect()
}

/// For a conditional directive (`word`: `if`, `ifdef`, `ifndef`; `cond` its condition) that
/// tests the project's own switches only (no name of a platform, toolkit or architecture in
/// it, nor a reserved `__` name): whether the build with `defines` takes its branch, where they
/// decide it (`-D NAME`, `-U NAME` for a test of one name being defined). `None` for any other
/// test.
fn project_switch(word: &str, cond: &str, defines: &[Define]) -> Option<Option<bool>> {
    let cond = cond.split("//").next().unwrap_or("").trim();
    let names: Vec<&str> = cond
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && *w != "defined" && !w.as_bytes()[0].is_ascii_digit())
        .collect();
    const PLATFORM: [&str; 9] = [
        "cuda", "hip", "rocm", "nvcc", "nvidia", "amd", "arch", "wave", "gfx",
    ];
    if names.is_empty()
        || names.iter().any(|n| {
            let l = n.to_ascii_lowercase();
            l.starts_with("__") || PLATFORM.iter().any(|p| l.contains(p))
        })
    {
        return None;
    }
    // One name tested for being defined: what the build says of it.
    let negated = word == "ifndef" || cond.starts_with('!');
    let single = names.len() == 1
        && (word != "if"
            || cond
                .trim_start_matches('!')
                .trim_start()
                .starts_with("defined"));
    let given = defines.iter().rev().find(|d| d.name == names[0]);
    Some(given.filter(|_| single).map(|d| d.undefined == negated))
}

/// Whether `text` may define macros from a test of the platform: a conditional directive and a
/// `#define`, with `HIP` or `ROCM` somewhere (`__HIPCC__`, `__HIP_PLATFORM_AMD__`, `USE_ROCM`).
/// Only then is a header parsed for [`Header::platform`].
fn platform_test(text: &[u8]) -> bool {
    (memchr::memmem::find(text, b"HIP").is_some() || memchr::memmem::find(text, b"ROCM").is_some())
        && memchr::memmem::find(text, b"#if").is_some()
        && memchr::memmem::find(text, b"define").is_some()
        || defines_cuda_only(text)
}

/// Whether `text` `#define`s a macro only nvcc defines (a HIP shim's `#define __CUDA_ARCH__
/// 1300`), which then counts as defined in the files that include it.
fn defines_cuda_only(text: &[u8]) -> bool {
    let names = crate::analysis::CUDA_ONLY_MACROS.iter();
    names
        .chain(crate::analysis::LIBRARY_VERSION_MACROS)
        .any(|name| {
            memchr::memmem::find_iter(text, name.as_bytes()).any(|at| {
                let line = memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1);
                let before = text[line..at].trim_ascii();
                before.starts_with(b"#") && before[1..].trim_ascii_start() == b"define"
            })
        })
}

/// The texts without which a header has no warp operation H001 reads (shuffles, votes and
/// PyTorch's wrappers of them).
const WARP_OPS: [&[u8]; 6] = [
    b"__shfl",
    b"__ballot",
    b"__any",
    b"__all",
    b"__activemask",
    b"WARP_",
];

/// Whether `warpSize` appears in a `#define` of `text` (its logical line, continued lines
/// joined, starts with `#define`): only then is the header parsed.
fn defines_warp_size(text: &[u8]) -> bool {
    memchr::memmem::find_iter(text, b"warpSize").any(|at| {
        // Back to the start of the logical line: over line breaks escaped with `\`.
        let mut start = memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1);
        while start >= 2 && text[..start - 1].trim_ascii_end().ends_with(b"\\") {
            start = memchr::memrchr(b'\n', &text[..start - 1]).map_or(0, |i| i + 1);
        }
        let line = text[start..at].trim_ascii_start();
        line.strip_prefix(b"#")
            .is_some_and(|r| r.trim_ascii_start().starts_with(b"define"))
    })
}

/// The `#include "..."` directives of `text`, and the `#include <...>` ones that may name a
/// project header (not the toolkits' own, see [`is_toolkit_include`]): where each starts, the
/// path written, and whether it is written with `<...>`.
pub(crate) fn project_includes(text: &[u8]) -> Vec<(usize, String, bool)> {
    let mut out = Vec::new();
    let blanks = |s: &[u8]| s.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    for hash in memchr::memchr_iter(b'#', text) {
        let rest = &text[hash + 1..];
        let Some(rest) = rest[blanks(rest)..].strip_prefix(b"include") else {
            continue;
        };
        // Only a `#` that opens its line (after blanks) starts a directive.
        let line_start = text[..hash]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if blanks(&text[line_start..hash]) != hash - line_start {
            continue;
        }
        let rest = &rest[blanks(rest)..];
        let (rest, close, angle) = match rest.first() {
            Some(b'"') => (&rest[1..], b'"', false),
            Some(b'<') => (&rest[1..], b'>', true),
            _ => continue,
        };
        let end = rest
            .iter()
            .position(|&b| b == close || b == b'\n')
            .unwrap_or(rest.len());
        if rest.get(end) != Some(&close) || end == 0 {
            continue;
        }
        let Ok(path) = std::str::from_utf8(&rest[..end]) else {
            continue;
        };
        if path.starts_with('/') || angle && is_toolkit_include(path) {
            continue;
        }
        out.push((line_start, path.to_string(), angle));
    }
    out
}

/// Where an `-I` at the root of a project's headers may point, for a file in directory `from`
/// (relative to the input root, `""` for the root): each directory above it, nearest first,
/// and that directory's `include/` (`cpp/include/` serves `cpp/src/y.cu`).
pub(crate) fn include_roots(from: &str) -> Vec<String> {
    let mut places = Vec::new();
    let mut up = Some(from);
    while let Some(d) = up {
        places.push(d.to_string());
        places.push(if d.is_empty() {
            "include".to_string()
        } else {
            format!("{d}/include")
        });
        up = (!d.is_empty()).then(|| d.rsplit_once('/').map_or("", |(p, _)| p));
    }
    places
}

/// Whether `<path>` names a header in a directory the C library, the GPU toolkits or PyTorch
/// install (`<sys/time.h>`, `<hip/hip_runtime.h>`, `<cub/cub.cuh>`, `<ATen/ATen.h>`), which the
/// build does not find in the project: the first directory is one of [`TOOLKIT_DIRS`]. (A
/// `<...>` include with no directory, `<vector>` or a project's `<common.h>`, is looked for
/// only in the include directories the build files name.)
pub(crate) fn is_toolkit_include(path: &str) -> bool {
    path.split_once(['/', '\\'])
        .is_some_and(|(first, _)| TOOLKIT_DIRS.contains(&first))
}

/// The first directories of the headers that CUDA, ROCm, the C library and PyTorch install
/// (`<cuda/std/atomic>`, `<hip/hip_runtime.h>`, `<sys/time.h>`, `<ATen/ATen.h>`): `<...>`
/// includes of them are not looked for in the input.
const TOOLKIT_DIRS: &[&str] = &[
    "ATen",
    "bits",
    "c10",
    "cooperative_groups",
    "crt",
    "cub",
    "cuda",
    "hip",
    "hipcub",
    "linux",
    "nv",
    "rocprim",
    "sys",
    "thrust",
    "torch",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_size_constants_of_32_are_found_outside_conditional_code() {
        let found = |t: &str| fixed_warp_sizes(t.as_bytes(), &[]);
        assert_eq!(
            found("#pragma once\nconstexpr const long WARP_SIZE = 32;\n"),
            [("WARP_SIZE".to_string(), 2)]
        );
        assert_eq!(
            found("#ifndef P_H\n#define P_H\n#define kWarpSize 32 // lanes\n#endif\n"),
            [("kWarpSize".to_string(), 3)]
        );
        // A project's own switch chooses no value (realuser28 R28-c).
        assert_eq!(
            found("#if X\nconstexpr int WARP_SIZE = 32;\n#endif\n"),
            [("WARP_SIZE".to_string(), 2)]
        );
        assert_eq!(
            found("#pragma once\n#ifdef LIB_GPU\n#include <x.h>\n#define WARP_SIZE 32\n#endif\n"),
            [("WARP_SIZE".to_string(), 4)]
        );
        let undefined = [Define::parse_undefine("LIB_GPU").unwrap()];
        assert!(fixed_warp_sizes(
            b"#ifdef LIB_GPU\n#define WARP_SIZE 32\n#endif\n",
            &undefined
        )
        .is_empty());
        // Chosen per platform, defined twice, not a warp-size name, not 32, or not a constant.
        for none in [
            "#ifdef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif\n",
            "#ifndef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 32\n#endif\n",
            "#if defined(USE_CUDA) && X\n#define WARP_SIZE 32\n#endif\n",
            "#ifdef X\n#if __CUDA_ARCH__ >= 700\n#define WARP_SIZE 32\n#endif\n#endif\n",
            "constexpr int WARP_SIZE = 32;\n#undef WARP_SIZE\n#define WARP_SIZE 64\n",
            "constexpr int TILE = 32;\n",
            "constexpr int WARP_SIZE = 64;\n",
            "int WARP_SIZE = 32;\n",
        ] {
            assert!(found(none).is_empty(), "{none}");
        }
    }

    #[test]
    fn includes_and_warpsize_definitions_are_found_by_text() {
        let text = b"#include \"a.h\"\n  #  include \"sub/b.cuh\" // c\nint x; #include \"no.h\"\n\
#include <cuda.h>\n#include \"/abs.h\"\n#include \"unterminated\n#define X 1\n";
        let got: Vec<String> = project_includes(text)
            .into_iter()
            .map(|(_, i, _)| i)
            .collect();
        assert_eq!(got, ["a.h", "sub/b.cuh", "cuda.h"]);
        assert_eq!(project_includes(text)[1].0, 15);
        let angled =
            b"#include <raft/util/defs.cuh>\n#include <vector>\n#include <hip/hip_runtime.h>\n\
#include <cub/cub.cuh>\n#include <unterminated\n";
        let got: Vec<(String, bool)> = project_includes(angled)
            .into_iter()
            .map(|(_, i, a)| (i, a))
            .collect();
        assert_eq!(
            got,
            [
                ("raft/util/defs.cuh".to_string(), true),
                ("vector".to_string(), true)
            ]
        );
        assert!(defines_warp_size(
            b"#ifdef USE_ROCM\n  # define WS (warpSize)\n#endif\n"
        ));
        assert!(defines_warp_size(b"#define WS \\\n   warpSize\n"));
        assert!(!defines_warp_size(
            b"int n = warpSize;\n// #define-like text\n"
        ));
        assert!(!defines_warp_size(b"#define A 1\nint w = warpSize;\n"));
    }

    /// realuser16 T-b: a header of the input included with `<...>` (RAFT's `#include
    /// <raft/util/cuda_dev_essentials.cuh>`, found through `-I cpp/include`) gives its
    /// qualifier macros as a quoted one does, from a header beside it and from a source in a
    /// sibling directory of `include/`; toolkit headers are not looked for.
    #[test]
    fn angle_includes_of_input_headers_are_followed_as_an_include_root_finds_them() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for (rel, text) in [
            (
                "cpp/include/mylib/util/defs.cuh",
                "#pragma once\n#define DI inline __device__\n",
            ),
            (
                "cpp/include/mylib/util/other.cuh",
                "#define OTHER __device__\n",
            ),
            ("mylib/util/defs.cuh", "#define WRONG __device__\n"),
            ("cpp/include/hip/hip_runtime.h", "#define HIPQ __device__\n"),
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let facts = HeaderFacts::new(root.to_path_buf(), None, vec![], Duration::from_secs(5));
        let src =
            b"#include <mylib/util/defs.cuh>\n#include <hip/hip_runtime.h>\n#include <vector>\n";
        for rel in ["cpp/include/mylib/core/reduce.cuh", "cpp/src/reduce.cu"] {
            let taken = facts.for_file(src, rel);
            let q = String::from_utf8(taken.qualifiers).unwrap();
            assert!(q.contains("#define DI"), "{rel}: {q}");
            assert!(!q.contains("WRONG") && !q.contains("HIPQ"), "{rel}: {q}");
            assert_eq!(
                taken
                    .headers
                    .iter()
                    .map(|h| h.0.as_str())
                    .collect::<Vec<_>>(),
                ["cpp/include/mylib/util/defs.cuh"]
            );
        }
        // A quoted include is not looked for in the directories above the file.
        let taken = facts.for_file(b"#include \"mylib/util/other.cuh\"\n", "cpp/src/k.cu");
        assert!(taken.headers.is_empty());
        // Where the places nearer the file hold nothing, the root's does (an `-I .`).
        let taken = facts.for_file(src, "tools/k.cu");
        assert_eq!(
            taken
                .headers
                .iter()
                .map(|h| h.0.as_str())
                .collect::<Vec<_>>(),
            ["mylib/util/defs.cuh"]
        );
        assert!(taken
            .absent
            .contains(&"tools/mylib/util/defs.cuh".to_string()));
    }
}
