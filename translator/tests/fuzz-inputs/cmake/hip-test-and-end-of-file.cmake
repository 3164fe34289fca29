# Found by the campaign (seed 3): a test of the project's own HIP path with a CUDA variable in it
# was rewritten and read as a HIP test only on the next run; options inserted after a last
# command with no newline clashed with the epilogue; words before PROPERTY (PROPERTIES LANGUAGE
# CUDA) were read as property names.
if(${CUDA_CUBLAS_LIBRARIES}HIP)else()target_link_libraries(cublas)endif()
add_library(k STATIC kernel.cu)
set_property(TARGET(PROPERTIES LANGUAGE CUDA)CUDA_SEPARABLE_COMPILATION ON)
set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)