#include <torch/extension.h>

torch::Tensor gelu_forward_cuda(const torch::Tensor& x);

torch::Tensor gelu_forward(const torch::Tensor& x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat, "x must be float32");
  return gelu_forward_cuda(x.contiguous());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gelu_forward", &gelu_forward, "tanh-approximated GELU (CUDA)");
}
