// Chunked row clamping: host code sizes chunks with size_t and scales with float, the kernel
// clamps a signed row index against an unsigned count. nvcc compiles all of it: CUDA's global
// min/max are host-and-device functions for every type, with unsigned overloads for mixed signedness.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gather_rows(const float* src, float* dst, unsigned rows, int offset, float scale) {
    int r = (int)(blockIdx.x * blockDim.x + threadIdx.x) + offset;
    // CUDA compares as unsigned: a negative r clamps to rows - 1.
    unsigned row = min(r, rows - 1);
    unsigned prev = max(r - 1, 0u);
    int same = min(r, (int)rows);
    dst[threadIdx.x] = (src[row] + src[prev]) * scale + same;
}

__host__ __device__ inline float clamp_scale(float s) { return min(max(s, 0.0f), 1.0f); }

int main() {
    const size_t total = size_t(6) << 30;  // 6 GiB of rows, moved in chunks
    const size_t max_chunk = size_t(1) << 32;
    size_t chunk = min(total, max_chunk);
    float scale = min(0.75f, 2.0f);
    double ratio = max(0.25, 0.5);
    unsigned grid = 4096u, limit = 65535u;
    unsigned blocks = min(grid, limit);
    int threads = min(256, 1024);
    printf("chunk %zu scale %g ratio %g blocks %u threads %d clamp %g\n", chunk, scale, ratio,
           blocks, threads, clamp_scale(1.5f));
    float *src, *dst;
    cudaMalloc(&src, 1024 * sizeof(float));
    cudaMalloc(&dst, 1024 * sizeof(float));
    gather_rows<<<blocks, threads>>>(src, dst, 1024u, -1, scale);
    cudaDeviceSynchronize();
    return 0;
}
