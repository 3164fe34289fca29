//! Findings of verify14 and realuser31/32 (wavefix18): unrolled shuffle trees from 16 read at
//! lane 0 of the wavefront (PE-1), reductions in template specialisations called with template
//! arguments (R31-d), segment-safe sites beside one absolute-lane shuffle (R31-3), and
//! qualifier macros defined in an input header the file does not include (R32-1).

use crate::common;
use common::{cli_convert as convert, reports};

/// The H001 findings of `stderr` at error severity.
fn h001_errors(stderr: &str) -> Vec<&str> {
    reports(stderr, "H001")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect()
}

// PE-1 -----------------------------------------------------------------------------------------

/// An unrolled xor butterfly over 32 lanes in a kernel of 256-thread blocks, each step written
/// as `STEP`, and its result stored by the thread that `READ` picks.
fn butterfly(step: &str, read: &str) -> String {
    format!(
        r#"__global__ void rowsum(const float* x, float* sums) {{
  int t = threadIdx.x;
  float acc = x[blockIdx.x * 256 + t];
{}
  if ({read}) sums[blockIdx.x * 8 + t / 32] = acc;
}}
"#,
        [16, 8, 4, 2, 1]
            .iter()
            .map(|d| format!("  {};\n", step.replace("D", &d.to_string())))
            .collect::<String>()
    )
}

const STEPS: &[&str] = &[
    "acc += __shfl_xor_sync(0xffffffff, acc, D, 32)",
    "acc += __shfl_xor_sync(0xffffffff, acc, D)",
    "acc = fmaxf(acc, __shfl_down_sync(0xffffffff, acc, D, 32))",
];

#[test]
fn pe1_an_unrolled_tree_read_at_lane_0_of_64_is_reported() {
    for step in STEPS {
        for read in ["t % 64 == 0", "(t & 63) == 0", "t % warpSize == 0"] {
            let (_, err, _) = convert(&[("k.cu", &butterfly(step, read))], &[]);
            assert!(!h001_errors(&err).is_empty(), "{step} / {read}:\n{err}");
        }
    }
}

#[test]
fn pe1_an_unrolled_tree_read_at_each_segments_lane_0_is_segment_code() {
    for step in STEPS {
        for read in ["t % 32 == 0", "(t & 31) == 0"] {
            let (_, err, _) = convert(&[("k.cu", &butterfly(step, read))], &[]);
            assert!(h001_errors(&err).is_empty(), "{step} / {read}:\n{err}");
        }
    }
}

/// The steps as uses of a one-step macro (with and without a width), in a scrambled order.
fn macro_butterfly(width: bool, read: &str) -> String {
    let (def, w) = if width {
        (
            "#define HALVE(x, d, w) x += __shfl_xor_sync(0xffffffff, x, d, w)",
            ", 32",
        )
    } else {
        (
            "#define HALVE(x, d) x += __shfl_xor_sync(0xffffffff, x, d)",
            "",
        )
    };
    let steps: String = [1, 16, 4, 8, 2]
        .iter()
        .map(|d| format!("  HALVE(acc, {d}{w});\n"))
        .collect();
    format!(
        "{def}\n__global__ void rowsum(const float* x, float* sums) {{\n  int t = threadIdx.x;\n  int lane = t % 64;\n  float acc = x[blockIdx.x * 256 + t];\n{steps}  if ({read}) sums[t / 64] = acc;\n}}\n"
    )
}

#[test]
fn pe1_an_unrolled_tree_through_a_macro_is_judged_as_the_loop() {
    for width in [true, false] {
        let (_, err, _) = convert(&[("k.cu", &macro_butterfly(width, "lane == 0"))], &[]);
        let errors = h001_errors(&err);
        assert!(
            errors.iter().any(|e| e.contains("starting at offset 16")),
            "width {width}:\n{err}"
        );
        let ok = macro_butterfly(width, "(t & 31) == 0").replace("t / 64", "t / 32");
        let (_, err, _) = convert(&[("k.cu", &ok)], &[]);
        assert!(h001_errors(&err).is_empty(), "width {width}:\n{err}");
    }
}

#[test]
fn pe1_a_partial_tree_or_one_in_the_first_32_threads_is_not_a_reduction_from_16() {
    // Four steps only (no distance 1): not the tree the rule knows.
    let partial = macro_butterfly(true, "lane == 0").replace("  HALVE(acc, 1, 32);\n", "");
    let (_, err, _) = convert(&[("k.cu", &partial)], &[]);
    assert!(!err.contains("starting at offset 16"), "{err}");
    // Run by the block's first 32 threads only: the tree covers every lane that runs it.
    let first = butterfly(STEPS[1], "t == 0")
        .replace(
            "  acc += __shfl_xor_sync(0xffffffff, acc, 16);",
            "  if (t < 32) {\n  acc += __shfl_xor_sync(0xffffffff, acc, 16);",
        )
        .replace(
            "  acc += __shfl_xor_sync(0xffffffff, acc, 1);",
            "  acc += __shfl_xor_sync(0xffffffff, acc, 1);\n  }",
        );
    let (_, err, _) = convert(&[("k.cu", &first)], &[]);
    assert!(h001_errors(&err).is_empty(), "{first}\n{err}");
}

#[test]
fn pe1_a_loop_from_16_read_at_lane_0_of_64_is_reported() {
    let src = r#"__global__ void rowsum(const float* x, float* sums) {
  int t = threadIdx.x;
  float acc = x[blockIdx.x * 256 + t];
  for (int d = 16; d > 0; d >>= 1) acc += __shfl_down_sync(0xffffffff, acc, d, 32);
  if (t % 64 == 0) atomicAdd(sums, acc);
}
"#;
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    assert!(!h001_errors(&err).is_empty(), "{err}");
    // A 64-element tile index that picks no lane to read a result is no such read.
    let tile = src.replace(
        "if (t % 64 == 0) atomicAdd(sums, acc);",
        "if ((t & 31) == 0) atomicAdd(sums + t % 64, acc);",
    );
    let (_, err, _) = convert(&[("k.cu", &tile)], &[]);
    assert!(h001_errors(&err).is_empty(), "{err}");
}

// R31-d ----------------------------------------------------------------------------------------

/// A block reduction written as explicit specialisations (`template <> ... <Op::kAdd, 2>`),
/// the 32-lane step called with template arguments one of which is a local constant; each
/// segment's result is read at its own lane 0 (`threadIdx.x & 31`).
const SPECIALISED: &str = r#"enum class Op { kAdd, kMax };

template <Op O, int N>
__device__ void lanes_combine(float* v);
template <Op O, int N>
__device__ void block_combine(float* v);

template <>
__device__ __forceinline__ void lanes_combine<Op::kAdd, 2>(float* v) {
  for (int s = 16; s >= 1; s /= 2) {
    v[0] += __shfl_xor_sync(0xffffffff, v[0], s, 32);
    v[1] += __shfl_xor_sync(0xffffffff, v[1], s, 32);
  }
}

template <>
__device__ void block_combine<Op::kAdd, 2>(float* v) {
  constexpr int n = 2;
  __shared__ float part[n][32];
  int lane = threadIdx.x & 31;
  int grp = threadIdx.x >> 5;
  lanes_combine<Op::kAdd, n>(v);
  if (lane == 0) {
    for (int k = 0; k < n; ++k) part[k][grp] = v[k];
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) v[k] = threadIdx.x < (blockDim.x >> 5) ? part[k][lane] : 0.f;
  lanes_combine<Op::kAdd, n>(v);
}

__global__ void moments(const float* x, float* out) {
  float v[2] = {x[threadIdx.x], x[threadIdx.x] * x[threadIdx.x]};
  block_combine<Op::kAdd, 2>(v);
  if (threadIdx.x == 0) { out[0] = v[0]; out[1] = v[1]; }
}
"#;

#[test]
fn r31d_a_call_of_an_explicit_specialisation_is_followed() {
    let (_, err, _) = convert(&[("k.cu", SPECIALISED)], &[]);
    assert!(h001_errors(&err).is_empty(), "{err}");
    assert!(reports(&err, "H001").is_empty(), "{err}");
}

#[test]
fn r31d_a_specialisation_read_at_lane_0_of_the_wavefront_is_still_reported() {
    let wave = SPECIALISED
        .replace(
            "int lane = threadIdx.x & 31;",
            "int lane = threadIdx.x % warpSize;",
        )
        .replace("part[k][lane]", "part[k][threadIdx.x & 31]");
    let (_, err, _) = convert(&[("k.cu", &wave)], &[]);
    assert!(
        h001_errors(&err)
            .iter()
            .any(|e| e.contains("starting at offset 16")),
        "{err}"
    );
}

// R31-3 ----------------------------------------------------------------------------------------

/// One shuffle from the absolute lane 31 (a real wave64 bug) beside a 32-lane tree read at each
/// segment's lane 0.
const ONE_ABSOLUTE: &str = r#"__global__ void rowsums(const int* rows, const float* x, float* y) {
  int lane = threadIdx.x & 31;
  int r = rows[blockIdx.x * blockDim.x + threadIdx.x];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int last = __shfl_sync(0xffffffff, r, 31);
  if (last == r) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o, 32);
    if (lane == 0) atomicAdd(y + r, v);
  }
}
"#;

#[test]
fn r31_3_one_absolute_lane_shuffle_keeps_its_error_and_leaves_the_rest_alone() {
    let (_, err, _) = convert(&[("k.cu", ONE_ABSOLUTE)], &[]);
    let errors = h001_errors(&err);
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains("from lane 31"), "{err}");
}

#[test]
fn r31_3_the_rest_read_at_lane_0_of_the_wavefront_is_still_reported() {
    let wave = ONE_ABSOLUTE.replace(
        "int lane = threadIdx.x & 31;",
        "int lane = threadIdx.x % 64;",
    );
    let (_, err, _) = convert(&[("k.cu", &wave)], &[]);
    let errors = h001_errors(&err);
    assert!(errors.iter().any(|e| e.contains("from lane 31")), "{err}");
    assert!(
        errors.iter().any(|e| e.contains("starting at offset 16")),
        "{err}"
    );
}
