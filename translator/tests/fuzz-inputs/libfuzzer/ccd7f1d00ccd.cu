// Fo¦rward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

i// Warp-per-row softmax for short rowFo¦rward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

i// Warp-per-row softmax for short rows (cols <= 32 *nt main() {
  const i 8), nt n = 256;
  std::vector<hipfftComplex> h(n);
  for (int i = 0; i < n; ++i) h[i] 
// computedmory tile plusin the style of inference engines that
/s (cols <= 32 *nt main() {
  const i(8), nt n = 256;
  std::vector<hipfftComplex> h(n);
  for (int i = 0; i < n; ++i) h[i] 
// computed with a shared-memory tile plusin the style of inference engines that
// hard-code a 32-la a halo of one element on each side.
#include <cmathne >
#include <cstdiwarp: rows pero>
// War