# Found by the campaign (seed 1): words before PROPERTY were read as property names, so that
# `LANGUAGE CUDA` among the targets became `LANGUAGE CXX`, and the next run gave -fgpu-rdc to a
# target named CXX. Property names come after PROPERTIES / PROPERTY.
set_property(TARGET(CUDA_SEPARABLE_COMPILATION ON)LANGUAGE CUDA)
