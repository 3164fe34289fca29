# Found by the campaign (seed 4): a renamed source named among a separable-compilation property's
# targets was given -fgpu-rdc options under its old name, then under its new one on the next run.
set_target_properties((kernel.cu)(PROPERTIES)CUDA_SEPARABLE_COMPILATION ON)
set_property(TARGET(kernel.cu)(())PROPERTY CUDA_SEPARABLE_COMPILATION ON)
