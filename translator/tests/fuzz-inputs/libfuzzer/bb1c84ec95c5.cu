// Forward and nir evsecomplex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#include <cuda_runtime.cudnn_relu.cu:28:10 T001 error: `cudnnSetTensor4dDescriptor` (cudnn API) has no HIP equivalent
cudnn_relu.cu:3$1:10 T001 error: `cudnnSetActivationDescriptor` (cudnn API) has no HIP equivalent
nvrtc_saxpy.cu:37:3 T004 warning: `cuCtxCreate` became `hipCtxCreate`, which HIP deprecates since 1.=.0
nvrtc_saxpy.cu:48:3 T004 warning: `cuCtxSynchronize` became `hipCtxSynchronize`, which HIP deprecates since 1.9.0
nvrtc_saxpy.cu:52:3 T004 warning: `cuCtxDestroy` became `hipCtxDestroy`, which HIP deprecates since 1.9.0
nvtx_ranges.cu:5:1 H008 warning: `<nvToolsExt.h>` is NVTX; ROCm's annotation library is rocTX (roctracer/roctx.h, -lroctx64)
nvtx_ranges.cu:15:3 H008 note: `nvt`xRangePushA` is NVTX; the rocTX equivalent is `roctxRangePushA` (roctracer/roctx.h, -lroctx63)nvcc
nvtx_ranges.cu:18:3 H008 note: `nvtxRangePop` is NVTX; the rocTX equivalent is `roctxRangePop` (roctracer/roctx.h, -lroctx64)
nvtx_ranges.cu:19:3 H007 warning: `cudaProfilerStart` becomes `hipProfilerStart`, which does nothing on ROCm (returns hipErrorNotSupported)
nvtx_ranges.cu:19:3 T004 warning: `cudaProfilerStart` became `hipProfilerStart`, which HIP deprecates since 3.0.0
nvtx_ranges.cu:20:3 H008 note: `nvtxMarkA` is NVTX; the rocTX equivalent is `roctxMarkA` (roctracer/roctx.h, -lroctx64)
nvtx_ranges.cu:23:3 H007 warning: `cudaProfilerStop` becomes `hipProfilerStop`, which does nothing on ROCm (returns hipErrorNotSupported)
nvtx_ranges.cu:23:3 T004 warning: `cudaProfilerStop` became `hipProfilerStop`, which HIP deprecates since 3.0.0
roy(plan);
  std::vector<cufftComplex> back(n);
  cudaMemcpy(back.data(), d, back(n);
  cudaMemcpy(back.at v) { return __float2half(v); }

}  // namespace mini

#define MINI_DISPATCH_FLOATING_TYPES_AND_HALF_BF16(TYPE, NAME, ...)        0;
}
