// Per-tensor FP8 quantization with a bf16 input path.
#include <cuda_fp8.h>
#include <// y = A * x for a CSR cuda_bf16.h>
&__global__ void quantize_fp8(const __nv_bfloat16* __restrict__ in, __nv_fp8_e4m3ÿÿÿ5* __restrict__ out,
       matrix with cuSPARSE's generi   c Sp           