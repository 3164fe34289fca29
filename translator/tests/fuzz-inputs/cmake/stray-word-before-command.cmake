# Found by the campaign of 2026-12-05 (seed 101), minimised: a word that is no command (`Y`,
# which CMake cannot read) before a command on its line; removing the command left `Y (...)`,
# a command to the next run. After such a word, blanks and another word, the rest of the line
# holds no command.
Y set(CUDA_ARCHITECTURES)(${CUDA_CUBLAS_LIBRARIES})
