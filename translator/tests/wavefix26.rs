//! Findings of verify17/realuser39-41 (wavefix26): H035 gated on the HIP that lacks half
//! shuffles, with a help that compiles for the type (R39-a/R41-b, R41-2); H011's qualifier
//! macros under `#elif`/`__CUDA_ARCH__ >= N` (V17-a); 32-lane CUB warps, tiles and template
//! offsets as segment code (R40-d, R39-b, R39-c); H061 through `dim3` (V17-d); old capability
//! checks as H037 notes (R40-4); 32-lane CUB warps fed by `warpSize` strides (R40-a).

use crate::common;
use common::{cli_convert_in, reports, require, tool_works};

// R39-a / R41-b / R41-2 ------------------------------------------------------------------------

/// A `__half` and a `__half2` butterfly, the shape of an LLM kernel's warp reductions.
const HALF_SHUFFLES: &str = r#"#include <cuda_fp16.h>
__device__ __half2 pair_sum(__half2 acc) {
  for (int d = 16; d >= 1; d /= 2) acc = __hadd2(acc, __shfl_xor_sync(0xffffffff, acc, d, 32));
  return acc;
}
__device__ __half top(__half best) {
  for (int d = 16; d >= 1; d /= 2) best = __hmax(best, __shfl_xor_sync(0xffffffff, best, d, 32));
  return best;
}
__global__ void reduce(__half2 *a, __half *b) {
  a[threadIdx.x] = pair_sum(a[threadIdx.x]);
  b[threadIdx.x] = top(b[threadIdx.x]);
}
"#;

/// The code of a help's first backquoted recipe (`(`...`)`).
fn recipe(help_line: &str) -> String {
    let start = help_line.find("(`").expect("a recipe") + 2;
    let end = help_line[start..].find("`)").expect("its end") + start;
    help_line[start..end].to_string()
}

#[test]
fn r41b_half_shuffles_are_errors_only_before_hip_5_6() {
    let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let found = reports(&err, "H035");
    assert_eq!(found.len(), 2, "{err}");
    assert!(found.iter().all(|r| r.starts_with("error[H035]")), "{err}");
    for hip in ["5.6", "6.2", "7.0"] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], hip, &[]);
        assert!(reports(&err, "H035").is_empty(), "{hip}: {err}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    // hipcc 5.2.3 agrees with the 5.2.3 verdict.
    let (dir, _, _, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let e = common::hipcc_compile(&dir.path().join("out"), "k.cu").expect_err("no half shuffles");
    assert!(e.contains("__shfl_xor"), "{e}");
}

#[test]
fn r41_2_each_help_recipe_compiles_with_hipcc_5_2_3_for_its_type() {
    let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let helps: Vec<&str> = err
        .lines()
        .filter(|l| l.trim_start().starts_with("= help: shuffle the"))
        .collect();
    assert_eq!(helps.len(), 2, "{err}");
    let pair = recipe(
        helps
            .iter()
            .find(|h| h.contains("pair"))
            .expect("half2 help"),
    );
    let single = recipe(
        helps
            .iter()
            .find(|h| h.contains("16 bits"))
            .expect("half help"),
    );
    assert!(!pair.contains("ushort"), "{pair}");
    assert!(
        err.contains("no matching function") && err.contains("call is ambiguous"),
        "{err}"
    );
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let src = format!(
        "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n\
         __global__ void k(__half2 *a, __half *b, int m) {{\n\
         __half2 v = a[threadIdx.x];\n a[threadIdx.x] = {};\n\
         }}\n\
         __global__ void j(__half *b, int m) {{\n\
         __half v = b[threadIdx.x];\n b[threadIdx.x] = {};\n\
         }}\n",
        pair, single
    );
    let tmp = tempfile::tempdir().unwrap();
    common::write_files(tmp.path(), &[("r.hip", &src)]);
    common::hipcc_compile(tmp.path(), "r.hip").unwrap_or_else(|e| panic!("{src}\n{e}"));
}

// V17-a ----------------------------------------------------------------------------------------

/// A qualifier macro under `#elif defined(__CUDA_ARCH__)`, used by a kernel and by host code.
const ELIF: &str = r#"#if defined(USE_PLAIN_INLINE)
#define BOTHQ inline
#elif defined(__CUDA_ARCH__)
#define BOTHQ __host__ __device__
#else
#define BOTHQ
#endif
BOTHQ int clampi(int v, int hi) { return v > hi ? hi : v; }
__global__ void cut(int *p, int hi) { p[threadIdx.x] = clampi(p[threadIdx.x], hi); }
int on_host(int v) { return clampi(v, 3); }
"#;

/// The same under an architecture test, `#if __CUDA_ARCH__ >= 600`.
const ARCH_VERSION: &str = r#"#if __CUDA_ARCH__ >= 600
#define BOTHQ __device__ __host__ __forceinline__
#else
#define BOTHQ inline
#endif
BOTHQ int twice(int v) { return v + v; }
__global__ void dbl(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
int on_host(int v) { return twice(v); }
"#;

#[test]
fn v17a_elif_and_arch_version_qualifier_macros_are_errors_and_fixed() {
    for (src, widened) in [
        (
            ELIF,
            "\n#elif defined(__CUDA_ARCH__) || defined(__HIPCC__)\n",
        ),
        (
            ARCH_VERSION,
            "\n#if __CUDA_ARCH__ >= 600 || defined(__HIPCC__)\n",
        ),
    ] {
        let (_, code, err, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        let r = reports(&err, "H011");
        assert_eq!(r.len(), 1, "{err}");
        assert!(
            r[0].starts_with("error[H011]")
                && r[0].contains("`BOTHQ` has `__device__` only in this branch"),
            "{err}"
        );
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains(widened.trim()),
            "the help names the fix: {err}"
        );
        let (_, _, err, texts) = cli_convert_in(&[("k.cu", src)], "5.2.3", &["--fix"]);
        assert!(texts[0].contains(widened), "{}", texts[0]);
        assert!(err.contains("(fixed by --fix)"), "{err}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    for src in [ELIF, ARCH_VERSION] {
        let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        let e = common::hipcc_compile(&dir.path().join("out"), "k.cu")
            .expect_err("without the fix the kernel calls a host function");
        assert!(e.contains("no matching function"), "{e}");
        for hip in ["5.2.3", "6.2"] {
            let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], hip, &["--fix"]);
            common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
        }
    }
}

#[test]
fn v17a_neighbours_stay_quiet() {
    // `__CUDA_ARCH__ < 600` gives hipcc the `__device__` branch: nothing is lost.
    let below = "#if __CUDA_ARCH__ < 600\n#define BOTHQ __host__ __device__\n#else\n#define BOTHQ inline\n#endif\nBOTHQ int twice(int v) { return v + v; }\n__global__ void dbl(int *p) { p[0] = twice(p[0]); }\n";
    let (_, _, err, _) = cli_convert_in(&[("k.cu", below)], "5.2.3", &[]);
    assert!(!err.contains("has `__device__` only in"), "{err}");
    // Both branches give `__device__`: the macro is not lost either.
    let both = "#if __CUDA_ARCH__ >= 600\n#define BOTHQ __host__ __device__ __forceinline__\n#else\n#define BOTHQ __host__ __device__\n#endif\nBOTHQ int twice(int v) { return v + v; }\n__global__ void dbl(int *p) { p[0] = twice(p[0]); }\n";
    let (_, _, err, _) = cli_convert_in(&[("k.cu", both)], "5.2.3", &[]);
    assert!(!err.contains("has `__device__` only in"), "{err}");
}

// R40-d, R39-b, R39-c: 32-lane groups the code itself makes 32 wide -------------------------------

/// H001 reports of `err` (their first lines).
fn h001(err: &str) -> Vec<&str> {
    reports(err, "H001")
}

#[test]
fn r40d_groups_of_an_explicit_32_lane_cub_warp_are_not_h001() {
    let src = r#"#include <cub/cub.cuh>
__global__ void seg_max(const int *in, int *out) {
  using Lanes32 = cub::WarpReduce<int, 32>;
  __shared__ typename Lanes32::TempStorage scratch[128 / 32];
  const int group = threadIdx.x / 32;
  const int lane = threadIdx.x & (32 - 1);
  int m = Lanes32(scratch[group]).Reduce(in[blockIdx.x * 128 + threadIdx.x], cub::Max());
  if (lane == 0) out[blockIdx.x * 4 + group] = m;
}
"#;
    for hip in ["5.2.3", "6.2"] {
        let (_, code, err, _) = cli_convert_in(&[("k.cu", src)], hip, &[]);
        assert!(h001(&err).is_empty(), "{hip}: {err}");
        assert_eq!(code, Some(0), "{err}");
    }
    // Neighbour: the default width is the wavefront under hipCUB; there `/ 32` stays reported.
    let default = src.replace("cub::WarpReduce<int, 32>", "cub::WarpReduce<int>");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &default)], "6.2", &[]);
    assert!(
        !h001(&err).is_empty() || !reports(&err, "H033").is_empty(),
        "{err}"
    );
}

#[test]
fn r39b_template_parameter_offsets_count_like_the_constant() {
    // A butterfly whose start comes from the template argument: 16 and 4 for the two
    // instantiations, so each stays inside a 32-lane half of a 64-lane wavefront.
    let src = r#"#define WARP_SIZE 32
#define NUM_WARPS (256 / WARP_SIZE)
template <int N = WARP_SIZE>
__device__ float tree_add(float v) {
  for (int d = N >> 1; d >= 1; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
  return v;
}
__global__ void norm(const float *x, float *y) {
  __shared__ float parts[NUM_WARPS];
  const int g = threadIdx.x / WARP_SIZE, l = threadIdx.x % WARP_SIZE;
  float v = tree_add<WARP_SIZE>(x[blockIdx.x * 256 + threadIdx.x]);
  if (l == 0) parts[g] = v;
  __syncthreads();
  v = (l < NUM_WARPS) ? parts[l] : 0.f;
  v = tree_add<NUM_WARPS>(v);
  if (threadIdx.x == 0) y[blockIdx.x] = v;
}
"#;
    let (_, code, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
    assert!(h001(&err).is_empty(), "{err}");
    assert_eq!(code, Some(0), "{err}");
    // Neighbour: a loop from N itself (32, then 8) crosses the 32-lane halves: still an error.
    let wide = src.replace("int d = N >> 1;", "int d = N;");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &wide)], "6.2", &[]);
    assert!(h001(&err).iter().any(|r| r.starts_with("error")), "{err}");
    if require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
    }
}

#[test]
fn r39c_slots_per_32_thread_tile_are_not_h001_and_the_help_points_the_right_way() {
    let src = r#"#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float tile_total(float v) {
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(cg::this_thread_block());
  for (int d = 16; d > 0; d >>= 1) v += t32.shfl_down(v, d);
  __shared__ float per_tile[32];
  const int tile = threadIdx.x >> 5, rank = threadIdx.x & 31;
  if (rank == 0) per_tile[tile] = v;
  __syncthreads();
  if (tile == 0) {
    v = rank < (int)(blockDim.x >> 5) ? per_tile[rank] : 0.f;
    for (int d = 16; d > 0; d >>= 1) v += t32.shfl_down(v, d);
  }
  return v;
}
__global__ void total(const float *x, float *out) {
  float s = tile_total(x[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) atomicAdd(out, s);
}
"#;
    let (_, _, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
    assert!(h001(&err).is_empty(), "{err}");
    // Neighbour: the same slots beside a whole-wavefront shuffle keep the warning, whose help
    // says a slot per warp needs fewer slots on 64 lanes, not more.
    let raw = src
        .replace("t32.shfl_down(v, d)", "__shfl_down_sync(0xffffffff, v, d)")
        .replace(
            "  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(cg::this_thread_block());\n",
            "",
        );
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &raw)], "6.2", &[]);
    let i = err
        .find("shared array with 32 entries")
        .unwrap_or_else(|| panic!("{err}"));
    let rest = &err[i..];
    let help = rest.lines().find(|l| l.contains("help:")).unwrap_or("");
    assert!(
        help.contains("indexed by warp, one slot per warp, 32 is already enough"),
        "{help}"
    );
    assert!(!help.contains("64 as an upper bound"), "{help}");
    if require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
    }
}

// V17-d ----------------------------------------------------------------------------------------

#[test]
fn v17d_a_dim3_built_from_a_gfx9_chosen_width_is_h061() {
    let via_dim3 = r#"#if defined(__GFX9__)
constexpr int kWidth = 64;
#else
constexpr int kWidth = 32;
#endif
__global__ void rowsum(const float *in, float *out) {
  float v = in[blockIdx.x * kWidth + threadIdx.x];
  for (int d = kWidth / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
void launch(const float *in, float *out, int rows) {
  dim3 threads(kWidth);
  rowsum<<<rows, threads>>>(in, out);
}
"#;
    let (_, _, err, _) = cli_convert_in(&[("k.cu", via_dim3)], "6.2", &[]);
    assert_eq!(reports(&err, "H061").len(), 1, "{err}");
    // Neighbour: the host never reads it: no H061.
    let device_only = via_dim3.replace("dim3 threads(kWidth);", "dim3 threads(64);");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &device_only)], "6.2", &[]);
    assert!(reports(&err, "H061").is_empty(), "{err}");
}

// R40-4 ----------------------------------------------------------------------------------------

#[test]
fn r40_4_pre_kepler_capability_checks_are_a_note_that_fits() {
    let old = r#"#include <cuda_runtime.h>
#include <cstdio>
int usable(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.major < 1 || (prop.major == 1 && prop.minor < 3)) { printf("no doubles\n"); return 0; }
  return 1;
}
"#;
    let tens = old.replace(
        "prop.major < 1 || (prop.major == 1 && prop.minor < 3)",
        "prop.major * 10 + prop.minor < 13",
    );
    let (_, _, err, _) = cli_convert_in(&[("k.cu", old), ("t.cu", &tens)], "6.2", &[]);
    let found = reports(&err, "H037");
    assert_eq!(found.len(), 2, "{err}");
    for r in &found {
        assert!(
            r.starts_with("note[H037]") && r.contains("3.x or older"),
            "{r}"
        );
        assert!(!r.contains("Volta"), "{r}");
    }
    // Neighbour: a Volta test keeps its warning.
    let volta = tens.replace("prop.minor < 13", "prop.minor < 70");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &volta)], "6.2", &[]);
    assert!(
        reports(&err, "H037")
            .iter()
            .any(|r| r.starts_with("warning[H037]") && r.contains("Volta")),
        "{err}"
    );
}

// R40-a ----------------------------------------------------------------------------------------

#[test]
fn r40a_a_32_lane_cub_warp_fed_by_warp_size_strides_is_h033() {
    let src = r#"#include <cub/cub.cuh>
__global__ void sumsq(const float *in, float *out, int n) {
  const int lane = threadIdx.x % warpSize;
  float acc = 0.f;
  for (int i = lane; i < n; i += warpSize) acc += in[i] * in[i];
  typedef cub::WarpReduce<float, 32> Half;
  __shared__ typename Half::TempStorage tmp;
  acc = Half(tmp).Sum(acc);
  if (threadIdx.x == 0) *out = acc;
}
"#;
    for hip in ["5.2.3", "6.2"] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", src)], hip, &[]);
        let r = reports(&err, "H033");
        assert_eq!(r.len(), 1, "{hip}: {err}");
        assert!(
            r[0].starts_with("warning[H033]")
                && r[0].contains("numbers lanes or strides by `warpSize` (line 3)"),
            "{err}"
        );
        assert!(err.contains("use 32 throughout"), "{err}");
    }
    // Neighbours: 32 throughout, or the default width with warpSize, are consistent.
    let thirty_two = src
        .replace("% warpSize", "% 32")
        .replace("+= warpSize", "+= 32");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &thirty_two)], "6.2", &[]);
    assert!(reports(&err, "H033").is_empty(), "{err}");
    let default = src.replace("cub::WarpReduce<float, 32>", "cub::WarpReduce<float>");
    let (_, _, err, _) = cli_convert_in(&[("k.cu", &default)], "6.2", &[]);
    assert!(
        !err.contains("numbers lanes or strides by `warpSize`"),
        "{err}"
    );
}
