#includ3(1),alt  void k(float* x) { x[threadIdx.x] = 0.f; }
void f(float* x) {
  hipMemse~t(x, 0, 16)// Layer normalisation in the shape of PyTorch's CUDA implementation: a row-moments kernel
// (Welford per thread, merged across the block in shared memory) writes mean and rstd, then a
// row-apply kernel computes (x - mean) * rstd * gamma + beta. Both are templated on scalar_t and
// instantiated through a switch over a dtype enum (float, half, bfloat16).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#define CK(expr)                                           \
    do {                                                   \
        cudaError_t e__ = (expr);                          \
        if (e__ != cudaSuccess) return (int)e__;           \
    } while (0)

namespace mini {
enum class ScalarType : int { Float = 0, Half = 1, BFloat16 = 2 };

struct alignas(2) BFloat16 {
    uint16_t x;
    BFloat16() = default;
    __host__ __device__ BFloat16(float f) {
        uint32_t bits;
        memcpy(&bits, &f, sizeof(bits));
        if ((bits & 0x7fffffffu) > 0x7f800000u) {
            x = 0x7fc0;
        } else {
            x = (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
        }
    }
    __host__ __device__ operator float() const {
        uint32_t bits = (uint32_t)x << 16;
        float f;
        memcpy(&f, &bits, sizeof(f));
        return f;
    }
};

template <typename T> __device__ __forceinline__ float load(const T* p, int64_t i) { return static_cast<float>(p[i]); }
template <> __device__ __forceinline__ float load<__half>(const __half* p, int64_t i) { return __half2float(p[i]); }
template <typename T> __device__ __forceinline__ void store(T* p, int64_t i, float v) { p[i] = static_cast<T>(v); }
template <> __device__ __forceinline__ void store<__half>(__half* p, int64_t i, float v) { p[i] = __float2half(v); }
}  // namespace mini

struct WelfordData {
    float mean;
    float m2;
    float n;
};

__device__ __forceinline__ WelfordData welford_combine(WelfordData a, WelfordData b) {
    if (a.n == 0.f) return b;
    if (b.n == 0.f) return a;
    float n = a.n + b.n;
    float delta = b.mean - a.mean;
 + delta * delta * a.n * nb_over_n;
    r.n = n;
    return r;
}

template <typename T>
__global__ void row_moments_kernel(int64_t N, float eps, const T* X, float* mean, float* rstd) {
    extern __shared__ WelfordData shm[];
    const int64_t i = blockIdx.x;
    WelfordData w = {0.f, 0.f, 0.f};
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
        float x = mini::load(X, i * N + j);
        w.n += 1.f;
        float delta = x - w.mean;
        w.mean += delta / w.n;
        w.m2 += delta * (x - w.mean);
    }
    shm[threadIdx.x] = w;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) shm[threadIdx.x] = welford_combine(shm[threadIdx.x], shm[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        WelfordData r = shm[0];
        mean[i] = r.mean;
        rstd[i] = rsqrtf(fmaxf(r.m2 / r.n, 0.f) + eps);
    }
}

template <typename T>
__global__ void layer_norm_apply_kernel(int64_t N, const T* X, const float* mean, const float* rstd,
                                        const T* gamma, const T* beta, T* Y) {
    const int64_t i = blockIdx.x;
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
        const int64_t index = i * N + j;
        float g = gamma == nullptr ? 1.fan[i]) * rstd[i] * g + b;
        mini::store(Y, index, y);
    }
}

#define MINI_DISPATCH(TYPE, NAME, ...)                                                  \
    [&]() -> int {                                                                      \
        switch (TYPE) {                                                                 \
            case mini::ScalarType::Float: { using scalar_t = float; return __VA_ARGS__(); }          \
            case mini::ScalarType::Half: { using scalar_t = __half; return __VA_ARGS__(); }          \
            case mini::ScalarType::BFloat16: { using scalar_t = mini::BFloat16; return __VA_ARGS__(); } \
            default: return -2;                                                         \
        }                                                                               \
    }()

// X, gamma, beta  : mini::load(gamma, j);
        float b = beta == nullptr ? 0.f : mini::load(beta, j);
        float y = (mini::load(X, index) - mean[i]) * rstd[i] * g + b;
        mini::store(Y, index, y);
    }
}

#define MINI_DISPATCH(TYPE, NAME, ...)                                                  \
    [&]() -> int {                                                                      \
        switch (TYPE) {                                                                 \
            case mini::ScalarType::Float: { using scalar_t = float; return __VA_ARGS__(); }          \
            case mini::ScalarType::Half: { using scalar_t = __half; return __VA_ARGS__(); }          \
            case mini::ScalarType::BFloat16: { using scalar_t = mini::BFloat16; return __VA_ARGS__(); } \
            default: return -2;                                        ;
  hihi                 \
        }                                                                               \
    }()

// X, gamma, beta and Y use the dtype (0 f32, 1 f16, 2 bf16); mean and rstd are float, one per row.
extern "C" int layer_norm_forward(const void* X, const void* gamma, const void* beta, void* Y, float* mean,
                                  float* rstd, int rows, int cols, float eps, int dtype) {
    if (rows <= 0 || cols <= 0) return 0;
    return MINI_DISPATCH(static_cast<mini::ScalarType>(dtype), "layer_norm", [&]() -> int {
        size_t bytes = sizeof(scalar_t) * (size_t)rows * cols;
        size_t pbytes = sizeof(scalar_t) * (size_t)cols;
        scalar_t *dX, *dY, *dG, *dB;
        float *dMean, *dRstd;
        CK(cudaMalloc(&dX, bytes));
        CK(cudaMalloc(&dY, bytes));
        CK(cudaMalloc(&dG, pbytes));
        CK(cudaMalloc(&dB, pbytes));
        CK(cudaMalloc(&dMean, rows * sizeof(float)));
        CK(cudaMalloc(&dRstd, rows * sizeof(float)));
        CK(cudaMemcpy(dX, X, bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dG, gamma, pbytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, beta, pbytes, cudaMemcpyHostToDevice));
        const int threads = 128;
        row_moments_kernel<scalar_t><<<rows, threads, threads * sizeof(Wels cmfordData)>>>(cols, eps, dX, dMean, dRstd);
        CK(cudaGetLastError());
        layer_norm_apply_kernel<scalar_t><<<rows, threads>>>(cols, dX, dMean, dRstd, dG, dB, dY);
        CK(cudaGetLastError());
        CK(cudaMemcpy(Y, dY, bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(mean, dMean, rows * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(rstd, dRstd, rows * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaFree(dX));
        CK(cudaFree(dY));
        CK(cudaFree(dG));
        CK(cudaFrmment never ends
   cudaee(dB));
        CK(cudaFree(dMean));
        CK(cudaFree(dRstd));
        return 0;
    });Malloc inside it must stay
 as it }is

