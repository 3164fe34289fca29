//! What a file's own headers define: the object-like macros and integer constants of the
//! project headers it includes (with quotes, or as `<dir/x.h>` found above it), read by text (no parse) so that a mask macro defined in a
//! project's `common.h` (or GROMACS's `static const unsigned int c_fullWarpMask = 0xffffffff;`)
//! is known where it is used. Each header is read once per thread; the memo is bounded.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deep includes of includes are followed.
const DEPTH: usize = 3;

/// Headers remembered per thread before the memo is emptied (bounds memory on huge trees).
const MEMO_LIMIT: usize = 4096;

/// Headers larger than this are not read.
const MAX_HEADER_BYTES: u64 = 4 << 20;

/// One header's object-like macros and integer constants (name, body or initializer) and
/// project includes (path, written with `<...>`), in source order.
#[derive(Default)]
struct Header {
    macros: Vec<(String, String)>,
    includes: Vec<(String, bool)>,
    /// The names of its function-like macros.
    function_macros: Vec<String>,
    /// Whether it includes NVTX's header or rocTX's (see [`is_profiler_include`]).
    profiler: bool,
}

thread_local! {
    static MEMO: RefCell<HashMap<PathBuf, Option<Arc<Header>>>> = RefCell::new(HashMap::new());
}

/// The object-like macros (name, body) that the project includes of `src` define, directly or
/// through their own, each quoted include looked up beside the including file, then under
/// `root`; one written `<dir/x.h>` under each directory from the including file's up to `root`,
/// nearest first, and in its `include/` (where an `-I` at the root of the project's headers
/// finds it; see [`crate::header_facts`]). The first definition of a name wins; a name defined
/// differently in two headers (as in `#ifdef` branches) is left out, since which one applies is
/// not known.
pub fn include_macros(src: &[u8], dir: &Path, root: Option<&Path>) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut conflicting: std::collections::HashSet<String> = std::collections::HashSet::new();
    each_include(src, dir, root, |_, header| {
        for (name, body) in &header.macros {
            match index.get(name) {
                Some(&i) if found[i].1 != *body => {
                    conflicting.insert(name.clone());
                }
                Some(_) => {}
                None => {
                    index.insert(name.clone(), found.len());
                    found.push((name.clone(), body.clone()));
                }
            }
        }
    });
    found.retain(|(n, _)| !conflicting.contains(n));
    found
}

/// The function-like macros of names `wanted` accepts that the project includes of `src` (found
/// as for [`include_macros`]) define in a branch hipcc compiles, judged with the build's
/// `defines` at `hip_version`: a ROCm shim's `#define __shfl_down_sync(mask, v, d)
/// __shfl_down(v, d)` under `#ifdef __HIP_PLATFORM_AMD__` (LightGBM's cuda_rocm_interop.h,
/// R22-b). Only a header defining such a name is parsed.
pub fn include_function_macros(
    src: &[u8],
    dir: &Path,
    root: Option<&Path>,
    wanted: &dyn Fn(&str) -> bool,
    defines: &[crate::analysis::Define],
    hip_version: hipport_rules::Version,
    budget: std::time::Duration,
) -> Vec<String> {
    let mut found = Vec::new();
    each_include(src, dir, root, |path, header| {
        if !header.function_macros.iter().any(|n| wanted(n)) {
            return;
        }
        let Ok(text) = std::fs::read(path) else {
            return;
        };
        let Ok(tree) = crate::parse::parse(&text, budget) else {
            return;
        };
        let root = tree.root_node();
        let view = crate::analysis::HipccView::new(&text, root, defines, hip_version);
        for n in crate::parse::Flat::new(root).nodes {
            if n.kind() != "preproc_function_def" {
                continue;
            }
            let Some(name) = n.child_by_field_name("name") else {
                continue;
            };
            let name = String::from_utf8_lossy(&text[name.byte_range()]).into_owned();
            if wanted(&name)
                && !found.contains(&name)
                && view.skips(&text, root, n.start_byte()).is_none()
            {
                found.push(name);
            }
        }
    });
    found
}

/// Whether a project header that `src` includes (found as for [`include_macros`]), directly or
/// through its own includes, includes NVTX's header or rocTX's: a converted project header that
/// includes `nvToolsExt.h` includes `roctracer/roctx.h` after the port, so the files that
/// include it have rocTX's declarations (R27-d).
/// Only headers under `root` count: one outside the tree is not converted.
pub fn includes_profiler_header(src: &[u8], dir: &Path, root: &Path) -> bool {
    let mut found = false;
    each_include(src, dir, Some(root), |path, header| {
        let inside = path.strip_prefix(root).is_ok_and(|rel| {
            crate::includes::normalize_rel(&rel.to_string_lossy().replace('\\', "/")).is_some()
        });
        found |= header.profiler && inside;
    });
    found
}

/// Whether an include's path (as written) names an NVTX header that the port makes rocTX's
/// (`nvToolsExt.h`, `nvtx3/nvToolsExt.h`; not `nvtx3/nvtx3.hpp`, NVTX's C++ API, which is kept)
/// or rocTX's own (`roctracer/roctx.h`, `rocprofiler-sdk-roctx/roctx.h`).
pub fn is_profiler_include(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let file = path.rsplit('/').next().unwrap_or(&path);
    file == "nvToolsExt.h" || path.starts_with("nvtx3/") && file != "nvtx3.hpp" || file == "roctx.h"
}

/// Calls `each` with every project header that `src` includes, directly or through their own
/// includes (up to [`DEPTH`]), once each (see [`include_macros`] for where they are looked for).
fn each_include(src: &[u8], dir: &Path, root: Option<&Path>, mut each: impl FnMut(&Path, &Header)) {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut queue: Vec<(PathBuf, (String, bool), usize)> = project_includes(src)
        .into_iter()
        .map(|inc| (dir.to_path_buf(), inc, 1))
        .collect();
    while let Some((from, (inc, angle), depth)) = queue.pop() {
        let candidates = include_candidates(&from, &inc, angle, root);
        let Some((path, header)) = candidates
            .into_iter()
            .find_map(|p| read(&p).map(|h| (p, h)))
        else {
            continue;
        };
        if seen.contains(&path) {
            continue;
        }
        seen.push(path.clone());
        each(&path, &header);
        if depth < DEPTH {
            let here = path.parent().map(Path::to_path_buf).unwrap_or_default();
            for i in header.includes.iter().rev() {
                queue.push((here.clone(), i.clone(), depth + 1));
            }
        }
    }
}

/// Source files of a tree read for their includes at most (bounds the walk on huge trees).
const MAX_TREE_FILES: usize = 50_000;

/// Directory entries of a tree looked at at most (a single file's input root is its directory,
/// which may be a large one).
const MAX_TREE_ENTRIES: usize = 500_000;

/// The file extensions whose includes [`includer_macros`] reads.
const SOURCE_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "h", "hh", "hpp", "hxx", "c", "cc", "cpp", "cxx", "inl", "cuinl", "tcc",
];

/// One source file of a tree that includes project files: its path, and each include's line
/// start, path as written and whether it is written with `<...>`.
type IncludingFile = (PathBuf, Vec<(usize, String, bool)>);

/// Input root -> the files under it with project includes, read once per run (all workers).
static TREES: std::sync::OnceLock<std::sync::Mutex<HashMap<PathBuf, Arc<Vec<IncludingFile>>>>> =
    std::sync::OnceLock::new();

/// The object-like macros (name, body) and integer constants that the files including `file`
/// see before their include of it: their own definitions above that line and what the project
/// headers they include above it define (see [`include_macros`]). fairseq's kernels include
/// `mask.cuh` and then `"../cuda_utils.cu"`, whose `__shfl_xor_sync(SHFL_MASK, ...)` uses the
/// mask macro of a header it never includes itself. Files under `root` are searched (hidden
/// directories left out); a name two includers define differently is left out.
pub fn includer_macros(file: &Path, root: &Path) -> Vec<(String, String)> {
    let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let target = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let tree = tree_includes(root);
    let mut found: Vec<(String, String)> = Vec::new();
    let mut conflicting: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (includer, includes) in tree.iter() {
        let dir = includer.parent().unwrap_or(root);
        let Some(&(line, _, _)) = includes.iter().find(|(_, inc, angle)| {
            let written = inc.replace('\\', "/");
            (written == name || written.ends_with(&format!("/{name}")))
                && include_candidates(dir, &written, *angle, Some(root))
                    .iter()
                    .any(|c| std::fs::canonicalize(c).is_ok_and(|c| c == target))
        }) else {
            continue;
        };
        if std::fs::canonicalize(includer).is_ok_and(|c| c == target) {
            continue;
        }
        let Ok(text) = std::fs::read(includer) else {
            continue;
        };
        let before = &text[..line.min(text.len())];
        let mut seen = object_macros(before);
        seen.extend(integer_constants(before));
        seen.extend(include_macros(before, dir, Some(root)));
        for (macro_name, body) in seen {
            match found.iter().find(|(n, _)| *n == macro_name) {
                Some((_, b)) if *b != body => {
                    conflicting.insert(macro_name);
                }
                Some(_) => {}
                None => found.push((macro_name, body)),
            }
        }
    }
    found.retain(|(n, _)| !conflicting.contains(n));
    found
}

/// The files under `root` with project includes, walked once per run.
fn tree_includes(root: &Path) -> Arc<Vec<IncludingFile>> {
    let trees = TREES.get_or_init(Default::default);
    // Held during the walk: a second worker asking for the same tree waits for it.
    let mut trees = match trees.lock() {
        Ok(t) => t,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(t) = trees.get(root) {
        return t.clone();
    }
    let mut files = Vec::new();
    let mut read = 0;
    crate::tree_walk::walk_files(root, MAX_TREE_ENTRIES, |path, _, len| {
        let source = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
        if !source || len > MAX_HEADER_BYTES || read >= MAX_TREE_FILES {
            return std::ops::ControlFlow::Continue(());
        }
        read += 1;
        if let Ok(text) = std::fs::read(path) {
            let includes = crate::header_facts::project_includes(&text);
            if !includes.is_empty() {
                files.push((path.to_path_buf(), includes));
            }
        }
        std::ops::ControlFlow::Continue(())
    });
    let t = Arc::new(files);
    trees.insert(root.to_path_buf(), t.clone());
    t
}

/// Where include `inc` written in a file in directory `from` may be found: a quoted one beside
/// the file, then at `root`; one written `<dir/x.h>` in each directory from `from` up to
/// `root` and its `include/`.
fn include_candidates(from: &Path, inc: &str, angle: bool, root: Option<&Path>) -> Vec<PathBuf> {
    if angle {
        // Above the file up to the root (the file's directory alone without one).
        let (base, rel) = match root.and_then(|r| Some((r, from.strip_prefix(r).ok()?))) {
            Some((r, rel)) => (r, rel.to_string_lossy().replace('\\', "/")),
            None => (from, String::new()),
        };
        crate::header_facts::include_roots(&rel)
            .into_iter()
            .map(|d| base.join(d).join(inc))
            .collect()
    } else {
        [Some(from.join(inc)), root.map(|r| r.join(inc))]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// A header's macros and includes, read once per thread.
fn read(path: &Path) -> Option<Arc<Header>> {
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(h) = memo.get(path) {
            return h.clone();
        }
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        let header = std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file() && m.len() <= MAX_HEADER_BYTES)
            .and_then(|_| std::fs::read(path).ok())
            .map(|text| {
                let mut macros = object_macros(&text);
                macros.extend(integer_constants(&text));
                Arc::new(Header {
                    macros,
                    includes: project_includes(&text),
                    function_macros: function_macros(&text),
                    profiler: directives(&text).any(|d| {
                        d.trim_start()
                            .strip_prefix("include")
                            .and_then(|rest| {
                                let rest = rest.trim_start();
                                let close = match rest.as_bytes().first()? {
                                    b'"' => '"',
                                    b'<' => '>',
                                    _ => return None,
                                };
                                let path = &rest[1..];
                                Some(is_profiler_include(&path[..path.find(close)?]))
                            })
                            .unwrap_or(false)
                    }),
                })
            });
        memo.insert(path.to_path_buf(), header.clone());
        header
    })
}

/// The lines of `text` that are directives, continued lines joined (`\` and the line break
/// dropped), each without its `#`.
fn directives(text: &[u8]) -> impl Iterator<Item = String> + '_ {
    let mut lines = text.split(|b| *b == b'\n').peekable();
    std::iter::from_fn(move || loop {
        let line = lines.next()?;
        let trimmed = line.trim_ascii();
        let Some(rest) = trimmed.strip_prefix(b"#") else {
            continue;
        };
        let mut joined = String::from_utf8_lossy(rest).into_owned();
        while joined.ends_with('\\') {
            joined.pop();
            match lines.next() {
                Some(next) => joined.push_str(&String::from_utf8_lossy(next.trim_ascii())),
                None => break,
            }
        }
        return Some(joined);
    })
}

/// The paths of `#include "..."` directives, and of `#include <dir/x.h>` ones that may name a
/// project header (not a toolkit's), with whether each is written with `<...>`.
fn project_includes(text: &[u8]) -> Vec<(String, bool)> {
    directives(text)
        .filter_map(|d| {
            let rest = d.trim_start().strip_prefix("include")?.trim_start();
            let (close, angle) = match rest.as_bytes().first()? {
                b'"' => ('"', false),
                b'<' => ('>', true),
                _ => return None,
            };
            let rest = &rest[1..];
            let path = &rest[..rest.find(close)?];
            let project = !path.is_empty()
                && !path.starts_with('/')
                && (!angle || path.contains('/') && !crate::header_facts::is_toolkit_include(path));
            project.then(|| (path.to_string(), angle))
        })
        .collect()
}

/// The integer constants `text` declares one to a line, `const` or `constexpr`, with a literal
/// initializer (`static const unsigned int c_fullWarpMask = 0xffffffff;`,
/// `constexpr uint32_t kFull = ~0u;`): name and initializer. A declaration of several names, a
/// call or a non-literal value is left out.
fn integer_constants(text: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(line.trim_ascii()) else {
            continue;
        };
        if line.starts_with('#') || !(line.contains("const ") || line.contains("constexpr ")) {
            continue;
        }
        let Some((head, rest)) = line.split_once('=') else {
            continue;
        };
        let Some((value, _)) = rest.split_once(';') else {
            continue;
        };
        let value = value.trim();
        let words: Vec<&str> = head.split_whitespace().collect();
        let literal = value.starts_with(|c: char| c.is_ascii_digit() || c == '~' || c == '-')
            && value
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b"xXuUlL~-+()| ".contains(&b));
        let Some((name, kinds)) = words.split_last() else {
            continue;
        };
        let plain_name = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if literal
            && plain_name
            && kinds.iter().any(|w| matches!(*w, "const" | "constexpr"))
            && !head.contains(['(', ',', '[', '<', '*', '&'])
        {
            out.push((name.to_string(), value.to_string()));
        }
    }
    out
}

/// The `#define`s of `text`: each macro's name and what follows it (`(` first for a
/// function-like one).
fn defines(text: &[u8]) -> impl Iterator<Item = (String, String)> + '_ {
    directives(text).filter_map(|d| {
        let rest = d.trim_start().strip_prefix("define")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let rest = rest.trim_start();
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        (len > 0).then(|| (rest[..len].to_string(), rest[len..].to_string()))
    })
}

/// The names of the function-like macros of `text`.
fn function_macros(text: &[u8]) -> Vec<String> {
    defines(text)
        .filter(|(_, rest)| rest.starts_with('('))
        .map(|(name, _)| name)
        .collect()
}

/// The object-like macros of `text`: name and body, the body without a trailing comment.
fn object_macros(text: &[u8]) -> Vec<(String, String)> {
    defines(text)
        .filter(|(_, body)| !body.starts_with('('))
        .map(|(name, body)| {
            let cut = [body.find("//"), body.find("/*")]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(body.len());
            (name, body[..cut].trim().to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_constants_one_to_a_line() {
        let text = b"static const unsigned int c_fullWarpMask = 0xffffffff;\n\
                     constexpr uint32_t kFull = ~0u; // all lanes\n\
                     const int a = 1, b = 2;\n\
                     static const float kHalf = 0.5f;\n\
                     const int n = count();\n\
                     int mutable_mask = 0xffffffff;\n\
                     __constant__ unsigned dev_mask = 0xffffffff;\n\
                     const char* s = \"x\";\n";
        let got = integer_constants(text);
        assert_eq!(
            got,
            vec![
                ("c_fullWarpMask".to_string(), "0xffffffff".to_string()),
                ("kFull".to_string(), "~0u".to_string()),
            ]
        );
    }

    #[test]
    fn macros_of_quoted_includes_beside_the_file_then_at_the_root_three_deep() {
        let dir = std::env::temp_dir().join(format!("hipport-headers-{}", std::process::id()));
        let sub = dir.join("src");
        std::fs::create_dir_all(sub.join("detail")).unwrap();
        std::fs::create_dir_all(dir.join("include")).unwrap();
        std::fs::write(
            sub.join("defs.h"),
            "#pragma once\n#define FULL_MASK 0xffffffff // all lanes\n#define SQ(x) ((x)*(x))\n#include \"detail/more.h\"\n",
        )
        .unwrap();
        std::fs::write(
            sub.join("detail/more.h"),
            "#define WARP \\\n  32\n#include \"../deeper.h\"\n",
        )
        .unwrap();
        std::fs::write(
            sub.join("deeper.h"),
            "#include \"deepest.h\"\n#define THREE 3\n",
        )
        .unwrap();
        std::fs::write(sub.join("deepest.h"), "#define FOUR 4\n").unwrap();
        std::fs::write(
            dir.join("include/common.h"),
            "#ifdef A\n#define MODE 1\n#else\n#define MODE 2\n#endif\n#define ROOTED 1\n",
        )
        .unwrap();
        let src = b"#include \"defs.h\"\n#include \"include/common.h\"\n#include <cuda.h>\n";
        let got = include_macros(src, &sub, Some(&dir));
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert!(
            got.contains(&("FULL_MASK".into(), "0xffffffff".into())),
            "{got:?}"
        );
        assert!(got.contains(&("WARP".into(), "32".into())), "{got:?}");
        assert!(
            names.contains(&"THREE") && names.contains(&"ROOTED"),
            "{got:?}"
        );
        // A function-like macro, a fourth level, and a name with two definitions are left out.
        assert!(
            !names.contains(&"SQ") && !names.contains(&"FOUR") && !names.contains(&"MODE"),
            "{got:?}"
        );
        // Nothing to find: no includes, or includes that are not there.
        assert!(include_macros(b"#include \"nope.h\"\n", &sub, None).is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A mask macro of a project header included as `<dir/x.h>` (RAFT's `<raft/util/...>`,
    /// realuser16 T-b) is found under a directory above the file or its `include/`, up to the
    /// input root; a toolkit's `<cuda/...>` is not looked for, nor anything above the root.
    #[test]
    fn macros_of_angle_includes_found_above_the_file() {
        let dir = std::env::temp_dir().join(format!("hipport-angle-{}", std::process::id()));
        let root = dir.join("proj");
        std::fs::create_dir_all(root.join("cpp/include/lib/util")).unwrap();
        std::fs::create_dir_all(root.join("cpp/src/k")).unwrap();
        std::fs::create_dir_all(root.join("cuda")).unwrap();
        std::fs::create_dir_all(dir.join("include/out")).unwrap();
        std::fs::write(
            root.join("cpp/include/lib/util/defs.cuh"),
            "#define LIB_FULL 0xffffffffu\n",
        )
        .unwrap();
        std::fs::write(root.join("cuda/std.h"), "#define TOOLKIT 1\n").unwrap();
        std::fs::write(dir.join("include/out/side.h"), "#define OUTSIDE 1\n").unwrap();
        let src = b"#include <lib/util/defs.cuh>\n#include <cuda/std.h>\n#include <out/side.h>\n#include <vector>\n";
        let got = include_macros(src, &root.join("cpp/src/k"), Some(&root));
        assert_eq!(got, [("LIB_FULL".to_string(), "0xffffffffu".to_string())]);
        // Without a root only the file's own directory is looked at.
        assert!(include_macros(src, &root.join("cpp/src/k"), None).is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn includer_macros_are_what_includers_see_before_their_include_of_the_file() {
        let dir = std::env::temp_dir().join(format!("hipport-includers-{}", std::process::id()));
        let root = dir.join("proj");
        std::fs::create_dir_all(root.join("ops")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(
            root.join("lanes.cuh"),
            "#define ALL 0xffffffff
",
        )
        .unwrap();
        std::fs::write(root.join("reduce.cu"), "int f();\n").unwrap();
        // Seen before the include: the header's macro and the includer's own; not after it.
        std::fs::write(
            root.join("ops/a.cu"),
            "#include \"../lanes.cuh\"\n#define OWN 3\n#include \"../reduce.cu\"\n#define LATER 1\n",
        )
        .unwrap();
        // Two includers that disagree on a name: it is left out.
        std::fs::write(
            root.join("ops/b.cu"),
            "#define OWN 4\n#include \"../reduce.cu\"\n",
        )
        .unwrap();
        // Hidden directories are not searched.
        std::fs::write(
            root.join(".git/c.cu"),
            "#define HIDDEN 1\n#include \"../reduce.cu\"\n",
        )
        .unwrap();
        let got = includer_macros(&root.join("reduce.cu"), &root);
        assert_eq!(got, [("ALL".to_string(), "0xffffffff".to_string())]);
        assert!(includer_macros(&root.join("lanes.cuh"), &root).is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
