cuda_add_executable(app main.cu) # Found by the campaign of seed 1796475070484616096 (2026-12-05):
# with no project() or find_package(CUDA) to replace, the find_package(hip) block went to the
# start of the file with its newline before it, not after, and met the first command
# (`link_libraries(hip::device)add_executable(`), which CMake does not read. A line of its own now.
