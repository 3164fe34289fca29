//! R30-a: a Makefile recipe that compiles a host source with a host compiler (`g++ -c host.cpp`,
//! `$(CXX) -c $<`) where the source, or a project header it includes, includes a CUDA header
//! that the port turns into a HIP one (`<cuda_runtime.h>` -> `<hip/hip_runtime.h>`). Where the
//! line had a CUDA include path, [`super::make`]'s `host_flags` writes HIP's words in its place;
//! where CUDA came from the compiler's default include path, the line named no CUDA directory,
//! and HIP's headers, outside the compiler's path and without HIP's platform macro, stop the
//! build ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"). Such a
//! line gets the same words after its program.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::make::{self, Driver};
use super::make_rdc;
use super::text::{self, Sink, Word};
use super::{BuildOptions, B_PATH};

/// The words a host compile of a source that includes HIP's headers needs.
pub(super) const HOST_HIP_WORDS: &str = "-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include";

/// The extensions a host compiler compiles as C or C++.
fn host_source(ext: &str) -> bool {
    matches!(ext, "c" | "cc" | "cpp" | "cxx" | "C" | "c++" | "cp" | "CPP")
}

/// Adds [`HOST_HIP_WORDS`] after the program of recipe line `words` (run by a host compiler)
/// when a source it compiles includes a CUDA header the port maps to HIP's, and nothing on it
/// (expanded) already gives HIP's platform macro or a CUDA include path (which `host_flags`
/// rewrites). `header`: the rule's line. Returns whether `$(ROCM_PATH)` was written.
pub(super) fn host_compile_of_hip_sources(
    sink: &mut Sink,
    words: &[Word],
    header: Option<&str>,
    values: &BTreeMap<String, String>,
    opts: &BuildOptions,
) -> bool {
    let Some(root) = opts.tree_root.as_deref() else {
        return false;
    };
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let Some((Driver::Host, at)) = make::driver_word(&texts, values, 0) else {
        return false;
    };
    let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    let expanded: Vec<String> = texts[at + 1..]
        .iter()
        .flat_map(|t| {
            make_rdc::expand(t, values, 0)
                .split_whitespace()
                .map(unquote)
                .collect::<Vec<_>>()
        })
        .collect();
    // HIP's macro is there, or a CUDA include path that becomes HIP's with it.
    let cuda_include = |w: &str, next: Option<&String>| {
        let path = ["-isystem", "-I"]
            .iter()
            .find_map(|f| w.strip_prefix(f))
            .map(|p| {
                if p.is_empty() {
                    next.map_or("", |n| n.as_str())
                } else {
                    p
                }
            });
        path.is_some_and(|p| super::flags::is_cuda_path_in(p, &opts.cuda_path_vars))
    };
    // R36-d: a link of HIP libraries (`-lamdhip64 -lhipsparse`, CUDA's before the port) by the
    // host compiler, with no library path for them: hipcc adds ROCm's, gcc does not, and GNU ld
    // does not search /opt/rocm/lib.
    let link_path = links_hip_without_path(&expanded, opts);
    if expanded.iter().enumerate().any(|(i, w)| {
        w.contains("__HIP_PLATFORM_AMD__")
            || w.contains("__HIP_PLATFORM_HCC__")
            || w.contains("__HIP_PLATFORM_NVIDIA__")
            || cuda_include(w, expanded.get(i + 1))
    }) {
        return link_path && add_link_path(sink, &words[at]);
    }
    // A flag's value (`-o x.cpp`) is no source; `-x cu`-style languages are left alone.
    let ext_of = |w: &str| -> Option<String> {
        let name = w.rsplit('/').next().unwrap_or(w);
        name.rsplit_once('.').map(|(_, e)| e.to_string())
    };
    let mut sources: Vec<String> = Vec::new();
    let mut prev_o = false;
    for w in &expanded {
        let was_o = std::mem::replace(&mut prev_o, w == "-o");
        if was_o || w.starts_with('-') || w.contains('$') || w.contains('%') {
            continue;
        }
        if ext_of(w).is_some_and(|e| host_source(&e)) {
            sources.push(w.clone());
        }
    }
    let first = expanded.iter().any(|w| w.contains("$<"));
    let all = expanded
        .iter()
        .any(|w| w.contains("$^") || w.contains("$+") || w.contains("$?"));
    let dir = text::dir_of(sink.file()).to_string();
    let mut patterns: Vec<(String, String)> = Vec::new();
    if first || all {
        for (k, p) in prerequisites(header, values).into_iter().enumerate() {
            if k > 0 && !all {
                break;
            }
            if let Some((a, b)) = p.split_once('%') {
                if ext_of(b).is_some_and(|e| host_source(&e)) {
                    patterns.push((a.to_string(), b.to_string()));
                }
            } else if ext_of(&p).is_some_and(|e| host_source(&e)) {
                sources.push(p);
            }
        }
        // A suffix rule (`.cpp.o:`).
        if let Some(h) = header {
            let targets = h.split(':').next().unwrap_or("").trim();
            if let Some(ext) = targets
                .strip_prefix('.')
                .and_then(|t| t.split_once('.'))
                .map(|(e, _)| e)
                .filter(|e| host_source(e))
            {
                patterns.push((String::new(), format!(".{ext}")));
            }
        }
    }
    let base = root.join(&dir);
    let mut files: Vec<PathBuf> = sources.iter().map(|s| base.join(s)).collect();
    for (prefix, suffix) in &patterns {
        let (sub, stem) = match prefix.rsplit_once('/') {
            Some((d, s)) => (base.join(d), s.to_string()),
            None => (base.clone(), prefix.clone()),
        };
        if let Ok(entries) = std::fs::read_dir(&sub) {
            for e in entries.flatten().take(2000) {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with(&stem) && name.ends_with(suffix.as_str()) {
                    files.push(e.path());
                }
            }
        }
    }
    let mut budget = 400usize;
    let mut seen: Vec<PathBuf> = Vec::new();
    let Some(through) = files
        .iter()
        .find_map(|f| includes_cuda(f, root, &base, &mut seen, &mut budget, 0))
    else {
        return link_path && add_link_path(sink, &words[at]);
    };
    let w = &words[at];
    let added = if link_path {
        format!(" {HOST_HIP_WORDS} {HOST_LINK_WORDS}")
    } else {
        format!(" {HOST_HIP_WORDS}")
    };
    if !sink.edit(w.end, w.end, added, B_PATH.id) {
        return false;
    }
    if link_path {
        link_path_note(sink, w.start);
    }
    sink.diag_as(
        B_PATH,
        crate::diag::Severity::Note,
        w.start,
        format!(
            "this host compile reads `{through}`, which becomes a HIP header: `{HOST_HIP_WORDS}` added"
        ),
        Some(format!(
            "the compiler found CUDA's headers on its default path; HIP's are under ROCm's include directory and need the platform macro, without which they stop (\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\"); ROCM_PATH defaults to /opt/rocm (`{}`)",
            "ROCM_PATH ?= /opt/rocm"
        )),
    );
    true
}

/// The library path a host link of HIP libraries needs (R36-d).
pub(super) const HOST_LINK_WORDS: &str = "-L$(ROCM_PATH)/lib";

/// Whether the words of a host compiler's line (`expanded`, past its program) link (no `-c`,
/// `-S`, `-E`, `-M`, `-MM`) a library the port maps to a HIP or ROCm one, or one of those
/// (`-lcudart`, `-lcusparse`, `-lamdhip64`, `-lhipblas`), and name no library path that is or
/// becomes ROCm's (a CUDA one, which `host_flags` rewrites, or one under `ROCM_PATH`,
/// `/opt/rocm`, `HIP_PATH`).
fn links_hip_without_path(expanded: &[String], opts: &BuildOptions) -> bool {
    if expanded
        .iter()
        .any(|w| matches!(w.as_str(), "-c" | "-S" | "-E" | "-M" | "-MM"))
    {
        return false;
    }
    let hip_library = |name: &str| {
        super::flags::library(name).is_some_and(|l| l.hip.is_some() || name == "cudart")
            || matches!(name, "cuda" | "cudart_static")
            || name == "amdhip64"
            || ["hip", "roc", "rccl", "miopen"]
                .iter()
                .any(|p| name.starts_with(p))
    };
    if !expanded
        .iter()
        .any(|w| w.strip_prefix("-l").is_some_and(hip_library))
    {
        return false;
    }
    let mut paths = expanded.iter().enumerate().filter_map(|(i, w)| {
        let p = w.strip_prefix("-L")?;
        Some(if p.is_empty() {
            expanded.get(i + 1).map_or("", |n| n.as_str())
        } else {
            p
        })
    });
    !paths.any(|p| {
        super::flags::is_cuda_path_in(p, &opts.cuda_path_vars)
            || ["ROCM", "rocm", "HIP_PATH", "HIP_DIR"]
                .iter()
                .any(|r| p.contains(r))
    })
}

/// Adds [`HOST_LINK_WORDS`] after the program word `w` of a host link line, with its note.
fn add_link_path(sink: &mut Sink, w: &Word) -> bool {
    if !sink.edit(w.end, w.end, format!(" {HOST_LINK_WORDS}"), B_PATH.id) {
        return false;
    }
    link_path_note(sink, w.start);
    true
}

/// The note on a host link line that got [`HOST_LINK_WORDS`].
fn link_path_note(sink: &mut Sink, at: usize) {
    sink.diag_as(
        B_PATH,
        crate::diag::Severity::Note,
        at,
        format!(
            "this host compiler links HIP libraries: `{HOST_LINK_WORDS}` added, where they are installed"
        ),
        Some(
            "hipcc passes ROCm's library directory to the linker itself; gcc and g++ do not, and the linker does not search /opt/rocm/lib (\"cannot find -lhipsparse\"); ROCM_PATH defaults to /opt/rocm (`ROCM_PATH ?= /opt/rocm`)".into(),
        ),
    );
}

/// The prerequisites of rule line `header`, expanded (a static pattern rule's, after its
/// second colon).
fn prerequisites(header: Option<&str>, values: &BTreeMap<String, String>) -> Vec<String> {
    let Some(h) = header else {
        return Vec::new();
    };
    let h = h.split('#').next().unwrap_or(h);
    let Some(colon) = make::rule_colon(h) else {
        return Vec::new();
    };
    let mut rest = &h[colon + 1..];
    rest = rest.strip_prefix(':').unwrap_or(rest);
    if let Some(c) = make::rule_colon(rest) {
        rest = &rest[c + 1..];
    }
    let prereqs = rest.split(';').next().unwrap_or("");
    let prereqs = prereqs.split('|').next().unwrap_or("");
    make_rdc::expand(prereqs, values, 0)
        .split_whitespace()
        .filter(|w| !w.contains('$'))
        .map(str::to_string)
        .collect()
}

/// The CUDA header (as written) that `file` includes, itself or through the project headers it
/// includes (found beside the including file or in `base`, under `root`), that the port maps
/// to a HIP or ROCm header.
fn includes_cuda(
    file: &Path,
    root: &Path,
    base: &Path,
    seen: &mut Vec<PathBuf>,
    budget: &mut usize,
    depth: usize,
) -> Option<String> {
    if depth > 8 || *budget == 0 || seen.iter().any(|s| s == file) {
        return None;
    }
    *budget -= 1;
    seen.push(file.to_path_buf());
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() > 4 << 20 {
        return None;
    }
    let bytes = std::fs::read(file).ok()?;
    let src = String::from_utf8_lossy(&bytes);
    let db = hipport_rules::Database::builtin();
    let mut local: Vec<PathBuf> = Vec::new();
    for line in src.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next() {
            Some('"') => ('"', true),
            Some('<') => ('>', false),
            _ => continue,
        };
        let Some(end) = rest[1..].find(close) else {
            continue;
        };
        let name = &rest[1..1 + end];
        if name.starts_with("hip/") || name.starts_with("hip_") {
            continue;
        }
        if db
            .header(name)
            .is_some_and(|h| h.hip.is_some() || h.roc.is_some())
        {
            return Some(name.to_string());
        }
        let dir = file.parent().unwrap_or(base);
        let candidates = if quoted {
            vec![dir.join(name), base.join(name)]
        } else {
            vec![base.join(name)]
        };
        if let Some(c) = candidates
            .into_iter()
            .find(|c| c.starts_with(root) && c.is_file())
        {
            local.push(c);
        }
    }
    local
        .iter()
        .find_map(|f| includes_cuda(f, root, base, seen, budget, depth + 1))
}

/// Whether Makefile text `src` may compile host sources with a host compiler, which
/// [`host_compile_of_hip_sources`] reads from the tree: its result then depends on them. A
/// recipe line (after a tab) names one: g++, c++, gcc, cc, clang, clang++ (or a cross
/// compiler's `-g++`/`-gcc`), or `$(CXX)`/`$(CC)`.
pub(super) fn may_read_host_sources(src: &[u8]) -> bool {
    let text = String::from_utf8_lossy(src);
    text.lines()
        .filter_map(|l| l.strip_prefix('\t'))
        .flat_map(|l| l.split_whitespace())
        .any(|w| {
            let w = w.trim_start_matches(['@', '-', '+']);
            let prog = w.rsplit('/').next().unwrap_or(w);
            matches!(prog, "g++" | "c++" | "gcc" | "cc" | "clang" | "clang++")
                || prog.ends_with("-g++")
                || prog.ends_with("-gcc")
                || ["$(CXX)", "${CXX}", "$(CC)", "${CC}"]
                    .iter()
                    .any(|v| w.starts_with(v))
        })
}
