// Two-pass sum reduction: tree reduction in shared memory per block, then one block over the partials.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

#define BLOCK 256

__global__ void block_sum_kernel(const float* in, float* partial, int n) {
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;
    float v = 0.f;
    if (i < n) v = in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

extern "C" int reduce_sum_f32(const float* in, int n, float* result) {
    if (n <= 0) {
        *result = 0.f;
        return 0;
    }
    int blocks = (n + BLOCK * 2 - 1) / (BLOCK * 2);
    float *d_in, *d_partial, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    block_sum_kernel<<<blocks, BLOCK>>>(d_in, d_partial, n);
    CHECK(cudaGetLastError());
    // Reduce the partials repeatedly until one value is left.
    int m = blocks;
    float* src = d_partial;
    float* scratch;
    CHECK(cudaMalloc(&scratch, blocks * sizeof(float)));
    float* dst = scratch;
    while (m > 1) {
        int b = (m + BLOCK * 2 - 1) / (BLOCK * 2);
        block_sum_kernel<<<b, BLOCK>>>(src, dst, m);
        CHECK(cudaGetLastError());
        float* t = src;
        src = dst;
        dst = t;
        m = b;
    }
    CHECK(cudaMemcpy(d_out, src, sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(scratch));
    CHECK(cudaFree(d_out));
    return 0;
}
