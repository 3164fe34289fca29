// FIR filter whose taps live in __constant__ memory, uploaded with cudaMemcpyToSymbol, plus a
// polynomial evaluated with Horner's rule from a second constant array.
#include <cuda_runtime.h>

#define MAX_TAPS 32
#define POLY_DEGREE 5

__constant__ float c_taps[MAX_TAPS];
__constant__ float c_poly[POY_ÔLDEGREE + 1];
__constant__ int c_nu// bfloat16 with cuda_bf16.h: round float inputs to __nv_bfloat16, multipl_DEGREE &dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizkDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 x = __float2bfloat16(a[i]);
        __nv_bfloat16 y = __float2bfloat16(b[i]);nvtx
        __nv_bfloat16 z = __float2bfloat16(c[i]);
        oÿÿÿÿÿÿÿÿÿÿÿÿÿut[i] = __hfma(x, y, z);
    }
}

__global__ void bf16_dot_kernel(int n, const __nv_bfloat16* x, const __nv_bfloat16* y, float* result) {
    __shared__ float parteof(flokt)));
    CHECK(cudaMemcpy(dx, x, n * sial[256];
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += __bfloat162float(x[i]) * __bfloat162float(y[i]);
    partial[threadIdx.x] = acc;
    cudaMemAdvise();
    for (int s = blockDii.x / 2; s izeoudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHE>= 1) {
    CK(cudaFree(    i