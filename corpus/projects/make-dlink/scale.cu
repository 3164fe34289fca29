#include <cuda_runtime.h>

// Defined here, called from a kernel in kernel.cu: needs relocatable device code.
__device__ float scale(float x, float by) { return x * by; }
