nvcc=["",, "--threads", extra_cuda_cflags=['-O3', '-use_fast_math']"4"]
