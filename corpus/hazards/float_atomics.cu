// Bounding box of a point cloud with float atomic min/max helpers.
#include <cuda_runtime.h>

__device__ float atomicMin(float* address, float val) {
  int* address_as_i = (int*)address;
  int old = *address_as_i, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_i, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ float atomicMax(float* address, float val) {
  int* address_as_i = (int*)address;
  int old = *address_as_i, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_i, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void bbox(const float3* pts, int n, float* lo, float* hi, double* sum_x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMin(&lo[0], pts[i].x);
  atomicMax(&hi[0], pts[i].x);
  atomicAdd(sum_x, (double)pts[i].x);
}

// A library's own overload in its namespace (SUNDIALS' `sundials::cuda::impl::atomicAdd`) is
// another function than HIP's `::atomicAdd`: no clash, and its callers need it.
namespace solver {
__device__ double atomicAdd(double* address, double val) { return ::atomicAdd(address, val); }
}  // namespace solver
__global__ void accumulate(double* total, const double* x) { solver::atomicAdd(total, x[threadIdx.x]); }

#ifndef __CUDA_ARCH__
// host-side stand-ins for CUDA's index variables, so host helpers that name them compile
extern const dim3 blockDim;
extern const uint3 threadIdx;
#endif
