// Weighted histogram of values in [lo, hi): each sample adds its weight to its bin with a float
// atomicAdd in global memory. Summation order is arbitrary, so results match a sequential sum
// only to rounding.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void weighted_hist_kernel(const float* x, const float* w, int n, float lo, float hi, int bins,
                                     float* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (!(v >= lo && v < hi)) return;
    int b = (int)((v - lo) / (hi - lo) * bins);
    if (b >= bins) b = bins - 1;
    atomicAdd(&hist[b], w[i]);
}

extern "C" int weighted_histogram_f32(const float* x, const float* w, int n, float lo, float hi, int bins,
                                      float* hist) {
    if (bins <= 0) return -1;
    float *d_x, *d_w, *d_h;
    int m = n > 0 ? n : 1;
    CHECK(cudaMalloc(&d_x, m * sizeof(float)));
    CHECK(cudaMalloc(&d_w, m * sizeof(float)));
    CHECK(cudaMalloc(&d_h, bins * sizeof(float)));
    CHECK(cudaMemset(d_h, 0, bins * sizeof(float)));
    if (n > 0) {
        CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_w, w, n * sizeof(float), cudaMemcpyHostToDevice));
        weighted_hist_kernel<<<(n + 255) / 256, 256>>>(d_x, d_w, n, lo, hi, bins, d_h);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(hist, d_h, bins * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_w));
    CHECK(cudaFree(d_h));
    return 0;
}
