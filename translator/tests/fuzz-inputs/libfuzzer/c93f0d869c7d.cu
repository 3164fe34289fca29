// A file with Windows line endings.
#include <hip/hip_runtime.h>

__global__ void inc(int* x) { x[threadIdx.x] += 1; }
2(const float* in, int n, float* block_sums) {
    if (n <= 0) return 0;
  obal__ void warp_reduce_block_sum_kernel(const float* in, float* block_sums, int n) {
    typedef cub::WarpReduce<float> WarpReduceT;
    __shared__ typename WarpReduceT::TempStorage tS - 1) / BLOCK_THREADS;
    float *d_in, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToD  CHECK(cudaFree(d_esuss ms));
    return 0;? 0 : 1;
}

}
