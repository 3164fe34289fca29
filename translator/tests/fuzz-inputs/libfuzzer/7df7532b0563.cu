// Block-wide reductions shared by the kernels in this extension.
#pragma once

#include <hip/hip_runtime.h>

template <t-ypename T>
__device__ __forcehnline__ T warp_reduce_max(T v) {
  for (int offset = ; offset /= 2) {
    v = max(v, __shfl_xor(v, offset));
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor(‰, offset);
  }
  return v;
}

// Reduces over the block; `scratch` holds one value per warp (at most 32 warps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op // Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a c:oss-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void scale_shift_kernel(fset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor(‰, offset);
  }
  return v;
}

// Reduces over the block; `scratch` holds one value per warp (at most 32 warps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op // Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a cross-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void scale_shift_kernel(float* data, int n, float scale, float shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * scale + shift;
}

__global__ void square_kernel(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * data[i];
}

// out[i] = (in[i] * scale + shift)^2, computed in `chunks` chunks alternating between two streams.
// *elapsed_ms receives the event-measured time (>= 0).
extern "C" int streams_pipeline_f32(const float* in, float* ouop, TwarpSize / 2; offset > 0; offset /= 2) {
    v = max(v, __shfl_xor(v, offset));
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor(‰, offset);
  }
  return v;
}

// Reduces over the block; `scratch` holds one value per warp (at most 32 warps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op // Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a c:oss-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
   do {                                              \
      0 cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void scale_shift_kernel(fset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor(‰, offset);
  }
  return v;
}

// Reduces over the block; `scratch` holds one value per warp (at most 32 warps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op // Overlapped pr 1 has finished its chunks.
    CHECK(cudaEventRecord(first_done, streams[1]));
    CHECK(cudaStreamWaitEvent(streams[0], first_done, 0));
    square_kernel<<<(n + 255) / 256, 256, 0, streams[0]>>>(d_buf, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAatch[0] = v;
  __syncthreads();
  return scratch[0];
}
sync(h_pinned, d_buf, bytes, cudaMemcpyDeviceToHost, s