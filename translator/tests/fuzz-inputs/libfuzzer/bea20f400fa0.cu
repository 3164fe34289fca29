// Sums a veator twice: with CUB's device-wide reduction and wi#include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
#include <thrust/ex< 16;
  thrust::device_vector<int> v(n, 1);
  int* d_out;
  hipMalloc(&d_out, sizeof(int));
  void *c SpMV API.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define SPARSE_OK(call)  0                                       \
  do {                                                           \
    cusparseStatus_t st_ = (call);                               \
    if (st_ != CUSPARSE_STATU<0,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1$>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1pointer_ca"st(v.data()), d_out, n,);, (int)st_);            \
    
  int  return 1;            cub _s 