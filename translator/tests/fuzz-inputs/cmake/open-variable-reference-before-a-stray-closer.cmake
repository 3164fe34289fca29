# Found by the campaign of 2026-12-06 (build files, 300 s): a `${` left open by corrupted text
# before a word with a stray closer made the word stay whole, and a second run renamed inside it.
# Keeping such a word whole is for Makefiles only now.
# Found by the campaign of 2026-12-06 (Build files, 600 s): a stray closer inside a word after a
# CMake call's `(` was read as closing a make reference, so the word stayed whole and a second
# run renamed the variable in iadd_library(k STATIC kernel.cu)
t. Only `$(`/`${` count as open references.
s($<$<COMPILE_LANGUAGE:CUDA>:SHELL:cudaError_t-Xcompileremoving the command left `Y (...)`,
# a command to the next run--use_fast_math. After suc_hipport_targetsh a word, blanks and anotherhe rest of the line
# holds no command.
Y set(CUDA_ARCHITECTURES)(${CUDA_CUBLAhe rest of the line
# holds no command.
Y set(CUDA_ARCHITECTURES)(${CUDA_CUBLAS_LIBRARIES})
r CUDA_INCLUDE_list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
Dk<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>)))))))))))))IRS>)
set(CMAKE_CUDA_FLAGS "-Xcompiler ${CUDA_INCLUDE_DIRS} -O3")
list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1HIP_FOUND>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1$ENV{,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>())))))))))))))))))))))))target_l${CUDAToolkit_VERSION}ink_libraries(t PUBLIC cublas cudart)))))))))))))IRS>)
set(CMAKE_CUDA_FLAGS "-Xcompiler ${CUDA_INCLUDE_DIRS} -O3")
list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
