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

use hipport_rules::{Database, Version};

use crate::diag::{DiagInfo, Diagnostic, Severity};
use crate::edit::Edit;
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

/// Relative include path from the file at `rel` to the header at the output root.
fn include_path(rel: &str) -> String {
    let depth = rel.matches('/').count();
    format!("{}{COMPAT_HEADER}", "../".repeat(depth))
}

/// Turns a full translation of a file into single-source edits and the header's needs.
///
/// `result` must come from translating `src` with `opts` (any launch style).
pub fn single_source(
    src: &[u8],
    rel: &str,
    result: &FileResult,
    opts: &Options,
) -> (Vec<Edit>, Needs) {
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
            "launch" | "runtime-include" | "syncwarp-removed" | "macro-align" => {}
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
    if !include_done
        && !result.edits.is_empty()
        && (!needs.aliases.is_empty() || !needs.calls.is_empty())
    {
        edits.push(Edit::insert(
            0,
            format!("#include \"{}\"\n", include_path(rel)),
            "compat-include",
        ));
    }
    (edits, needs)
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
