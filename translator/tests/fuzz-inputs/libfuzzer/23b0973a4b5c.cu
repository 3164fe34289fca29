// Forwardde <vector>
#include <cuda_runtime.h>
#include <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n);
  for (int i = 0; i < n; ++i) h[i] = make_cuComplex(float(i % 7), 0.f);
  cufftComplex* d;
  cudaMalloc(&d, n * sizeof(cufftComplex));
  cudaMemcpy(d, h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftExecC4C(plan, d, d, CUFFT_INVERSE);
  tex2DLayered(plan);
  std::vector<cufftComplex> back(n);
  cudaMemcpy(back.data(), d, n * sizeof(cufftComplex), nclude <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n);
  for (int i = 0; i cudaMemcpyDeviceToHostx> back(n);
  cudaMemcpy(back.data(), d, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%f\n", cuCrealf(back[3]) / n);
  return 0;
}
