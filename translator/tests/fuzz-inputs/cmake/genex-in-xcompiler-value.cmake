# Found by the campaign of 2026-12-05 late morning (seed 1796462027808731723), minimised: a
# generator expression as the -Xcompiler value inside another one's value was cut at its comma
# and joined with `;`, and the -G it guards was mapped only by the next run. A nested generator
# expression is a word the outer value's flags do not rewrite; its own test maps it.
s($<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler $<$<AND:$<COMPILE_LANGUAGE:CUDA>,>:-G>>)
s($<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler $<$<AND:$<COMPILE_LANGUAGE:CUDA>>:-G>"">)
