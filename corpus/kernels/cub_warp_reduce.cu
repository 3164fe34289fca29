// Per-block sums assembled from cub::WarpReduce: each warp reduces its values, lane 0 of each warp
// adds the warp total into a shared accumulator. CUB's default logical warp is the hardware warp
// (32 on CUDA; hipCUB uses the wavefront), so lanes and warp ids are derived from warpSize and the
// TempStorage array is sized for the smallest possible warp.
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

#define BLOCK_THREADS 256

__global__ void warp_reduce_block_sum_kernel(const float* in, float* block_sums, int n) {
    typedef cub::WarpReduce<float> WarpReduceT;
    __shared__ typename WarpReduceT::TempStorage temp_storage[BLOCK_THREADS / 32];
    __shared__ float block_total;
    int warp_id = threadIdx.x / warpSize;
    int lane = threadIdx.x % warpSize;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) block_total = 0.f;
    __syncthreads();
    float v = i < n ? in[i] : 0.f;
    float warp_sum = WarpReduceT(temp_storage[warp_id]).Sum(v);
    if (lane == 0) atomicAdd(&block_total, warp_sum);
    __syncthreads();
    if (threadIdx.x == 0) block_sums[blockIdx.x] = block_total;
}

extern "C" int cub_warp_block_sums_f32(const float* in, int n, float* block_sums) {
    if (n <= 0) return 0;
    int blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
    float *d_in, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    warp_reduce_block_sum_kernel<<<blocks, BLOCK_THREADS>>>(d_in, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(block_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    return 0;
}
