// bfloat16 with cuda_bf16.h: round float inputs to __nv_bfloat16, multiply-add in bf16 with
// __hfma, and accumulate a dot product in float from bf16 operands.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void bf16_fma_kernel(int n, const float* a, const float* b, const float* c, __nv_bfloat16* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 x = __float2bfloat16(a[i]);
        __nv_bfloat16 y = __float2bfloat16(b[i]);
        __nv_bfloat16 z = __float2bfloat16(c[i]);
        out[i] = __hfma(x, y, z);
    }
}

__global__ void bf16_dot_kernel(int n, const __nv_bfloat16* x, const __nv_bfloat16* y, float* result) {
    __shared__ float partial[256];
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += __bfloat162float(x[i]) * __bfloat162float(y[i]);
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

// out holds raw bf16 bit patterns.
extern "C" int bf16_fma(int n, const float* a, const float* b, const float* c, unsigned short* out) {
    if (n <= 0) return 0;
    float *da, *db, *dc;
    __nv_bfloat16* dout;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(__nv_bfloat16)));
    CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c, n * sizeof(float), cudaMemcpyHostToDevice));
    bf16_fma_kernel<<<(n + 255) / 256, 256>>>(n, da, db, dc, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dout));
    return 0;
}

// x and y are raw bf16 bit patterns.
extern "C" int bf16_dot(int n, const unsigned short* x, const unsigned short* y, float* result) {
    __nv_bfloat16 *dx, *dy;
    float* dr;
    int m = n > 0 ? n : 1;
    CHECK(cudaMalloc(&dx, m * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&dy, m * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&dr, sizeof(float)));
    CHECK(cudaMemset(dr, 0, sizeof(float)));
    if (n > 0) {
        CHECK(cudaMemcpy(dx, x, n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dy, y, n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
        int blocks = (n + 255) / 256;
        if (blocks > 16) blocks = 16;
        bf16_dot_kernel<<<blocks, 256>>>(n, dx, dy, dr);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(result, dr, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dr));
    return 0;
}
