# Found by the campaign (seed 1): a form feed (here after DEFINED) ended an argument without
# being consumed, and the lexer pushed empty arguments until memory ran out. To CMake it is part
# of the argument.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTRES)
  set(CMAKE_CUDA_ARCHITECTURES 70 80)
endif()
