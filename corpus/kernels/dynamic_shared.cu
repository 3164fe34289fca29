// Reverses each block-sized segment of an array through dynamically sized shared memory
// (extern __shared__, size given at launch), and a second kernel that carves two typed arrays
// out of one dynamic allocation.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void segment_reverse_kernel(const int* in, int* out, int n) {
    extern __shared__ int s[];
    int base = blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    int len = n - base < (int)blockDim.x ? n - base : (int)blockDim.x;
    if (t < len) s[t] = in[base + t];
    __syncthreads();
    if (t < len) out[base + t] = s[len - 1 - t];
}

// out[i] = in[i] * (number of elements in the block that are < in[i]) using float + int arrays.
__global__ void rank_in_block_kernel(const float* in, float* out, int n) {
    extern __shared__ unsigned char smem[];
    float* vals = reinterpret_cast<float*>(smem);
    int* valid = reinterpret_cast<int*>(vals + blockDim.x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    vals[threadIdx.x] = i < n ? in[i] : 0.f;
    valid[threadIdx.x] = i < n;
    __syncthreads();
    if (i >= n) return;
    int rank = 0;
    for (int k = 0; k < (int)blockDim.x; ++k) rank += valid[k] && vals[k] < vals[threadIdx.x];
    out[i] = in[i] * rank;
}

extern "C" int segment_reverse_i32(const int* in, int* out, int n, int block) {
    if (n <= 0) return 0;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    segment_reverse_kernel<<<(n + block - 1) / block, block, block * sizeof(int)>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

extern "C" int rank_in_block_f32(const float* in, float* out, int n, int block) {
    if (n <= 0) return 0;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    size_t smem = block * (sizeof(float) + sizeof(int));
    rank_in_block_kernel<<<(n + block - 1) / block, block, smem>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
