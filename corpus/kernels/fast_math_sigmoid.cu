// Sigmoid and softplus with CUDA's fast-math intrinsics (__expf, __logf, __fdividef,
// __saturatef) next to the accurate library calls; both results are returned.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void sigmoid_fast_kernel(const float* in, float* fast, float* accurate, float* soft, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    fast[i] = __saturatef(__fdividef(1.0f, 1.0f + __expf(-x)));
    accurate[i] = 1.0f / (1.0f + expf(-x));
    soft[i] = x > 15.f ? x : __logf(1.0f + __expf(x));
}

extern "C" int sigmoid_fast_f32(const float* in, float* fast, float* accurate, float* softplus, int n) {
    if (n <= 0) return 0;
    float *d_in, *d_f, *d_a, *d_s;
    size_t bytes = n * sizeof(float);
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_f, bytes));
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_s, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    sigmoid_fast_kernel<<<(n + 255) / 256, 256>>>(d_in, d_f, d_a, d_s, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(fast, d_f, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(accurate, d_a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(softplus, d_s, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_s));
    return 0;
}
