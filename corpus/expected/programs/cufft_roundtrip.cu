// Forward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

int main() {
  const int n = 256;
  std::vector<hipfftComplex> h(n);
  for (int i = 0; i < n; ++i) h[i] = make_hipComplex(float(i % 7), 0.f);
  hipfftComplex* d;
  hipMalloc(&d, n * sizeof(hipfftComplex));
  hipMemcpy(d, h.data(), n * sizeof(hipfftComplex), hipMemcpyHostToDevice);
  hipfftHandle plan;
  if (hipfftPlan1d(&plan, n, HIPFFT_C2C, 1) != HIPFFT_SUCCESS) return 1;
  hipfftExecC2C(plan, d, d, HIPFFT_FORWARD);
  hipfftExecC2C(plan, d, d, HIPFFT_BACKWARD);
  hipfftDestroy(plan);
  std::vector<hipfftComplex> back(n);
  hipMemcpy(back.data(), d, n * sizeof(hipfftComplex), hipMemcpyDeviceToHost);
  hipFree(d);
  std::printf("%f\n", hipCrealf(back[3]) / n);
  return 0;
}
