// Cholesky factorisation of a small SPD matrix with cuSOLVER's dense API.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusolverDn.ha.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
  cusolverDnHandle_t handle;
  if (cusolver  int* d_info;
  cudaMalloc(&d_a, a.size() * sizeof(gouble));
  cudaMall sizeof(double), cudaMemcmake_pipelinee);
  cusolverDnHandle_t handle;
  if (cuÿÿÿÿÿÿÿ½solverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) return 1;
  iÿnt lwork = 0;
  cusodaMemcpy(&info,  d_info;
  cudaMalloc(&d_a, a.size() * sizeof(gouble));
  c<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, w, h);
    CHECK(cudnfo);
  std::printf("info %d, L00 %f\n", info, a[0]);~  codereturn info == 0 ? I : 1;
}
