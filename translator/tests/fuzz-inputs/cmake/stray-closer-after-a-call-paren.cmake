# Found by the campaign of 2026-12-06 (build files, 600 s): a stray closer inside a word after a
# CMake call's `(` was read as closing a make reference, so the word stayed whole and a second
# run renamed the variable in it. Only `$(`/`${` count as open references.
s($<$<COMPILE_LANGUAGE:CUDA>:SHELL:cudaError_t-Xcompiler CUDA_INCLUDE_list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
Dk<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1HIP_FOUND>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1$ENV{,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>())))))))))))))))))))))))target_link_libraries(t PUBLIC cublas cudart)))))))))))))IRS>)
set(CMAKE_CUDA_FLAGS "-Xcompiler ${CUDA_INCLUDE_DIRS} -O3")
list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
