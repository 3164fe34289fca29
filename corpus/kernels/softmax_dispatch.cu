// Row-wise softmax written the way PyTorch's CUDA kernels are: templated on the storage type
// and an accumulation type, one block per row, block reductions for the max and the sum, and a
// host-side switch over a dtype enum that instantiates the kernel for float, half and bfloat16
// (bfloat16 is a small struct holding the upper 16 bits of a float, as c10::BFloat16 is).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <float.h>
#include <string.h>

#define C10_CHECK(expr)                                    \
    do {                                                   \
        cudaError_t __err = (expr);                        \
        if (__err != cudaSuccess) return (int)__err;       \
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
            uint32_t rounding_bias = 0x7fffu + ((bits >> 16) & 1u);
            x = (uint16_t)((bits + rounding_bias) >> 16);
        }
    }
    __host__ __device__ operator float() const {
        uint32_t bits = (uint32_t)x << 16;
        float f;
        memcpy(&f, &bits, sizeof(f));
        return f;
    }
};

template <typename T> struct AccumulateType { using type = float; };
template <> struct AccumulateType<double> { using type = double; };
template <typename T> using acc_type = typename AccumulateType<T>::type;

template <typename T> __device__ __forceinline__ float to_acc(T v) { return static_cast<float>(v); }
template <> __device__ __forceinline__ float to_acc<__half>(__half v) { return __half2float(v); }
template <typename T> __device__ __forceinline__ T from_acc(float v) { return static_cast<T>(v); }
template <> __device__ __forceinline__ __half from_acc<__half>(float v) { return __float2half(v); }

}  // namespace mini

#define MINI_DISPATCH_FLOATING_TYPES_AND_HALF_BF16(TYPE, NAME, ...)             \
    [&]() -> int {                                                              \
        switch (TYPE) {                                                         \
            case mini::ScalarType::Float: {                                     \
                using scalar_t = float;                                         \
                return __VA_ARGS__();                                           \
            }                                                                   \
            case mini::ScalarType::Half: {                                      \
                using scalar_t = __half;                                        \
                return __VA_ARGS__();                                           \
            }                                                                   \
            case mini::ScalarType::BFloat16: {                                  \
                using scalar_t = mini::BFloat16;                                \
                return __VA_ARGS__();                                           \
            }                                                                   \
            default:                                                            \
                return -2; /* NAME: unsupported dtype */                        \
        }                                                                       \
    }()

template <typename accscalar_t, typename Op>
__device__ __forceinline__ accscalar_t block_reduce(accscalar_t val, accscalar_t* smem, Op op) {
    smem[threadIdx.x] = val;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);
        __syncthreads();
    }
    accscalar_t r = smem[0];
    __syncthreads();
    return r;
}

struct MaxOp {
    template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
struct AddOp {
    template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename scalar_t, typename accscalar_t>
__global__ void softmax_forward_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output,
                                       int64_t dim_size) {
    extern __shared__ unsigned char smem_raw[];
    accscalar_t* smem = reinterpret_cast<accscalar_t*>(smem_raw);
    const scalar_t* in = input + blockIdx.x * dim_size;
    scalar_t* out = output + blockIdx.x * dim_size;

    accscalar_t local_max = -FLT_MAX;
    for (int64_t j = threadIdx.x; j < dim_size; j += blockDim.x) {
        accscalar_t v = mini::to_acc(in[j]);
        local_max = v > local_max ? v : local_max;
    }
    accscalar_t row_max = block_reduce<accscalar_t>(local_max, smem, MaxOp());

    accscalar_t local_sum = 0;
    for (int64_t j = threadIdx.x; j < dim_size; j += blockDim.x)
        local_sum += expf(mini::to_acc(in[j]) - row_max);
    accscalar_t row_sum = block_reduce<accscalar_t>(local_sum, smem, AddOp());

    for (int64_t j = threadIdx.x; j < dim_size; j += blockDim.x)
        out[j] = mini::from_acc<scalar_t>(expf(mini::to_acc(in[j]) - row_max) / row_sum);
}

// input/output hold rows * cols elements of the type named by dtype (0 f32, 1 f16, 2 bf16).
extern "C" int softmax_forward(const void* input, void* output, int rows, int cols, int dtype) {
    if (rows <= 0 || cols <= 0) return 0;
    mini::ScalarType st = static_cast<mini::ScalarType>(dtype);
    return MINI_DISPATCH_FLOATING_TYPES_AND_HALF_BF16(st, "softmax_forward", [&]() -> int {
        using accscalar_t = mini::acc_type<scalar_t>;
        size_t bytes = sizeof(scalar_t) * (size_t)rows * cols;
        scalar_t *d_in = nullptr, *d_out = nullptr;
        C10_CHECK(cudaMalloc(&d_in, bytes));
        C10_CHECK(cudaMalloc(&d_out, bytes));
        C10_CHECK(cudaMemcpy(d_in, input, bytes, cudaMemcpyHostToDevice));
        int threads = 1;
        while (threads < cols && threads < 256) threads <<= 1;
        if (threads < 32) threads = 32;
        size_t smem = threads * sizeof(accscalar_t);
        softmax_forward_kernel<scalar_t, accscalar_t><<<rows, threads, smem>>>(d_in, d_out, cols);
        C10_CHECK(cudaGetLastError());
        C10_CHECK(cudaMemcpy(output, d_out, bytes, cudaMemcpyDeviceToHost));
        C10_CHECK(cudaFree(d_in));
        C10_CHECK(cudaFree(d_out));
        return 0;
    });
}
