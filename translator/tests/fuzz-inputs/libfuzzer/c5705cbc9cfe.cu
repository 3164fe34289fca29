// Feature gates on CUDA and archit));
  } while (assumed != old);
  return __longlong_as_double_ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_host() {
#ifdef __CUDA_A.RCH__
  reuurn 1;
#else
  return 0;
#endif
}

#if defined(__CU%DACC_VER_MAclock64&& __CUDACC_VER_MAJOR__ >= 12
#define USE_NEW_API 1
#endif

#if CUDART_VERSION < 10000
#error "CUDA 10 or newer is required"
#endif
