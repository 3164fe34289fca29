//! wavefix33: R50-b (an early return per 32-lane group, `(tid - laneId) >= n`, before full-mask
//! `_sync` shuffles), V22-d (a store through a member of a 32-entry shared array's entry at the
//! lane is a write), R50-c (the file's own `template <>` specialisations are no unknown CUDA
//! API), R50-5 (`defined(__CUDA_ARCH)`, a typo no compiler defines, is false), R50-4 (the branch
//! HIP takes only fails).

use crate::common;
use hipport::diag::{Diagnostic, Severity};
use hipport_rules::Version;

const V62: Version = Version::new(6, 2, 0);

fn h<'d>(id: &str, d: &'d [Diagnostic]) -> Vec<&'d Diagnostic> {
    d.iter().filter(|d| d.id == id).collect()
}

// ---- R50-b: a 32-lane group's early return, then full-mask shuffles ----

/// SlabHash's search kernel: each 32-thread group leaves together where its first thread is
/// past the queries; `exit` is the test, `shuffles` the code after it.
fn search(decls: &str, exit: &str, shuffles: &str) -> String {
    format!(
        "#include <cstdint>\n\
         __device__ uint32_t first_of(uint32_t key) {{\n  \
           uint32_t found = __ballot_sync(0xFFFFFFFF, key != 0);\n  \
           return __shfl_sync(0xFFFFFFFF, key, __ffs(found) - 1, 32);\n}}\n\
         __global__ void search(const uint32_t* keys, uint32_t n, uint32_t* out) {{\n  \
           uint32_t tid = threadIdx.x + blockIdx.x * blockDim.x;\n  \
           {decls}\n  \
           if ({exit}) {{\n    return;  // the whole 32-thread warp leaves together\n  }}\n  \
           uint32_t key = tid < n ? keys[tid] : 0;\n  \
           {shuffles}\n  \
           if (tid < n) out[tid] = key;\n}}\n"
    )
}

const LANE: &str = "uint32_t laneId = threadIdx.x & 0x1F;";

fn group_report(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    h("H001", d)
        .into_iter()
        .filter(|r| r.message.contains("returns for one row of 32 threads"))
        .collect()
}

#[test]
fn r50b_group_return_before_a_shuffle_passes_activemask() {
    let src = search(
        LANE,
        "(tid - laneId) >= n",
        "key = __shfl_sync(0xFFFFFFFF, key, 0, 32);",
    );
    let (out, d) = common::translate_at(&src, V62);
    assert!(
        out.contains("key = __shfl_sync(__activemask(), key, 0, 32);"),
        "{out}"
    );
    // `first_of`, which nothing calls here, keeps the widened full mask.
    assert!(
        out.contains("__ballot_sync(0xffffffffffffffffull, key != 0)"),
        "{out}"
    );
    let r = group_report(&d);
    assert_eq!(r.len(), 1, "{d:#?}");
    assert_eq!(r[0].line, 9, "{:#?}", r[0]);
    assert!(
        r[0].message.contains("`if ((tid - laneId) >= n)`"),
        "{}",
        r[0].message
    );
}

#[test]
fn r50b_group_return_before_a_callee_rewrites_the_callees_masks() {
    for (decls, exit) in [
        (LANE, "(tid - laneId) >= n"),
        ("uint32_t warp_id = tid >> 5;", "warp_id * 32 >= n"),
        ("", "tid / 32 * 32 >= n"),
        ("", "(tid & ~31) >= n"),
    ] {
        let src = search(decls, exit, "key = first_of(key);");
        let (out, d) = common::translate_at(&src, V62);
        assert!(
            out.contains("__ballot_sync(__activemask(), key != 0)")
                && out.contains("__shfl_sync(__activemask(), key,"),
            "{exit}\n{out}"
        );
        assert_eq!(group_report(&d).len(), 1, "{exit}\n{d:#?}");
    }
}

#[test]
fn r50b_a_lanes_own_return_or_a_wavefronts_is_no_group_return() {
    for (decls, exit) in [
        // Each thread leaves on its own: not a group's test.
        ("", "tid >= n"),
        (LANE, "laneId >= n"),
        // The wavefront's index leaves as one on any wavefront size.
        ("", "tid / warpSize * warpSize >= n"),
    ] {
        let src = search(decls, exit, "key = __shfl_sync(0xFFFFFFFF, key, 0, 32);");
        let (out, d) = common::translate_at(&src, V62);
        assert!(group_report(&d).is_empty(), "{exit}\n{d:#?}");
        assert!(!out.contains("__activemask()"), "{exit}\n{out}");
    }
}

// ---- V22-d: a store through a member at the lane index ----

const PAIRS: &str = "struct Pair { float v; int i; };\n\
__global__ void d(float *g) {\n  \
  __shared__ Pair best[32];\n  \
  __shared__ float2 buf2[32];\n  \
  int lane = threadIdx.x % warpSize;\n  \
  best[lane].v = g[threadIdx.x];\n  \
  buf2[lane].x += g[threadIdx.x];\n  \
  __syncthreads();\n  \
  if (threadIdx.x == 0) g[0] = best[0].v + buf2[0].x;\n}\n";

#[test]
fn v22d_a_store_to_a_member_of_the_lanes_entry_is_a_write() {
    let (_, d) = common::translate_at(PAIRS, V62);
    for (array, line) in [("best", 6), ("buf2", 7)] {
        let r: Vec<_> = h("H001", &d)
            .into_iter()
            .filter(|r| r.message.contains(&format!("shared array `{array}`")))
            .collect();
        assert_eq!(r.len(), 1, "{array}: {d:#?}");
        assert_eq!(r[0].line, line, "{:#?}", r[0]);
        assert!(
            r[0]
                .message
                .contains("written at the lane index `lane`: on a 64-lane wavefront, lanes 32-63 store past its 32 entries"),
            "{}",
            r[0].message
        );
        let help = r[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("guard the store by `lane < 32`"), "{help}");
        assert!(!help.contains('?'), "{help}");
    }
}

#[test]
fn v22d_a_read_of_a_member_at_the_lane_is_still_a_read() {
    let src = "struct Pair { float v; int i; };\n\
__global__ void d(float *g) {\n  \
  __shared__ Pair best[32];\n  \
  if (threadIdx.x < 32) best[threadIdx.x].v = 0.f;\n  \
  __syncthreads();\n  \
  int lane = threadIdx.x % warpSize;\n  \
  g[threadIdx.x] = best[lane].v;\n}\n";
    let (_, d) = common::translate_at(src, V62);
    let r: Vec<_> = h("H001", &d)
        .into_iter()
        .filter(|r| r.message.contains("shared array `best`"))
        .collect();
    assert_eq!(r.len(), 1, "{d:#?}");
    assert!(
        r[0].message.contains("read at the lane index `lane`"),
        "{}",
        r[0].message
    );
}

// ---- R50-c: the file's own specialisations are the project's names ----

#[test]
fn r50c_no_t006_for_functions_the_file_defines() {
    let src = "#include <cusparse.h>\n\
#include \"math_functions.hpp\"\n\
template <>\n\
cusparseStatus_t\n\
cusparse_csrmv<float>(cusparseHandle_t handle, int m, const float *x, float *y) {\n  \
  return CUSPARSE_STATUS_SUCCESS;\n}\n\
template <typename T>\n\
cusparseStatus_t Wrap<T>::cusparse_run(cusparseHandle_t h) {\n  \
  return CUSPARSE_STATUS_SUCCESS;\n}\n\
void use(cusparseHandle_t h, float* x) {\n  \
  cusparse_csrmv<float>(h, 1, x, x);\n  \
  cusparse_missing(h);\n}\n";
    let (_, d) = common::translate_at(src, V62);
    let names: Vec<&str> = h("T006", &d)
        .iter()
        .map(|r| r.message.split('`').nth(1).unwrap_or_default())
        .collect();
    assert_eq!(names, ["cusparse_missing"], "{d:#?}");
}

// ---- R50-5: `defined(__CUDA_ARCH)` ----

fn lyra(cond: &str) -> String {
    format!(
        "#include <cstdint>\n\
         #if {cond}\n\
         static __device__ __forceinline__ void Gfunc(uint2 &a, uint2 &b) {{ a.x += b.x; }}\n\
         #endif\n\
         __global__ void k(uint2* p) {{ Gfunc(p[0], p[1]); }}\n"
    )
}

#[test]
fn r50_5_a_misspelt_cuda_arch_under_defined_is_false() {
    let (_, d) = common::translate_at(&lyra("__CUDA_ARCH__ > 500 || !defined(__CUDA_ARCH)"), V62);
    let r = h("H011", &d);
    assert_eq!(r.len(), 1, "{d:#?}");
    assert_eq!(r[0].line, 2);
    assert!(
        r[0].message
            .contains("this condition is still true: HIP takes this branch")
            && r[0].message.contains("did you mean `__CUDA_ARCH__`?"),
        "{}",
        r[0].message
    );
    assert!(!r[0].message.contains("depends on the other macros"));
}

#[test]
fn r50_5_a_name_the_project_may_define_is_no_typo() {
    for src in [
        lyra("__CUDA_ARCH__ > 500 || !defined(USE_FAST_PATH)"),
        // A misspelling the file defines is the project's macro.
        format!(
            "#define __CUDA_ARCH 1\n{}",
            lyra("__CUDA_ARCH__ > 500 || !defined(__CUDA_ARCH)")
        ),
    ] {
        let (_, d) = common::translate_at(&src, V62);
        let r = h("H011", &d);
        assert_eq!(r.len(), 1, "{src}: {d:#?}");
        assert!(!r[0].message.contains("did you mean"), "{src}: {d:#?}");
    }
}

// ---- R50-4: the branch HIP takes only fails ----

#[test]
fn r50_4_the_branch_hip_takes_only_throws() {
    let src = "#include <cusparse.h>\n\
#include <stdexcept>\n\
void coo_spmm(int id) {\n\
#if defined(_WIN32) || defined(_WIN64)\n  \
  throw std::runtime_error(\"not on Windows\");\n\
#elif !defined(CUDART_VERSION)\n  \
  // the toolkit is too old\n  \
  throw std::runtime_error(\"CUDART_VERSION not defined\");\n\
#endif\n  \
  cusparseSpMMAlg_t mm_alg;\n\
#if defined(CUDART_VERSION) && (CUDART_VERSION >= 11000)\n  \
  mm_alg = id == 1 ? CUSPARSE_SPMM_COO_ALG1 : CUSPARSE_SPMM_ALG_DEFAULT;\n\
#endif\n  \
  (void)mm_alg;\n}\n";
    let (_, d) = common::translate_at(src, V62);
    let r: Vec<_> = h("H010", &d).into_iter().filter(|r| r.line == 6).collect();
    assert_eq!(r.len(), 1, "{d:#?}");
    assert_eq!(r[0].severity, Severity::Warning);
    assert!(
        r[0].message.contains("still true: HIP takes this branch, and all it holds is `throw std::runtime_error(\"CUDART_VERSION not defined\");`: `coo_spmm` always fails on ROCm"),
        "{}",
        r[0].message
    );
    assert!(
        r[0].help
            .as_deref()
            .unwrap_or_default()
            .contains("give HIP a working path"),
        "{:?}",
        r[0].help
    );
    // The other test's branch does work: no such words there.
    let other: Vec<_> = h("H010", &d).into_iter().filter(|r| r.line == 11).collect();
    assert_eq!(other.len(), 1, "{d:#?}");
    assert!(
        !other[0].message.contains("always fails"),
        "{:#?}",
        other[0]
    );
}
