# Found by the campaign of 2026-12-05 late morning (seed 1796462027808731723), minimised: a flag
# word with a quoted part (an unquoted argument `-Xcompiler=m" "-x`) was unwrapped to a word with
# one quote, so the next run read the quoted text after it as commands; the renamed source or
# mapped variable in such a value was lost with the word. The list is now left as it is (B003).
e(-Xcompiler=m" "-extended-lambda ")set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)")
e(-Xcompiler=c" "-extended-lambda ")cuda_add_executable()")
e(-Xcompiler=c" "-extended-lambda)${CUDA_CUBLAS_LIBRARIES}")
y(-Xcompiler W" " ")y(" -lineinfo")")
t(-Xcompiler l" "src/k.cu)
t(-Xcompiler l" ${CUDA_CUBLAS_LIBRARIES}"r)
