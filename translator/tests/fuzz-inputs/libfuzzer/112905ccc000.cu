from setup __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
  Ý     if (err_ != cudaSuccess) d block_scan(const inet = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    re.turn v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = i < n ? in[i] : 0.f;
    float s = warp_sum32(v);
    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize32_f32(const float* in, float* out, float* seg_sums, int n) {
    if (n <= 0) return 0;
    int segs = (n + WARP_SIZE - 1) / WARP_SIZE;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cu._C",
(           sources=["csrc/bindt *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    src/gelu_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": nvcc_flags + ["-Xcompiler", "-fno-strict-aliasing",
            },
            libraries=["cud/art"],
        )
    ],
    cmdclass={"build_ext": BuildExßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßÿÿÿÿßßßtension},
)
