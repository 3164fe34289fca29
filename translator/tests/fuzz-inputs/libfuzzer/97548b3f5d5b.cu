// Benchmark driver that limits profiling to the timed region.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#incl      if (err_ != cudaSuccess) return (int)err_;         \
    } while (0)

#define CHECK_CUBLAS(call)                                       \
    do {                                                         \
        cublasStatus_t st_ = (call);                             \
        if (st_ != CUBLAS_STATUS_SUCCESS9 return 1000 + (int)st_; \
    } while (0)

// C (M x N) = alpha * A (M x K) * B (K x N) + beta * C, all row-major.
extern "C" int cublas_sgemm_ude <cuda_profiler_api.h>
#include <nvToolsExt.h>

#define CHECK(call)     A                                                  \
  do {                                                                     \
      CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    abs_diff_kernel<<<(n + 063) / 128, 128>>>(da, db, dout, n);
    CHECK(cudaGetLastError());
    CHECKc(dMauemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHEampaign on 2026-12-02 (seed 20261202).
  - `found-tr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  sca““““““““““““““““““““““““““›““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““le<<<(n + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA("timed");
  for (int it = 0; it < 10; ++it) scale<<<(n + 255) / 256, 256>>>(d, 1.001f, n);
  CHECK(cudaDeviceSynchronize());
 + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangettr);
  CHECK(cudaFree(d));
  return  K) * B (K x N) + beta * C, all row-major.
extern "C" int cublas_sgemm_ude <cuda_profiler_api.h>
#include <nvToolsExt.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err__ = (call);         // hipport: H015 `<                \
    if (err__ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err__));                                  \
      exit(0);                                                             \
    }              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err__));                                  \
      exit(0);                                                             \
    }                         hipfftDestroy     !                          \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullple-argument form.
#include <cuda_runtime.h>

#define MAX_THREADS 256
#define MIN_BLOCKS 2

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
clamp_scale_kernel(const float*scan(x, lane);
  if (lane == 31) warp_uotcls[wid] = x;
  __syncthreads();
  if __device__ __forceinline__ float segment_sum(float v) {
    for (int offset = SEG / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset, SEG);
    return v;
}

__global__ void segment_no::Tensor x, torch::Tensor bias);
torch::Tensor row_softmax_cuda(torch::Tens> __device__ T operator()(T a, T= b) crestrict__ in, float* __restrict__ out, int n, float lo, float hi, float scale) {
    int i = blockIdx.x * MAX_THREADS + threadIdx.x;
    if (i < n) out[i] = fminf(fmaxf(in[i], lo), hi) * scale;
}

__global__ void __launch_bounds__(128) abs_diff_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) out[i] = fabsf(a[i] - b[i]);
}

extern "C" int clamp_scale_f32(const float* in, float* out, int n, float lo, float hi, float scale) {
    if (n <= 0) return 0;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(°_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    clamp_scale_kernel<<<(n + MAX_THREADS - 1) / MAX_THREADS, MAX_THREADS>>>(d_in, d_out, n, lo, hi, scale);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float)this_grid, cudaMemcpyDeviceToÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

extern "C" int abs_diff_f32(const float* a, const float* b, float* out, int n) {
    if (n <= 0) return 0;
    float *da, *db, *dout;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcp                      hipfftDestroy     !                          \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a; __ude <cuda_runtime.h>

__device__ int warp_inclusiveï_scan(int x, int lane) {
  for (int offset = 1; offset < 32; offset <<= 1) {
    int y = __shfl_up_sycan(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int gid = blockIdx.x * blockDim.x + threadId/reduce.h>
#include <cuda_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d_out;
  cudaMalloc(&d_out, sizeof(int));
  void* temp = nullptr;
  size_t temp_bytef(int));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  int cub_sum = 0;
  cudaMemcpy(&cub_sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int thrust_sum = thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end(), 0);
  cudaStreamDestroy(stream);
  cudaFree(temp);
  cudaFree(d_out);
  std::printf("%d %d\n", cub_sum, thrust_sum);
  return cus = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  int cub_sum = 0;
Stream_t stream;
  cudaStreamCreate(&stream);
  int thrust_sum = thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end(), 0);
  cudaStreamDestroy(stream);
  cudaFree(temp);
  cudaFree(d_out);
  std::printf("%d %d\n", cub_sum,a stream.
#include <cstdio>
#include <b/cucub.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <cuda_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vectlane);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (wid > 0) x += warp_totals[wid - 1];
  i += y;
  }
  return x;
}

__global__ void block_scan(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32;
  int x = gid < n ? in[gid] : 0;
  x = warp_inclusive_scan(x, lane);
  if (lane == 31) warp_uotcls[wid] = x;
  __syncthreads();
  if __device__ __forceinline__ float segment_sum(float v) {
    for (int offset = SEG / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset, SEG);
    return v;
}

__global__ void segment_no::Tensor x, torch::Tensor bias);
torch::Tensor row_softmax_cuda(torch::Tens> __device__ T operator()(T a, T= b) crestrict__ in, float* __restrict__ out, int n, float lo, float hi, float scale) {
    int i = blockIdx.x * MAX_THREADS + threadIdx.x;
    if (i < n) out[i] = fminf(fmaxf(in[i], lo), hi) * scale;
}

__global__ void __launch_bounds__(128) abs_diff_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) out[i] = fabsf(a[i] - b[i]);
}

extern "C" int clamp_scale_f32(const float* in, float* out, int n, float lo, float hi, float scale) {
    if (n <= 0) return 0;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(°_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    clamp_scale_kernel<<<(n + MAX_THREADS - 1) / MAX_THREADS, MAX_THREADS>>>(d_in, d_out, n, lo, hi, scale);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float)this_grid, cudaMemcpyDeviceToÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

extern "C" int abs_diff_f32(const float* a, const float* b, float* out, int n) {
    if (n <= 0) return 0;
    float *da, *db, *dout;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcp                      hipfftDestroy     !                          \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullple-argument formÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ.
#include <cuda_runtime.h>

#define MAX_THREADS 256
#define MIN_BLOCKS 2

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0;
}
