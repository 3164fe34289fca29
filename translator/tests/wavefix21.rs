//! Findings of verify16/realuser35 (wavefix21): tile shuffles of types HIP's cooperative groups
//! reject, named through aliases, `auto`, half types or a template (V16-a); a warp size of 64
//! under any name (R35-a) and the help for one the host reads (R35-b); `CUB_VERSION` (R35-c);
//! an H001 note on the CUDA arm beside H055 (R35-2).

use crate::common;
use common::{cli_convert as convert, cli_convert_in, reports, require, tool_works};

// V16-a ----------------------------------------------------------------------------------------

/// Tile shuffles: lines 10-15 shuffle types HIP's `is_valid_type` rejects, lines 16-19 legal
/// ones.
const TILE_SHUFFLES: &str = r#"#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;
typedef struct { int lo, hi; } span_t;
using Pair = int2;
template <typename V> __device__ V pass_down(cg::thread_block_tile<16> g, V x) { return g.shfl_down(x, 2); }
__global__ void mix(__half *a, __half2 *b, span_t *c, Pair *d, double4 *e, double *f, long long *q) {
  cg::thread_block_tile<16> g = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned j = threadIdx.x;
  a[j] = g.shfl(a[j], 3);
  b[j] = g.shfl_up(b[j], 1);
  span_t s = c[j]; s = g.shfl_xor(s, 4); c[j] = s;
  Pair p = d[j]; p = g.shfl(p, 0); d[j] = p;
  auto w = e[j]; w = g.shfl_down(w, 1); e[j] = w;
  e[j] = pass_down(g, e[j]);
  f[j] = pass_down(g, f[j]);
  q[j] = g.shfl_xor(q[j], 2);
  auto m = f[j]; m = g.shfl(m, 1); f[j] = m;
  f[j] += g.shfl(e[j].x, 0);
}
"#;

fn line_of(report: &str, err: &str) -> usize {
    // The `--> in/k.cu:LINE:COL` line after the report's first line.
    let at = err.find(report).unwrap();
    let arrow = &err[at..][err[at..].find("--> ").unwrap() + 4..];
    let loc = arrow.lines().next().unwrap();
    loc.split(':').nth(1).unwrap().parse().unwrap()
}

#[test]
fn v16a_tile_shuffles_of_half_alias_auto_and_template_types_are_errors() {
    let (_, err, _) = convert(&[("k.cu", TILE_SHUFFLES)], &[]);
    let lines: Vec<usize> = reports(&err, "H060")
        .iter()
        .map(|r| line_of(r, &err))
        .collect();
    assert_eq!(lines, vec![10, 11, 12, 13, 14, 15], "{err}");
    assert!(
        err.contains("a `__half`") && err.contains("a `__half2`"),
        "{err}"
    );
    assert!(
        err.contains("a `span_t`") && err.contains("a `int2`"),
        "{err}"
    );
    assert!(
        err.contains("makes `V` a `double4` in `pass_down`"),
        "{err}"
    );
}

#[test]
fn v16a_hipcc_rejects_each_reported_shuffle_and_accepts_the_rest() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let (dir, _, err, _) = cli_convert_in(&[("k.cu", TILE_SHUFFLES)], "5.2.3", &[]);
    let out = std::process::Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-o"])
        .arg(dir.path().join("k.o"))
        .arg(dir.path().join("out/k.cu"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    // hipcc stops before it instantiates the template: the five direct calls.
    let asserts = text.matches("error: static assertion failed").count();
    assert_eq!(asserts, 5, "{text}\n{err}");
    // The same file with the reported lines taken out compiles.
    // The template instantiated with `double4` alone fails too.
    let template: String = TILE_SHUFFLES
        .lines()
        .enumerate()
        .filter(|(i, _)| !(9..14).contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (dir, _, err, _) = cli_convert_in(&[("k.cu", &template)], "5.2.3", &[]);
    assert_eq!(reports(&err, "H060").len(), 1, "{err}");
    let out = std::process::Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-o"])
        .arg(dir.path().join("k.o"))
        .arg(dir.path().join("out/k.cu"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("shfl_down<HIP_vector_type<double, 4>>"),
        "{text}"
    );
    let legal: String = TILE_SHUFFLES
        .lines()
        .enumerate()
        .filter(|(i, _)| !(9..15).contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (dir, _, err, _) = cli_convert_in(&[("k.cu", &legal)], "5.2.3", &[]);
    assert!(reports(&err, "H060").is_empty(), "{err}");
    let out = std::process::Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-o"])
        .arg(dir.path().join("k.o"))
        .arg(dir.path().join("out/k.cu"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// R35-a, R35-b, R35-2 --------------------------------------------------------------------------

/// A row sum whose lane count `name` is `hip` under `#ifdef guard`, else `cuda`; `loop_start`
/// starts its shuffle loop, and `block` is the launch's block size.
fn row_sum(guard: &str, name: &str, hip: u32, cuda: u32, loop_start: &str, block: &str) -> String {
    format!(
        r#"#include <cuda_runtime.h>
#ifdef {guard}
constexpr int {name} = {hip};
#else
constexpr int {name} = {cuda};
#endif
__global__ void row_sum(const float* in, float* out) {{
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = {loop_start}; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}}
void launch(const float* in, float* out, int rows) {{ row_sum<<<rows, {block}>>>(in, out); }}
"#
    )
}

#[test]
fn r35a_a_warp_size_of_64_under_any_name_is_judged_by_its_use() {
    for name in ["kLanes", "kW", "ROW"] {
        let src = row_sum(
            "__HIP_PLATFORM_AMD__",
            name,
            64,
            32,
            &format!("{name} / 2"),
            "64",
        );
        let (_, err, _) = convert(&[("k.cu", &src)], &[]);
        let h055 = reports(&err, "H055");
        assert_eq!(h055.len(), 1, "{name}:\n{err}");
        assert_eq!(line_of(h055[0], &err), 3, "{err}");
        assert!(err.contains("a shuffle loop starts at half of it"), "{err}");
    }
    // A 64 whose other arm is 32, even without a shuffle loop from its half.
    let src = row_sum("__HIP_PLATFORM_AMD__", "kRow", 64, 32, "16", "kRow");
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert_eq!(reports(&err, "H055").len(), 1, "{err}");
    assert!(
        err.contains("its other definition, for the CUDA build, is 32"),
        "{err}"
    );
    // A macro.
    let src = "#ifdef __HIP_PLATFORM_AMD__\n#define LANES 64\n#else\n#define LANES 32\n#endif\n\
               __global__ void k(float *x) { float v = x[threadIdx.x];\n\
               for (int o = LANES / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n\
               x[threadIdx.x] = v; }\n";
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    assert_eq!(reports(&err, "H055").len(), 1, "{err}");
}

#[test]
fn r35a_a_64_that_is_no_warp_size_stays_silent() {
    // A block of 64 threads, a loop from 32 without a shuffle, a 64 beside a 128.
    let src = row_sum("__HIP_PLATFORM_AMD__", "kBlock", 64, 128, "16", "kBlock");
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert!(reports(&err, "H055").is_empty(), "{err}");
    let src = "#define TILE 64\n__global__ void k(float *x) {\n\
               __shared__ float s[TILE]; s[threadIdx.x] = x[threadIdx.x]; __syncthreads();\n\
               for (int o = TILE / 2; o > 0; o /= 2) { if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o]; __syncthreads(); }\n\
               x[threadIdx.x] = s[0]; }\n\
               void go(float *x) { k<<<1, TILE>>>(x); }\n";
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    assert!(reports(&err, "H055").is_empty(), "{err}");
}

#[test]
fn r35b_a_constant_the_host_reads_gets_no_gfx9_help() {
    let src = row_sum(
        "__HIP_PLATFORM_AMD__",
        "kWarpSize",
        64,
        32,
        "kWarpSize / 2",
        "kWarpSize",
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert_eq!(reports(&err, "H055").len(), 1, "{err}");
    assert!(err.contains("hipDeviceAttributeWarpSize"), "{err}");
    assert!(err.contains("never defines `__GFX9__`"), "{err}");
    assert!(!err.contains("choose 64 only under"), "{err}");
    // Read in device code only: choosing by `__GFX9__` is right there.
    let src = row_sum(
        "__HIP_PLATFORM_AMD__",
        "kWarpSize",
        64,
        32,
        "kWarpSize / 2",
        "256",
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert_eq!(reports(&err, "H055").len(), 1, "{err}");
    assert!(err.contains("choose 64 only under"), "{err}");
}

#[test]
fn r35_2_no_h001_note_on_the_cuda_arm_beside_h055() {
    for name in ["kWarpSize", "kLanes"] {
        let src = row_sum(
            "__HIP_PLATFORM_AMD__",
            name,
            64,
            32,
            &format!("{name} / 2"),
            name,
        );
        let (_, err, _) = convert(&[("k.cu", &src)], &[]);
        assert_eq!(reports(&err, "H055").len(), 1, "{err}");
        assert!(reports(&err, "H001").is_empty(), "{name}:\n{err}");
    }
}

// R35-c ----------------------------------------------------------------------------------------

#[test]
fn r35c_cub_version_tests_are_reported_and_thrust_version_is_not() {
    for cond in [
        "CUB_VERSION >= 101500",
        "CUB_MAJOR_VERSION >= 2",
        "CUB_MINOR_VERSION > 14",
    ] {
        let src = format!(
            "#include <cub/cub.cuh>\n#if {cond}\n#define SCAN_BY_KEY 1\n#else\n#define SCAN_BY_KEY 0\n#endif\nint scan_by_key() {{ return SCAN_BY_KEY; }}\n"
        );
        let (_, err, _) = convert(&[("k.cu", &src)], &[]);
        let h010 = reports(&err, "H010");
        assert_eq!(h010.len(), 1, "{cond}:\n{err}");
        assert_eq!(line_of(h010[0], &err), 2, "{err}");
    }
    let src = "#include <thrust/version.h>\n#if THRUST_VERSION >= 101500\nint t = 1;\n#endif\n";
    let (_, err, _) = convert(&[("k.cu", src)], &[]);
    assert!(reports(&err, "H010").is_empty(), "{err}");
}

#[test]
fn r35b_a_warp_size_chosen_by_a_device_only_test_that_the_host_reads_is_reported() {
    for cond in [
        "defined(__GFX9__)",
        "defined(__gfx90a__) || defined(__gfx942__)",
        "__AMDGCN_WAVEFRONT_SIZE == 64",
    ] {
        for name in ["kWarpSize", "kWidth"] {
            let src = row_sum(
                "__HIP_PLATFORM_AMD__",
                name,
                64,
                32,
                &format!("{name} / 2"),
                name,
            )
            .replace("#ifdef __HIP_PLATFORM_AMD__", &format!("#if {cond}"));
            let (_, err, _) = convert(&[("k.cu", &src)], &[]);
            let h061 = reports(&err, "H061");
            assert_eq!(h061.len(), 1, "{cond} {name}:\n{err}");
            assert_eq!(line_of(h061[0], &err), 3, "{err}");
            assert!(reports(&err, "H055").is_empty(), "{err}");
            assert!(reports(&err, "H001").is_empty(), "{err}");
        }
    }
    // Read by device code only: each pass is consistent.
    let src = row_sum(
        "__HIP_PLATFORM_AMD__",
        "kWarpSize",
        64,
        32,
        "kWarpSize / 2",
        "256",
    )
    .replace("#ifdef __HIP_PLATFORM_AMD__", "#if defined(__GFX9__)");
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert!(reports(&err, "H061").is_empty(), "{err}");
}

#[test]
fn r35b_hipcc_host_pass_takes_the_other_arm() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("w.hip");
    std::fs::write(
        &f,
        "#if defined(__GFX9__)\nint width_is_64;\n#else\nint width_is_32;\n#endif\n",
    )
    .unwrap();
    let pass = |which: &str| {
        let o = std::process::Command::new("hipcc")
            .args(["--offload-arch=gfx90a", "-E", which])
            .arg(&f)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(pass("--cuda-host-only").contains("width_is_32"));
    assert!(pass("--cuda-device-only").contains("width_is_64"));
}
