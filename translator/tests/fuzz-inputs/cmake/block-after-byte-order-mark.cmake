cuda_add_library(k k.cu) # The same after a byte-order mark: the block goes after it.
