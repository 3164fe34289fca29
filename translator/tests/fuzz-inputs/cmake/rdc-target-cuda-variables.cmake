# Found by the campaign (seed 4): words among a separable-compilation property's targets that hold
# CUDA variables the conversion rewrites (nested references, CMAKE_CUDA_*) were given -fgpu-rdc
# options under their old names, then under their new ones on the next run.
set_property(TARGET ${${CUDA_curand_LIBRARY}} PROPERTY CUDA_SEPARABLE_COMPILATION ON)
set_property(TARGET()CMAKE_CUDA_STANDARD PROPERTY CUDA_SEPARABLE_COMPILATION ON)
set_property(TARGET cublas${CUDA_INCLUDE_DIRS} PROPERTY CUDA_SEPARABLE_COMPILATION ON)
