# Found by the campaign of 2026-12-05 late morning (seed 1796462027808731723), minimised: the
# -Xcompiler value (a FindCUDA library variable, a CUDA:: target) was mapped before the flag
# word that holds it was unwrapped, which dropped the mapping; the next run made it. The value
# now keeps what was rewritten in it, in the nvcc flag variables too.
list(D CUDA_NVCC_FLAGS "-Xcompiler=${CUDA_LIBRARIES}")
list(A CUDA_NVCC_FLAGS "-Xcompiler=CUDA::cufft")
set(CMAKE_CUDA_FLAGS "-Xcompiler=${CUDA_CUBLAS_LIBRARIES},-Wall")
