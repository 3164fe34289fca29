//! Python checks (PyTorch code next to CUDA extensions): `torch.cuda.profiler`,
//! `torch.cuda.nvtx` and `torch.version.cuda`.
//!
//! A textual pass: strings and comments are blanked first (keeping offsets), then module paths
//! and their import aliases are matched on identifier boundaries.

use std::collections::HashSet;

use super::catalog::{TORCH_NVTX, TORCH_PROFILER, TORCH_VERSION_CUDA};
use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};

/// Analyzes one Python file.
pub fn analyze_python(src: &[u8], file: &str) -> Vec<Diagnostic> {
    let code = blank_strings_and_comments(src);
    let index = LineIndex::new(src);
    let mut out = Vec::new();
    let mut report = |info: &DiagInfo, sev: Severity, at: usize, msg: String, help: &str| {
        let mut d = Diagnostic::at(info, file, &index, at, msg, Some(help.to_string()));
        d.severity = sev;
        out.push(d);
    };

    // Import aliases.
    let mut profiler_mods: HashSet<String> = HashSet::from(["torch.cuda.profiler".to_string()]);
    let mut profiler_funcs: HashSet<String> = HashSet::new();
    let mut nvtx_mods: HashSet<String> = HashSet::from(["torch.cuda.nvtx".to_string()]);
    for line in code.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
            .filter(|w| !w.is_empty())
            .collect();
        match words.as_slice() {
            ["import", module, "as", alias, ..] => {
                if *module == "torch.cuda.profiler" {
                    profiler_mods.insert(alias.to_string());
                } else if *module == "torch.cuda.nvtx" {
                    nvtx_mods.insert(alias.to_string());
                }
            }
            ["from", "torch.cuda", "import", rest @ ..] => {
                let mut i = 0;
                while i < rest.len() {
                    let name = rest[i];
                    let alias = if rest.get(i + 1) == Some(&"as") {
                        i += 2;
                        rest.get(i).copied().unwrap_or(name)
                    } else {
                        name
                    };
                    match name {
                        "profiler" => {
                            profiler_mods.insert(alias.to_string());
                        }
                        "nvtx" => {
                            nvtx_mods.insert(alias.to_string());
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            ["from", "torch.cuda.profiler", "import", rest @ ..] => {
                let mut i = 0;
                while i < rest.len() {
                    let name = rest[i];
                    let alias = if rest.get(i + 1) == Some(&"as") {
                        i += 2;
                        rest.get(i).copied().unwrap_or(name)
                    } else {
                        name
                    };
                    if matches!(name, "start" | "stop" | "profile") {
                        profiler_funcs.insert(alias.to_string());
                    }
                    i += 1;
                }
            }
            _ => {}
        }
    }

    // Uses.
    for m in &profiler_mods {
        for f in ["start", "stop", "profile"] {
            for at in find_calls(&code, &format!("{m}.{f}")) {
                report(
                    &TORCH_PROFILER,
                    Severity::Error,
                    at,
                    format!("`{m}.{f}()` calls hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported, so PyTorch raises"),
                    "skip it on ROCm (`if torch.version.hip is None`), or use torch.profiler / rocprof range selection",
                );
            }
        }
    }
    for f in &profiler_funcs {
        for at in find_calls(&code, f) {
            report(
                &TORCH_PROFILER,
                Severity::Error,
                at,
                format!("`{f}()` from torch.cuda.profiler calls hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported, so PyTorch raises"),
                "skip it on ROCm (`if torch.version.hip is None`), or use torch.profiler / rocprof range selection",
            );
        }
    }
    for at in find_calls(&code, "torch.cuda.cudart().cudaProfilerStart")
        .into_iter()
        .chain(find_calls(&code, "torch.cuda.cudart().cudaProfilerStop"))
    {
        report(
            &TORCH_PROFILER,
            Severity::Error,
            at,
            "`torch.cuda.cudart().cudaProfiler*()` maps to hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported".into(),
            "skip it on ROCm (`if torch.version.hip is None`)",
        );
    }
    let mut nvtx_seen = false;
    for m in &nvtx_mods {
        for at in find_attr_uses(&code, m) {
            if nvtx_seen {
                break;
            }
            nvtx_seen = true;
            report(
                &TORCH_NVTX,
                Severity::Note,
                at,
                format!("`{m}` ranges are emitted as rocTX markers on ROCm: they show in rocprof traces with marker tracing, not in Nsight"),
                "profile with rocprofv3 --marker-trace (or rocprof --roctx-trace) instead of nsys",
            );
        }
    }
    for at in find_word(&code, "torch.version.cuda") {
        let line = index.position(at).0;
        let range = index.line_range(&code, line);
        let text = &code[range.clone()];
        let after = (at + "torch.version.cuda".len()).min(range.end);
        let tail = code[after..range.end].trim_ascii_start();
        let distinguishing = tail.starts_with(b"is None")
            || tail.starts_with(b"is not None")
            || memchr::memmem::find(text, b"torch.version.hip").is_some();
        if distinguishing {
            continue; // tells CUDA from ROCm builds: correct as written
        }
        report(
            &TORCH_VERSION_CUDA,
            Severity::Warning,
            at,
            "`torch.version.cuda` is None on ROCm builds of PyTorch".into(),
            "test torch.cuda.is_available() for a GPU and torch.version.hip for ROCm",
        );
    }
    out.sort_by_key(|d| d.offset);
    out
}

/// Replaces string literal contents and comments with spaces, keeping newlines and offsets.
fn blank_strings_and_comments(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut i = 0;
    while i < src.len() {
        match src[i] {
            b'#' => {
                while i < src.len() && src[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let triple = src.get(i..i + 3) == Some(&[q, q, q][..]);
                let open = if triple { 3 } else { 1 };
                i += open;
                while i < src.len() {
                    if src[i] == b'\\' {
                        out[i] = b' ';
                        if i + 1 < src.len() && src[i + 1] != b'\n' {
                            out[i + 1] = b' ';
                        }
                        i += 2;
                        continue;
                    }
                    if triple {
                        if src.get(i..i + 3) == Some(&[q, q, q][..]) {
                            i += 3;
                            break;
                        }
                    } else if src[i] == q {
                        i += 1;
                        break;
                    } else if src[i] == b'\n' {
                        break; // unterminated
                    }
                    if src[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Offsets where `word` occurs on identifier boundaries (a `.` before it counts as a boundary
/// only when `word` is not itself an attribute of something else).
fn find_word(code: &[u8], word: &str) -> Vec<usize> {
    let w = word.as_bytes();
    let mut out = Vec::new();
    if w.is_empty() || code.len() < w.len() {
        return out;
    }
    for i in 0..=code.len() - w.len() {
        if &code[i..i + w.len()] != w {
            continue;
        }
        let before_ok = i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == b'.');
        let after_ok = code.get(i + w.len()).is_none_or(|&b| !is_ident(b));
        if before_ok && after_ok {
            out.push(i);
        }
    }
    out
}

/// Offsets of `path(` (a call, blanks allowed before the parenthesis).
fn find_calls(code: &[u8], path: &str) -> Vec<usize> {
    find_word(code, path)
        .into_iter()
        .filter(|&i| {
            let mut j = i + path.len();
            while j < code.len() && code[j] == b' ' {
                j += 1;
            }
            code.get(j) == Some(&b'(')
        })
        .collect()
}

/// Offsets of `module.attr` uses.
fn find_attr_uses(code: &[u8], module: &str) -> Vec<usize> {
    find_word(code, module)
        .into_iter()
        .filter(|&i| code.get(i + module.len()) == Some(&b'.'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(src: &str) -> Vec<(String, usize, Severity)> {
        analyze_python(src.as_bytes(), "t.py")
            .into_iter()
            .map(|d| (d.id, d.line, d.severity))
            .collect()
    }

    #[test]
    fn profiler_calls_direct_and_aliased() {
        let src = "import torch\n\
                   import torch.cuda.profiler as prof\n\
                   from torch.cuda.profiler import start as pstart\n\
                   torch.cuda.profiler.start()\n\
                   prof.stop()\n\
                   pstart()\n\
                   with torch.cuda.profiler.profile():\n    pass\n";
        let got = ids(src);
        assert_eq!(
            got,
            vec![
                ("H030".into(), 4, Severity::Error),
                ("H030".into(), 5, Severity::Error),
                ("H030".into(), 6, Severity::Error),
                ("H030".into(), 7, Severity::Error),
            ]
        );
    }

    #[test]
    fn strings_and_comments_do_not_count() {
        let src = "# torch.cuda.profiler.start()\nx = 'torch.version.cuda'\ny = \"\"\"\ntorch.cuda.profiler.stop()\n\"\"\"\n";
        assert!(ids(src).is_empty(), "{:?}", ids(src));
    }

    #[test]
    fn non_utf8_lines_do_not_panic() {
        let src = b"x = '\xe9\xe9' ; v = torch.version.cuda  # \xff\n";
        let d = analyze_python(src, "t.py");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].column, 16);
    }

    #[test]
    fn version_cuda_and_nvtx() {
        let src = "import torch\n\
                   from torch.cuda import nvtx\n\
                   major = int(torch.version.cuda.split('.')[0])\n\
                   is_rocm = torch.version.cuda is None\n\
                   nvtx.range_push('fwd')\n\
                   nvtx.range_pop()\n\
                   my.torch.version.cuda_thing = 1\n";
        let got = ids(src);
        assert_eq!(
            got,
            vec![
                ("H032".into(), 3, Severity::Warning),
                ("H031".into(), 5, Severity::Note),
            ]
        );
    }
}
