# Found by the campaign (seed 2): the language block after a last project() with no newline and
# the epilogue were two insertions at the end of the file, which clash: the epilogue came on the
# next run. They go together.
add_executable(a kernel.cu)
project(CUDA)