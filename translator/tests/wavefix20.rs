//! Findings of realuser33/34 (wavefix20): a CUDA macro defined in a branch hipcc never takes
//! (an editor-only `#ifdef __INTELLISENSE__` block) counted as defined (R34-c), an error on a
//! warp-size constant whose uses are all right on 64-lane wavefronts (R33-d), and one hazard
//! reported twice, with the error's help not the fix (R34-3).

use crate::common;
use common::{cli_convert as convert, reports};

// R34-c ----------------------------------------------------------------------------------------

/// A file whose `#if COND` picks a warp shuffle, else a shared-memory fallback, with `head`
/// before it.
fn arch_file(head: &str, cond: &str) -> String {
    format!(
        r#"{head}
#if {cond}
__device__ float pick(float v) {{ return __shfl(v, 0, 8); }}
#else
__device__ float pick(float v) {{
  extern __shared__ float buf[];
  buf[threadIdx.x] = v;
  __threadfence_block();
  return buf[threadIdx.x & ~7];
}}
#endif
__global__ void k(float *d) {{ d[threadIdx.x] = pick(d[threadIdx.x]); }}
"#
    )
}

#[test]
fn r34c_an_editor_only_definition_leaves_the_cuda_macro_undefined() {
    for (editor, name, cond) in [
        ("__INTELLISENSE__", "__CUDA_ARCH__", "__CUDA_ARCH__ >= 300"),
        (
            "__INTELLISENSE__",
            "__CUDA_ARCH__",
            "defined(__CUDA_ARCH__)",
        ),
        ("__CDT_PARSER__", "__CUDA_ARCH__", "__CUDA_ARCH__ >= 300"),
        ("__RESHARPER__", "CUDA_VERSION", "CUDA_VERSION >= 9000"),
        (
            "__INTELLISENSE__",
            "CUDART_VERSION",
            "CUDART_VERSION >= 9000",
        ),
        (
            "__INTELLISENSE__",
            "__CUDACC_VER_MAJOR__",
            "__CUDACC_VER_MAJOR__ >= 9",
        ),
    ] {
        let head =
            format!("#ifdef {editor}\n/* editor colours only */\n#define {name} 9520\n#endif");
        let (_, err, _) = convert(&[("k.cu", &arch_file(&head, cond))], &[]);
        let branch = [reports(&err, "H011"), reports(&err, "H010")].concat();
        assert!(!branch.is_empty(), "{editor} / {cond}:\n{err}");
    }
}

#[test]
fn r34c_a_switch_nothing_in_the_tree_defines_leaves_the_cuda_macro_undefined() {
    let head = "#ifdef MY_EDITOR_HINTS\n#define __CUDA_ARCH__ 520\n#endif";
    let src = arch_file(head, "__CUDA_ARCH__ >= 300");
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert_eq!(reports(&err, "H011").len(), 1, "{err}");
    // Where the build defines the switch, hipcc takes the branch: the file's own
    // `__CUDA_ARCH__` decides, and there is nothing to say.
    let (_, err, _) = convert(
        &[
            ("k.cu", &src),
            ("Makefile", "all:\n\tnvcc -DMY_EDITOR_HINTS -c k.cu\n"),
        ],
        &[],
    );
    assert!(reports(&err, "H011").is_empty(), "{err}");
}

#[test]
fn r34c_a_definition_hipcc_compiles_still_counts() {
    // Near neighbours: a HIP shim that defines the macro where hipcc compiles it, and an editor
    // block's `#ifndef` (hipcc takes it) keep the file's definition.
    for head in [
        "#define __CUDA_ARCH__ 700",
        "#if defined(__HIPCC__)\n#define __CUDA_ARCH__ 700\n#endif",
        "#ifndef __INTELLISENSE__\n#define __CUDA_ARCH__ 700\n#endif",
    ] {
        let (_, err, _) = convert(&[("k.cu", &arch_file(head, "__CUDA_ARCH__ >= 300"))], &[]);
        assert!(reports(&err, "H011").is_empty(), "{head}:\n{err}");
    }
}

// R33-d ----------------------------------------------------------------------------------------

/// A block sum folded in shared memory to `kWarpSize` values, then a shuffle tree from `kWarpSize / 2` whose
/// results only lanes below the offset read, and `extra` (more functions using `kWarpSize`).
fn warp_ctc_like(extra: &str, launch: &str) -> String {
    format!(
        r#"const int kWarpSize = 32;
template <int N>
__global__ void fold(const float* in, float* out) {{
  __shared__ float part[N];
  int t = threadIdx.x;
  float v = in[blockIdx.x * N + t];
  part[t] = v;
  __syncthreads();
  for (int half = N / 2; half >= kWarpSize; half /= 2) {{
    if (t < half) {{ v += part[t + half]; part[t] = v; }}
    __syncthreads();
  }}
  for (int half = kWarpSize / 2; half > 0; half /= 2) {{
    float o = __shfl_down_sync(0xFFFFFFFF, v, half);
    if (t < half) v += o;
  }}
  if (t == 0) out[blockIdx.x] = v;
}}
{extra}
void go(const float* in, float* out, int n, int rows) {{
  fold<256><<<n / 256, 256>>>(in, out);
{launch}
}}
"#
    )
}

const ROWS: &str = r#"template <int N>
__global__ void by_rows(const float* in, float* out, int rows) {
  __shared__ float tile[N];
  int per = N / kWarpSize;
  int r = blockDim.x * blockIdx.x + threadIdx.x;
  float c = r < rows ? in[r + threadIdx.y * rows] : 0.f;
  tile[threadIdx.x * per + threadIdx.y] = c;
  __syncthreads();
  if (threadIdx.y == 0 && r < rows) {
    for (int i = 1; i < per; ++i) c += tile[threadIdx.x * per + i];
    out[r] = c;
  }
}
"#;

#[test]
fn r33d_a_constant_that_sizes_segments_and_lays_out_rows_is_a_note() {
    let launch =
        "  dim3 b(kWarpSize, 256 / kWarpSize);\n  by_rows<256><<<(rows + kWarpSize - 1) / kWarpSize, b>>>(in, out, rows);";
    let (code, err, _) = convert(&[("k.cu", &warp_ctc_like(ROWS, launch))], &[]);
    let h001 = reports(&err, "H001");
    assert!(
        h001.iter().all(|l| l.starts_with("note")),
        "no error or warning:\n{err}"
    );
    assert!(!err.contains("H048 says where"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn r33d_a_row_vote_keeps_the_error() {
    // Near neighbour: the row kernel votes across its rows (a 64-lane wavefront holds two):
    // warp-level work that crosses rows, so the constant's error stays (and H048 says where).
    let rows = ROWS.replace(
        "  tile[threadIdx.x * per",
        "  if (__any_sync(0xFFFFFFFF, c > 0.f)) c += 1.f;\n  tile[threadIdx.x * per",
    );
    let launch =
        "  dim3 b(kWarpSize, 256 / kWarpSize);\n  by_rows<256><<<(rows + kWarpSize - 1) / kWarpSize, b>>>(in, out, rows);";
    let (_, err, _) = convert(&[("k.cu", &warp_ctc_like(&rows, launch))], &[]);
    assert!(
        reports(&err, "H001").iter().any(|l| l.starts_with("error")),
        "{err}"
    );
    assert!(!reports(&err, "H048").is_empty(), "{err}");
}

// R34-3 ----------------------------------------------------------------------------------------

const HOST_WIDTH: &str = r#"__global__ void prefix(int *d, int w) {
  int lane = threadIdx.x % warpSize;
  int v = d[threadIdx.x];
  for (int s = 1; s <= w; s *= 2) {
    int got = __shfl_up_sync(0xffffffff, v, s, w);
    if (lane >= s) v += got;
  }
  d[threadIdx.x] = v;
}
void go(int *d) { prefix<<<1, 128>>>(d, 32); }
"#;

#[test]
fn r34_3_a_loop_bound_and_a_width_of_32_are_one_error_naming_the_width() {
    let (_, err, _) = convert(&[("k.cu", HOST_WIDTH)], &[]);
    let h001 = reports(&err, "H001");
    assert_eq!(h001.len(), 1, "{err}");
    assert!(h001[0].starts_with("error"), "{err}");
    assert!(
        err.contains("pass `warpSize` for `w`"),
        "the help names the width:\n{err}"
    );
}

#[test]
fn r34_3_a_literal_bound_and_width_name_both() {
    let src = r#"__global__ void prefix(int *d) {
  int lane = threadIdx.x % warpSize;
  int v = d[threadIdx.x];
  for (int s = 1; s < 32; s *= 2) {
    int got = __shfl_up_sync(0xffffffff, v, s, 32);
    if (lane >= s) v += got;
  }
  d[threadIdx.x] = v;
}
"#;
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    let h001 = reports(&err, "H001");
    assert_eq!(h001.len(), 1, "{err}");
    assert!(err.contains("the width `warpSize` too"), "{err}");
}
