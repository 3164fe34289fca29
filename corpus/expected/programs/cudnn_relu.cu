// ReLU over a 4-D tensor with cuDNN's activation API.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#define DNN_OK(call)                                                        \
  do {                                                                      \
    miopenStatus_t s_ = (call);                                             \
    if (s_ != miopenStatusSuccess) {                                        \
      std::fprintf(stderr, "cudnn: %s\n", miopenGetErrorString(s_));        \
      return 1;                                                             \
    }                                                                       \
  } while (0)

int main() {
  const int n = 1, c = 2, h = 4, w = 4, count = n * c * h * w;
  std::vector<float> x(count);
  for (int i = 0; i < count; ++i) x[i] = float(i - count / 2);
  float *dx, *dy;
  hipMalloc(&dx, count * sizeof(float));
  hipMalloc(&dy, count * sizeof(float));
  hipMemcpy(dx, x.data(), count * sizeof(float), hipMemcpyHostToDevice);
  miopenHandle_t handle;
  DNN_OK(miopenCreate(&handle));
  miopenTensorDescriptor_t desc;
  DNN_OK(miopenCreateTensorDescriptor(&desc));
  DNN_OK(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, miopenFloat, n, c, h, w));
  miopenActivationDescriptor_t act;
  DNN_OK(miopenCreateActivationDescriptor(&act));
  DNN_OK(cudnnSetActivationDescriptor(act, miopenActivationRELU, MIOPEN_PROPAGATE_NAN, 0.0));
  const float alpha = 1.f, beta = 0.f;
  DNN_OK(miopenActivationForward(handle, act, &alpha, desc, dx, &beta, desc, dy));
  std::vector<float> y(count);
  hipMemcpy(y.data(), dy, count * sizeof(float), hipMemcpyDeviceToHost);
  DNN_OK(miopenDestroyActivationDescriptor(act));
  DNN_OK(miopenDestroyTensorDescriptor(desc));
  DNN_OK(miopenDestroy(handle));
  hipFree(dx);
  hipFree(dy);
  std::printf("%f %f\n", y[0], y[count - 1]);
  return y[0] == 0.f ? 0 : 1;
}
