// 2D data in pitched device memory: cudaMallocPitch, cudaMemcpy2D in and out, cudaMemset2D, and a
// kernel that addresses rows through the pitch (a box blur of radius 1, clamped at the edges).
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ const float* row_ptr(const float* base, size_t pitch, int y) {
    return (const float*)((const char*)base + y * pitch);
}

__global__ void box_blur_kernel(const float* src, size_t src_pitch, float* dst, size_t dst_pitch, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.f;
    for (int dy = -1; dy <= 1; ++dy) {
        int yy = min(max(y + dy, 0), h - 1);
        const float* r = row_ptr(src, src_pitch, yy);
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), w - 1);
            acc += r[xx];
        }
    }
    float* out_row = (float*)((char*)dst + y * dst_pitch);
    out_row[x] = acc * (1.0f / 9.0f);
}

extern "C" int box_blur_pitched_f32(const float* img, float* out, int w, int h) {
    if (w <= 0 || h <= 0) return 0;
    float *d_src, *d_dst;
    size_t src_pitch, dst_pitch;
    CHECK(cudaMallocPitch((void**)&d_src, &src_pitch, w * sizeof(float), h));
    CHECK(cudaMallocPitch((void**)&d_dst, &dst_pitch, w * sizeof(float), h));
    CHECK(cudaMemset2D(d_dst, dst_pitch, 0, w * sizeof(float), h));
    CHECK(cudaMemcpy2D(d_src, src_pitch, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    dim3 block(16, 16);
    dim3 grid((w + 15) / 16, (h + 15) / 16);
    box_blur_kernel<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(out, w * sizeof(float), d_dst, dst_pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    return 0;
}
