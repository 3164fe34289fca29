// Conservative float bounds for double-precision intervals, and fixed-point quantization of
// half activations: both rely on the rounding mode the conversion names.
#include <cuda_fp16.h>

struct Interval { float lo, hi; };

__global__ void narrow_intervals(const double* lo, const double* hi, Interval* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // The float interval must contain the double one: round the ends outward.
    out[i].lo = __double2float_rd(lo[i]);
    out[i].hi = __double2float_ru(hi[i]);
}

__global__ void quantize(const __half* act, int* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    q[i] = __half2int_rn(act[i]);
    // Bucket by floor: negative values must go down.
    q[n + i] = __half2int_rd(act[i]);
    // Truncation is what HIP does for every mode, and what _rz asks for: fine.
    q[2 * n + i] = __half2int_rz(act[i]);
}
