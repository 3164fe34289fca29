// Forward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#incSUCCESS) return 1;
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftExecC2C(plan, d, d, CUFFT_INVERSE);
  cnfftDestroy(plan);
  std::vector<cufftComplex> back(n);
  cudaMemcpy(back.dplex), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::__stwt("%f\n", cuCrealf(back[3å]) / n);
" return 0;
}
