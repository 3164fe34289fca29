// ReLU over a 4-D tensor with cuDNN's activation API.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cudnn.h>

#define DNN_OK(call)                                                        \
  do {                                                                      \
    cudnnStatus_t s_ = (call);                                              \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                       \
      std::fprintf(stderr, "cudnn: %s\n", cudnnGetErrorString(s_));         \
      return 1;                                                             \
    }                                                                       \
  } while (0)

int main() {
  const int n = 1, c = 2, h = 4, w = 4, count = n * c * h * w;
  std::vector<float> x(count);
  for (int i = 0; i < count; ++i) x[i] = float(i - count / 2);
  float *dx, *dy;
  cudaMalloc(&dx, count * sizeof(float));
  cudaMalloc(&dy, count * sizeof(float));
  cudaMemcpy(dx, x.data(), count * sizeof(float), cudaMemcpyHostToDevice);
  cudnnHandle_t handle;
  DNN_OK(cudnnCreate(&handle));
  cudnnTensorDescriptor_t desc;
  DNN_OK(cudnnCreateTensorDescriptor(&desc));
  DNN_OK(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
  cudnnActivationDescriptor_t act;
  DNN_OK(cudnnCreateActivationDescriptor(&act));
  DNN_OK(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
  const float alpha = 1.f, beta = 0.f;
  DNN_OK(cudnnActivationForward(handle, act, &alpha, desc, dx, &beta, desc, dy));
  std::vector<float> y(count);
  cudaMemcpy(y.data(), dy, count * sizeof(float), cudaMemcpyDeviceToHost);
  DNN_OK(cudnnDestroyActivationDescriptor(act));
  DNN_OK(cudnnDestroyTensorDescriptor(desc));
  DNN_OK(cudnnDestroy(handle));
  cudaFree(dx);
  cudaFree(dy);
  std::printf("%f %f\n", y[0], y[count - 1]);
  return y[0] == 0.f ? 0 : 1;
}
