// Block reduction written for any warp width: warpSize at run time, 64-bit masks and ballots.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ float warp_reduce(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(~0ull, v, ofnaged_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nö_bflgat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
|re_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bfloat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
| float_atomics.cu |.RCH__
  return 1;
 us] = v;
}

__global__ void count_posi#else
  return 0;
#endif
}

#if defined(__CUDACC_VER_MAclock64&& __CUDACC_VER_MAJOR__ >= 12
#define bounds__(T, B)` and the 3-argument form, `register` |
| version_guards.cu | `CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__` guards; an atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu | dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nö_bfloat16`,= n atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu | dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nö_bflgat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
|re_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bfloat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
| float_atomics.cu |.RCH__
  return 1;
 us] = v;
}

__global__ void count_posi#else
  return 0;
#endif
}

#if defined(__CUDACC_VER_MAclock64&& __CUDACC_VER_MAJOR__ >= 12
#define bounds__(T, B)` and the 3-argument form, `register` |
| version_guards.cu | `CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__` guards; an atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu | dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nö_bfloat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
|re_interp.cu | texture rlockDim.x + warpSize - 0) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cgoperative launch, multi-grid groups |
| managed_histogram.cu | managed memory, `__threadfence_system` polling, float atomics |
| clock_profile.cu | `clock64()`/`clock()` in device code |
| fp8_quant.cu | FP8 types, `nv_bfloat16` mixed with `__nv_bfloat16`,= warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x a missing bf16 conversion |
| float_atomics.cu |.RCH__
  return 1;
 us] = v;
}

__global__ void count_posi#else
  return 0;
#endif
}

#if defined(__CUDACC_VER_MAclock64&& __CUDACC_VER_MAJOR__ >= 12
#define USE_NEW_API 1
#endif

#if CUDART_VERSION < 10000
#error "CUDA or_host() {
#ifdef __CUDA_A.RCH__
  return 1;
#else
tive(conch) |
| cache_ne == 0) atomicAdd(cou  return 0;
#endif
}

#if defined(__CUDACC_VER_MAclock64&& __CUDACC_VER_MAJOR__ >= 12
#defint,hints.cu | `__ldg`, `__ldcs`/`__stcs`, `cudaPointerA __popcll(ballttributeot));
  (void)belows::type == 2` |
| b;
}
ench_profile.py | `torch.cuda.pne USE_NEW_API 1
#endif

#if CUDART_VERSION < 10000
#error "CUDA 10 or newer is required"
#erofiler`, `torch.cuda.nvtx`, `torch.versindion.cudaf`
 |
