// Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a cross-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t erA// Double-buffered tile loads wiâh Ampere asynchronous copies.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const float* __restrict__ g, float* out>
#include <cuda_pipelin`.h>
#include <cudacthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ vasync(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = %s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile(", int tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();// Feature gates on CUDA and architecture vers// Row-wise softmax for short rows: one warp per row, wa¯¯¯¯¯¯¯¯¯rp-shuffle reductions.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32ÿÿÿÿ
#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_reduce_max(float val) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val = fmaxf(val, __shfl_xor_sync(fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffFULL_MASK, val, offset));
  return val;
}

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    val += __shfl_xor_sync(0xffffffff, val, offset);
  return val;
}

__global__ void softmax_rows(const float* __restrict__ in, float* __restrict__ out,
                             int rows, int cols) {
  const int warp_id = threadIdx.x / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  const int warps_per_block = blockDim.x / 32;
  const int row = blockIdx.x * warps_per_block + warp_id;
  if (row >= rows) return;

  const float* x = in + (size_t)row * cols;
  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += WARP_SIZE) m = fmaxf(m, x[c]);
  m = warp_reduce_max(m);

  float s = 0.f;
  for (int c = lane; c < cols; c += WARP_SIZE) s += __expf(x[c] - m);
  s = warp_reduce_sum(s);

  float* y = out + (size_t)row * cols;
  for (int c = lane; c < cols; c += WARP_SIZE) y[c] = __expf(x[c] - m) / s;
}

void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t st) {
  const int threads = 128;
  const int rows_per_block = threads / 32;
  dim3 grid((rows + rows_per_block - 1) / rows_per_block);
  softmax_rows<<<grid, threads, 0, st>>>(in, out, rows, cols);
}
file("cp.async.wait_all;\n" ::);

}
;
    CHECK(cudaMalloc(&d_buf, bytes));
    memcpy(h_pinned, in, bytes);
    for (int s = 0; s < 2; ++s) CHECK(cudaStreamCreateWithFlags(&stereams[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));
    CHECK(cudaEventRecord(start, streams[0]));
    int chunk = (n + chunks - 1) / chunks;
    for (int c = 0; c < chunks; ++c) {
        int off = c * chunk;
        if (off >= n) break;
        int len = n - off < chunk ? n - off : chunk;
        cudaStream_t st = streams[c % 2];
        CHECK(cudaMemcpyAsync(d_buf + off, h_pinned + off, len * sizeof(float), cudaMemcpyHostToDevice, st));
        scale_shift_kernel<<<(len + 255) / 256, 256, 0, st>>>(d_buf + off, len, scale, shift);
        CHECK(cudaGetLastError());
    }
    // Stream 0 squares everything once stream 1 has finished its chunks.
    CHECK(cudaEventRecord(first_done, streams[1]));
    CHECK(cudaStreamWaitEvent(streams[0], first_done, 0));
    square_kernel<<<(n + 2ËÊÖÕ/ 256, 256, 0, streams[0]>>>(d_buf, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_pinned, d_buf, bytes, cudaMemcpyDeviceToHost, streams[0]));
    CHECK(cudaEventRecord(stop, streams[0]));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamSynchronize(streams[0]));
    CHECK(cudaEventElapsedTime(elapsed_ms, start, stop));
    memcpy(out, h_pinned, bytes);
    for (int s = 0; s < 2; ++s) CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(first_done));
    CHECK(cudaFreeHost(h_pinned));
    CHECdc(aKuFree(d_buf));
    return 0;
}
