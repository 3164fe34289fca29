//! Single-source mode (`convert --mode header`): sources keep building for CUDA, and a generated
//! compatibility header makes them build for HIP too.
//!
//! Instead of renaming, each file's CUDA includes are replaced by one include of
//! `hipport_compat.h`. That header includes the original CUDA headers when compiled for CUDA, and
//! the HIP headers plus aliases (`#define cudaMalloc hipMalloc`, argument-count dispatch for calls
//! whose shape changes) when compiled for AMD. Only what an alias cannot do is edited in the
//! source, and guarded so that CUDA still sees its own text: full warp masks become
//! `HIPPORT_FULL_WARP_MASK`, which is 64 bits wide on AMD.

use std::collections::BTreeMap;
use std::time::Duration;

use hipport_rules::{Database, Version};

use crate::diag::{DiagInfo, Diagnostic, Severity};
use crate::edit::Edit;
use crate::parse::{self, KindName};
use crate::translate::{FileResult, Options, WARP_SYNC_HIP};

/// File name of the generated header, written at the root of the output tree.
pub const COMPAT_HEADER: &str = "hipport_compat.h";

/// Header mode copies build files unchanged.
pub const BUILD_FILES_KEPT: DiagInfo = DiagInfo {
    id: "T030",
    name: "header-mode-build-files-kept",
    severity: Severity::Note,
    summary: "Header mode copies build files unchanged: they keep building for CUDA only",
    explain: "`--mode header` keeps a tree building with nvcc: its sources stay CUDA and gain HIP support through the generated `hipport_compat.h`. Build files (CMakeLists.txt, *.cmake, Makefiles, setup.py, nvcc flags in Python build scripts) are therefore copied as they are, since converting them would make the tree HIP-only. The note is given once per run, on the first such file.\n\nWhat to do: build for CUDA as before. To build for AMD, compile the CUDA sources as HIP with hipcc, for example `hipcc -x hip --offload-arch=gfx90a -c kernel.cu` (with CMake: `enable_language(HIP)` and `set_source_files_properties(kernel.cu PROPERTIES LANGUAGE HIP)` behind an option of your own); or run `hipport convert` in translate mode (the default) for a HIP-only tree whose build files are converted too.",
};

/// Diagnostics of header mode.
pub const DIAGS: &[DiagInfo] = &[BUILD_FILES_KEPT];

/// The note that a build file was copied unchanged, for the file shown as `shown`.
pub fn build_files_kept(shown: &str) -> Diagnostic {
    Diagnostic {
        id: BUILD_FILES_KEPT.id.into(),
        severity: BUILD_FILES_KEPT.severity,
        file: shown.to_string(),
        line: 1,
        column: 1,
        offset: 0,
        message: format!(
            "{shown} and the other build files are copied unchanged: --mode header leaves build files as they are, so they still build for CUDA only (this note is given once)"
        ),
        help: Some(
            "to build for AMD, compile the .cu sources as HIP with hipcc (`hipcc -x hip --offload-arch=gfx90a -c FILE.cu`, or LANGUAGE HIP in CMake), or use translate mode (the default) to convert the build files too"
                .into(),
        ),
        fix: Vec::new(),
    }
}

/// What one file needs from the compatibility header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// CUDA name -> HIP name for plain aliases.
    pub aliases: BTreeMap<String, String>,
    /// CUDA functions whose call shape changes (dispatched on the argument count).
    pub calls: Vec<String>,
    /// CUDA headers the file included, in order (for the CUDA branch).
    pub cuda_headers: Vec<String>,
    /// HIP headers that replace them (for the AMD branch).
    pub hip_headers: Vec<String>,
    /// Namespace aliases (`cub` -> `hipcub`).
    pub namespaces: BTreeMap<String, String>,
}

impl Needs {
    /// Adds another file's needs.
    pub fn merge(&mut self, other: &Needs) {
        self.aliases
            .extend(other.aliases.iter().map(|(a, b)| (a.clone(), b.clone())));
        for c in &other.calls {
            if !self.calls.contains(c) {
                self.calls.push(c.clone());
            }
        }
        for h in &other.cuda_headers {
            if !self.cuda_headers.contains(h) {
                self.cuda_headers.push(h.clone());
            }
        }
        for h in &other.hip_headers {
            if !self.hip_headers.contains(h) {
                self.hip_headers.push(h.clone());
            }
        }
        self.namespaces
            .extend(other.namespaces.iter().map(|(a, b)| (a.clone(), b.clone())));
    }
}

/// One file in single-source form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SingleSource {
    /// The edits to apply to the file (and nothing else: the report counts these).
    pub edits: Vec<Edit>,
    /// What the file needs from the compatibility header.
    pub needs: Needs,
    /// The edits by kind (`include`, `mask`, `macro-test`), for the summary's counts.
    pub counts: BTreeMap<String, usize>,
}

/// Relative include path from the file at `rel` to the header at the output root.
fn include_path(rel: &str) -> String {
    let depth = rel.matches('/').count();
    format!("{}{COMPAT_HEADER}", "../".repeat(depth))
}

/// The end of the line holding `pos` (after its `\n`), or `pos` when it starts a line.
fn line_end(src: &[u8], pos: usize) -> usize {
    if pos > 0 && src.get(pos - 1) == Some(&b'\n') {
        return pos;
    }
    match src[pos.min(src.len())..].iter().position(|&b| b == b'\n') {
        Some(i) => pos + i + 1,
        None => src.len(),
    }
}

/// Where an include goes in a file that has none: the place translate mode gives
/// `#include <hip/hip_runtime.h>` (after an include guard's `#define`, then after leading
/// comments and `#pragma once`).
fn include_point(src: &[u8], budget: Duration) -> usize {
    let Ok(tree) = parse::parse(src, budget) else {
        return 0;
    };
    let children: Vec<_> = parse::children(tree.root_node()).collect();
    let mut at = 0;
    let mut scope = children.as_slice();
    let guard;
    let significant: Vec<_> = children
        .iter()
        .filter(|c| c.kind_name() != "comment")
        .collect();
    if significant.len() == 1 && significant[0].kind_name() == "preproc_ifdef" {
        guard = parse::named_children(*significant[0]).collect::<Vec<_>>();
        scope = guard.as_slice();
        if let Some(def) = scope.iter().position(|c| c.kind_name() == "preproc_def") {
            at = line_end(src, scope[def].end_byte());
            scope = &scope[def + 1..];
        }
    }
    for c in scope {
        match c.kind_name() {
            "comment" => at = line_end(src, c.end_byte()),
            "preproc_call" if parse::text(*c, src).windows(4).any(|w| w == b"once") => {
                at = line_end(src, c.end_byte())
            }
            "identifier" => {}
            _ => break,
        }
    }
    at.min(src.len())
}

/// Turns a full translation of a file into single-source edits and the header's needs.
///
/// `result` must come from translating `src` with `opts` (any launch style).
pub fn single_source(src: &[u8], rel: &str, result: &FileResult, opts: &Options) -> SingleSource {
    let mut needs = Needs::default();
    let mut edits = Vec::new();
    let mut include_done = false;
    let eol = crate::edit::line_ending(src);
    for e in &result.edits {
        match e.rule.as_str() {
            "include-dedup" | "header" => {
                // Guard the include: CUDA keeps its header, AMD gets the HIP one.
                let line_start = src[..e.start]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let line_end = if e.rule == "include-dedup" {
                    e.end - usize::from(src[..e.end].ends_with(b"\n"))
                } else {
                    src[e.end..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(src.len(), |i| e.end + i)
                };
                let line_end = if line_end > line_start && src[line_end - 1] == b'\r' {
                    line_end - 1
                } else {
                    line_end
                };
                let original = String::from_utf8_lossy(&src[line_start..line_end]).into_owned();
                let mut block = String::new();
                if !include_done {
                    include_done = true;
                    block.push_str(&format!("#include \"{}\"{eol}", include_path(rel)));
                }
                if e.rule == "header" {
                    let hip = e.text.trim_matches(['<', '>', '"']).to_string();
                    block.push_str(&format!(
                        "#if defined(HIPPORT_AMD){eol}#include <{hip}>{eol}"
                    ));
                    if hip.starts_with("hipcub/") {
                        block.push_str(&format!("namespace cub = hipcub;{eol}"));
                    }
                    block.push_str(&format!("#else{eol}{}{eol}#endif", original.trim_start()));
                } else {
                    block.push_str(&format!(
                        "#if !defined(HIPPORT_AMD){eol}{}{eol}#endif",
                        original.trim_start()
                    ));
                }
                edits.push(Edit::replace(line_start, line_end, block, "compat-include"));
            }
            // Device code without an include: the header goes where translate mode puts the
            // HIP runtime's include.
            "runtime-include" if !include_done => {
                include_done = true;
                let text = e
                    .text
                    .replace("<hip/hip_runtime.h>", &format!("\"{}\"", include_path(rel)));
                edits.push(Edit::insert(e.start, text, "compat-include"));
            }
            // For HIP < 6.2 the header maps the `_sync` builtins to the mask-less forms.
            "warp-sync" => {}
            "warp-mask-64" => edits.push(Edit::replace(
                e.start,
                e.end,
                "HIPPORT_FULL_WARP_MASK",
                "compat-mask",
            )),
            // `cub` is aliased next to the hipCUB include; other namespaces need a human.
            "namespace" => {}
            r if r.starts_with("call:") => {
                let name = r.trim_start_matches("call:").to_string();
                if !needs.calls.contains(&name) {
                    needs.calls.push(name);
                }
            }
            // The header defines `CUDART_CB` and `CUDA_CB` away.
            "launch"
            | "runtime-include"
            | "syncwarp-removed"
            | "callback-convention"
            | "macro-align" => {}
            _ => {}
        }
    }
    needs
        .aliases
        .extend(result.aliases.iter().map(|(a, b)| (a.clone(), b.clone())));
    // Rewritten calls are dispatched by the header; alias their plain names too.
    let db = opts.db();
    for name in &needs.calls {
        if let Some(m) = db.lookup(name) {
            if let Some(h) = &m.hip {
                needs
                    .aliases
                    .entry(name.clone())
                    .or_insert_with(|| h.to_string());
            }
        }
    }
    let uses_header = !needs.aliases.is_empty()
        || !needs.calls.is_empty()
        || edits.iter().any(|e| e.rule == "compat-mask");
    if !include_done && uses_header {
        // CUDA names without any include (nvcc includes the runtime by itself).
        let at = include_point(src, opts.parse_budget);
        let before = if at > 0 && src[at - 1] != b'\n' {
            eol
        } else {
            ""
        };
        edits.push(Edit::insert(
            at,
            format!("{before}#include \"{}\"{eol}", include_path(rel)),
            "compat-include",
        ));
    }
    let mut counts = BTreeMap::new();
    for e in &edits {
        let kind = e.rule.trim_start_matches("compat-");
        *counts.entry(kind.to_string()).or_default() += 1;
    }
    SingleSource {
        edits,
        needs,
        counts,
    }
}

/// The text of `hipport_compat.h` for everything the tree needs.
pub fn compat_header(needs: &Needs, db: &Database, hip: Version) -> String {
    let mut s = String::new();
    s.push_str("// hipport_compat.h: generated by `hipport convert --mode header`.\n");
    s.push_str(
        "// Compiled for CUDA it includes the original CUDA headers; compiled for AMD (hipcc)\n",
    );
    s.push_str(&format!(
        "// it includes the HIP headers and aliases the CUDA names this tree uses (HIP {hip}).\n"
    ));
    s.push_str("#pragma once\n\n#if defined(__HIP_PLATFORM_AMD__) || (defined(__HIP__) && !defined(__CUDA__))\n");
    s.push_str("#define HIPPORT_AMD 1\n#include <hip/hip_runtime.h>\n");
    s.push_str("\n#define HIPPORT_FULL_WARP_MASK 0xffffffffffffffffull\n");
    s.push_str(
        "\n// CUDA's calling-convention markers mean nothing on AMD.\n\
         #ifndef CUDART_CB\n#define CUDART_CB\n#endif\n\
         #ifndef CUDA_CB\n#define CUDA_CB\n#endif\n",
    );
    if hip < WARP_SYNC_HIP {
        s.push_str(
            "// This HIP has no *_sync warp builtins: full-warp calls use the mask-less forms.\n",
        );
        for (sync, plain) in [
            ("__shfl_sync", "__shfl"),
            ("__shfl_up_sync", "__shfl_up"),
            ("__shfl_down_sync", "__shfl_down"),
            ("__shfl_xor_sync", "__shfl_xor"),
            ("__ballot_sync", "__ballot"),
            ("__any_sync", "__any"),
            ("__all_sync", "__all"),
        ] {
            s.push_str(&format!("#define {sync}(mask, ...) {plain}(__VA_ARGS__)\n"));
        }
        s.push_str("#define __syncwarp(...) ((void)0)\n");
    }
    if !needs.calls.is_empty() {
        s.push_str(
            "\n#define HIPPORT_NARG(...) HIPPORT_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)\n\
             #define HIPPORT_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N\n\
             #define HIPPORT_CAT(a, b) HIPPORT_CAT_(a, b)\n\
             #define HIPPORT_CAT_(a, b) a##b\n",
        );
    }
    for name in &needs.calls {
        s.push_str(&format!(
            "\n#define {name}(...) HIPPORT_CAT(hipport_{name}_, HIPPORT_NARG(__VA_ARGS__))(__VA_ARGS__)\n"
        ));
        let plain = db
            .lookup(name)
            .and_then(|m| m.hip.as_deref().map(str::to_string))
            .unwrap_or_else(|| name.clone());
        for n in 1..=9usize {
            let params: Vec<String> = (1..=n).map(|i| format!("a{i}")).collect();
            let args: Vec<String> = params.iter().map(|p| format!("({p})")).collect();
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let body = db
                .call_for(name, n, hip)
                .and_then(|r| r.apply(&refs))
                .unwrap_or_else(|| format!("{plain}({})", refs.join(", ")));
            s.push_str(&format!(
                "#define hipport_{name}_{n}({}) {body}\n",
                params.join(", ")
            ));
        }
    }
    if !needs.aliases.is_empty() {
        s.push('\n');
    }
    for (cuda, h) in &needs.aliases {
        if needs.calls.contains(cuda) || cuda == h {
            continue;
        }
        s.push_str(&format!("#define {cuda} {h}\n"));
    }
    s.push_str("\n#else\n");
    s.push_str("#define HIPPORT_FULL_WARP_MASK 0xffffffffu\n#endif\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::translate_source;

    fn opts(major: u16, minor: u16) -> Options {
        Options {
            hip_version: Version::new(major, minor, 0),
            ..Options::default()
        }
    }

    /// The single-source form of `src` (at `rel`) and its text.
    fn convert_at(src: &str, rel: &str, o: &Options) -> (SingleSource, String) {
        let r = translate_source(src.as_bytes(), rel, o).unwrap();
        let single = single_source(src.as_bytes(), rel, &r, o);
        let mut edits = single.edits.clone();
        let out = crate::edit::apply(src.as_bytes(), &mut edits).unwrap();
        (single, String::from_utf8(out).unwrap())
    }

    fn convert(src: &str) -> (SingleSource, String) {
        convert_at(src, "k.cu", &opts(5, 2))
    }

    #[test]
    fn a_kernel_file_without_includes_gets_the_header_where_translate_mode_puts_the_runtime() {
        let (single, out) = convert("__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n");
        assert_eq!(
            out,
            "#include \"hipport_compat.h\"\n__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n"
        );
        // The counts are the edits made: one include, no renames.
        assert_eq!(single.counts, BTreeMap::from([("include".into(), 1)]));
        // After leading comments and `#pragma once`, after an include guard's #define; in a
        // subdirectory, the path climbs to the root.
        let (_, out) = convert_at(
            "// Licence\n#pragma once\n/* doc */\n__device__ inline int f() { return threadIdx.x; }\n",
            "a/b/k.cuh",
            &opts(5, 2),
        );
        assert_eq!(
            out,
            "// Licence\n#pragma once\n/* doc */\n#include \"../../hipport_compat.h\"\n__device__ inline int f() { return threadIdx.x; }\n"
        );
        let src =
            "#ifndef K_H\n#define K_H\n__device__ inline int f() { return threadIdx.x; }\n#endif\n";
        let (_, out) = convert(src);
        assert!(
            out.starts_with("#ifndef K_H\n#define K_H\n#include \"hipport_compat.h\"\n__device__"),
            "{out}"
        );
        // A host file with CUDA names and no include (and so no device code) gets it the same way.
        let src = "// c\n#ifndef H_H\n#define H_H\ninline void f(cudaStream_t s) { cudaStreamSynchronize(s); }\n#endif\n";
        let (single, out) = convert_at(src, "h.h", &opts(5, 2));
        assert!(
            out.starts_with(
                "// c\n#ifndef H_H\n#define H_H\n#include \"hipport_compat.h\"\ninline"
            ),
            "{out}"
        );
        assert!(single.needs.aliases.contains_key("cudaStream_t"));
        // A file that needs nothing gets nothing.
        let (single, out) = convert("int plain(void);\n");
        assert_eq!(out, "int plain(void);\n");
        assert!(single.edits.is_empty() && single.counts.is_empty());
        // CRLF files get CRLF.
        let (_, out) = convert("__global__ void k(float* x) { x[0] = 1.f; }\r\n");
        assert!(
            out.starts_with("#include \"hipport_compat.h\"\r\n__global__"),
            "{out:?}"
        );
    }

    #[test]
    fn the_header_defines_the_callback_conventions() {
        let src = "#include <cuda_runtime.h>\nstatic void CUDART_CB done(cudaStream_t, cudaError_t, void*) {}\n";
        let o = opts(5, 2);
        let (single, out) = convert_at(src, "cb.cu", &o);
        // The source keeps CUDART_CB; the header defines it (and CUDA_CB) for AMD only.
        assert!(out.contains("static void CUDART_CB done"), "{out}");
        let h = compat_header(&single.needs, o.db(), o.hip_version);
        let amd = &h[..h.find("\n#else\n").unwrap()];
        assert!(
            amd.contains("#ifndef CUDART_CB\n#define CUDART_CB\n#endif"),
            "{h}"
        );
        assert!(
            amd.contains("#ifndef CUDA_CB\n#define CUDA_CB\n#endif"),
            "{h}"
        );
    }
}
