//! Findings of realuser31/32 (wavefix16): 32-lane segment code that H001 misread (a tree in a
//! loop over rows, R31-e; an unused constant, R31-1; a conditional constant, R31-b; shuffles
//! in statement macros, R31-d and R31-2; the others of one real absolute-lane shuffle, R31-3),
//! a project header's `_sync` wrapper run by 32 lanes (R31-a) and NVRTC text included into an
//! initializer (R32-b).

use crate::common;
use common::{cli_convert as convert, reports};

/// The H001 findings of `stderr` at error severity.
fn h001_errors(stderr: &str) -> Vec<&str> {
    reports(stderr, "H001")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect()
}

// R31-e ----------------------------------------------------------------------------------------

/// A down-shuffle tree over 32-lane groups in a loop over jobs, read at each group's lane 0:
/// the value is declared afresh in the loop's body, so no iteration sees the last one's.
const TREE_IN_LOOP: &str = r#"#define WARP_SIZE 32
__global__ void colsums(float* out, const float* x, int reps) {
  int lane = threadIdx.x % WARP_SIZE;
  int grp = threadIdx.x / WARP_SIZE;
  for (int r = 0; r < reps; ++r) {
    float t = x[(r * 8 + grp) * WARP_SIZE + lane];
    t *= 2.0f;
    for (int d = WARP_SIZE / 2; d > 0; d >>= 1)
      t += __shfl_down_sync(0xffffffff, t, d);
    if (lane == 0) atomicAdd(out + grp, t);
  }
}
"#;

#[test]
fn r31e_a_tree_in_a_loop_on_a_value_the_loop_declares_is_segment_code() {
    let (_, err, _) = convert(&[("k.cu", TREE_IN_LOOP)], &[]);
    assert!(h001_errors(&err).is_empty(), "{err}");
}

#[test]
fn r31e_a_value_carried_across_the_loop_is_still_read_unguarded() {
    // `t` lives across iterations: lanes other than a group's lane 0 add what the tree left
    // them into the next iteration's tree, which is no 32-lane segment's own sum.
    let carried = TREE_IN_LOOP
        .replace("    float t = x[", "    t += x[")
        .replace("  for (int r = 0;", "  float t = 0.f;\n  for (int r = 0;");
    let (_, err, _) = convert(&[("k.cu", &carried)], &[]);
    assert_eq!(h001_errors(&err).len(), 1, "{err}");
}

// R31-1 ----------------------------------------------------------------------------------------

#[test]
fn r31_1_a_source_files_constant_nothing_uses_is_a_note() {
    let src = "#define WARP_SIZE 32\n#define TILE 16\nint tiles(int n) { return (n + TILE - 1) / TILE; }\n";
    let (code, err, _) = convert(&[("k.cu", src)], &[]);
    let h001 = reports(&err, "H001");
    assert_eq!(h001.len(), 1, "{err}");
    assert!(
        h001[0].starts_with("note") && h001[0].contains("no function of this file uses it"),
        "{err}"
    );
    assert_eq!(code, Some(0), "{err}");
    // A header's keeps its warning for its includers, and a used one its error.
    let (_, err, _) = convert(&[("k.cuh", src)], &[]);
    assert!(reports(&err, "H001")[0].starts_with("warning"), "{err}");
    let used = format!(
        "{src}__global__ void k(float* v) {{ unsigned b = __ballot_sync(0xffffffff, v[threadIdx.x] > 0); if (threadIdx.x % WARP_SIZE == 0) v[threadIdx.x / WARP_SIZE] = __popc(b); }}\n"
    );
    let (_, err, _) = convert(&[("k.cu", &used)], &[]);
    assert!(!h001_errors(&err).is_empty(), "{err}");
}

// R31-b ----------------------------------------------------------------------------------------

/// A 32-lane segment reduction whose constant is chosen by a platform test that HIP 6.2 no
/// longer passes (`__HIP_PLATFORM_HCC__` is gone): hipcc compiles the `#else`, 32.
const CHOSEN_WIDTH: &str = r#"#if defined(__HIP_PLATFORM_HCC__)
static constexpr unsigned kLanes = 64;
#else
static constexpr unsigned kLanes = 32;
#endif

__device__ float group_max(float x) {
  for (unsigned m = kLanes / 2; m > 0; m /= 2)
    x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, m, kLanes));
  return x;
}

__global__ void block_max(const float* in, float* out) {
  __shared__ float part[kLanes];
  unsigned t = threadIdx.x;
  float x = group_max(in[blockIdx.x * blockDim.x + t]);
  if (t % kLanes == 0) part[t / kLanes] = x;
  __syncthreads();
  if (t < kLanes) {
    x = t < blockDim.x / kLanes ? part[t] : -1e30f;
    x = group_max(x);
    if (t == 0) out[blockIdx.x] = x;
  }
}
"#;

#[test]
fn r31b_a_width_chosen_under_a_platform_test_is_the_arm_hipcc_compiles() {
    let (_, err, out) = convert(&[("k.cu", CHOSEN_WIDTH)], &[]);
    assert!(h001_errors(&err).is_empty(), "{err}");
    // The same judgement as an unconditional 32: the first group's branch gets the lanes that
    // run it as its mask.
    assert!(
        out[0].contains("__shfl_xor_sync(__activemask(), x, m, kLanes)"),
        "{}",
        out[0]
    );
    let plain = CHOSEN_WIDTH
        .replace(
            "#if defined(__HIP_PLATFORM_HCC__)\nstatic constexpr unsigned kLanes = 64;\n#else\n",
            "",
        )
        .replace("#endif\n", "");
    let (_, plain_err, plain_out) = convert(&[("k.cu", &plain)], &[]);
    assert_eq!(reports(&err, "H001"), reports(&plain_err, "H001"));
    let code = |t: &str| t[t.find("__device__").unwrap()..].to_string();
    assert_eq!(code(&out[0]), code(&plain_out[0]));
}

// R31-a ----------------------------------------------------------------------------------------

/// A project header's `_sync` reduction, and its group size fixed at 32.
const SUM_HEADER: &str = r#"#pragma once
constexpr int kWarpSize = 32;

__device__ __forceinline__ float group_sum(float v) {
  for (int d = 1; d < kWarpSize; d *= 2)
    v += __shfl_xor_sync(0xffffffff, v, d, kWarpSize);
  return v;
}
"#;

/// The includer runs it on every lane, then in a branch only the first 32 threads take.
const SUM_KERNEL: &str = r#"#include "sum.cuh"
__global__ void total(const float* in, float* out) {
  __shared__ float partial[kWarpSize];
  int t = threadIdx.x;
  float v = group_sum(in[blockIdx.x * blockDim.x + t]);
  if (t % kWarpSize == 0) partial[t / kWarpSize] = v;
  __syncthreads();
  if (t < kWarpSize) {
    v = t < blockDim.x / kWarpSize ? partial[t] : 0.f;
    v = group_sum(v);
    if (t == 0) out[blockIdx.x] = v;
  }
}
"#;

#[test]
fn r31a_a_headers_sync_function_run_by_the_first_32_threads_is_reported() {
    let (_, err, _) = convert(&[("sum.cuh", SUM_HEADER), ("k.cu", SUM_KERNEL)], &[]);
    let half: Vec<&str> = reports(&err, "H001")
        .into_iter()
        .filter(|l| l.contains("only lanes 0-31"))
        .collect();
    assert_eq!(half.len(), 1, "{err}");
    assert!(
        half[0].starts_with("warning") && half[0].contains("`if (t < kWarpSize)`"),
        "{err}"
    );
    // The help names the function whose mask the user must change.
    assert!(
        err.contains("(in `group_sum`, which is defined outside this file"),
        "{err}"
    );
    // Called on every lane only, nothing to say.
    let all_lanes = SUM_KERNEL.replace("if (t < kWarpSize) {", "{");
    let (_, err, _) = convert(&[("sum.cuh", SUM_HEADER), ("k.cu", &all_lanes)], &[]);
    assert!(!err.contains("only lanes 0-31"), "{err}");
}

// R31-d, R31-2 ---------------------------------------------------------------------------------

/// A two-stage block sum whose 32-lane reductions are a statement macro.
const LOOP_MACRO: &str = r#"#define GROUP_SUM(x) \
  for (int s = 16; s >= 1; s /= 2) x += __shfl_xor_sync(0xffffffff, x, s);
__global__ void sum_rows(const float* in, float* out) {
  __shared__ float part[32];
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  GROUP_SUM(x);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = x;
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && threadIdx.x == 0) {
    float t = 0.f;
    for (int g = 0; g < (blockDim.x >> 5); ++g) t += part[g];
    out[blockIdx.x] = t;
  }
}
"#;

/// Two values per step, the distance and the width passed to the macro (the unrolled form).
const STEP_MACRO: &str = r#"__device__ void pair_sum(float* a, float* b) {
  float ta, tb;
#define PAIR_STEP(d, w)                          \
  ta = __shfl_xor_sync(0xffffffff, *a, d, w);    \
  tb = __shfl_xor_sync(0xffffffff, *b, d, w);    \
  *a += ta;                                      \
  *b += tb
  PAIR_STEP(16, 32);
  PAIR_STEP(8, 32);
  PAIR_STEP(4, 32);
  PAIR_STEP(2, 32);
  PAIR_STEP(1, 32);
#undef PAIR_STEP
}
__global__ void moments(const float* in, float* out) {
  float s = in[threadIdx.x], q = s * s;
  pair_sum(&s, &q);
  int lane = threadIdx.x & 31, group = threadIdx.x >> 5;
  if (lane == 0) {
    out[2 * group] = s;
    out[2 * group + 1] = q;
  }
}
"#;

#[test]
fn r31d_shuffles_in_a_statement_macro_read_as_the_same_code_inline() {
    for src in [LOOP_MACRO, STEP_MACRO] {
        let (_, err, _) = convert(&[("k.cu", src)], &[]);
        assert!(reports(&err, "H001").is_empty(), "{err}");
    }
}

#[test]
fn r31d_a_macro_whose_reduction_leaves_its_segment_keeps_its_findings() {
    // Read at every lane (not at each group's lane 0), a down tree from 16 is no segment's.
    let down = LOOP_MACRO
        .replace("__shfl_xor_sync", "__shfl_down_sync")
        .replace(
            "if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = x;",
            "part[threadIdx.x >> 5] = x;",
        );
    let (_, err, _) = convert(&[("k.cu", &down)], &[]);
    assert!(!h001_errors(&err).is_empty(), "{err}");
    // A width of 64 passed to the macro is the whole wavefront's.
    let wide = STEP_MACRO.replace(", 32);", ", 64);");
    let (_, err, _) = convert(&[("k.cu", &wide)], &[]);
    assert!(!h001_errors(&err).is_empty(), "{err}");
}

// R32-b ----------------------------------------------------------------------------------------

/// A run-time compiled kernel kept as a raw-string fragment that the host file includes into
/// an initializer.
const FRAGMENT: &str = r#"// the kernel hiprtc builds
R"~~~(
extern "C" __global__ void vote(const int* in, unsigned* out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = b;
}
)~~~"
"#;

const HOST: &str = r#"#include <nvrtc.h>
nvrtcResult make(nvrtcProgram* p) {
  const char* text =
#include "vote.cu"
  ;
  return nvrtcCreateProgram(p, text, "vote.cu", 0, nullptr, nullptr);
}
"#;

#[test]
fn r32b_a_string_fragment_with_device_code_gets_h059_and_stays_as_written() {
    let (_, err, out) = convert(&[("vote.cu", FRAGMENT), ("host.cpp", HOST)], &[]);
    let h059 = reports(&err, "H059");
    assert_eq!(h059.len(), 1, "{err}");
    assert!(
        h059[0].starts_with("warning") && h059[0].contains("`__ballot_sync`"),
        "{err}"
    );
    assert!(err.contains("--> in/vote.cu:2:1"), "{err}");
    // The fragment is hipRTC's input: byte for byte as written.
    assert_eq!(out[0], FRAGMENT);
    // A file of strings without device code (a message table) says nothing.
    let (_, err, _) = convert(&[("msg.inc", "\"usage: run <n>\\n\"\n\"n > 0\\n\"\n")], &[]);
    assert!(reports(&err, "H059").is_empty(), "{err}");
}
