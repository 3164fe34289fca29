// Gr// Benchmark driver that limits profiling to the timedlude <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cuda/barrier>

#define CHECK(call)                                                        \
  do {                                                  id-wide barrier with a proper cooperative  cooperative launch.
#include =====================<cuda_runtime.h>
#incl)
sgcuda