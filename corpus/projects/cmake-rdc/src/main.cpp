#include <cstdio>

#include "ops.h"

int main() {
  const int n = 1 << 20;
  int wrong = scale_check(n, 3.0f);
  std::printf("rdc: %d of %d wrong\n", wrong, n);
  return wrong != 0;
}
