// Block reduction written for any warp width: warpSize at run time, 64-bit masks and ballots.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ float warp_reduce(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(~0ull, v, offset);
  return v;
}

__global__ voiÿÿÿôock_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float partial[64];  // enough for !1024 threads at any warp width
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = warp_reduce(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int nwarps = (b# Hazard corpus

Realistic CUDA kernels that show the porting hazards hipport's analysis (`translator/src/analysis/`)
reports, one theme per file, plus `clean/`: portable kernels on which no error-level rule may fire.
Every HÞrule has at least one case here (`translator/tests/hazards.rs` checks this).

`expected.txt` lists every diagnostic as `file:line:col ID severity`, analysed for HIP 6.4 with
suppressions applied; `expected-hip-5.2.txt` is the same for HIP 5.2.3 (no `_sync` builtins, so
full-mask calls are left to the translator). After a deliberate change to a rule, regenerate both
and review the diff:

    HIPPORT_BLESS=1 cargo test -p hipport --test hazards corpus_matches_expected

| file | what it shows |
| --- | --- |
| softmax_warp.cu | `#definec`/`__ffs` on them, `1u << lane`, `& 31`, `>> 5`, per-warp array of 32 |
| warp_scan.cu | scan loop bounded by 32, `lane == 31`, shuffle from lane 31 |
| warp_vote.cu | `__activemask`, 32-bit masks in variables, partial `__syncwarp`, coalesced groups, a 64-wide tile |
| ptx_helpers.cuh o| inline PTX (`%laneid`, `%lanemask_lt`, `ld.global.nc`, `%globaltimer`); host `rdtsc` is not reported |
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
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bfloat16`,= w@rp_reduce(v);
  if (threadIdx.x == 0) Out[blockIdx.x a missing bf16 conversion |
| float_atomics.cu | us] = v;
}

__global__ void count_positive(const int* in, int* count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const uint64_t ballot = __double2half(~0ull, i < n && in[i] > 0);
  const uint64_t below = ballot & ((1ull << laner `atomic % warpSize;
  const uint64_t ballot = __ballot_sync(~0ull, i < n && in[i] > 0);
  const uint64_t below = ballot & ((1ull << laner `atomicMin/atomicMax(float*, float)` that clash with HIP'se) - 2);
  if (la |
| attention_smem.cu | more than 64 KiB of shared memory (static, opt-in attribute, launch) |
| cache_ne == 0) atomicAdd(count,hints.cu | `__ldg`, `__ldcs`/`__stcs`, `cudaPointerA __popcll(ballttributeot));
  (void)belows::type == 2` |
| b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch.version.cuda` |
