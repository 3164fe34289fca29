# Seed: branches the project's own HIP path guards, generator expressions around CUDA flags,
# quoted and bracket arguments, comments of both kinds.
cmake_minimum_required(VERSION 3.20)
project(R LANGUAGES CXX CUDA)
find_package(HIP)
if(HIP_FOUND)
  add_library(HipK hip/k.hip)
elseif(WITH_CUDA)
  add_library(CudaK cuda/k.cu)
  set_target_properties(CudaK PROPERTIES CUDA_ARCHITECTURES "70;75")
else()
  target_link_libraries(x cublas)
endif()
#[[ a bracket comment with CUDA::cudart and
    set(CMAKE_CUDA_ARCHITECTURES 80) ]]
add_executable(p kernel.cu ${CMAKE_CURRENT_SOURCE_DIR}/src/k.cu main.cpp)
target_compile_options(p PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>
  "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -fopenmp>"
  "$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;--expt-extended-lambda>"
  [[$<$<COMPILE_LANGUAGE:CUDA>:-arch=sm_80>]])
target_compile_definitions(p PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:ON_GPU>)
target_link_libraries(p PRIVATE CUDA::cudart CUDA::cublas cusparse m)
file(GLOB S src/*.cu)
message(STATUS "escaped \" quote; ${CUDAToolkit_VERSION} \\ end")
