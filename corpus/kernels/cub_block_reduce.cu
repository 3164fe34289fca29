// Per-block sums and maxima with cub::BlockReduce, the block size fixed at compile time.
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_sum_max_kernel(const int* in, int* sums, int* maxes, int n) {
    typedef cub::BlockReduce<int, BLOCK_THREADS> BlockReduceT;
    __shared__ typename BlockReduceT::TempStorage temp_storage;
    int items[ITEMS_PER_THREAD];
    int base = blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
        int idx = base + threadIdx.x * ITEMS_PER_THREAD + k;
        items[k] = idx < n ? in[idx] : 0;
    }
    int sum = BlockReduceT(temp_storage).Sum(items);
    __syncthreads();  // temp_storage is reused
    int mx = BlockReduceT(temp_storage).Reduce(items, cub::Max());
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = sum;
        maxes[blockIdx.x] = mx;
    }
}

// Blocks cover 128 * 4 = 512 elements each; missing tail elements count as 0.
extern "C" int cub_block_sum_max_i32(const int* in, int n, int* sums, int* maxes) {
    const int threads = 128, ipt = 4, per_block = threads * ipt;
    if (n <= 0) return 0;
    int blocks = (n + per_block - 1) / per_block;
    int *d_in, *d_sums, *d_maxes;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&d_maxes, blocks * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    block_sum_max_kernel<threads, ipt><<<blocks, threads>>>(d_in, d_sums, d_maxes, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(sums, d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(maxes, d_maxes, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_maxes));
    return 0;
}
