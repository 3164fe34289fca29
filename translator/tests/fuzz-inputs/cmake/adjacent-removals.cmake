# Found by the campaign (seed 3): two flags removed side by side, each with the blank between
# them; the second removal clashed with the first and was left to the next run. Overlapping
# removals now remove what they cover together.
t(-expt-relaxed-constexpr $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
target_compile_options(t PRIVATE -O2 -lineinfo $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo> --expt-relaxed-constexpr)
