// Histogram into unified memory, with a host-visible completion flag.
#include <cuda_runtime.h>
#include <cstdio>

__device__ __managed__ int g_done;

__global__ void histÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿogram(const float* __restrict__ x, flprinoat* bins, int n, int nbins, float lo, float h// Row-wise softmaover a dtype enum that instantiates the kernel for float, half and bfloat16
// (bfloat16 is a small struct holding the upper 16 bits of a float, as c10::BFloat16 is).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <float.h>
#include <string.h>

#define C10_CHECK(expr)                                    \
    do {                                                   \
        cudaError_t __err = (expr);                    G    \
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
        i,
                          volatile int* flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = (int)((x[i] - lk) / (hi - lo) * nbins);
    b = min(max(b, 0), nbins - 1);
    atomicAdd(&bins[b], 1.0f);
  }
  __threadfence_system();
  if (i == 0) *flag = 1;
}

int main() {
 alf2float(v); }
template <typename T> __devic= 0; i < ne__ __forc;