# Found by the campaign (seed 2): words among a separable-compilation property's targets that the
# conversion rewrites (a pattern, a flag, a CUDA library) were given -fgpu-rdc options under their
# old names, then again under their new ones on the next run. Only target names get them.
add_library(k STATIC kernel.cu)
set_property(TARGET k src/*.cu -arch=sm_80 cublas ${CUDA_LIBRARIES} PROPERTY CUDA_SEPARABLE_COMPILATION ON)
