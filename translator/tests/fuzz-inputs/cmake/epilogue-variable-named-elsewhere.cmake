# Found by the campaign (seed 1): the epilogue counted as there when the file named one of its
# variables anywhere, here in a find_package(CUDA) that the conversion replaces, so it came only
# on the next run. Two renamed sources in one argument, the second listed first in the renames.
find_package(CUDA _hipport_targets)cuda_add_executable(.cu)
s("src/k.cu kernel.cu")
