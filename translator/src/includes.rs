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
    fn moved_directories_replace_only_the_components_written() {
        assert_eq!(rewritten("cuda/k.cuh", "src/hip/k.cuh"), "hip/k.cuh");
        assert_eq!(rewritten("../cuda/k.cuh", "src/hip/k.cuh"), "../hip/k.cuh");
        assert_eq!(rewritten("./k.cuh", "hip/k.cuh"), "./k.cuh");
    }
}
