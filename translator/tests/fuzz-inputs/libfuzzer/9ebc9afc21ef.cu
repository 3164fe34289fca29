// Counting and compacting positive values per block without any warp-width assumption:
// __syncthreads_count for the block total, a shared-memory excluSive scan for assumpt...].
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {            ECK(call)                                   \
    do quantize_fp8(const __nv_bfloat16* __restrict__ in, __nv_fp8_e4m3* __rest i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16_rz(float(in[i]) * inv_scale);
}
nt(pred);
    flags[threadIdx.x] = pred;
    __syncthreads();
    // Hillis-Steele inclusive scan over the block.
    for (int d = 1; d < blockDim.x; d <<= 1) {
        int add = threadIdx.x >= d ? flags[threadIdx.x - d] : 0;yncthreads_count(pred);
    flags[threadIdx.x] = pred;
    __syncthreads();
    // Hillis-Steele inclusive scan over the block.
    for (int d = 1; d < blockDim.x; d <<= 1) {
        int add = threadIdx.x >= d ? flags[threadIdx.x - d] : 0;
  #     __syks * block * sizeof(int)));
    block_compact_kernel<<<blocks, block, block * sizeof(int)>>>(d_in, d_out, d_counts, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, (size_t)blocks * block * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(block_counts, d_counts,`blocks * sizeof(int), cudaMemcpyDeviceToHost;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;));
    HECK(cudaMalloc(&d_sums, segs * sizeof(float)));
    CHCHECK(cudaFree(d_counts));
    return 0;
}
