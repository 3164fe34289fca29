//! Meson: hipport does not convert `meson.build` files. Meson has no HIP language, and its
//! `cuda` language, `dependency('cuda')` and `cuda_args` need nvcc, which ROCm lacks, so each
//! use is reported (B008) with what to change; the file stays as it is.

use super::flags::{self, Context};
use super::text::Sink;
use super::{BuildOptions, B_CONSTRUCT};

/// A string literal of a Meson file: its content, and where it starts.
struct Literal<'a> {
    text: &'a str,
    start: usize,
    /// The function whose parentheses hold it most closely (`project`, `dependency`), and
    /// whether it is that call's first argument.
    call: Option<(&'a str, bool)>,
}

/// What a Meson file holds that is read here: its string literals and the keyword arguments
/// named (`cuda_args:`), each with its offset. Comments are skipped.
struct Scan<'a> {
    literals: Vec<Literal<'a>>,
    keywords: Vec<(&'a str, usize)>,
}

/// Reads a Meson file's literals and keyword arguments (see [`Scan`]).
fn scan(src: &str) -> Scan<'_> {
    let b = src.as_bytes();
    let mut out = Scan {
        literals: Vec::new(),
        keywords: Vec::new(),
    };
    // Each open parenthesis: the name before it, and whether an argument came yet.
    let mut calls: Vec<(&str, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => i = src[i..].find('\n').map_or(b.len(), |p| i + p),
            b'\'' => {
                let triple = b[i..].starts_with(b"'''");
                let open = if triple { 3 } else { 1 };
                let s = i + open;
                let mut e = s;
                while e < b.len() {
                    if triple && b[e..].starts_with(b"'''") || !triple && b[e] == b'\'' {
                        break;
                    }
                    if !triple && b[e] == b'\\' {
                        e += 1;
                    }
                    e += 1;
                }
                let e = e.min(b.len());
                let call = calls.last().map(|(name, seen)| (*name, !*seen));
                out.literals.push(Literal {
                    text: &src[s..e],
                    start: i,
                    call,
                });
                if let Some(top) = calls.last_mut() {
                    top.1 = true;
                }
                i = (e + open).min(b.len());
            }
            b'(' => {
                let name_end = src[..i].trim_end().len();
                let name_start = src[..name_end]
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |p| p + 1);
                if let Some(top) = calls.last_mut() {
                    top.1 = true;
                }
                calls.push((&src[name_start..name_end], false));
                i += 1;
            }
            b')' => {
                calls.pop();
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if src[i..].trim_start().starts_with(':') {
                    out.keywords.push((&src[s..i], s));
                }
                if let Some(top) = calls.last_mut() {
                    top.1 = true;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The string literals of the list that follows `at` (a `cuda_args:` keyword): `['-O3', ...]`
/// or a single literal; other values (a variable) give none.
fn list_after<'a>(scan: &'a Scan<'a>, src: &str, at: usize) -> Vec<&'a str> {
    let rest = &src[at..];
    let Some(colon) = rest.find(':') else {
        return Vec::new();
    };
    let value = rest[colon + 1..].trim_start();
    let from = at + colon + 1 + (rest[colon + 1..].len() - value.len());
    let end = if value.starts_with('[') {
        value.find(']').map_or(src.len(), |p| from + p)
    } else if value.starts_with('\'') {
        from + 1
    } else {
        return Vec::new();
    };
    scan.literals
        .iter()
        .filter(|l| l.start >= from && l.start <= end)
        .map(|l| l.text)
        .collect()
}

/// Reports the CUDA in a `meson.build` (or `meson.options`) file: the `cuda` language of
/// `project()` and `add_languages()`, `dependency('cuda')` with the HIP packages for its
/// modules, `cuda_args` with the hipcc flags that replace them, and Meson's CUDA module.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let scan = scan(src);
    for l in &scan.literals {
        match (l.text, l.call) {
            ("cuda", Some(("project" | "add_languages", _))) => sink.diag(
                B_CONSTRUCT,
                l.start,
                "Meson's `cuda` language compiles with nvcc, which ROCm lacks: hipport does not convert Meson builds".into(),
                Some("drop 'cuda' and compile the HIP sources as C++ with hipcc (CXX=hipcc meson setup build): Meson picks the language by extension, so give the .cu sources a .cpp name or compile them with a custom_target() that runs hipcc".into()),
            ),
            ("cuda", Some(("dependency", true))) => {
                let modules: Vec<String> = scan
                    .literals
                    .iter()
                    .filter(|m| m.start > l.start && m.call == Some(("dependency", false)))
                    .take_while(|m| !src[l.start..m.start].contains(')'))
                    .filter_map(|m| flags::library(m.text))
                    .filter_map(|lib| lib.package)
                    .map(|p| format!("dependency('{p}', method: 'cmake')"))
                    .collect();
                let also = if modules.is_empty() {
                    String::new()
                } else {
                    format!(", and for its modules {}", modules.join(", "))
                };
                sink.diag(
                    B_CONSTRUCT,
                    l.start,
                    "dependency('cuda') finds NVIDIA's CUDA toolkit, which ROCm lacks: hipport does not convert Meson builds".into(),
                    Some(format!("use dependency('hip', method: 'cmake') (ROCm's hip package; hipcc as the C++ compiler links it too){also}")),
                );
            }
            ("cuda" | "unstable-cuda", Some(("import", _))) => sink.diag(
                B_CONSTRUCT,
                l.start,
                "Meson's CUDA module computes nvcc's architecture flags, which hipcc rejects".into(),
                Some(format!(
                    "give hipcc the AMD targets instead: {}",
                    opts.offload_arch
                        .iter()
                        .map(|a| format!("--offload-arch={a}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            ),
            _ => {}
        }
    }
    for &(name, at) in &scan.keywords {
        if name != "cuda_args" {
            continue;
        }
        let words = list_after(&scan, src, at);
        let mut done = false;
        let mapped = flags::map_words(&words, opts, Context::Nvcc, &mut done);
        let hipcc: Vec<String> = mapped
            .applied(&words)
            .into_iter()
            .map(|(_, w)| format!("'{w}'"))
            .collect();
        let help = if words.is_empty() {
            "move the flags to cpp_args, in hipcc's spelling".to_string()
        } else {
            format!(
                "move the flags to cpp_args, in hipcc's spelling: [{}]",
                hipcc.join(", ")
            )
        };
        sink.diag(
            B_CONSTRUCT,
            at,
            "cuda_args are nvcc's flags for the cuda language, which hipcc does not compile: hipport does not convert Meson builds".into(),
            Some(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::buildfiles::{translate_build, BuildKind, BuildOptions};

    fn opts() -> BuildOptions {
        BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        }
    }

    #[test]
    fn cuda_in_meson_builds_is_reported_with_its_replacement() {
        let src = "# 'cuda' in a comment\nproject('m', ['cpp', 'cuda'], default_options: ['cuda_std=c++17'])\nadd_languages('cuda', required: false)\ncuda = import('unstable-cuda')\ndep = dependency('cuda', version: '>=11', modules: ['cublas', 'curand'])\nexecutable('m', 'k.cu', cuda_args: ['-arch=sm_80', '--use_fast_math', '-O3'], cpp_args: ['-O2'])\nmessage('cuda')\nlib = library('l', 'a.cu', cuda_args: flags)\n";
        let (edits, diags) =
            translate_build(BuildKind::Meson, src.as_bytes(), "meson.build", &opts());
        assert!(edits.is_empty(), "{edits:?}");
        let lines: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        assert_eq!(
            lines,
            [
                (2, "B008"),
                (3, "B008"),
                (4, "B008"),
                (5, "B008"),
                (6, "B008"),
                (8, "B008")
            ],
            "{diags:#?}"
        );
        let help = |line: usize| {
            diags
                .iter()
                .find(|d| d.line == line)
                .and_then(|d| d.help.clone())
                .unwrap_or_default()
        };
        assert!(help(4).contains("--offload-arch=gfx90a"), "{}", help(4));
        assert!(
            help(5).contains("dependency('hip', method: 'cmake')")
                && help(5).contains("dependency('hipblas', method: 'cmake'), dependency('hiprand', method: 'cmake')"),
            "{}",
            help(5)
        );
        assert!(
            help(6).ends_with("['--offload-arch=gfx90a', '-ffast-math', '-O3']"),
            "{}",
            help(6)
        );
        assert!(help(8).ends_with("in hipcc's spelling"), "{}", help(8));
        // Unfinished strings and calls, a backslash before a multibyte character: no panic.
        for bad in [
            "project('a\\é",
            "x = '''é\\",
            "dependency('cuda'",
            "cuda_args: ['-G'",
            "f(')'",
            "cuda_args:",
        ] {
            translate_build(BuildKind::Meson, bad.as_bytes(), "meson.build", &opts());
        }
        // A file without CUDA gets nothing.
        let plain = "project('m', 'cpp')\nexecutable('m', 'm.cpp')\n";
        let (_, diags) =
            translate_build(BuildKind::Meson, plain.as_bytes(), "meson.build", &opts());
        assert!(diags.is_empty(), "{diags:#?}");
    }
}
