# Found by the campaign of 2026-12-05 (seed 101), minimised: a word that is no command (`Y`,
# which CMake cannot read) before a command on its line; removing the command left `Y (...)`,
# a command to the next run. The rest of a line after such a word holds no command.
Y set(CUDA_ARCHITECTURES)(${CUDA_CUBLAS_LIBRARIES})
