// Counting and compacting positive values per block without any warp-width assumption:
// __syncthreads_count for the block total, a shared-memory exclusive scan for the ranks.
// Each block writes its kept values, in order, to out[blockIdx.x * blockDim.x ...].
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void block_compact_kernel(const int* in, int* out, int* block_counts, int n) {
    extern __shared__ int flags[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int pred = v > 0;
    int count = __syncthreads_count(pred);
    flags[threadIdx.x] = pred;
    __syncthreads();
    // Hillis-Steele inclusive scan over the block.
    for (int d = 1; d < blockDim.x; d <<= 1) {
        int add = threadIdx.x >= d ? flags[threadIdx.x - d] : 0;
        __syncthreads();
        flags[threadIdx.x] += add;
        __syncthreads();
    }
    if (pred) out[blockIdx.x * blockDim.x + flags[threadIdx.x] - 1] = v;
    if (threadIdx.x == 0) block_counts[blockIdx.x] = count;
}

extern "C" int block_compact_i32(const int* in, int* out, int* block_counts, int n, int block) {
    if (n <= 0) return 0;
    int blocks = (n + block - 1) / block;
    int *d_in, *d_out, *d_counts;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, (size_t)blocks * block * sizeof(int)));
    CHECK(cudaMalloc(&d_counts, blocks * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, (size_t)blocks * block * sizeof(int)));
    block_compact_kernel<<<blocks, block, block * sizeof(int)>>>(d_in, d_out, d_counts, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, (size_t)blocks * block * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(block_counts, d_counts, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_counts));
    return 0;
}
