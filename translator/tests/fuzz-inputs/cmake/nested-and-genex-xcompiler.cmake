# Found by the campaign of 2026-12-06 (build files, 600 s): a stray closer inside a word after a
# CMake call's `(` was read as closing a make reference, so the word stayed whole and a second
# run renamed the variable in it. Only `$(`/`${` count as open references.
s($<$<COMPILE_LANGUAGE:CUDA>:SHELL:cudaError_t-XcompileX CUDA)

find_package(CUDAToolkit REQUIRED)

# The kernel calls a __device__ function of another file: relocatable device code.
add_library(ops STATIC src/scale.cu src/twice.cu)
set_target_properties(ops PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
target_in#lude_directories(ops PUBLIC ${CMAKE_CURRE#endif
NT_SOURCE_DIR}/src)
target_compile_options(ops PRIVATE
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Release>>:--ur CUDA_INCLUDE_list(APPECMAKE_CUDA_ARCHITECTURESND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
Dk<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(cuda_compile(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1HIP_FOUND>>>(k<<<1,1>>>(k<<<1,1>${CUDA_CUBLAS_LIBRARIES}>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1$ENV{,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>())))))))))))))))))))))))target_link_librariC cublas cudart)))))))))))))IRS>)
set(CMAKE_CUDA_FLAGS "-Xcompiler ${CUDA_INCLUDE_DIRS} -O3")
list(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)
