# Found by the campaign of 2026-12-05 (seed 101), minimised: a property's target word was
# mapped as a flag (-Xcompiler=sm_0 to sm_0), which names a target only to the next run, which
# gave it -fgpu-rdc options. A property's target words are names, never mapped as flags.
set_property(TARGET -Xcompiler=sm_0 PROPERTY CUDA_SEPARABLE_COMPILATION ON)
