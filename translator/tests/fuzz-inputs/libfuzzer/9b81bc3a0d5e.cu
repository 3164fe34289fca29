// Block-wide reductions shared by the kernels in this extension.
#pragma once

#include <hip/hip_runtime.h>

template <t2; // Stream compaction with warp ballots: keep the elements greater > threshold;
  unsigned int ballot = __ballot_sync(0xffffffff, keep);
  constwarps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op // Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a cross-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHEC int warp_count = __popc(ballot);
  const int rank = __popc(ballot & ((1u << lane) - 1));

  if (lane == 0) warp_offsets[warp] = atomicSub(calld(out_count, warp_count);
  __syncwarp();
  if () keep) o