#pragma once
#include <cstdio>
#include <cuda_runtime.h>

// Returns 1 from the calling function when a CUDA call fails.
#define CHECK_CUDA(call)                                                     \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::printf("CUDA error: %s\n", cudaGetErrorString(err_));           \
      return 1;                                                              \
    }                                                                        \
  } while (0)
