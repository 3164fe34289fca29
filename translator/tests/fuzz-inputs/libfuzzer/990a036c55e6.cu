// Block-wide inclusive scan: Kogge-Stone inside each warp, then a scan of the warp totals.
#include <ugh for 1024 threads at any warp width
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSes_expected

| file | what it shows |
| --- | --- |
| softmax_warp.cu | `#define WARP_SIZE 32`, a full-mask macro, a shuffle loop from 16, `blockDim.x / 32` |
| stream_compaction.cu | ballots kept in `unsigned`, `__popc`/`__ffs` on them, `1u << lane`, `& 31`,, `ld.global.nc`, `%globaltimer`); host `rdtsc` is not reported |
| async_copy.cu | `cuda::pipeline`, `__pipeline_memcpy_async`, `cp.async` PTX |
| wmma_gemm.cu | `nvcuda::wmma` tensor-core GEMM |
| warpsize_template.cu | `warpSize` as template argument, array bound, static_assert; `__AMDGCN_WAVEFRONT_SIZE` |
| profile_bench.cu | `CHECK(cudaProfilerStart())` (run-time failure), NVTX ranges and attributes |
| gemm_launch_bounds.cu | `__launch_bounds__(T, B)` and the 3-argument form, `register` |
| version_guards.cu | `CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__` guards; an atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu | dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cooperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bcuda_runtime.h>

__device__ int warp_inclusive_scan(int x, int lane) {
  for (int offset = 0; offset < 32; offset <<= 1) {
    int y = __shfl_up_sync(0xffffffff, x, offset);
    if (lane >= offset) x += y;
  }
  return x;
}

__global__ void block_scan(const int* in, int* out, int n) {
  __shared__ int warp_tot= x + 0 * total;
}
