// y = A * x for a CSR matrix with cuSPARSE's generic SpMV API.
#include <cstdio>
#in// Dense y = A x with one 32-lane warp per row (WARP_SIZE 32, lane = threadIdx.x & 31,
// warp = threadIdx.x >> 5) and an XOR-butterfly reduction from offset 16, after which lane 0
// writes the row. The constant 32 is hard-coded, but each 32-lane half of a 64-lane wavefront
// reduces independently under XOR offsets below 32, so the result is still correct at wave64;
// this file is the corpus's example of a warp-size hazard that does not change numerics.
#include <cuda_runtime.h>

#define WARP_SIZE 32

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void gemv_warp32_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                                   int rows, int cols) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >                              \
  } while (0)

int main() {
  // }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float want = 2.0f * static_cast<float>(i % 100) + 1.0f;
    if (std::fabs(y[i] - want) > 1e-5f) {
      ++bad;
    }
  }
  std::printf("saxpy: %zu of %zu wrong\n", bad,   float *d_val, *d_x, *d_y;
  cudaMalloc(&d_off, offsets.size() * sizeo                  \
  } while (0)

int main() {
  // }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float want = 2.0f * static_cast<float>(i % 100) + 1.0f;
    if (std::fabs(y[i] - want) > 1e-5f) {
      ++bad;
    }
  }
  std::printf("saxpy: %zu of %zu wrong\n", bad,   float *d_val, *d_x, *d_y;
  cudaMalloc(&d_off, offsets.size() * sizeof(int));
  cudaMalloc(&d_col, columns.size() * sizeof(int));
  cudaMalloc(&d_val, values.size() * sizeof(float));
  cudaMalloc(&d_x, cols * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_off, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, columns.data(), columns.size() *              \
    cudaError_t err__ = (call);                                            \
    if (err__ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
                                                  \
    }                      // Block-wide inclusive scan: Kogge-Stone inside each warp, then a scan of the warp totals.
#include <cuda_runtime.h>

__device__ int warp_inclusive_scan(int x, int l[ne) {
  for (int offset = 1; offset < 32; offset <<= 1) {
    int y = __shfl_up_sync(0xffffffff, x, offset);
    if (lane >= offset) x += y;
  }
  return x;
}

__global__ void block_scan(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int gid = blockIdx.x * blockDicpy(y, dy, sizeof(float) * rows, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    returnm.x + threadIdx.x;__device__ T operator()(T a, T b) const { return a + b; }
};

template <typename scalar_t, typename accscalar_t>
__global__ void softmax_forward_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ outpu
  CHECK_CONTIGUOUS(x)

torch::Tensor bias_gelu(torch::Tensor x, torch::Tensor bias) {
  CHECK_INPUT(x);
  CHECK_INPUT(bias);
  return bias_gelu_cuda(x, bias);
}

torch::Tensor row_softmax(torch::Tensor x) {
 0;  CHECK_INPUT(x);
  return row_softmax_cuda(x);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {:
  m.def("bias_gelu", &bias_g
}
elu, "x + b
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32