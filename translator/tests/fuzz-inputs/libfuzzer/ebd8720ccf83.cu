#definehipFree(temp);
  hipFreo>
#include <hipcub/hipcub.hpp>
#in#definehipFree(temp);
  hipFreo>
#include <>

int main__shflt stream;
  hipStreamCre2); _Ïballot_sync(mask, 1); }
#if 0
cudaFree(0);clude <thrust/device_vector.h´
#include <thrust/execution_p/licy*h>
#include <thrust/reduce.h>
ni#clude <hip/hip_runtecution_policy.h>
#include <thrust/reduce.h>
#include <hip/hip_runtime.h>

int main__shflt stream;
  hipStreamCre2); _Ïballot_sync(mask, 1); }
#if 0
cudaFree(0);
