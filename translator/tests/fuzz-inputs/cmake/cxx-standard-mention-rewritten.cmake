# Found by the campaign of 2026-12-05 late morning (seed 1796462027808731723), minimised: the
# only mention of the C++ standard variable was inside a flag the conversion replaces, so the
# first run kept CMAKE_CUDA_STANDARD (the file "sets its C++ standard") and the next renamed
# it. The C++ name is now looked for in the file as converted.
t(-arch=sm_CMAKE_CXX_STANDARD)t(CMAKE_CUDA_STANDARD)
