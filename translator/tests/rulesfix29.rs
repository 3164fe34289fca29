//! rulesfix29: per-lane spin locks (R45-a), H014's help by target (R45-b), T006 beside a hazard
//! that names the token (R45-2), H011 on an `#error`-only branch (R45-3).

use crate::common;
use common::{cli_convert, cli_convert_in};

/// Stderr with its line wraps undone.
fn flat(err: &str) -> String {
    err.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The source lines of `id`'s diagnostics in `stderr` (`--> k.cu:LINE:COL`).
fn lines_of(stderr: &str, id: &str) -> Vec<usize> {
    let tag = format!("[{id}]");
    let mut out = Vec::new();
    let mut want = false;
    for l in stderr.lines() {
        if l.contains(&tag) && !l.starts_with(' ') {
            want = true;
        } else if want && l.trim_start().starts_with("-->") {
            let line = l.rsplit(':').nth(1).and_then(|x| x.parse().ok()).unwrap();
            out.push(line);
            want = false;
        }
    }
    out
}

// ---- R45-a: per-lane spin locks ----

/// Written for this test: spin locks taken per lane (lines 5, 13, 44) beside the shapes that are
/// right on lock-step wavefronts (a CAS retry loop, one lane, try-once, a flag wait).
const LOCKS: &str = "\
__device__ int g_lock;
// 1: per-lane lock, release in same function -> H005
__global__ void k1(int *lock, float *sum, const float *x) {
  float v = x[threadIdx.x];
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *sum += v;
  __threadfence();
  atomicExch(lock, 0);
}
// 2: exchange spin, store release -> H005
__global__ void k2(int *locks, float *sum) {
  while (atomicExch(&locks[blockIdx.x], 1)) { }
  sum[blockIdx.x] += 1.0f;
  atomicExch(&locks[blockIdx.x], 0);
}
// 3: CAS retry loop updating a value -> silent
__device__ float amax(float *addr, float val) {
  int *p = (int *)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (old != assumed);
  return __int_as_float(old);
}
// 4: lock taken by one thread -> silent
__global__ void k4(int *lock, float *sum) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) { }
    *sum += 1.0f;
    atomicExch(lock, 0);
  }
  __syncthreads();
}
// 5: try once -> silent
__global__ void k5(int *lock, float *sum) {
  if (atomicCAS(lock, 0, 1) == 0) {
    *sum += 1.0f;
    atomicExch(lock, 0);
  }
}
// 6: helpers; acquire called per lane -> H005 at the helper
__device__ void acquire(int *mutex) { while (atomicCAS(mutex, 0, 1)) { } }
__device__ void release(int *mutex) { atomicExch(mutex, 0); }
__global__ void k6(int *m, float *s) { acquire(m); s[0] += 1.0f; release(m); }
// 7: helper called only by lane 0 -> silent
__device__ void acquire7(int *mutex) { while (atomicCAS(mutex, 0, 1) != 0) { } }
__global__ void k7(int *m, float *s) {
  if (threadIdx.x == 0) { acquire7(m); s[0] += 1.0f; release(m); }
}
// 8: early return of other lanes -> silent
__global__ void k8(int *lock, float *s) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) { }
  s[0] += 1.0f;
  *lock = 0;
}
// 9: spin-wait on a flag another block sets (no release) -> silent
__global__ void k9(int *flag, float *s) {
  while (atomicCAS(flag, 1, 1) != 1) { }
  s[threadIdx.x] = 1.0f;
}
// 10: try-lock inside a loop (critical section in the winning lane's pass) -> silent
__global__ void k10(int *lock, float *s) {
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) { s[0] += 1.0f; atomicExch(lock, 0); done = true; }
  }
}
";

#[test]
fn r45a_per_lane_spin_locks_are_h005_and_their_neighbours_stay_silent() {
    for hip in ["6.2", "5.2.3"] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", LOCKS)], hip, &[]);
        assert_eq!(lines_of(&err, "H005"), vec![5, 13, 44], "{hip}: {err}");
        assert!(err.contains("per-lane spin lock"), "{err}");
        assert!(err.contains("take the lock once per wavefront"), "{err}");
    }
}

// ---- R45-b: H014's help follows --offload-arch ----

const WMMA: &str = "\
#include <mma.h>
__global__ void mm16(const half *x, const half *y, float *z) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> p;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> q;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::load_matrix_sync(p, x, 16);
  nvcuda::wmma::load_matrix_sync(q, y, 16);
  nvcuda::wmma::mma_sync(acc, p, q, acc);
  nvcuda::wmma::store_matrix_sync(z, acc, 16, nvcuda::wmma::mem_row_major);
}
";

#[test]
fn r45b_wmma_help_names_a_path_for_each_target() {
    let (_, err, _) = cli_convert(&[("k.cu", WMMA)], &["--offload-arch", "gfx90a,gfx1030"]);
    assert!(!lines_of(&err, "H014").is_empty(), "{err}");
    let err = flat(&err);
    assert!(err.contains("port to rocWMMA for gfx90a"), "{err}");
    assert!(err.contains("gfx1030 has no matrix cores"), "{err}");
    assert!(err.contains("defined(__GFX10__)"), "{err}");
    assert!(!err.contains("rocWMMA or MFMA"), "{err}");
}

// ---- R45-2: no T006 on a cluster name H051 reports ----

const CLUSTER: &str = "\
#include <cuda_runtime.h>
__global__ void fill(int *v) { v[threadIdx.x] = 3; }
void go(int *v) {
  cudaLaunchConfig_t lc = {};
  lc.gridDim = dim3(4);
  lc.blockDim = dim3(128);
  cudaLaunchAttribute at;
  at.id = cudaLaunchAttributeNonPortableClusterSizeAllowed;
  at.val.nonPortableClusterSizeAllowed = 1;
  lc.attrs = &at;
  lc.numAttrs = 1;
  cudaLaunchKernelEx(&lc, fill, v);
}
";

#[test]
fn r45_2_cluster_attribute_is_h051_only() {
    let (_, err, _) = cli_convert(&[("k.cu", CLUSTER)], &[]);
    assert!(lines_of(&err, "H051").contains(&8), "{err}");
    assert!(!lines_of(&err, "T006").contains(&8), "{err}");
}

// ---- R45-3: an #error-only branch for older NVIDIA GPUs ----

#[test]
fn r45_3_error_only_arch_branch_is_a_note() {
    let src = "\
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#  error \"this library needs sm_80\"
#endif
__global__ void one(int *o) { o[threadIdx.x] = 1; }
";
    let (_, err, _) = cli_convert(&[("k.cu", src)], &[]);
    assert_eq!(lines_of(&err, "H011"), vec![1], "{err}");
    assert!(err.contains("note[H011]"), "{err}");
    assert!(err.contains("skipping it is right"), "{err}");
    // A branch that computes is still a warning.
    let src = "\
__global__ void one(int *o) {
#if __CUDA_ARCH__ < 800
  o[threadIdx.x] = 2;
#endif
}
";
    let (_, err, _) = cli_convert(&[("k.cu", src)], &[]);
    assert!(!err.contains("note[H011]"), "{err}");
    assert!(
        err.contains("warning[H011]") || err.contains("error[H011]"),
        "{err}"
    );
}
