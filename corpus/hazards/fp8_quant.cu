// Per-tensor FP8 quantization with a bf16 input path.
#include <cuda_fp8.h>
#include <cuda_bf16.h>

__global__ void quantize_fp8(const __nv_bfloat16* __restrict__ in, __nv_fp8_e4m3* __restrict__ out,
                             float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __nv_fp8_e4m3(__bfloat162float(in[i]) * scale);
}

__global__ void dequantize(const __nv_fp8_e4m3* in, nv_bfloat16* out, float inv_scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16_rz(float(in[i]) * inv_scale);
}
