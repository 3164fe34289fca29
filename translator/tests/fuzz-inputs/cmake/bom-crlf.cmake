# Seed: CRLF line ends and a byte-order mark.
project(p LANGUAGES CXX CUDA)
add_executable(p kernel.cu)
target_link_libraries(p PRIVATE cudart)
