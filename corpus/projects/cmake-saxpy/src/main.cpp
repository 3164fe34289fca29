#include <cmath>
#include <cstdio>
#include <vector>

#include "saxpy.h"

int main() {
  const std::size_t n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 100);
    y[i] = 1.0f;
  }
  if (saxpy_gpu(2.0f, x.data(), y.data(), n) != 0) {
    return 1;
  }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float want = 2.0f * static_cast<float>(i % 100) + 1.0f;
    if (std::fabs(y[i] - want) > 1e-5f) {
      ++bad;
    }
  }
  std::printf("saxpy: %zu of %zu wrong\n", bad, n);
  return bad == 0 ? 0 : 1;
}
