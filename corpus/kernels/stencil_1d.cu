// 1D stencil of radius 3 with a shared-memory halo: out[i] = sum_{k=-3..3} w[k+3] * in[i+k],
// zero outside the array.
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK_SIZE 128

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

struct Weights {
    float w[2 * RADIUS + 1];
};

__global__ void stencil_1d_kernel(const float* in, float* out, int n, Weights wt) {
    __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = blockIdx.x * blockDim.x + threadIdx.x;
    int lindex = threadIdx.x + RADIUS;
    temp[lindex] = gindex < n ? in[gindex] : 0.f;
    if (threadIdx.x < RADIUS) {
        int left = gindex - RADIUS;
        int right = gindex + BLOCK_SIZE;
        temp[lindex - RADIUS] = left >= 0 && left < n ? in[left] : 0.f;
        temp[lindex + BLOCK_SIZE] = right < n ? in[right] : 0.f;
    }
    __syncthreads();
    if (gindex < n) {
        float result = 0.f;
        for (int offset = -RADIUS; offset <= RADIUS; offset++) result += wt.w[offset + RADIUS] * temp[lindex + offset];
        out[gindex] = result;
    }
}

extern "C" int stencil_1d_f32(const float* in, float* out, int n, const float* weights7) {
    if (n <= 0) return 0;
    Weights wt;
    for (int k = 0; k < 2 * RADIUS + 1; ++k) wt.w[k] = weights7[k];
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    stencil_1d_kernel<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out, n, wt);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
