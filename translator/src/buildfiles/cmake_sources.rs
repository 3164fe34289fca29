//! The CUDA sources a CMake file builds, read for Thrust and CUB (R21-f): the `.cu` files it
//! names, those its `file(GLOB ...)` / `file(GLOB_RECURSE ...)` patterns match, and the project
//! headers they include with quotes. Only these files are read, within a budget, never the
//! whole tree, so that the CMake file's translation stays cheap to redo.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use super::text;

/// How many files (sources and the headers they include) one CMake file's scan reads at most.
const FILE_BUDGET: usize = 200;
/// The largest file the scan reads.
const MAX_FILE: u64 = 4 << 20;
/// How many directory entries one CMake file's globs list at most.
const ENTRY_BUDGET: usize = 4000;
/// How deep the scan follows quoted includes from a listed source.
const INCLUDE_DEPTH: u32 = 4;

/// Whether a CMake file (`file`, relative to `root`) builds CUDA sources that include Thrust,
/// and whether they include CUB: `add_executable(t t.cu)` where t.cu, or a header it includes
/// with quotes, includes `<thrust/device_vector.h>`.
pub(super) fn use_thrust(src: &str, file: &str, root: &Path) -> (bool, bool) {
    let dir = root.join(text::dir_of(file));
    let mut scan = Scan {
        dir: dir.clone(),
        ..Scan::default()
    };
    for w in words(src).filter(|w| is_cuda_source(w) && !is_pattern(w)) {
        scan.queue.push_back((dir.join(w), 0));
    }
    let mut entries = ENTRY_BUDGET;
    for (pattern, recurse) in globs(src) {
        for path in expand(&dir, pattern, recurse, &mut entries) {
            scan.queue.push_back((path, 0));
        }
    }
    scan.run();
    (scan.thrust, scan.cub)
}

/// A breadth-first read of sources and the headers they include, stopping once both answers
/// are known or the budget is spent.
#[derive(Default)]
struct Scan {
    /// The CMake file's directory, where a quoted include not found beside its includer is
    /// looked for too.
    dir: PathBuf,
    queue: VecDeque<(PathBuf, u32)>,
    seen: HashSet<PathBuf>,
    thrust: bool,
    cub: bool,
}

impl Scan {
    fn run(&mut self) {
        let mut budget = FILE_BUDGET;
        while let Some((path, depth)) = self.queue.pop_front() {
            if budget == 0 || self.thrust && self.cub {
                break;
            }
            if !self.seen.insert(path.clone()) {
                continue;
            }
            if !std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE) {
                continue;
            }
            budget -= 1;
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let (t, c) = super::thrust_and_cub(&bytes);
            self.thrust |= t;
            self.cub |= c;
            if depth < INCLUDE_DEPTH {
                let base = path.parent().unwrap_or(Path::new(""));
                for name in quoted_includes(&bytes) {
                    self.queue.push_back((base.join(name), depth + 1));
                    self.queue.push_back((self.dir.join(name), depth + 1));
                }
            }
        }
    }
}

/// The words of a CMake file, with `${CMAKE_CURRENT_SOURCE_DIR}/` (or `_LIST_DIR`) taken off
/// and words naming other variables or absolute paths left out.
fn words(src: &str) -> impl Iterator<Item = &str> {
    src.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"'))
        .map(|w| {
            ["${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"]
                .iter()
                .find_map(|p| w.strip_prefix(p))
                .unwrap_or(w)
        })
        .filter(|w| !w.contains('$') && !w.starts_with('/'))
}

/// Whether a word names a CUDA source or header.
fn is_cuda_source(w: &str) -> bool {
    w.ends_with(".cu") || w.ends_with(".cuh")
}

/// Whether a word is a glob pattern.
fn is_pattern(w: &str) -> bool {
    w.contains(['*', '?', '['])
}

/// The CUDA patterns of the file's `file(GLOB ...)` and `file(GLOB_RECURSE ...)` commands, each
/// with whether it recurses.
fn globs(src: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let lower = src.to_ascii_lowercase();
    for at in memchr::memmem::find_iter(lower.as_bytes(), b"file") {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = lower[at + 4..].trim_start();
        let Some(args) = rest.strip_prefix('(') else {
            continue;
        };
        let open = src.len() - args.len();
        let close = src[open..].find(')').map_or(src.len(), |c| open + c);
        let mut ws = src[open..close].split_whitespace();
        let recurse = match ws.next() {
            Some(k) if k.eq_ignore_ascii_case("GLOB_RECURSE") => true,
            Some(k) if k.eq_ignore_ascii_case("GLOB") => false,
            _ => continue,
        };
        out.extend(
            words(&src[open..close])
                .filter(|w| is_pattern(w) && is_cuda_source(w))
                .map(|w| (w, recurse)),
        );
    }
    out
}

/// The files under `dir` that `pattern` (a relative path whose last part may hold `*` and `?`)
/// matches; with `recurse`, in every directory below its own too, as `GLOB_RECURSE` does.
/// Directories are listed within `entries`; links to directories are not followed.
fn expand(dir: &Path, pattern: &str, recurse: bool, entries: &mut usize) -> Vec<PathBuf> {
    let (sub, name) = pattern.rsplit_once('/').unwrap_or(("", pattern));
    if is_pattern(sub) || sub.split('/').any(|p| p == "..") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut dirs = vec![dir.join(sub)];
    while let Some(d) = dirs.pop() {
        let Ok(list) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut names: Vec<_> = list.flatten().collect();
        names.sort_by_key(|e| e.file_name());
        for e in names {
            if *entries == 0 {
                return out;
            }
            *entries -= 1;
            let Ok(kind) = e.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if recurse {
                    dirs.push(e.path());
                }
            } else if glob_match(name.as_bytes(), e.file_name().as_encoded_bytes()) {
                out.push(e.path());
            }
        }
    }
    out
}

/// Whether a file name matches a pattern of `*` (any run) and `?` (one character); other
/// characters, `[` included, match themselves.
fn glob_match(pat: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pat.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pat[p..].iter().all(|&c| c == b'*')
}

/// The paths of a file's `#include "..."` lines.
fn quoted_includes(text: &[u8]) -> impl Iterator<Item = &str> {
    memchr::memmem::find_iter(text, b"include").filter_map(move |at| {
        let before = text[..at].iter().rev().find(|c| !matches!(c, b' ' | b'\t'));
        if before != Some(&b'#') {
            return None;
        }
        let rest = text[at + b"include".len()..].trim_ascii_start();
        let rest = rest.strip_prefix(b"\"")?;
        let end = memchr::memchr2(b'"', b'\n', rest)?;
        (rest[end] == b'"')
            .then(|| std::str::from_utf8(&rest[..end]).ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_cmake_file_names() {
        assert!(glob_match(b"*.cu", b"a.cu"));
        assert!(glob_match(b"k_*.cu", b"k_sum.cu"));
        assert!(glob_match(b"?.cu", b"a.cu"));
        assert!(!glob_match(b"*.cu", b"a.cuh"));
        assert!(!glob_match(b"*.cu", b"a.cpp"));
        assert!(glob_match(b"*.cu*", b"a.cuh"));
        assert!(!glob_match(b"k_*.cu", b"a_k_sum.cu"));
    }

    #[test]
    fn glob_commands_give_their_cuda_patterns() {
        let src = "FILE(GLOB_RECURSE K \"${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cu\")\nfile(GLOB H src/*.h)\nfile(GLOB C CONFIGURE_DEPENDS src/*.cu)\nfile(READ x.cu y)\nmyfile(GLOB z/*.cu)\n";
        assert_eq!(
            globs(src),
            vec![("kernels/*.cu", true), ("src/*.cu", false)]
        );
    }

    #[test]
    fn quoted_includes_skip_system_headers_and_comments() {
        let text = b"#include \"a.cuh\"\n#  include \"sub/b.h\"\n#include <thrust/sort.h>\n// include \"c.h\"\n";
        assert_eq!(
            quoted_includes(text).collect::<Vec<_>>(),
            ["a.cuh", "sub/b.h"]
        );
    }
}
