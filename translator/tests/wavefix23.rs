//! Findings of realuser38/realuser37 (wavefix23): a `__host__ __device__` qualifier macro chosen
//! by `#ifdef __CUDA_ARCH__` (R38-b), and H011's help naming the cooperative-groups calls HIP
//! lacks in a guarded kernel body (R37-1).

use crate::common;
use common::{cli_convert as convert, cli_convert_in, reports, require, tool_works};

// R38-b ----------------------------------------------------------------------------------------

/// A qualifier macro only the `__CUDA_ARCH__` branch gives `__device__`, used by a function a
/// kernel calls.
const QUALIFIER: &str = r#"#ifdef __CUDA_ARCH__
#define BOTH_SIDES __host__ __device__
#else
#define BOTH_SIDES
#endif
BOTH_SIDES inline float halve(float v) { return v * 0.5f; }
__global__ void scale(float *p) { p[threadIdx.x] = halve(p[threadIdx.x]); }
float on_host(float v) { return halve(v); }
"#;

/// The one report of `id` (its first line and the lines that follow, up to the next report).
fn report_of<'s>(err: &'s str, id: &str) -> &'s str {
    let tag = format!("[{id}]");
    let start = err.find(&tag).unwrap_or_else(|| panic!("no {id}: {err}"));
    let start = err[..start].rfind('\n').map_or(0, |i| i + 1);
    let rest = &err[start..];
    let end = rest[1..]
        .find("\nerror[")
        .into_iter()
        .chain(rest[1..].find("\nwarning["))
        .chain(rest[1..].find("\nnote["))
        .chain(rest[1..].find("\nhipport:"))
        .min()
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

#[test]
fn r38b_ifdef_qualifier_macro_is_an_error_with_help_that_builds() {
    let (_, err, _) = convert(&[("k.cu", QUALIFIER)], &[]);
    let r = report_of(&err, "H011");
    assert!(r.starts_with("error[H011]"), "{err}");
    assert!(r.contains("`BOTH_SIDES` has `__device__` only in this branch, which hipcc skips in its device pass too"), "{r}");
    assert!(
        r.contains("(first on line 6)") && r.contains("call to __host__ function"),
        "{r}"
    );
    assert!(
        r.contains("`#if defined(__CUDA_ARCH__) || defined(__HIPCC__)`"),
        "{r}"
    );
    assert!(r.contains("--fix does the latter"), "{r}");
}

#[test]
fn r38b_fix_lets_hipcc_in_and_only_then_hipcc_builds() {
    let (_, _, texts) = convert(&[("k.cu", QUALIFIER)], &["--fix"]);
    assert!(
        texts[0].contains("\n#if defined(__CUDA_ARCH__) || defined(__HIPCC__)\n#define BOTH_SIDES __host__ __device__\n#else\n"),
        "{}",
        texts[0]
    );
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let (dir, _, _, _) = cli_convert_in(&[("k.cu", QUALIFIER)], "5.2.3", &[]);
    let plain = common::hipcc_compile(&dir.path().join("out"), "k.cu");
    let e = plain.expect_err("the port without the fix fails");
    assert!(
        e.contains("no matching function for call to 'halve'"),
        "{e}"
    );
    for hip in ["5.2.3", "6.2"] {
        let (dir, _, err, _) = cli_convert_in(&[("k.cu", QUALIFIER)], hip, &["--fix"]);
        assert!(reports(&err, "H011").len() == 1, "{err}");
        common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
    }
}

#[test]
fn r38b_ifndef_and_if_defined_forms_are_errors_and_fixed() {
    let ifndef = "#ifndef __CUDA_ARCH__\n#define QD\n#else\n#define QD __device__ __host__\n#endif\nQD int twice(int v) { return 2 * v; }\n__global__ void k(int *p) { p[0] = twice(p[0]); }\n";
    let (_, err, _) = convert(&[("k.cu", ifndef)], &[]);
    let r = report_of(&err, "H011");
    assert!(
        r.starts_with("error[H011]") && r.contains("only in the #else"),
        "{r}"
    );
    let (_, err, texts) = convert(&[("k.cu", ifndef)], &["--fix"]);
    assert!(
        report_of(&err, "H011").contains("(fixed by --fix)"),
        "{err}"
    );
    assert!(
        texts[0].contains("\n#if !defined(__CUDA_ARCH__) && !defined(__HIPCC__)\n#define QD\n"),
        "{}",
        texts[0]
    );
    let ifdef = "#if defined(__CUDA_ARCH__)\n#define QD __host__ __device__ __forceinline__\n#else\n#define QD inline\n#endif\nQD int twice(int v) { return 2 * v; }\n__global__ void k(int *p) { p[0] = twice(p[0]); }\n";
    let (_, err, _) = convert(&[("k.cu", ifdef)], &[]);
    assert!(report_of(&err, "H011").starts_with("error[H011]"), "{err}");
    let (_, _, texts) = convert(&[("k.cu", ifdef)], &["--fix"]);
    assert!(
        texts[0].contains("\n#if defined(__CUDA_ARCH__) || defined(__HIPCC__)\n"),
        "{}",
        texts[0]
    );
    if require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        for src in [ifndef, ifdef] {
            let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &["--fix"]);
            common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
        }
    }
}

#[test]
fn r38b_mixed_conditional_is_an_error_without_a_fix() {
    // Another definition shares the conditional: widening the test would move it too.
    let src = "#ifdef __CUDA_ARCH__\n#define HD __host__ __device__\n#define LANES 32\n#else\n#define HD\n#define LANES 1\n#endif\nHD int lanes() { return LANES; }\n__global__ void k(int *p) { p[0] = lanes(); }\n";
    let (_, err, texts) = convert(&[("k.cu", src)], &["--fix"]);
    let r = report_of(&err, "H011");
    assert!(r.starts_with("error[H011]") && !r.contains("--fix"), "{r}");
    assert!(
        texts[0].contains("\n#ifdef __CUDA_ARCH__\n"),
        "{}",
        texts[0]
    );
}

#[test]
fn r38b_neighbours_are_not_qualifier_errors() {
    // Unused here (a header for other files): a warning that still says what breaks.
    let unused =
        "#ifdef __CUDA_ARCH__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n";
    let (_, err, _) = convert(&[("h.cuh", unused)], &[]);
    let r = report_of(&err, "H011");
    assert!(
        r.starts_with("warning[H011]") && r.contains("host-only"),
        "{r}"
    );
    // Both branches give `__device__`, or neither does: nothing about qualifiers.
    for src in [
        "#ifdef __CUDA_ARCH__\n#define HD __host__ __device__\n#else\n#define HD __device__ __host__\n#endif\nHD int f(int v) { return v; }\n__global__ void k(int *p) { p[0] = f(p[0]); }\n",
        "#ifdef __CUDA_ARCH__\n#define FI __forceinline__\n#else\n#define FI inline\n#endif\n__host__ __device__ FI int f(int v) { return v; }\n__global__ void k(int *p) { p[0] = f(p[0]); }\n",
    ] {
        let (_, err, _) = convert(&[("k.cu", src)], &[]);
        assert!(!err.contains("error[H011]") && !err.contains("host-only"), "{err}");
    }
    // Already HIP-aware: no H011 at all.
    let aware = "#if defined(__CUDA_ARCH__) || defined(__HIPCC__)\n#define HD __host__ __device__\n#else\n#define HD\n#endif\nHD int f(int v) { return v; }\n__global__ void k(int *p) { p[0] = f(p[0]); }\n";
    let (_, err, _) = convert(&[("k.cu", aware)], &[]);
    assert!(reports(&err, "H011").is_empty(), "{err}");
}

// R37-1 ----------------------------------------------------------------------------------------

#[test]
fn r37_1_emptied_kernel_help_names_the_group_calls_hip_lacks() {
    let src = r#"#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tally(const int *cls, int *hist) {
#if __CUDA_ARCH__ >= 700
  cg::coalesced_group live = cg::coalesced_threads();
  auto same = cg::labeled_partition(live, cls[threadIdx.x]);
  if (same.thread_rank() == 0) atomicAdd(&hist[cls[threadIdx.x]], (int)same.size());
#endif
}
"#;
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    let r = report_of(&err, "H011");
    assert!(r.starts_with("error[H011]"), "{err}");
    assert!(
        r.contains("dropping the guard is not enough here: the guarded code calls `cg::labeled_partition`, which HIP 6.2.0 does not have"),
        "{r}"
    );
    // `cg::reduce` beside it is named too, as H044 reports both.
    let both = r#"#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void top(const int *v, int *best) {
#if __CUDA_ARCH__ >= 700
  cg::coalesced_group live = cg::coalesced_threads();
  auto same = cg::labeled_partition(live, v[threadIdx.x] & 3);
  int m = cg::reduce(same, v[threadIdx.x], cg::greater<int>());
  if (same.thread_rank() == 0) atomicMax(&best[v[threadIdx.x] & 3], m);
#endif
}
"#;
    let (_, err, _) = convert(&[("k.cu", both)], &[]);
    let r = report_of(&err, "H011");
    assert!(
        r.contains("calls `cg::labeled_partition`, `cg::reduce`, which HIP 6.2.0 does not have (H044), so the AMD path must do that work without them"),
        "{r}"
    );
    // Without such calls, the help is as before.
    let plain =
        "__global__ void k(int *p) {\n#if __CUDA_ARCH__ >= 700\n  p[threadIdx.x] = 1;\n#endif\n}\n";
    let (_, err, _) = convert(&[("k.cu", plain)], &[]);
    let r = report_of(&err, "H011");
    assert!(
        r.starts_with("error[H011]") && !r.contains("not enough"),
        "{r}"
    );
}
