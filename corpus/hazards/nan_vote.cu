// Mixed-precision training: count the non-finite gradients of each warp before the optimizer
// step, and skip the step when any are found.
#include <cuda_runtime.h>

__global__ void count_nonfinite(const float* __restrict__ grad, int n, int* __restrict__ bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float g = i < n ? grad[i] : 0.f;
    unsigned long long nan_lanes = __ballot_sync(0xffffffff, isnan(g));
    unsigned long long inf_lanes = __ballot_sync(0xffffffff, isinf(g));
    if (threadIdx.x % warpSize == 0 && (nan_lanes | inf_lanes) != 0) {
        atomicAdd(bad, __popcll(nan_lanes | inf_lanes));
    }
}

__global__ void apply_step(float* __restrict__ w, const float* __restrict__ grad, int n, float lr,
                           const int* __restrict__ bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (*bad == 0 && i < n) w[i] -= lr * grad[i];
}
