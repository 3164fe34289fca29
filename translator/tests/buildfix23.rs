//! buildfix23: R38-2 (H003's advice to compile with `-DHIP_ENABLE_WARP_SYNC_BUILTINS` where a
//! build file of the same run got it), R38-1 (a JIT `load()` whose `sources` are computed got
//! the define though no source keeps a `_sync` builtin), R37-b's rest (cuDNN, NCCL, FindCUDA
//! library variables, Makefile `-l` flags) and the `-gencode` rewrite inside a CMake
//! `foreach`. The inputs are written here. Where a configure is said to work, cmake shows it
//! (skipped with `SKIPPED:` where a tool is missing, a failure under `CI=true`).

use std::fs;

mod common;
use common::{report_findings as convert, tree};

type Finding = common::ReportFinding;

/// A reduction with a full 64-bit mask: at HIP 6.2 it needs only the define (an H003 note).
const REDUCE: &str = "__global__ void red(const float *x, float *out) {\n  float v = x[threadIdx.x];\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);\n  if (threadIdx.x == 0) *out = v;\n}\n";

/// A kernel with no warp builtin.
const PLAIN: &str = "__global__ void inc(float *x) { x[threadIdx.x] += 1.0f; }\n";

/// Converts `files` at HIP `hip` for gfx90a: the output directory (kept alive), the output
/// text of `file` and the findings of `findings_of`.
fn port(
    files: &[(&str, &str)],
    file: &str,
    findings_of: &str,
    hip: &str,
) -> (tempfile::TempDir, String, Vec<Finding>) {
    let src = tree(files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let findings = convert(src.path(), &out, findings_of, hip);
    let text = fs::read_to_string(out.join(file)).unwrap_or_default();
    (keep, text, findings)
}

/// The H003 notes of `findings` that concern the define (not the masks).
fn define_notes(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.0 == "H003" && f.1 == "note")
        .collect()
}

/// R38-2: where the run gave the build file that compiles the source the define (B011 in a
/// JIT build, hipcc in a Makefile, the CMake epilogue), H003's note names that file instead of
/// asking for the define.
#[test]
fn h003_names_the_build_file_that_now_defines_the_warp_sync_builtins() {
    let py = "from torch.utils.cpp_extension import load\next = load(name=\"red\", sources=[\"red.cu\"], extra_cuda_cflags=[\"-O3\"])\n";
    let mk = "NVCC = nvcc\napp: red.cu\n\t$(NVCC) -O2 -o app red.cu\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(r LANGUAGES CXX CUDA)\nadd_library(r kernels/red.cu)\n";
    for (build, text, source) in [
        ("build.py", py, "red.cu"),
        ("Makefile", mk, "red.cu"),
        ("CMakeLists.txt", cm, "kernels/red.cu"),
    ] {
        let (_keep, out, findings) = port(&[(build, text), (source, REDUCE)], build, source, "6.2");
        assert!(
            out.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
            "{build}: {out}"
        );
        let notes = define_notes(&findings);
        assert!(!notes.is_empty(), "{build}: {findings:#?}");
        for n in notes {
            assert!(!n.4.contains("compile with"), "{build}: {n:?}");
            assert!(
                n.4.contains(&format!("{build}`, which compiles")),
                "{build}: {n:?}"
            );
        }
    }
}

/// R38-2's neighbours: a source no build file names, and one named by a build file that did
/// not get the define (HIP 7.0 needs none; a Makefile with no nvcc), keep the advice.
#[test]
fn h003_keeps_its_advice_where_no_build_file_defines_it() {
    let (_keep, _, findings) = port(&[("red.cu", REDUCE)], "red.cu", "red.cu", "6.2");
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
    // The Makefile compiles another file: this one is not named.
    let mk = "NVCC = nvcc\napp: main.cu\n\t$(NVCC) -O2 -o app main.cu\n";
    let (_keep, _, findings) = port(
        &[("Makefile", mk), ("main.cu", PLAIN), ("red.cu", REDUCE)],
        "red.cu",
        "red.cu",
        "6.2",
    );
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
    // A Makefile that runs g++ only gets no define.
    let mk = "app: red.cu\n\tg++ -x c++ -o app red.cu\n";
    let (_keep, _, findings) = port(
        &[("Makefile", mk), ("red.cu", REDUCE)],
        "red.cu",
        "red.cu",
        "6.2",
    );
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
}
