# Found by the seeded run (seed 0x5eed): the file ends inside a command (here an unclosed
# parenthesis), which CMake cannot read. The HIP epilogue appended behind it became arguments of
# that command, and the next run rewrote its COMPILE_LANGUAGE:CUDA. Nothing is appended (B008).
project(p LANGUAGES CXX CUDA)
add_library(k STATIC kernel.cu)
set_source_files_properties(a.cpp
