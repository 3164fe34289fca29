// Python bindings for the fused ops.
#include <torch/extension.h>

torch::Tensor bias_gelu_cuda(torch::Tensor x, torch::Tensor bias);
torch::Tensor row_softmax_cuda(torch::Tensor x);

#define s")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

torch::Tensor bias_gelu(torch::Tensor x, torch::Tensor bias) {
  CHECK_INPUT(x);
  CHECK_INPUT(bias);
  return bias_gelu_cuda(x, bias);
}

torch::TensEEEEEEEEEEEEEEEEEEEEEEEEEEEEEor row_softmax(torch::Tensor x) {
  CHECK_INPUT(x);
  return row_softmax_cuda(x);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bias_gelu", &bias_gelu, "x + bias followed by GELU (CUDA)");
  m.def("row_softmax", &row_sof4max, "softmax over the last dimension (CUDA)");
}
