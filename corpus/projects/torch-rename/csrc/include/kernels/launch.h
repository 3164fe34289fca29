#pragma once

#include <cuda_runtime.h>

// Threads per block for the element-wise kernels.
constexpr int kThreads = 256;

inline void check_launch() {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        throw std::runtime_error(cudaGetErrorString(err));
    }
}
