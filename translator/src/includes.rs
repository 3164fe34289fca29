//! Includes that reach renamed files (`--rename`): where an include written in a source lands, and
//! the path to write instead. An include is looked up as a compiler looks it up: beside the
//! including file, then in the include directories the tree's build files name (setup.py
//! `include_dirs` and `-I` flags, JIT `extra_include_paths`, CMake `include_directories`, Makefile
//! `-I`; see [`crate::buildfiles::include_dirs`]), then at the root of the input. The first of those
//! that holds the file decides: an include that finds a file that keeps its name is left alone.

use std::collections::BTreeMap;

use xxhash_rust::xxh3::xxh3_64;

/// Where includes are looked up besides the including file's directory: the include directories
/// the build files name, and which files the tree holds.
#[derive(Clone, Default)]
pub struct IncludeSearch {
    /// Include directories relative to the input root (`/`-separated, `""` for the root), in the
    /// order the build files were found.
    dirs: Vec<String>,
    /// Hashes of the relative paths of every file of the tree, sorted.
    files: Vec<u64>,
}

impl std::fmt::Debug for IncludeSearch {
    // The file list of a large tree would make a large text: a digest of it stands in.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes: Vec<u8> = self.files.iter().flat_map(|h| h.to_le_bytes()).collect();
        f.debug_struct("IncludeSearch")
            .field("dirs", &self.dirs)
            .field("files", &self.files.len())
            .field("digest", &xxh3_64(&bytes))
            .finish()
    }
}

impl IncludeSearch {
    /// A search through `dirs` (relative to the input root) of a tree holding `files`.
    pub fn new<'a>(dirs: Vec<String>, files: impl IntoIterator<Item = &'a str>) -> IncludeSearch {
        let mut files: Vec<u64> = files.into_iter().map(|f| xxh3_64(f.as_bytes())).collect();
        files.sort_unstable();
        files.dedup();
        IncludeSearch { dirs, files }
    }

    /// The include directories, relative to the input root.
    pub fn dirs(&self) -> &[String] {
        &self.dirs
    }

    /// Whether the tree holds a file at `rel`.
    pub fn has_file(&self, rel: &str) -> bool {
        self.files.binary_search(&xxh3_64(rel.as_bytes())).is_ok()
    }
}

/// The path to write for include `inner`, written in the file at `rel` (relative to the input
/// root), when it reaches a file that `renamed` (old -> new, relative to the root) renames.
/// Without a `search`, the file's directory and then the root are tried, and only renamed files
/// are known to exist.
///
/// Windows spellings are understood: an include written with backslashes
/// (`#include "..\common\helper.cuh"`, which MSVC and clang on Windows accept) is looked up
/// with `/` and rewritten with backslashes; and where no file has the exact name, a renamed file
/// whose name differs only in ASCII case (`Util.h` for `util.h`, which a case-insensitive file
/// system finds) is taken, and its new name written as the renames spell it.
pub fn renamed_include(
    renamed: &BTreeMap<String, String>,
    search: Option<&IncludeSearch>,
    rel: &str,
    inner: &str,
) -> Option<String> {
    let backslashes = inner.contains('\\');
    let written = inner.replace('\\', "/");
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let dirs = search.map_or(&[][..], |s| s.dirs());
    let candidates = || {
        std::iter::once(dir)
            .chain(dirs.iter().map(String::as_str))
            .chain(std::iter::once(""))
            .filter_map(|d| normalize_rel(&format!("{d}/{written}")))
    };
    let spelled = |new: &str| {
        let out = rewritten(&written, new);
        if backslashes {
            out.replace('/', "\\")
        } else {
            out
        }
    };
    for cand in candidates() {
        if let Some(new) = renamed.get(&cand) {
            return Some(spelled(new));
        }
        if search.is_some_and(|s| s.has_file(&cand)) {
            // The compiler finds a file that keeps its name.
            return None;
        }
    }
    for cand in candidates() {
        if let Some((_, new)) = renamed
            .iter()
            .find(|(old, _)| old.eq_ignore_ascii_case(&cand))
        {
            return Some(spelled(new));
        }
    }
    None
}

/// cuda-samples' `Common/` headers (`helper_cuda.h`'s `checkCudaErrors` and `findCudaDevice`,
/// `helper_functions.h`'s timers and file helpers): written against the CUDA runtime, and not
/// part of a sample's own directory, so a sample converted alone includes them unconverted.
pub(crate) const CUDA_SAMPLES_HELPERS: &[&str] = &[
    "helper_cuda.h",
    "helper_cuda_drvapi.h",
    "helper_functions.h",
    "helper_image.h",
    "helper_math.h",
    "helper_string.h",
    "helper_timer.h",
    "helper_multiprocess.h",
];

/// The [`CUDA_SAMPLES_HELPERS`] that hold no CUDA, with what they do hold: their missing-include
/// report says so instead of the CUDA-runtime help of `helper_cuda.h` (R46-2). Source:
/// cuda-samples' `Common/helper_multiprocess.h` includes only OS headers (`fcntl.h`,
/// `sys/mman.h`, `sys/socket.h`, `windows.h`) and declares shared-memory, socket and process
/// helpers.
const CUDA_SAMPLES_HELPERS_WITHOUT_CUDA: &[(&str, &str)] = &[(
    "helper_multiprocess.h",
    "shared memory, sockets and process spawning over the operating system's calls (`sharedMemoryCreate`, `ipcCreateSocket`, `spawnProcess`)",
)];

/// For a cuda-samples `Common/` helper with no CUDA in it (file name `name`): what it holds.
pub(crate) fn samples_helper_without_cuda(name: &str) -> Option<&'static str> {
    CUDA_SAMPLES_HELPERS_WITHOUT_CUDA
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, what)| *what)
}

/// The help of the missing-include report for cuda-samples' `Common/` helpers `names` (file
/// names) when none of them holds CUDA: that they need no converting, only the directory.
pub(crate) fn samples_helpers_without_cuda_help(names: &[&str]) -> Option<String> {
    let whats = names
        .iter()
        .map(|n| samples_helper_without_cuda(n.rsplit(['/', '\\']).next().unwrap_or(n)))
        .collect::<Option<Vec<_>>>()?;
    let mut whats = whats;
    whats.dedup();
    (!whats.is_empty()).then(|| {
        format!(
            "this is cuda-samples' `Common/` helper for {}, with no CUDA in it, so it needs no converting: put the samples' `Common/` directory on the include path (or copy the file into the input)",
            whats.join("; ")
        )
    })
}

/// Headers the CUDA toolkit installs in its `include/` that the rules map to nothing (they are
/// left as written): with the rules' headers, the file names [`missing_includes`] takes for the
/// toolkit's. Sources: the CUDA 11.8 `include/` listing (`cuda_pipeline*.h`); the CUDA 12.8
/// math API reference (FP4 and FP6 intrinsics: "include the header file cuda_fp4.h").
const CUDA_HEADERS_WITHOUT_RULE: &[&str] = &[
    "cuda_pipeline.h",
    "cuda_pipeline_primitives.h",
    "cuda_fp4.h",
    "cuda_fp4.hpp",
    "cuda_fp6.h",
    "cuda_fp6.hpp",
];

/// Whether file name `name` is one of the CUDA toolkit's `cuda*.h` headers (`known` says which the
/// rules map): a project's own `cuda_utils.h` is not (R25-b).
fn is_cuda_toolkit_header(name: &str, known: impl Fn(&str) -> bool) -> bool {
    name.starts_with("cuda") && (known(name) || CUDA_HEADERS_WITHOUT_RULE.contains(&name))
}

/// Whether `inner` (an include's path) names one of the CUDA SDK's utility headers before CUDA
/// 5.0: cutil (`cutil.h`, `cutil_inline.h`, `cutil_math.h`, ...) and shrUtils (`shrUtils.h`,
/// `shrQATest.h`). The CUDA 5.0 release notes: "Prior to CUDA 5.0, CUDA Sample projects
/// referenced a utility library with header and source files called cutil. This has been removed
/// with the CUDA Samples in CUDA 5.0, and replaced with header files found in [...] common\inc
/// helper_cuda.h, [...] helper_math.h, [...] helper_timer.h" (quoted in NVIDIA's forum thread
/// 33007). Part of neither CUDA nor HIP, they are reported with a note of their own (R21-g).
pub(crate) fn is_old_sdk_utility_header(inner: &str) -> bool {
    let name = inner.rsplit(['/', '\\']).next().unwrap_or(inner);
    name.ends_with(".h")
        && (name.starts_with("cutil") || matches!(name, "shrUtils.h" | "shrQATest.h"))
}

/// An `#include` that none of the places a compiler looks at holds (R19-c, R18-b): a file
/// generated at build time, one hipify would write, or one of a directory left out of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MissingInclude {
    /// Offset of the path's opening delimiter in the including file.
    pub at: usize,
    /// The path as written.
    pub inner: String,
    /// Written with `<...>`.
    pub angle: bool,
    /// The tree's file whose hipify output the path names (`rnnt/gpu/math.cuh` for
    /// `rnnt/hip/math_hip.cuh`), relative to the input root.
    pub hipify_source: Option<String>,
    /// A Python file beside the including one or above it that names the missing file: the
    /// generator that writes it at build time.
    pub generator: Option<String>,
}

/// The `#include "..."` and `#include <...>` directives of `src`: where each path starts, and
/// the path. A plain scan of the lines that open with `#` (no parse); `#include MACRO` is left out.
pub(crate) fn include_directives(src: &[u8]) -> Vec<(usize, crate::parse::HeaderPath<'_>)> {
    let blanks = |s: &[u8]| s.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    let mut out = Vec::new();
    for hash in memchr::memchr_iter(b'#', src) {
        let line_start = memchr::memrchr(b'\n', &src[..hash]).map_or(0, |i| i + 1);
        if blanks(&src[line_start..hash]) != hash - line_start {
            continue;
        }
        let mut i = hash + 1;
        i += blanks(&src[i..]);
        if !src[i..].starts_with(b"include") {
            continue;
        }
        i += b"include".len();
        i += blanks(&src[i..]);
        let end = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |e| i + e);
        let Ok(line) = std::str::from_utf8(&src[i..end]) else {
            continue;
        };
        if let Some(path) = crate::parse::HeaderPath::parse(line.trim_end_matches('\r')) {
            out.push((i, path));
        }
    }
    out
}

/// The includes of `src` (the file at `rel` under `root`) that find no file, looked up as a
/// compiler looks them up (beside the file for `"..."`, in the build's include directories, at
/// the root), and, as an `-I` hipport is not told of may point there, under each directory
/// above the file and its `include/` (see [`crate::header_facts::include_roots`]). Left out,
/// as the toolkits' and the system's: absolute paths, `<...>` paths in the toolkits'
/// directories (`ATen/`, `torch/`, `cuda/`, `hip/`) and `"..."` ones where the input has no such
/// directory where the include looks (a project's `src/cuda/` makes `"cuda/k.cuh"` its own), and
/// those `known` says are
/// toolkit headers (the rules' CUDA headers) or whose file name is a `cuda*.h` of the toolkit
/// ([`is_cuda_toolkit_header`]): a quoted `"cuda_utils.h"` of the project is reported (R25-b).
/// A `<...>` include, or one in a
/// toolkit's directory, is reported only where it names hipify's output of a file of the tree
/// (or is a cuda-samples helper).
pub(crate) fn missing_includes(
    src: &[u8],
    rel: &str,
    root: &std::path::Path,
    search: Option<&IncludeSearch>,
    known: impl Fn(&str) -> bool,
) -> Vec<MissingInclude> {
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let dirs = search.map_or(&[][..], |s| s.dirs());
    let exists = |cand: &str| search.is_some_and(|s| s.has_file(cand)) || root.join(cand).is_file();
    let mut generators: Option<Vec<(String, Vec<u8>)>> = None;
    let mut out = Vec::new();
    for (at, path) in include_directives(src) {
        let written = path.inner.replace('\\', "/");
        let angle = path.open == '<';
        let name = written.rsplit('/').next().unwrap_or(&written);
        let helper = CUDA_SAMPLES_HELPERS.contains(&name);
        // The old SDK's cutil has a note of its own, from the translation (R21-g).
        if written.is_empty()
            || is_old_sdk_utility_header(&written)
            || written.starts_with('/')
            || written.contains(':')
            || !helper && (known(path.inner) || is_cuda_toolkit_header(name, &known))
            || angle && !helper && !written.contains('/')
        {
            continue;
        }
        // Only hipify's name of a file of the tree is reported among these (`"hip/x_hip.cuh"`,
        // `<lib/hip/x.cuh>`).
        let toolkit = crate::header_facts::is_toolkit_include(&written);
        let mut quiet = angle && !helper || toolkit;
        // A project's `hip/` directory below its own (`rnnt/hip/`), or a `_hip` stem: not HIP's
        // own `<hip/hip_runtime.h>`.
        let hipified = written.contains("/hip/")
            || name
                .rsplit_once('.')
                .is_some_and(|(stem, _)| stem.ends_with("_hip"));
        // A quoted path in a toolkit's directory (`"cuda/k.cuh"`) is decided below, by whether
        // the input has that directory where the include looks (R20-b).
        let quoted_toolkit = !angle && toolkit && !hipified;
        if quiet && !hipified && !quoted_toolkit {
            continue;
        }
        // Most quoted includes sit beside the file: found there, nothing more is built.
        if !angle && normalize_rel(&format!("{dir}/{written}")).is_some_and(|c| exists(&c)) {
            continue;
        }
        let mut places: Vec<String> = Vec::new();
        if !angle {
            places.push(dir.to_string());
        }
        places.extend(dirs.iter().cloned());
        if !angle {
            places.push(String::new());
        }
        for d in crate::header_facts::include_roots(dir) {
            // Beside each `include/`, an `inc/` (cuda-samples' `-I../inc`).
            if let Some(up) = d.strip_suffix("include") {
                places.push(format!("{up}inc"));
            }
            places.push(d);
        }
        let project_dir = |first: &str| {
            places.iter().any(|d| {
                normalize_rel(&format!("{d}/{first}")).is_some_and(|c| root.join(c).is_dir())
            })
        };
        // Only `<cuda/...>` is libcu++'s: a quoted `"cuda/k.cuh"` whose `cuda/` the input has
        // where the include looks (InternImage's `src/cuda/`) is the project's (R20-b).
        if quoted_toolkit {
            if !written
                .split_once('/')
                .is_some_and(|(first, _)| project_dir(first))
            {
                continue;
            }
            quiet = false;
        }
        let candidates: Vec<String> = places
            .iter()
            .filter_map(|d| normalize_rel(&format!("{d}/{written}")))
            .collect();
        if candidates.iter().any(|c| exists(c)) {
            continue;
        }
        let hipify_source = candidates
            .iter()
            .filter(|_| hipified)
            .flat_map(|c| hipify_sources(c))
            .find(|c| exists(c));
        if quiet && hipify_source.is_none() {
            continue;
        }
        let generator = if hipify_source.is_none() && !helper {
            let scripts = generators.get_or_insert_with(|| python_files_above(root, dir));
            scripts
                .iter()
                .find(|(_, text)| memchr::memmem::find(text, name.as_bytes()).is_some())
                .map(|(p, _)| p.clone())
        } else {
            None
        };
        // A path under a directory the input has nowhere it looks (`"tensorflow/core/x.h"` in
        // a custom op, `"cutlass/gemm.h"`) names another project's headers, which its build
        // finds outside the input: only a generated file or hipify's name is reported there.
        if let Some((first, _)) = written.split_once('/') {
            let foreign = hipify_source.is_none()
                && generator.is_none()
                && !helper
                && first != ".."
                && first != "."
                && !project_dir(first);
            if foreign {
                continue;
            }
        }
        // A file of the tree the path names from some directory of it: an `-I` hipport was not
        // told of finds it (a Makefile's `-I../hip` for `"hipify.h"`).
        if hipify_source.is_none() && generator.is_none() && in_tree_below_some_dir(root, &written)
        {
            continue;
        }
        out.push(MissingInclude {
            at,
            inner: path.inner.to_string(),
            angle,
            hipify_source,
            generator,
        });
    }
    out
}

/// Whether a file of the tree under `root` has a path that ends with `written` (its leading
/// `./` and `../` dropped) at a directory boundary: the file an include directory would lead
/// to. The tree's file names are read once per root and run (hidden directories skipped, at
/// most 200,000 entries, symbolic links passed over: [`crate::tree_walk::walk_files`]), and only when an include is missing everywhere else.
fn in_tree_below_some_dir(root: &std::path::Path, written: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Names = Arc<HashMap<String, Vec<String>>>;
    static SEEN: OnceLock<Mutex<HashMap<std::path::PathBuf, Names>>> = OnceLock::new();
    let mut suffix = written;
    while let Some(rest) = suffix
        .strip_prefix("./")
        .or_else(|| suffix.strip_prefix("../"))
    {
        suffix = rest;
    }
    let Some(name) = suffix.rsplit('/').next().filter(|n| !n.is_empty()) else {
        return false;
    };
    let seen = SEEN.get_or_init(Default::default);
    let cached = seen.lock().ok().and_then(|m| m.get(root).cloned());
    let names = cached.unwrap_or_else(|| {
        let mut names: HashMap<String, Vec<String>> = HashMap::new();
        crate::tree_walk::walk_files(root, 200_000, |_, rel, _| {
            let file = rel.rsplit('/').next().unwrap_or(rel);
            names
                .entry(file.to_string())
                .or_default()
                .push(rel.to_string());
            std::ops::ControlFlow::Continue(())
        });
        let names = Arc::new(names);
        if let Ok(mut m) = seen.lock() {
            m.insert(root.to_path_buf(), names.clone());
        }
        names
    });
    names.get(name).is_some_and(|paths| {
        paths.iter().any(|p| {
            p == suffix
                || p.strip_suffix(suffix)
                    .is_some_and(|head| head.ends_with('/'))
        })
    })
}

/// The paths whose hipify output `path` may name: a `hip` directory read as `cuda`, `gpu` or
/// none, and a `_hip` at the end of the file's stem dropped (PyTorch's hipify writes
/// `hip/math_hip.cuh` for `cuda/math.cuh`). Empty where `path` has neither.
fn hipify_sources(path: &str) -> Vec<String> {
    let (dir, file) = path.rsplit_once('/').map_or(("", path), |(d, f)| (d, f));
    let (stem, ext) = file.rsplit_once('.').map_or((file, ""), |(s, e)| (s, e));
    let stems: Vec<String> = match stem.strip_suffix("_hip") {
        Some(s) if !s.is_empty() => vec![s.to_string(), stem.to_string()],
        _ => vec![stem.to_string()],
    };
    let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let mut dirs: Vec<String> = vec![parts.join("/")];
    if let Some(k) = parts.iter().rposition(|p| *p == "hip") {
        for with in ["cuda", "gpu", ""] {
            let mut v = parts.clone();
            if with.is_empty() {
                v.remove(k);
            } else {
                v[k] = with;
            }
            dirs.push(v.join("/"));
        }
    }
    let mut out = Vec::new();
    for d in &dirs {
        for s in &stems {
            let f = if ext.is_empty() {
                s.clone()
            } else {
                format!("{s}.{ext}")
            };
            let cand = if d.is_empty() { f } else { format!("{d}/{f}") };
            if cand != path && !out.contains(&cand) {
                out.push(cand);
            }
        }
    }
    out
}

/// The Python files (up to 1 MiB each) in directory `dir` of the tree under `root` and in each
/// directory above it: where a generator of the file's missing includes would be
/// (fairseq's `cuda_function_gen.py` writes `lightconv_cuda_forward.cu` beside the kernel).
fn python_files_above(root: &std::path::Path, dir: &str) -> Vec<(String, Vec<u8>)> {
    const MAX_SCRIPT_BYTES: u64 = 1 << 20;
    let mut out = Vec::new();
    let mut up = Some(dir);
    while let Some(d) = up {
        let Ok(entries) = std::fs::read_dir(root.join(d)) else {
            break;
        };
        let mut found: Vec<(String, Vec<u8>)> = entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "py"))
            .filter(|e| {
                e.metadata()
                    .is_ok_and(|m| m.is_file() && m.len() <= MAX_SCRIPT_BYTES)
            })
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let text = std::fs::read(e.path()).ok()?;
                let rel = if d.is_empty() {
                    name
                } else {
                    format!("{d}/{name}")
                };
                Some((rel, text))
            })
            .collect();
        found.sort();
        out.extend(found);
        up = (!d.is_empty()).then(|| d.rsplit_once('/').map_or("", |(p, _)| p));
    }
    out
}

/// `inner` with as many trailing components of `new` as it has: renames keep the number of path
/// components. `..` and `.` written in the include stay as they were.
pub(crate) fn rewritten(inner: &str, new: &str) -> String {
    let inner_parts: Vec<&str> = inner.split('/').collect();
    let new_parts: Vec<&str> = new.split('/').collect();
    let k = inner_parts.len().min(new_parts.len());
    let mut out: Vec<&str> = inner_parts[..inner_parts.len() - k].to_vec();
    out.extend(&new_parts[new_parts.len() - k..]);
    for (o, i) in out.iter_mut().zip(inner_parts.iter()) {
        if *i == ".." || *i == "." {
            *o = i;
        }
    }
    out.join("/")
}

/// `path` without `.` and empty components and with `..` applied; `None` when it leaves the root.
pub(crate) fn normalize_rel(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renamed(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn includes_are_looked_up_beside_the_file_then_in_include_dirs_then_at_the_root() {
        let r = renamed(&[
            ("inc/kernels/util.h", "inc/kernels/util_hip.h"),
            ("src/cuda/ops.cu", "src/hip/ops.hip"),
            ("common.h", "common_hip.h"),
        ]);
        let files = [
            "inc/kernels/util.h",
            "src/cuda/ops.cu",
            "src/cuda/kernels/plain.h",
            "common.h",
            "src/common.h",
        ];
        let search = IncludeSearch::new(vec!["inc".into()], files);
        let at = |inner| renamed_include(&r, Some(&search), "src/cuda/ops.cu", inner);
        assert_eq!(at("kernels/util.h").as_deref(), Some("kernels/util_hip.h"));
        assert_eq!(at("../../common.h").as_deref(), Some("../../common_hip.h"));
        assert_eq!(at("common.h").as_deref(), Some("common_hip.h"));
        assert_eq!(at("kernels/plain.h"), None);
        assert_eq!(at("missing.h"), None);
        // A file beside the including one shadows the renamed one at the root.
        assert_eq!(
            renamed_include(&r, Some(&search), "src/main.cpp", "common.h"),
            None
        );
        // Without the search, no include directory is known.
        assert_eq!(
            renamed_include(&r, None, "src/cuda/ops.cu", "kernels/util.h"),
            None
        );
        assert_eq!(
            renamed_include(&r, None, "src/cuda/x.cu", "ops.cu").as_deref(),
            Some("ops.hip")
        );
    }

    #[test]
    fn backslash_and_case_insensitive_includes_of_windows_sources() {
        let r = renamed(&[
            ("common/util.h", "common/util_hip.h"),
            ("src/cuda/k.cu", "src/hip/k.hip"),
        ]);
        let files = ["common/util.h", "src/cuda/k.cu", "src/cuda/Local.h"];
        let search = IncludeSearch::new(vec![], files);
        let at = |inner| renamed_include(&r, Some(&search), "src/cuda/k.cu", inner);
        assert_eq!(
            at("..\\..\\common\\util.h").as_deref(),
            Some("..\\..\\common\\util_hip.h")
        );
        assert_eq!(
            at("..\\..\\Common\\UTIL.h").as_deref(),
            Some("..\\..\\common\\util_hip.h")
        );
        assert_eq!(
            at("../../common/Util.h").as_deref(),
            Some("../../common/util_hip.h")
        );
        // Mixed separators, as Windows accepts them.
        assert_eq!(
            at("..\\../common/util.h").as_deref(),
            Some("..\\..\\common\\util_hip.h")
        );
        assert_eq!(at("Local.h"), None);
        assert_eq!(at("local.h"), None);
        assert_eq!(at("..\\..\\common\\missing.h"), None);
    }

    #[test]
    fn missing_includes_name_hipify_outputs_generators_and_samples_helpers() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write("lib/rnnt/gpu/math.cuh", "");
        write("lib/rnnt/gpu/utils.cuh", "");
        write("lib/inc/shared.h", "");
        write("lib/ops/k.cu", "");
        write("lib/ops/local.h", "");
        write("lib/hip/hipify.h", "");
        write("lib/ops/make_kernels.py", "open('k_forward.cu', 'w')\n");
        let src = concat!(
            "#include <vector>\n",
            "#include <torch/extension.h>\n",
            "#include \"cuda_fp16.h\"\n",
            "#include \"cublas_v2.h\"\n",
            "#include \"local.h\"\n",
            "#include \"rnnt/gpu/utils.cuh\"\n",
            "#include \"shared.h\"\n",
            "#include <rnnt/hip/math_hip.cuh>\n",
            "  #  include \"k_forward.cu\" // generated\n",
            "#include <helper_cuda.h>\n",
            "#include <other/absent.h>\n",
            "#include \"absent.h\"\n",
            "#include MACRO_PATH\n",
            // Another project's headers (a TensorFlow custom op): no `tensorflow/` anywhere
            // the lookup goes, so its build finds them outside the input. A directory the
            // input has (`rnnt/`) is the project's own: a missing file there is reported.
            "#include \"tensorflow/core/framework/op_kernel.h\"\n",
            "#include \"rnnt/gpu/absent.cuh\"\n",
            // Found by an `-I../hip` hipport was not told of (Kaldi's `hipify.h`).
            "#include \"hipify.h\"\n",
            "#include \"../hip/hipify.h\"\n",
        );
        let known = |h: &str| matches!(h, "cublas_v2.h" | "cuda_fp16.h");
        let missing = missing_includes(src.as_bytes(), "lib/ops/k.cu", root, None, known);
        let got: Vec<(&str, bool, Option<&str>, Option<&str>)> = missing
            .iter()
            .map(|m| {
                (
                    m.inner.as_str(),
                    m.angle,
                    m.hipify_source.as_deref(),
                    m.generator.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "rnnt/hip/math_hip.cuh",
                    true,
                    Some("lib/rnnt/gpu/math.cuh"),
                    None
                ),
                ("k_forward.cu", false, None, Some("lib/ops/make_kernels.py")),
                ("helper_cuda.h", true, None, None),
                ("absent.h", false, None, None),
                ("rnnt/gpu/absent.cuh", false, None, None),
            ]
        );
        // Where each path starts: its opening delimiter.
        let first = &missing[0];
        assert_eq!(&src[first.at..first.at + 1], "<");
    }

    /// Only `<cuda/...>` is the toolkit's: a quoted `"cuda/x.cuh"` that finds nothing, where the
    /// input has a `cuda/` directory the include looks in, is reported like any other (R20-b);
    /// one with no such directory, and the angle form, stay the toolkit's.
    #[test]
    fn quoted_cuda_paths_of_the_project_are_reported_missing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/cuda")).unwrap();
        std::fs::write(root.join("src/cuda/a.cu"), "").unwrap();
        std::fs::write(root.join("src/cuda/here.cuh"), "").unwrap();
        let src = concat!(
            "#include \"cuda/missing_kernels.cuh\"\n",
            "#include \"cuda/here.cuh\"\n",
            "#include <cuda/atomic>\n",
            "#include <cuda/missing.h>\n",
            "#include \"cuda/std/limits\"\n",
        );
        let known = |h: &str| h == "cuda/std/limits";
        let got: Vec<String> = missing_includes(src.as_bytes(), "src/cuda/a.cu", root, None, known)
            .into_iter()
            .map(|m| m.inner)
            .collect();
        assert_eq!(got, ["cuda/missing_kernels.cuh"]);
        // Without a `cuda/` directory of the project, `"cuda/x.h"` is the toolkit's.
        let got = missing_includes(b"#include \"cuda/x.h\"\n", "a.cu", root, None, known);
        assert!(got.is_empty(), "{got:?}");
    }

    /// Only the toolkit's `cuda*.h` headers are taken for the toolkit's: a project's own
    /// `"cuda_utils.h"` (EETQ's, with CUDA error checks to port) that the input lacks is reported
    /// like `"my_utils.h"` (R25-b).
    #[test]
    fn missing_project_headers_named_cuda_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let src = concat!(
            "#include \"cuda_utils.h\"\n",
            "#include \"my_utils.h\"\n",
            "#include \"cudaHelpers.cuh\"\n",
            "#include \"cuda_runtime.h\"\n",
            "#include \"cuda_pipeline.h\"\n",
            "#include \"cuda_fp4.h\"\n",
            "#include \"third_party/cuda_fp16.h\"\n",
            "#include <cuda_helpers.h>\n",
        );
        let known = |h: &str| matches!(h, "cuda_runtime.h" | "cuda_fp16.h");
        let got: Vec<String> = missing_includes(src.as_bytes(), "src/k.cu", root, None, known)
            .into_iter()
            .map(|m| m.inner)
            .collect();
        assert_eq!(got, ["cuda_utils.h", "my_utils.h", "cudaHelpers.cuh"]);
    }

    #[test]
    fn hipify_names_lead_back_to_the_cuda_files() {
        let got = hipify_sources("a/hip/math_hip.cuh");
        assert!(got.contains(&"a/cuda/math.cuh".to_string()));
        assert!(got.contains(&"a/gpu/math.cuh".to_string()));
        assert!(got.contains(&"a/math.cuh".to_string()));
        assert_eq!(hipify_sources("a/b/x_hip.h"), ["a/b/x.h"]);
        assert!(hipify_sources("a/b/x.h").is_empty());
    }

    #[test]
    fn moved_directories_replace_only_the_components_written() {
        assert_eq!(rewritten("cuda/k.cuh", "src/hip/k.cuh"), "hip/k.cuh");
        assert_eq!(rewritten("../cuda/k.cuh", "src/hip/k.cuh"), "../hip/k.cuh");
        assert_eq!(rewritten("./k.cuh", "hip/k.cuh"), "./k.cuh");
    }
}
