//! Wave-size findings of realuser27/28 (wavefix13): segment trees whose helpers return through
//! references (R27-a), full masks held in variables in half-wavefront branches (R27-b), a row's
//! early return beside `cub::WarpReduce` (R27-c), `WARP_SIZE` defined in a project `#ifdef`
//! (R28-c), and a row width's H001 once H048 has fixed the shuffles (R27-e).

use crate::common;
use common::{cli_convert as convert, reports};

// R27-a ----------------------------------------------------------------------------------------

/// An argmax over 32-lane segments whose helper hands its result back through `float&`/`int&`
/// parameters, read by the kernel only at each segment's lane 0.
const ARGMAX_BY_REF: &str = r#"__device__ void pick_max(float& best, int& at) {
    for (int d = 16; d > 0; d >>= 1) {
        float other = __shfl_down_sync(0xffffffff, best, d);
        int other_at = __shfl_down_sync(0xffffffff, at, d);
        if (other > best) { best = other; at = other_at; }
    }
}
__global__ void argmax_rows(const float* in, int* where) {
    int t = threadIdx.x;
    int lane = t & 31;
    float b = in[blockIdx.x * blockDim.x + t];
    int w = t;
    pick_max(b, w);
    if (lane == 0) where[blockIdx.x * 8 + (t >> 5)] = w;
}
"#;

#[test]
fn r27a_a_segment_tree_returning_through_references_is_segment_code() {
    let (_, err, _) = convert(&[("k.cu", ARGMAX_BY_REF)], &[]);
    assert!(reports(&err, "H001").is_empty(), "{err}");
}

#[test]
fn r27a_a_reference_result_read_by_every_lane_is_still_reported() {
    // Every lane reads the result: lanes 32-63 hold their own half's, not the wavefront's.
    let src = ARGMAX_BY_REF.replace(
        "if (lane == 0) where[blockIdx.x * 8 + (t >> 5)] = w;",
        "where[blockIdx.x * blockDim.x + t] = w + lane;",
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.contains("offset 16")),
        "{err}"
    );
    // Nor where the loop's temporary flows into a variable outside the tree.
    let src = ARGMAX_BY_REF
        .replace("int& at)", "int& at, float& seen)")
        .replace(
            "if (other > best)",
            "seen += other;\n        if (other > best)",
        )
        .replace(
            "pick_max(b, w);",
            "float s = 0.f;\n    pick_max(b, w, s);\n    where[t] = (int)s;",
        );
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.contains("offset 16")),
        "{err}"
    );
}

#[test]
fn r27a_an_accumulating_tree_by_reference_is_segment_code_where_lane_0_reads_it() {
    let good = r#"__device__ void add_up(float& acc) {
    for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xffffffff, acc, d);
}
__global__ void sums(const float* in, float* out) {
    int lane = threadIdx.x & 31;
    float s = in[threadIdx.x];
    add_up(s);
    if (lane == 0) out[threadIdx.x >> 5] = s;
}
"#;
    let (_, err, _) = convert(&[("k.cu", good)], &[]);
    assert!(reports(&err, "H001").is_empty(), "{err}");
    let bad = good.replace(
        "if (lane == 0) out[threadIdx.x >> 5] = s;",
        "out[threadIdx.x] = s + lane;",
    );
    let (_, err, _) = convert(&[("k.cu", &bad)], &[]);
    assert!(!reports(&err, "H001").is_empty(), "{err}");
}

// R27-b ----------------------------------------------------------------------------------------

/// A block sum over 32-lane segments whose helper holds the full mask in a variable; the second
/// stage runs in `if (wid == 0)`, lanes 0-31 of a 64-lane wavefront.
const MASK_IN_VARIABLE: &str = r#"__device__ float tree_sum(float v) {
    unsigned int lanes = 0xFFFFFFFF;
    for (int s = 16; s > 0; s /= 2) v += __shfl_down_sync(lanes, v, s);
    return v;
}
__global__ void total(const float* in, float* out) {
    __shared__ float part[8];
    int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    float v = in[blockIdx.x * 256 + threadIdx.x];
    v = tree_sum(v);
    if (lane == 0) part[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < 8 ? part[lane] : 0.f;
        v = tree_sum(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
"#;

#[test]
fn r27b_a_full_mask_held_in_a_variable_becomes_activemask_in_a_half_wavefront_branch() {
    for fix in [&["--fix"][..], &[]] {
        let (code, err, out) = convert(&[("k.cu", MASK_IN_VARIABLE)], fix);
        assert!(
            out[0].contains("v += __shfl_down_sync(__activemask(), v, s);"),
            "{}\n{err}",
            out[0]
        );
        assert!(!out[0].contains("~0ull"), "{}", out[0]);
        assert!(
            reports(&err, "H001")
                .iter()
                .any(|l| l.starts_with("note[H001]") && l.contains("`__activemask()`")),
            "{err}"
        );
        assert!(
            !reports(&err, "H003")
                .iter()
                .any(|l| l.contains("lane mask `lanes`")),
            "{err}"
        );
        assert_eq!(code, Some(0), "{err}");
    }
}

#[test]
fn r27b_a_mask_variable_used_outside_the_branch_too_keeps_its_widening_there() {
    // `all` is passed inside `if (wid == 0)` and before it, where every lane runs the call.
    let src = MASK_IN_VARIABLE
        .replace(
            "    __shared__ float part[8];",
            "    const unsigned all = 0xffffffffu;\n    __shared__ float part[8];",
        )
        .replace(
            "    if (lane == 0) part[wid] = v;",
            "    float first = __shfl_sync(all, v, 0, 32);\n    if (lane == 0) part[wid] = v + 0.f * first;",
        )
        .replace(
            "        if (lane == 0) out[blockIdx.x] = v;",
            "        v = __shfl_sync(all, v, 0, 32);\n        if (lane == 0) out[blockIdx.x] = v;",
        );
    let (_, err, out) = convert(&[("k.cu", &src)], &["--fix"]);
    let text = &out[0];
    assert!(
        text.contains("const unsigned long long all = ~0ull;"),
        "{text}\n{err}"
    );
    assert!(
        text.contains("float first = __shfl_sync(all, v, 0, 32);"),
        "{text}"
    );
    assert!(
        text.contains("v = __shfl_sync(__activemask(), v, 0, 32);"),
        "{text}"
    );
}

#[test]
fn r27b_a_mask_variable_that_is_written_again_is_not_taken_for_the_full_mask() {
    let src = MASK_IN_VARIABLE.replace(
        "    unsigned int lanes = 0xFFFFFFFF;\n",
        "    unsigned int lanes = 0xFFFFFFFF;\n    lanes = __ballot_sync(lanes, v != 0.f);\n",
    );
    let (_, err, out) = convert(&[("k.cu", &src)], &["--fix"]);
    assert!(!out[0].contains("__activemask()"), "{}\n{err}", out[0]);
}

// R27-c ----------------------------------------------------------------------------------------

/// Rows of 32 threads (`dim3(32, 4)`); a row past the end leaves, then a helper sums the row
/// with `cub::WarpReduce` and broadcasts lane 0's sum with a full-mask `__shfl_sync`.
const ROW_RETURN_WITH_CUB: &str = r#"#include <cub/cub.cuh>
__device__ float row_total(float x) {
    __shared__ typename cub::WarpReduce<float>::TempStorage scratch[4];
    float t = cub::WarpReduce<float>(scratch[threadIdx.y]).Sum(x);
    return __shfl_sync(0xffffffff, t, 0);
}
__global__ void normalize_rows(const float* in, float* out, int rows) {
    int r = blockIdx.x * 4 + threadIdx.y;
    if (r >= rows) {
        return;
    }
    float x = in[r * 32 + threadIdx.x];
    out[r * 32 + threadIdx.x] = x / row_total(x);
}
void normalize(const float* in, float* out, int rows) {
    normalize_rows<<<(rows + 3) / 4, dim3(32, 4)>>>(in, out, rows);
}
"#;

#[test]
fn r27c_a_rows_early_return_is_read_when_the_helper_also_runs_cub_warp_reduce() {
    let (_, err, out) = convert(&[("k.cu", ROW_RETURN_WITH_CUB)], &["--fix"]);
    assert!(
        out[0].contains("return __shfl_sync(__activemask(), t, 0, 32);"),
        "{}\n{err}",
        out[0]
    );
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.contains("`if (r >= rows)` returns for one row")),
        "{err}"
    );
    // Without the early return both rows run the helper: the full mask is right.
    let src = ROW_RETURN_WITH_CUB.replace("    if (r >= rows) {\n        return;\n    }\n", "");
    let (_, err, out) = convert(&[("k.cu", &src)], &["--fix"]);
    assert!(!out[0].contains("__activemask()"), "{}\n{err}", out[0]);
}

// R27-e ----------------------------------------------------------------------------------------

/// `WARP_SIZE` is the width of 32-thread rows: the launch's x dimension, a column stride and an
/// xor tree from `WARP_SIZE / 2`; one broadcast has no width (H048), and an unused `static`
/// helper runs its own xor tree.
const ROW_WIDTH: &str = r#"#define WARP_SIZE 32
static __device__ float spare_sum(float v) {
    for (int m = WARP_SIZE / 2; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    return v;
}
__device__ float row_max(float v) {
    for (int m = WARP_SIZE / 2; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));
    return v;
}
__global__ void shift_rows(const float* in, float* out, int cols) {
    int r = blockIdx.x * blockDim.y + threadIdx.y;
    float m = -1e30f;
    for (int c = threadIdx.x; c < cols; c += WARP_SIZE) m = fmaxf(m, in[r * cols + c]);
    m = row_max(m);
    m = __shfl_sync(0xffffffff, m, 0);
    for (int c = threadIdx.x; c < cols; c += WARP_SIZE) out[r * cols + c] = in[r * cols + c] - m;
}
void run(const float* in, float* out, int rows, int cols) {
    dim3 block(WARP_SIZE, 4);
    shift_rows<<<rows / 4, block>>>(in, out, cols);
}
"#;

#[test]
fn r27e_a_row_width_constant_gets_no_h001_beside_the_h048_that_fixes_the_shuffle() {
    let (code, err, out) = convert(&[("k.cu", ROW_WIDTH)], &["--fix"]);
    assert!(
        out[0].contains("m = __shfl_sync(0xffffffffffffffffull, m, 0, 32);"),
        "{}\n{err}",
        out[0]
    );
    assert!(reports(&err, "H001").is_empty(), "{err}");
    assert_eq!(code, Some(0), "{err}");
    // Without --fix, H048 reports the broadcast; H001 does not restate it with other advice.
    let (_, err, _) = convert(&[("k.cu", ROW_WIDTH)], &[]);
    assert!(
        reports(&err, "H048")
            .iter()
            .any(|l| l.starts_with("error[H048]")),
        "{err}"
    );
    assert!(reports(&err, "H001").is_empty(), "{err}");
}

#[test]
fn r27e_a_row_width_constant_that_counts_a_wavefront_vote_keeps_h001_with_row_advice() {
    // The vote covers both rows of a 64-lane wavefront, and its count is compared with
    // WARP_SIZE: H001 stays, but its help must not say to use `warpSize` for the row width.
    let src = ROW_WIDTH.replace(
        "    m = __shfl_sync(0xffffffff, m, 0);\n",
        "    m = __shfl_sync(0xffffffff, m, 0);\n    if (__popc(__ballot_sync(0xffffffff, m > 0.f)) == WARP_SIZE) m = 0.f;\n",
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &["--fix"]);
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.contains("`WARP_SIZE` fixes the warp size at 32")),
        "{err}"
    );
    let help = err
        .split("error[H001]")
        .nth(1)
        .and_then(|d| d.lines().find(|l| l.contains("= help:")))
        .unwrap_or_default();
    assert!(help.contains("width of the rows `shift_rows`"), "{err}");
    assert!(!help.starts_with("use `warpSize`"), "{help}");
}

// R28-c ----------------------------------------------------------------------------------------

/// A project header that defines `WARP_SIZE` only for its GPU build, and a kernel that walks the
/// lanes of "its" 32-lane warp with full-width shuffles.
const SWITCHED_HEADER: &str =
    "#pragma once\n#ifdef PROJ_GPU\n#include <stdint.h>\n#define WARP_SIZE 32\n#endif\n";
const LANE_WALK: &str = r#"#include "gpu_common.h"
__global__ void pack_signs(const float* v, unsigned* bits) {
    int lane = threadIdx.x % WARP_SIZE;
    float mine = v[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned word = 0;
    for (int t = 0; t < WARP_SIZE; ++t) {
        float other = __shfl_sync(0xffffffff, mine, t);
        word |= (other > 0.f ? 1u : 0u) << t;
    }
    if (lane == 0) bits[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = word;
}
"#;

#[test]
fn r28c_a_warp_size_a_header_defines_under_a_project_switch_is_followed_to_its_uses() {
    let files = [("gpu_common.h", SWITCHED_HEADER), ("pack.cu", LANE_WALK)];
    for args in [&[][..], &["--define", "PROJ_GPU"]] {
        let (_, err, _) = convert(&files, args);
        assert!(
            reports(&err, "H001")
                .iter()
                .any(|l| l.starts_with("error[H001]")
                    && l.contains(
                        "(defined in gpu_common.h:4) in a function whose warp-level work it counts"
                    )),
            "{args:?}\n{err}"
        );
    }
    // A build that leaves the switch undefined never defines the name.
    let (_, err, _) = convert(&files, &["--undefine", "PROJ_GPU"]);
    assert!(
        !reports(&err, "H001")
            .iter()
            .any(|l| l.contains("(defined in gpu_common.h")),
        "{err}"
    );
    // Nor is a definition chosen per platform followed.
    let platform = SWITCHED_HEADER.replace("#ifdef PROJ_GPU", "#ifndef __HIP_PLATFORM_AMD__");
    let (_, err, _) = convert(&[("gpu_common.h", &platform), ("pack.cu", LANE_WALK)], &[]);
    assert!(
        !reports(&err, "H001")
            .iter()
            .any(|l| l.contains("(defined in gpu_common.h")),
        "{err}"
    );
}
