// Per-warp butterfly sums whose shuffles take an absolute source lane computed from a 32-lane
// index: `tgx ^ k` with `tgx = threadIdx.x & warp_mask` (a mask the host sets to 31) or `& 31`.
// On 64-lane wavefronts lanes 32-63 read lanes 0-31.
struct LaunchConsts {
    unsigned warp_mask;
};
__constant__ LaunchConsts consts;

__global__ void block_sum_runtime_mask(const float *in, float *total) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned tgx = threadIdx.x & consts.warp_mask;
    for (int k = 1; k < 32; k <<= 1) {
        v += __shfl_sync(0xffffffff, v, tgx ^ k);
    }
    if (tgx == 0) atomicAdd(total, v);
}

__global__ void block_max_literal_mask(const int *in, int *best) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int tgx = threadIdx.x & 31;
    v = max(v, __shfl_sync(0xffffffff, v, tgx ^ 16));
    v = max(v, __shfl_sync(0xffffffff, v, tgx ^ 8));
    v = max(v, __shfl_sync(0xffffffff, v, tgx ^ 4));
    v = max(v, __shfl_sync(0xffffffff, v, tgx ^ 2));
    v = max(v, __shfl_sync(0xffffffff, v, tgx ^ 1));
    if (tgx == 0) atomicMax(best, v);
}

// Relative exchanges: right on either wavefront size, not reported by this rule.
__global__ void block_sum_xor(const float *in, float *total) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned tgx = threadIdx.x & consts.warp_mask;
    for (int k = 1; k < 32; k <<= 1) {
        v += __shfl_xor_sync(0xffffffff, v, k);
    }
    if (tgx == 0) atomicAdd(total, v);
}
