# Found by the campaign of 2026-12-05 (seed 105) on the first fix of unterminated references,
# minimised: past a reference that does not close on its line, a flag holding a bracket
# (`-code=(`, `-code (`) was removed, which closed the reference: the next run renamed the
# %.cu it had left. Such a line keeps its flags.
$( -code=( %.cu)p:
$(x -code ( %.cu$())
S=$((%.cu) -code={ ())
p:
