//! H002 across files: a `.cu` that uses `WARP_SIZE` from a project header that defines it as
//! `warpSize` for hipcc (vLLM's `cuda_compat.h` shape) gets H002 where it uses it as a
//! compile-time constant, and the cache and run index do not serve a result made before the
//! header changed.

use std::fs;
use std::path::Path;

use hipport::project::{convert, ConvertConfig, OutputMode};

/// The compat header of the shape vLLM ships: 32 for CUDA, `warpSize` for ROCm.
const COMPAT: &str = "#pragma once\n\
#ifndef USE_ROCM\n\
  #define WARP_SIZE 32\n\
#else\n\
  #define WARP_SIZE warpSize\n\
#endif\n";

/// A kernel file with a template default, a constexpr and a static_assert on `WARP_SIZE`,
/// and a run-time use (line 9), which stays silent.
fn kernel(include: &str) -> String {
    format!(
        "#include \"{include}\"\n\
template <int NUM_THREADS = WARP_SIZE * 4>\n\
__global__ void k(float* out) {{\n\
  constexpr int NUM_WARPS = NUM_THREADS / WARP_SIZE;\n\
  static_assert(NUM_THREADS % WARP_SIZE == 0, \"whole warps\");\n\
  __shared__ float red[NUM_WARPS];\n\
  red[0] = 0.f;\n\
  __syncthreads();\n\
  out[threadIdx.x] = red[threadIdx.x / WARP_SIZE];\n\
}}\n"
    )
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn config(root: &Path) -> ConvertConfig {
    let mut cfg = ConvertConfig::new(vec![root.to_path_buf()], OutputMode::Nothing);
    cfg.translate.hip_version = hipport_rules::Version::new(7, 0, 0);
    cfg
}

/// (line, message) of the H002 reports on file `rel`.
fn h002(cfg: &ConvertConfig, rel: &str) -> Vec<(usize, String)> {
    let report = convert(cfg, false).unwrap();
    let f = report
        .files
        .iter()
        .find(|f| f.path == rel)
        .unwrap_or_else(|| panic!("{rel} not converted"));
    f.diagnostics
        .iter()
        .filter(|d| d.id == "H002")
        .map(|d| (d.line, d.message.clone()))
        .collect()
}

fn lines(found: &[(usize, String)]) -> Vec<usize> {
    found.iter().map(|(l, _)| *l).collect()
}

#[test]
fn compile_time_uses_of_a_header_macro_defined_as_warpsize_are_h002() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "csrc/cuda_compat.h", COMPAT);
    write(root, "csrc/attention/attn.cu", &kernel("../cuda_compat.h"));
    let found = h002(&config(root), "csrc/attention/attn.cu");
    assert_eq!(lines(&found), [2, 4, 5], "{found:?}");
    assert!(
        found[0].1.contains("template parameter default")
            && found[1].1.contains("constexpr initializer")
            && found[2].1.contains("static_assert condition"),
        "{found:?}"
    );
    // The message names the header and the line of the definition.
    assert!(
        found.iter().all(|(_, m)| m
            .contains("`WARP_SIZE` (defined as `warpSize` for hipcc in csrc/cuda_compat.h:5)")),
        "{found:?}"
    );
    // Before ROCm 7.0 `warpSize` was still a constant: warnings there.
    let mut cfg = config(root);
    cfg.translate.hip_version = hipport_rules::Version::new(6, 2, 0);
    let report = convert(&cfg, false).unwrap();
    let sev: Vec<_> = report
        .diagnostics()
        .filter(|d| d.id == "H002" && d.file.ends_with("attn.cu"))
        .map(|d| d.severity)
        .collect();
    assert_eq!(sev, vec![hipport::diag::Severity::Warning; 3]);
}

#[test]
fn through_a_header_that_includes_it_and_through_an_include_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "csrc/cuda_compat.h", COMPAT);
    // reduction_utils.cuh includes the compat header, which includes reduction_utils.cuh back
    // (guarded by #pragma once in a real tree): the cycle is followed once.
    write(
        root,
        "csrc/reduction_utils.cuh",
        "#pragma once\n#include \"cuda_compat.h\"\n#include \"reduction_utils.cuh\"\n",
    );
    let compat_cycle = format!("{COMPAT}#include \"reduction_utils.cuh\"\n");
    write(root, "csrc/cuda_compat.h", &compat_cycle);
    write(root, "csrc/ops/a.cu", &kernel("../reduction_utils.cuh"));
    let found = h002(&config(root), "csrc/ops/a.cu");
    assert_eq!(lines(&found), [2, 4, 5], "{found:?}");
    assert!(found[0].1.contains("csrc/cuda_compat.h:5"), "{found:?}");
}

#[test]
fn a_definition_in_a_branch_hipcc_skips_a_missing_header_or_one_outside_the_tree_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    // `__HIP_PLATFORM_AMD__` is defined by hipcc: the `warpSize` side is CUDA's alone.
    write(
        &root,
        "skipped.h",
        "#ifndef __HIP_PLATFORM_AMD__\n#define WARP_SIZE warpSize\n#else\n#define WARP_SIZE 64\n#endif\n",
    );
    write(&root, "a.cu", &kernel("skipped.h"));
    // Not found anywhere.
    write(&root, "b.cu", &kernel("missing/cuda_compat.h"));
    // Found, but outside the input tree.
    write(dir.path(), "outside/cuda_compat.h", COMPAT);
    write(&root, "c.cu", &kernel("../outside/cuda_compat.h"));
    let cfg = config(&root);
    for f in ["a.cu", "b.cu", "c.cu"] {
        assert_eq!(h002(&cfg, f), [], "{f}");
    }
    // A file that defines the name itself is judged by its own definition.
    let own = kernel("../outside/cuda_compat.h").replace(
        "#include \"../outside/cuda_compat.h\"\n",
        "#include \"cuda_compat.h\"\n#undef WARP_SIZE\n#define WARP_SIZE 64\n",
    );
    write(&root, "cuda_compat.h", COMPAT);
    write(&root, "d.cu", &own);
    assert_eq!(h002(&cfg, "d.cu"), []);
    // The same include found beside the file does count.
    write(&root, "e.cu", &kernel("cuda_compat.h"));
    assert_eq!(lines(&h002(&cfg, "e.cu")), [2, 4, 5]);
}

/// A run with the cache in `cache_dir` (the run index on): the H002 lines of file `rel`, and
/// whether its result came from the cache.
fn cached_h002(root: &Path, cache_dir: &Path, rel: &str) -> (Vec<usize>, bool) {
    let mut cfg = config(root);
    cfg.details = false;
    cfg.cache = Some(hipport::cache::Cache::new(
        cache_dir,
        hipport::cache::rules_fingerprint(&[]),
        &cfg.translate,
    ));
    let report = convert(&cfg, false).unwrap();
    let f = report.files.iter().find(|f| f.path == rel).unwrap();
    let lines = f
        .diagnostics
        .iter()
        .filter(|d| d.id == "H002")
        .map(|d| d.line)
        .collect();
    (lines, f.from_cache)
}

#[test]
fn a_cached_rerun_sees_a_change_of_the_header_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(
        &root,
        "cuda_compat.h",
        "#pragma once\n#define WARP_SIZE 32\n",
    );
    write(&root, "k.cu", &kernel("cuda_compat.h"));
    let cache_dir = dir.path().join("cache");
    let run = || cached_h002(&root, &cache_dir, "k.cu");
    // A settled tree, so that the run index vouches for unchanged files.
    let settle = || std::thread::sleep(std::time::Duration::from_millis(1100));
    settle();
    assert_eq!(run(), (vec![], false));
    assert_eq!(run(), (vec![], true));
    // The header alone changes: the file's result follows.
    write(&root, "cuda_compat.h", COMPAT);
    settle();
    assert_eq!(run(), (vec![2, 4, 5], false));
    assert_eq!(run(), (vec![2, 4, 5], true));
    // The definition moves down a line: the message names the new line.
    write(&root, "cuda_compat.h", &format!("\n{COMPAT}"));
    settle();
    let (found, cached) = run();
    assert_eq!((found, cached), (vec![2, 4, 5], false));
    // And back.
    write(
        &root,
        "cuda_compat.h",
        "#pragma once\n#define WARP_SIZE 32\n",
    );
    settle();
    assert_eq!(run().0, Vec::<usize>::new());
}

/// A kernel that works on 32-lane rows with a reduction from a header (`segSum`).
const ROWS: &str = "#include \"seg.cuh\"\n\
__global__ void rows(const float* x, float* y, int n) {\n\
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;\n\
  int lane = threadIdx.x & 31;\n\
  float s = 0.f;\n\
  for (int i = lane; i < n; i += 32) s += x[row * n + i];\n\
  s = segSum(s);\n\
  if (lane == 0) y[row] = s;\n\
}\n";

/// A header reduction: `shfl` is the shuffle line inside the loop from 16 down.
fn seg_header(shfl: &str) -> String {
    format!(
        "#pragma once\n\
__device__ __forceinline__ float segSum(float v) {{\n\
  for (int o = 16; o > 0; o >>= 1)\n\
    {shfl}\n\
  return v;\n\
}}\n"
    )
}

/// The lines of H001 reports on file `rel`.
fn h001(cfg: &ConvertConfig, rel: &str) -> Vec<usize> {
    let report = convert(cfg, false).unwrap();
    let f = report.files.iter().find(|f| f.path == rel).unwrap();
    f.diagnostics
        .iter()
        .filter(|d| d.id == "H001")
        .map(|d| d.line)
        .collect()
}

#[test]
fn lane_math_of_a_kernel_that_reduces_segments_with_a_header_function_is_segment_code() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "k.cu", ROWS);
    // Width 32: each shuffle stays in its 32-lane segment on any wavefront, so `/ 32` and
    // `& 31` name a segment and its lane.
    write(
        root,
        "seg.cuh",
        &seg_header("v += __shfl_xor_sync(0xffffffff, v, o, 32);"),
    );
    assert_eq!(h001(&config(root), "k.cu"), Vec::<usize>::new());
    // The same kernel with the function in the file agrees.
    let one = ROWS.replace(
        "#include \"seg.cuh\"\n",
        &seg_header("v += __shfl_xor_sync(0xffffffff, v, o, 32);").replace("#pragma once\n", ""),
    );
    write(root, "one.cu", &one);
    assert_eq!(h001(&config(root), "one.cu"), Vec::<usize>::new());
    // A shuffle down over the whole wavefront: lanes 32-63 reach into the next row.
    write(
        root,
        "seg.cuh",
        &seg_header("v += __shfl_down_sync(0xffffffff, v, o);"),
    );
    assert_eq!(h001(&config(root), "k.cu"), [3, 4]);
    // Segments in name, but the header also counts lanes by the wavefront's size.
    write(
        root,
        "seg.cuh",
        &seg_header("v += __shfl_xor_sync(0xffffffff, v, o, 32) + (warpSize > 32 ? 0.f : 0.f);"),
    );
    assert_eq!(h001(&config(root), "k.cu"), [3, 4]);
    // Without the header, nothing is known of `segSum`: the findings stay.
    fs::remove_file(root.join("seg.cuh")).unwrap();
    assert_eq!(h001(&config(root), "k.cu"), [3, 4]);
}

/// verify5 (realuser17 U-e): a header's function-like macro that is a width-32 shuffle under
/// hipcc (pytorch_sparse's `SHFL_DOWN` in utils.cuh) makes the kernel's `t >> 5` and `t & 31`
/// segment code, as the same macro in the file does; one over the whole wavefront does not.
#[test]
fn a_width_32_shuffle_macro_of_a_header_makes_segment_code() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let kernel = "#include \"shfl.cuh\"\n\
__global__ void seg(const float* x, float* out, int n) {\n\
  int t = blockDim.x * blockIdx.x + threadIdx.x;\n\
  int seg = t >> 5;\n\
  int lane = t & 31;\n\
  float v = t < n ? x[t] : 0.f;\n\
  for (int o = 16; o > 0; o /= 2) v += SHFL_DOWN(0xffffffff, v, o);\n\
  if (lane == 0) out[seg] = v;\n\
}\n";
    write(root, "k.cu", kernel);
    let header = |width: &str| {
        format!(
            "#pragma once\n#ifdef __HIP_PLATFORM_AMD__\n#define SHFL_DOWN(mask, var, delta) __shfl_down(var, delta{width})\n#else\n#define SHFL_DOWN __shfl_down_sync\n#endif\n"
        )
    };
    write(root, "shfl.cuh", &header(", 32"));
    assert_eq!(h001(&config(root), "k.cu"), Vec::<usize>::new());
    write(root, "shfl.cuh", &header(""));
    assert_eq!(h001(&config(root), "k.cu"), [4, 5]);
}

/// A kernel for blocks of 32 x N threads that reduces each 32-thread row through a shuffle
/// wrapper from a header (FlashInfer's `math::shfl_xor_sync(x, delta)` shape); `FROM` is
/// the first lane distance, and the file launches it with rows.
const WRAPPED: &str = "#include \"wrap.cuh\"\n\
__global__ void rms(const float* x, float* y, unsigned d) {\n\
  const unsigned tx = threadIdx.x, ty = threadIdx.y;\n\
  constexpr unsigned warp_size = 32;\n\
  const unsigned tid = tx + ty * warp_size;\n\
  __shared__ float part[8];\n\
  float s = 0.f;\n\
  for (unsigned i = tid; i < d; i += blockDim.y * warp_size) s += x[i] * x[i];\n\
  for (unsigned o = FROM; o > 0; o /= 2) s += math::shfl_xor_sync(s, o);\n\
  part[ty] = s;\n\
  __syncthreads();\n\
  if (ty == 0) {\n\
    s = tx < blockDim.y ? part[tx] : 0.f;\n\
    for (unsigned o = FROM; o > 0; o /= 2) s += math::shfl_xor_sync(s, o);\n\
    if (tx == 0) y[blockIdx.x] = s;\n\
  }\n\
}\n\
void launch(const float* x, float* y, unsigned d, int n) {\n\
  rms<<<n, dim3(32, 4)>>>(x, y, d);\n\
}\n";

/// The wrapper: an xor shuffle without a width, by the distance its caller passes.
const WRAP: &str = "#pragma once\n\
namespace math {\n\
__forceinline__ __device__ float shfl_xor_sync(float x, int delta) {\n\
  return __shfl_xor_sync(0xffffffff, x, delta);\n\
}\n\
}\n";

#[test]
fn xor_shuffles_through_a_header_wrapper_by_distances_below_32_are_segment_code() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "wrap.cuh", WRAP);
    // Distances 16 to 1 never leave a 32-lane half: each row sums its own lanes on a 64-lane
    // wavefront, and `ty * warp_size` is a row's start. Only HIP 6.2's mask check is left: the
    // first row alone runs the shuffles of `if (ty == 0)` with a full mask (line 12).
    write(root, "k.cu", &WRAPPED.replace("FROM", "warp_size / 2"));
    assert_eq!(h001(&config(root), "k.cu"), [12]);
    // The wrapper in the file agrees.
    let one = WRAPPED.replace("FROM", "warp_size / 2").replace(
        "#include \"wrap.cuh\"\n",
        &WRAP.replace("#pragma once\n", ""),
    );
    write(root, "one.cu", &one);
    assert_eq!(h001(&config(root), "one.cu"), [16]);
    // From 32, the first shuffle adds two rows together: the constant is the warp's size.
    // The first row alone still runs the wrapper's full-mask shuffles under `if (ty == 0)`,
    // which HIP 6.2+'s mask check traps on (line 12, R24-f).
    write(root, "k.cu", &WRAPPED.replace("FROM", "warp_size"));
    assert_eq!(h001(&config(root), "k.cu"), [4, 12]);
    // A wrapper that passes a width of its own is no xor wrapper of the caller's distance
    // (its full masks under `if (ty == 0)` are line 12's, as above).
    write(
        root,
        "wrap.cuh",
        &WRAP.replace("x, delta)", "x, delta, warpSize)"),
    );
    write(root, "k.cu", &WRAPPED.replace("FROM", "warp_size / 2"));
    assert_eq!(h001(&config(root), "k.cu"), [4, 12]);
}

#[test]
fn a_cached_rerun_sees_a_header_function_change_from_segments_to_the_wavefront() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(&root, "k.cu", ROWS);
    write(
        &root,
        "seg.cuh",
        &seg_header("v += __shfl_xor_sync(0xffffffff, v, o, 32);"),
    );
    let cache_dir = dir.path().join("cache");
    let run = || {
        let mut cfg = config(&root);
        cfg.cache = Some(hipport::cache::Cache::new(
            &cache_dir,
            hipport::cache::rules_fingerprint(&[]),
            &cfg.translate,
        ));
        h001(&cfg, "k.cu")
    };
    assert_eq!(run(), Vec::<usize>::new());
    assert_eq!(run(), Vec::<usize>::new());
    write(
        &root,
        "seg.cuh",
        &seg_header("v += __shfl_down_sync(0xffffffff, v, o);"),
    );
    assert_eq!(run(), [3, 4]);
}

#[test]
fn a_cached_rerun_sees_a_header_that_was_missing_or_one_that_now_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(&root, "src/k.cu", &kernel("cuda_compat.h"));
    let cache_dir = dir.path().join("cache");
    let run = || cached_h002(&root, &cache_dir, "src/k.cu");
    let settle = || std::thread::sleep(std::time::Duration::from_millis(1100));
    settle();
    // The include names no file yet: nothing is known of `WARP_SIZE`.
    assert_eq!(run(), (vec![], false));
    assert_eq!(run(), (vec![], true));
    // The header appears at the root, where the include finds it: the next run reads it.
    write(&root, "cuda_compat.h", COMPAT);
    settle();
    assert_eq!(run(), (vec![2, 4, 5], false));
    assert_eq!(run(), (vec![2, 4, 5], true));
    // A header of the same name beside the file comes first: its facts are the file's.
    write(
        &root,
        "src/cuda_compat.h",
        "#pragma once\n#define WARP_SIZE 32\n",
    );
    settle();
    assert_eq!(run(), (vec![], false));
    assert_eq!(run(), (vec![], true));
    // And it goes again: the root one counts once more (the cache holds that result already).
    fs::remove_file(root.join("src/cuda_compat.h")).unwrap();
    settle();
    assert_eq!(run().0, [2, 4, 5]);
}

#[test]
fn a_platform_macro_a_header_derives_from_hipcc_decides_the_including_files_branches() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(
        &root,
        "compat.cuh",
        "#pragma once\n\
         #if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)\n\
         #define MY_HIP 1\n\
         #else\n\
         #define MY_HIP 0\n\
         #define MY_CUDA_ONLY\n\
         #endif\n",
    );
    write(
        &root,
        "k.cu",
        "#include \"compat.cuh\"\n\
         #if MY_HIP\n\
         #include <hip/hip_runtime.h>\n\
         #else\n\
         #include <mma.h>\n\
         #endif\n\
         __device__ unsigned ld(const unsigned* p) {\n\
         #ifdef MY_CUDA_ONLY\n\
         unsigned v; asm volatile(\"ld.global.cs.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); return v;\n\
         #else\n\
         return __builtin_nontemporal_load(p);\n\
         #endif\n\
         }\n",
    );
    let report = convert(&config(&root), false).unwrap();
    let f = report.files.iter().find(|f| f.path == "k.cu").unwrap();
    let errors: Vec<(String, usize)> = f
        .diagnostics
        .iter()
        .filter(|d| d.severity == hipport::diag::Severity::Error)
        .map(|d| (d.id.clone(), d.line))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let notes: Vec<(String, usize)> = f
        .diagnostics
        .iter()
        .map(|d| (d.id.clone(), d.line))
        .collect();
    assert!(
        notes.contains(&("H014".into(), 5)) && notes.contains(&("H006".into(), 9)),
        "{notes:?}"
    );
    // Without the header's test of the platform, both arms are undecided: errors again.
    write(
        &root,
        "compat.cuh",
        "#pragma once\n#define MY_HIP 0\n#define MY_CUDA_ONLY\n",
    );
    let report = convert(&config(&root), false).unwrap();
    let f = report.files.iter().find(|f| f.path == "k.cu").unwrap();
    assert!(f
        .diagnostics
        .iter()
        .any(|d| d.id == "H006" && d.severity == hipport::diag::Severity::Error));
}

/// (ID, line) of every report on `rel`.
fn reports(cfg: &ConvertConfig, rel: &str) -> Vec<(String, usize)> {
    let report = convert(cfg, false).unwrap();
    let f = report.files.iter().find(|f| f.path == rel).unwrap();
    f.diagnostics
        .iter()
        .map(|d| (d.id.clone(), d.line))
        .collect()
}

#[test]
fn a_cuda_only_macro_a_hip_shim_header_defines_counts_in_the_including_files() {
    // llama.cpp's vendors/hip.h shape: the project's HIP build defines `__CUDA_ARCH__` itself,
    // so `#ifdef __CUDA_ARCH__` is taken under hipcc and H011 would say the opposite.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(
        &root,
        "vendors/hip.h",
        "#pragma once\n#include <hip/hip_runtime.h>\n#define __CUDA_ARCH__ 1300\n#define CUDART_VERSION 12000\n",
    );
    let kernel = "#include \"vendors/hip.h\"\n\
                  #ifdef __CUDA_ARCH__\n\
                  #define TAG __CUDA_ARCH__\n\
                  #else\n\
                  #define TAG 0\n\
                  #endif\n\
                  #if CUDART_VERSION >= 11000\n\
                  #define NEW 1\n\
                  #endif\n\
                  __global__ void k(int* o) { o[0] = TAG; }\n";
    write(&root, "k.cu", kernel);
    let found = reports(&config(&root), "k.cu");
    assert!(
        !found.iter().any(|(id, _)| id == "H011" || id == "H010"),
        "{found:?}"
    );
    // A header that only tests the name, or defines it in a branch hipcc skips, decides nothing.
    write(
        &root,
        "vendors/hip.h",
        "#pragma once\n#ifndef __HIPCC__\n#define __CUDA_ARCH__ 1300\n#endif\n#ifdef __CUDA_ARCH__\n#endif\n",
    );
    let found = reports(&config(&root), "k.cu");
    assert!(
        found.contains(&("H011".into(), 2)) && found.contains(&("H010".into(), 7)),
        "{found:?}"
    );
}

#[test]
fn qualifier_macros_of_an_included_header_parse_as_qualifiers() {
    // DeepSpeed: `DS_D_INLINE` comes from ds_kernel_utils.h; without it every function of the
    // including header was a parse error (T008).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(
        &root,
        "includes/utils.h",
        "#pragma once\n#define DS_D_INLINE __device__ __forceinline__\n#define HD __host__ __device__\n",
    );
    write(
        &root,
        "includes/red.h",
        "#pragma once\n#include \"utils.h\"\n\
         DS_D_INLINE float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n  return v;\n}\n\
         HD inline int twice(int x) { return 2 * x; }\n",
    );
    let found = reports(&config(&root), "includes/red.h");
    assert!(!found.iter().any(|(id, _)| id == "T008"), "{found:?}");
    assert!(found.contains(&("H001".into(), 4)), "{found:?}");
    // Without the header's definition the same text does not parse.
    write(&root, "includes/utils.h", "#pragma once\n");
    let found = reports(&config(&root), "includes/red.h");
    assert!(found.iter().any(|(id, _)| id == "T008"), "{found:?}");
}

#[test]
fn namespace_macros_of_an_included_header_parse() {
    // moderngpu (R6): `BEGIN_MGPU_NAMESPACE` / `END_MGPU_NAMESPACE` and `MGPU_HOST_DEVICE` come
    // from meta.hxx; without them each use was a T008 note.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    write(
        &root,
        "ns.hxx",
        "#pragma once\n#define BEGIN_NS namespace mine { // ours\n#define END_NS }\n#define HD __host__ __device__\n",
    );
    write(
        &root,
        "k.cu",
        "#include \"ns.hxx\"\nBEGIN_NS\nHD inline int twice(int x) { return 2 * x; }\n\
         __global__ void vote(const int *x, unsigned *out) {\n  unsigned m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n  out[0] = twice(m);\n}\nEND_NS\n",
    );
    let found = reports(&config(&root), "k.cu");
    assert!(!found.iter().any(|(id, _)| id == "T008"), "{found:?}");
    assert!(found.contains(&("H004".into(), 5)), "{found:?}");
    // Without the header's definitions the same text does not parse.
    write(&root, "ns.hxx", "#pragma once\n");
    let found = reports(&config(&root), "k.cu");
    assert!(found.iter().any(|(id, _)| id == "T008"), "{found:?}");
}

/// R22-e (SUNDIALS' `blockReduceShflDown`): `WARP_SIZE = 32` in one header, and a header that
/// includes it reduces over `warpSize` lanes while it numbers warps and lanes by `WARP_SIZE`:
/// wrong sums on 64-lane wavefronts, reported where the including header uses the constant (the
/// definition's own finding defers to its includers). The same code with width-32 shuffles
/// works on 32-lane segments and stays silent; so does a header that chooses the value per
/// platform.
#[test]
fn a_header_constant_of_32_mixed_with_warpsize_in_an_including_header_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let kernels = |width: &str| {
        format!(
            "#include \"policies.hpp\"\n\
__device__ float warp_sum(float v) {{\n\
  for (int off = {width} / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off{rest});\n\
  return v;\n\
}}\n\
__global__ void block_sum(const float* x, float* out) {{\n\
  __shared__ float partial[32];\n\
  int warpId = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;\n\
  float v = warp_sum(x[threadIdx.x]);\n\
  if (lane == 0) partial[warpId] = v;\n\
  __syncthreads();\n\
  v = (threadIdx.x < blockDim.x / {width}) ? partial[lane] : 0.f;\n\
  if (warpId == 0) v = warp_sum(v);\n\
  if (threadIdx.x == 0) out[blockIdx.x] = v;\n\
}}\n",
            rest = if width == "warpSize" { "" } else { ", 32" }
        )
    };
    write(root, "use.cu", "#include \"kernels.cuh\"\n");
    for definition in ["constexpr int WARP_SIZE = 32;", "#define WARP_SIZE 32"] {
        write(
            root,
            "policies.hpp",
            &format!("#pragma once\n{definition}\n"),
        );
        write(root, "kernels.cuh", &kernels("warpSize"));
        let report = convert(&config(root), false).unwrap();
        let k = report
            .files
            .iter()
            .find(|f| f.path == "kernels.cuh")
            .unwrap();
        let errors: Vec<_> = k
            .diagnostics
            .iter()
            .filter(|d| d.id == "H001" && d.severity == hipport::diag::Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{definition}: {:?}", k.diagnostics);
        assert_eq!(errors[0].line, 8, "{:?}", errors[0]);
        assert!(
            errors[0].message.contains("policies.hpp:2"),
            "{:?}",
            errors[0]
        );
        // 32-lane segments throughout: right on 64 lanes. Only the first warp's branch is
        // reported: the note that its masks become `__activemask()` (realuser31 R31-a).
        write(root, "kernels.cuh", &kernels("WARP_SIZE"));
        assert_eq!(h001(&config(root), "kernels.cuh"), vec![13]);
    }
    // A header that chooses 64 for AMD decides it there.
    write(
        root,
        "policies.hpp",
        "#pragma once\n#if defined(__HIP_PLATFORM_AMD__)\nconstexpr int WARP_SIZE = 64;\n#else\nconstexpr int WARP_SIZE = 32;\n#endif\n",
    );
    write(root, "kernels.cuh", &kernels("warpSize"));
    assert!(
        !h001(&config(root), "kernels.cuh").contains(&8),
        "{:?}",
        h001(&config(root), "kernels.cuh")
    );
}

/// R24-f (qsim's `WarpReduce`): a header's reduction with full-mask `_sync` shuffles, called
/// under `if (tid < 32)`: at HIP 6.2 the port widens the header's masks to 64 lanes while only
/// lanes 0-31 run them there, which `__hip_check_mask` traps on. The caller's file cannot
/// write the header's masks: a warning at the guard saying to pass `__activemask()`.
#[test]
fn a_first_32_threads_branch_calling_a_header_sync_reduction_is_reported_at_hip_62() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "red.cuh",
        "#pragma once\n__device__ float warp_reduce(float v) {\n  for (int i = 16; i > 0; i /= 2) v += __shfl_down_sync(0xffffffff, v, i);\n  return v;\n}\n",
    );
    write(
        root,
        "k.cu",
        "#include \"red.cuh\"\n__global__ void k(float* o) {\n  unsigned tid = threadIdx.x;\n  float r = 0;\n  if (tid < 32) {\n    r = warp_reduce(o[tid]);\n  }\n  if (tid == 0) o[0] = r;\n}\n",
    );
    let guard = |hip: hipport_rules::Version| {
        let mut cfg = config(root);
        cfg.translate.hip_version = hip;
        let report = convert(&cfg, false).unwrap();
        let f = report.files.iter().find(|f| f.path == "k.cu").unwrap();
        f.diagnostics
            .iter()
            .filter(|d| d.id == "H001" && d.line == 5 && d.message.contains("wavefront take"))
            .map(|d| (d.severity, d.message.clone()))
            .collect::<Vec<_>>()
    };
    let found = guard(hipport_rules::Version::new(6, 2, 0));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, hipport::diag::Severity::Warning);
    assert!(found[0].1.contains("`if (tid < 32)`"), "{found:?}");
    assert!(guard(hipport_rules::Version::new(5, 2, 3)).is_empty());
}

/// R25-a (DCNv4's `backward_kernel_dcn_warp_primitive`): a group lane mask shifted in 32 bits
/// from a group index counted with `kWarpSize`, which a project header fixes at 32: H003's help
/// says to number the groups within the wavefront, not only to shift a 64-bit one, and offers
/// no declaration-only fix.
#[test]
fn a_group_mask_from_a_header_constant_of_32_needs_the_wavefronts_groups() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "common.h",
        "#pragma once\nconstexpr int kWarpSize = 32;\n",
    );
    write(
        root,
        "k.cu",
        "#include \"common.h\"\n\
__global__ void k(float *out, const float *in) {\n\
  const int group_per_warp = kWarpSize / blockDim.x;\n\
  const int group_in_warp_id = threadIdx.y % group_per_warp;\n\
  const unsigned lane_mask = ((1 << blockDim.x) - 1) << (group_in_warp_id * blockDim.x);\n\
  float v = in[threadIdx.y * blockDim.x + threadIdx.x];\n\
  for (unsigned off = blockDim.x >> 1; off > 0; off >>= 1)\n\
    v += __shfl_down_sync(lane_mask, v, off);\n\
  if (threadIdx.x == 0) out[threadIdx.y] = v;\n\
}\n",
    );
    let report = convert(&config(root), false).unwrap();
    let k = report.files.iter().find(|f| f.path == "k.cu").unwrap();
    let d: Vec<_> = k
        .diagnostics
        .iter()
        .filter(|d| d.id == "H003" && d.message.starts_with("lane mask `lane_mask`"))
        .collect();
    assert_eq!(d.len(), 1, "{:?}", k.diagnostics);
    let help = d[0].help.as_deref().unwrap();
    assert!(
        help.contains("`warpSize / width`") && help.contains("`1ull << ...`"),
        "{help}"
    );
    assert!(d[0].fix.is_empty(), "{:?}", d[0].fix);
}
