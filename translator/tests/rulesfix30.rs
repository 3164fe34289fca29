//! rulesfix30: T001's help names what the rules say to write in place of a name HIP lacks, the
//! same text `explain` prints (R45-1); H011 on a pre-Volta `#if __CUDA_ARCH__ < 700` branch does
//! not steer to the `#else` (R45-a); hipTensor's targets and one T002 per library (R46-a);
//! H014's help for one target family alone (R45-b); H011 on an `#error`-only branch (R45-3).
//! Every input here is written for these tests.

use crate::common;

use common::{convert_exact as convert, explain, flat, help_of, report};

use std::process::Command;

// ---- R45-1: T001's help from the rules' replacement ----

/// Names HIP lacks whose rules say what to write instead.
const LACKING: &str = "\
#include <cuda_fp16.h>
__global__ void k(unsigned *a, int *b, __half *h, __half2 *h2) {
  a[0] = __fns(a[1], 0, 2);
  __nanosleep(200);
  b[0] = __dp4a(b[1], b[2], b[3]);
  b[1] = __uni_sync(0xffffffffu, b[2] > 0);
  h[0] = CUDART_INF_FP16;
  h2[0] = __hmin2(h2[1], h2[2]);
  b[2] = __isGlobal(b) ? 1 : 0;
}
";

#[test]
fn t001_help_names_the_replacement_explain_names() {
    let (_, err) = convert(
        &[("k.cu", LACKING)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a"],
    );
    for (name, want) in [
        ("__fns", "`__fns32(mask, base, offset)`"),
        ("__nanosleep", "`__builtin_amdgcn_s_sleep(k)`"),
        ("__dp4a", "`__builtin_amdgcn_sdot4(a, b, c, false)`"),
        ("__uni_sync", "`__ballot`"),
        (
            "CUDART_INF_FP16",
            "`__ushort_as_half((unsigned short)0x7c00U)`",
        ),
        ("__hmin2", "`__halves2half2(__hmin("),
    ] {
        let r = report(&err, "T001", &format!("`{name}`"))
            .unwrap_or_else(|| panic!("T001 on {name}: {err}"));
        let help = help_of(&r);
        assert!(help.contains(want), "{name}: {r}");
        assert!(!help.contains("replace it by hand"), "{name}: {r}");
        // One fact: `explain` prints the same text as the help.
        let ex = explain(name);
        let instead = ex
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("instead: "))
            .unwrap_or_else(|| panic!("explain {name}: {ex}"));
        assert_eq!(flat(instead), help, "{name}");
    }
    // The units differ, and the help says so.
    let sleep = report(&err, "T001", "`__nanosleep`").unwrap();
    assert!(
        sleep.contains("64*k clock cycles, not k nanoseconds"),
        "{sleep}"
    );
    assert!(sleep.contains("must be a constant"), "{sleep}");
    // Where the rules name nothing, the help stays the general one.
    let none = report(&err, "T001", "`__isGlobal`").expect("T001 on __isGlobal");
    assert!(help_of(&none).contains("replace it by hand"), "{none}");
    assert!(!explain("__isGlobal").contains("instead:"));
}

/// The replacements the help names compile with hipcc for both target families (`__fns32` and
/// the sleep with the installed HIP 5.2.3; the dot product where the target has it).
#[test]
fn t001_replacements_compile_with_hipcc() {
    if !common::require(
        common::tool_works("hipcc", "--version"),
        "hipcc is not installed",
    ) {
        eprintln!("SKIPPED: t001_replacements_compile_with_hipcc");
        return;
    }
    let src = "\
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
__global__ void k(unsigned *a, int *b, __half *h, __half2 *h2) {
  a[0] = __fns32(a[1], 0, 2);
  __builtin_amdgcn_s_sleep(3);
  b[0] = __builtin_amdgcn_sdot4(b[1], b[2], b[3], false);
  unsigned long long m = 0xffffffffull, v = __ballot(b[2] > 0) & m;
  b[1] = v == 0 || v == (m & __ballot(1));
  h[0] = __ushort_as_half((unsigned short)0x7c00U);
}
";
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("k.hip");
    std::fs::write(&file, src).unwrap();
    for arch in ["gfx90a", "gfx1030"] {
        let o = Command::new("hipcc")
            .arg(format!("--offload-arch={arch}"))
            .args(["-c"])
            .arg(&file)
            .arg("-o")
            .arg(tmp.path().join(format!("k-{arch}.o")))
            .output()
            .expect("hipcc runs");
        assert!(
            o.status.success(),
            "{arch}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

// ---- R45-a (leftover): H011 on a pre-Volta branch hipcc skips ----

/// A lock helper with a try-once branch for GPUs before Volta and a per-lane spin in the `#else`
/// (line 2), beside a Volta-or-newer test whose `#else` is the older GPUs' code (line 9).
const PRE_VOLTA: &str = "\
__device__ bool take(int *lock) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
  return atomicCAS(lock, 0, 1) == 0;
#else
  while (atomicCAS(lock, 0, 1) != 0) { }
  return true;
#endif
}
__device__ float scale(float v) {
#if __CUDA_ARCH__ >= 700
  return v * 0.5f;
#else
  return v * 0.25f;
#endif
}
__device__ float older(float v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ <= 750
  return v * 0.5f;
#else
  return v * 0.25f;
#endif
}
__global__ void k(int *lock, float *s) {
  if (take(lock)) { s[0] = scale(s[1]) + older(s[2]); atomicExch(lock, 0); }
}
";

#[test]
fn h011_pre_volta_branch_is_not_steered_to_the_else() {
    let (_, err) = convert(
        &[("k.cu", PRE_VOLTA)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a"],
    );
    let pre = report(&err, "H011", "(__CUDA_ARCH__ < 700)").expect("H011 on the pre-Volta test");
    assert!(pre.starts_with("warning[H011]"), "{pre}");
    assert!(!pre.contains("the fallback path"), "{pre}");
    assert!(
        pre.contains("the code for Volta (sm_70) and newer GPUs"),
        "{pre}"
    );
    let help = help_of(&pre);
    assert!(help.contains("lock step"), "{help}");
    assert!(
        help.contains("`#if (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)) || defined(__HIP_PLATFORM_AMD__)`"),
        "{help}"
    );
    // `>= 700` / `#else`: HIP already takes the older GPUs' branch; the help stays as it was.
    let volta = report(&err, "H011", "`#if __CUDA_ARCH__ >= 700`").expect("H011 on >= 700");
    assert!(!help_of(&volta).contains("lock step"), "{volta}");
    // `<= 750` lets Volta and Turing in: not a pre-Volta branch.
    let turing = report(&err, "H011", "__CUDA_ARCH__ <= 750").expect("H011 on <= 750");
    assert!(!help_of(&turing).contains("lock step"), "{turing}");
    // The per-lane spin in the #else is H005's own report.
    assert!(
        report(&err, "H005", "per-lane spin lock").is_some(),
        "{err}"
    );
}

// ---- R46-a (leftover): one T002 for a library the target HIP is too old for ----

/// A cuTENSOR 1.x set-up: the header and five of its names.
const TENSOR: &str = "\
#include <cuda_runtime.h>
#include <cutensor.h>
int describe(int64_t *extent) {
  cutensorHandle_t *handle;
  if (cutensorCreate(&handle) != CUTENSOR_STATUS_SUCCESS) return 1;
  cutensorTensorDescriptor_t desc;
  return cutensorInitTensorDescriptor(handle, &desc, 2, extent, NULL, CUDA_R_32F, CUTENSOR_OP_IDENTITY);
}
";

#[test]
fn t002_once_per_library_header_before_hiptensor() {
    let (_, err) = convert(
        &[("t.cu", TENSOR)],
        &["--hip-version", "5.2.3", "--offload-arch", "gfx90a"],
    );
    let t002: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("error[T002]"))
        .collect();
    assert_eq!(t002.len(), 1, "{err}");
    let r = report(&err, "T002", "`cutensor.h`").expect("T002 at the include");
    assert!(r.contains("only from HIP 5.7.0"), "{r}");
    for name in [
        "cutensorHandle_t",
        "cutensorCreate",
        "CUTENSOR_STATUS_SUCCESS",
        "cutensorInitTensorDescriptor",
    ] {
        assert!(r.contains(&format!("`{name}`")), "{name}: {r}");
    }
    // HIP's runtime names in the file are not part of it.
    assert!(!r.contains("CUDA_R_32F"), "{r}");
    // At a HIP that has hipTensor, the names are renamed and nothing is reported for them.
    let (_, err) = convert(
        &[("t.cu", TENSOR)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a"],
    );
    assert!(!err.contains("[T002]"), "{err}");
}

// ---- R45-b (leftover): H014's help for one target family alone ----

/// A warp-matrix tile (the CLI helper of the shared tests adds gfx1030 to every run; this file
/// calls the binary with one target).
const WMMA: &str = "\
#include <mma.h>
using namespace nvcuda;
__global__ void tile(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
";

fn h014_helps(arch: &str) -> Vec<String> {
    let (_, err) = convert(
        &[("g.cu", WMMA)],
        &["--hip-version", "6.2", "--offload-arch", arch],
    );
    let mut out = Vec::new();
    let mut rest = err.as_str();
    while let Some(r) = report(rest, "H014", "") {
        out.push(help_of(&r).to_string());
        let at = rest.find("[H014]").unwrap() + 6;
        rest = &rest[at..];
    }
    assert!(!out.is_empty(), "{arch}: {err}");
    out
}

#[test]
fn h014_help_for_gfx90a_alone_is_rocwmma() {
    for help in h014_helps("gfx90a") {
        assert!(
            help.starts_with("port to rocWMMA, which supports gfx90a"),
            "{help}"
        );
        assert!(!help.contains("no matrix cores"), "{help}");
        assert!(!help.contains("gfx1030"), "{help}");
    }
}

#[test]
fn h014_help_for_gfx1030_alone_has_no_rocwmma() {
    for help in h014_helps("gfx1030") {
        assert!(help.starts_with("gfx1030 has no matrix cores"), "{help}");
        assert!(
            help.contains("shared-memory FMA loop, or call hipBLAS"),
            "{help}"
        );
        assert!(!help.contains("port to rocWMMA"), "{help}");
    }
}

// ---- R45-3: an `#error`-only branch hipcc skips ----

#[test]
fn h011_error_only_branch_note_has_nothing_to_change() {
    let src = "\
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#error \"this code needs sm_70 or newer\"
#endif
__global__ void k(float *x) { x[threadIdx.x] += 1.0f; }
";
    let (_, err) = convert(
        &[("g.cu", src)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a"],
    );
    let r = report(&err, "H011", "#error").expect("H011 note");
    assert!(r.starts_with("note[H011]"), "{r}");
    assert!(help_of(&r).starts_with("nothing to change"), "{r}");
    assert!(!help_of(&r).contains("__gfx*__"), "{r}");
}
