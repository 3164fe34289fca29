# Found by the campaign of 2026-12-05 late morning (seed 1796462027808731723), minimised: an
# unquoted argument with a quoted part holding a CUDA language test was quoted whole (its -arch
# became several flags), which moved where the command ended: the next run read the quoted
# text as a command. Such an argument is left as it is.
d(>"$<$<COMPILE_LANGUAGE:CUDA>:-arch=sm_>)target_link_libraries(cusparse ")
