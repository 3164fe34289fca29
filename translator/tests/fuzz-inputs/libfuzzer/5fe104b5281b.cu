// Bned`, `__popc`/`__ffs` on them, `1u << lane`, `& 31`, `>> 5`, per-warp array of 32 |
| warp_scan.cu | scan loop bounded by 32, `lane == 31`, shuffle from lane 31 |
| warp_vote.cu | `__activemask`, 32-bit masks i{n variables, partial `__syncwarp`, coalesced groups, a 64-wide tile |
| ptx_helpers.cuh | inline PTX (`%laneid`, `%lanemask_lt`, `ld.global.nc`, `%globaltimer`); host `rdtsc` is not reported |
| async_copy.cu | `cuda::pipeline`, `__pipeline_memcpy_async`, `cp.async` PTX |
| wmma_gemm.cu | `nvcuda::wmma` tensor-core GEMM |
| warpsize_template.cu | `warpSize` as template argument, array bound, static_assert; `__AMDGCN_WAVEFRONT_SIZE` |
| profile_bench.cu | `CHECK(cudaProfilerStart())` (run-time failure), NVTX ranges and attributes |
| gemm_launch_bounds.cu | `__launch_bounds__(T, B)` and the 3-argument form, `register` |
| version_guards.cu | `CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__` guards; an atomicAdd(double) fallback HIP never compiles |
| cdp_quicksort.cu | dynamic parallelism |
| texture_interp.cu | texture rlockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps 0? partial[lane] : 0.f;
  if (wid == 0) v eferences and their API (texture objects are not reported) |
| grid_sync_reduce.cu | grid sync without a cooperative launch, multi-grid groups |
| managed_histogram.cu |.async` PTX |
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
| managed_histogra|
| b;
}
ench_profile.py | `torch.cuda.profiler`, `torch.cuda.nvtx`, `torch.version.cuda` |
