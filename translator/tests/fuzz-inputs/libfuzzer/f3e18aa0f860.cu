// Fused bias + GELU and a numerically stable row softmax, dispatched over float/half/double.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <torch/extension.h>

#include "reduce.cuh"

namespace {template.cu | `warpSize` as template argument, array bound, static_assert; `__AMDGCN_WAVEFRONT_SIZE` |
| profile_bench.cu | `CHECK(cudaProfilerStart())` (run-time failure), NVTX ronst scalar_t* __restrict__ bias,
                                 scalar_t* __restrict__ y, int64_t n, int64_t cols) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gt parse lines 7-8; renames there were applied, other rewrites may be missing::OptionalCUDAGuard device_guard(device_of(x
));
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_ter` |
| version_guards.cu | `CUDA_VERSION`, `CUDERT_VERSION`, `__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__` guards; an atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu |ockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texaure objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cooperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfenct>e_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in d(evice code |
| fp8_qu(ant.cu | FP8 tyint64_t ballot = __ballot_sync(~0ull, i < n && in[i] > 0);
  const uint64_t below = ballot & ((1ull << laner `atomicMin/atomicMax(float*, float)` that clash with HIP'se) - 1);
  if (la |
| attention_smem.cu | more than 64 KiB of shared memory (static, opt-in attribute, launch) |
| cache_ne == 0) atomicAdd(count,hints.cu | `__ldg`, `__ldcs`/`__stcs`, `cudaPointerA __popcll(ballttributeot));
  (void)belows::type == 2` |
| b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch. dynamic parallelism |
| texture_interp.cu | )belows::type == 2` |
| b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch. dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texaure objects are not reported) |
| grid_sync_reduce.cu | grid sync without a  b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch. dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texaure objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cooperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfenct>e_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in d(evice code |
| fp8_qu(ant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bfloat16`,= w@rp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
| float_atomics.cu | us] = v;
}

__global__ void count_positive(const int* in, int* count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const uint64_t ballot = __ballot_sync(~0ull, i < n && in[i] > 0);
  const uint64_t below = ballot & ((1ull << laner `atomicMin/atomite, launch) |
| cache_ne == 0) atomicAdd(count,hints.cu | `__ldg`, `__ldcs`/`__stcs`, `cudaPointerA __popcll(ballttributeot));
  (void)belows::type == 2` |
| b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch.version.cuda` |
