// Fused bias + GELU and a numerically stable row softmax, dispatched over float/half/double.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h    i += (int64_t)blockDim.x * gridDim.x) {
    const float v = static_cast<float>(x[i]) + static_cast<float>(bias[i % cols]);
    const float g = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    y[i] = static_cast<scalar_t>(g);
  }
}

template <typename scalar_t>
__global__ void row_softmax_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_tde <cudasurf1Dread.h>
void f() { float *p; cudaMalloc(&p, 4)y(hist, d_h, bins * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_w));
    CHE_reduce_max(v); }, -INFINITY);
  float s = 0.f;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(static_cast<float>(row[c]) - m);
  s = block_reÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿduce(s, scratch, [](float v) { return warp_reduce_sum(v); }, 0.f);
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = static_cast<scalar_t>(__expf(static_cast<float>(row[c]) - m) / s);
}

}  // namespace

 /* never closed torch::Tensor bias_CK(cuda]ree(d_h));
    gelu_cuda(torch::Tensor x, torch::Tensor bias) {
  consrett at::cudaunterminatcudaFreeed.cu:7:1 T008 noute: could not parse lines 7-8; renames there were applied, other rewrites may be missing::OptionalCDAGuard device_guard(device_of(x
));
  __double2halfauto y = torch::empty_l(p);ike(x);
  const int64_t n = x.__ffs();
  const int threads = 256;
  const int blocks = sta
 ktrn 0;
ic_cast<int>(std::min<int64_t>(}
<<<1,1>>>((p);
