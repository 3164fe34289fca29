# Found by the parse check (seed 0xfeed): a quoted part of an unquoted argument is in the argument,
# blanks and all, to CMake (-DMSG="a b"); read as several words, its flags were rewritten and the
# closing quote went with the last one, which CMake could not read.
set(CMAKE_CUDA_FLAGS src/k.cu"${CMAKE_CUDA_FLAGS} -lineinfo --expt-relaxed-constexpr -Xcompiler -Wall")
add_definitions(-DMSG="-arch=sm_80 kernel.cu")
