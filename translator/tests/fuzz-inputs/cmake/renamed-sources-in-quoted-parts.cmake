# Found by the campaign of 2026-12-05 (seed 102), minimised: an unquoted argument with a quoted
# part holds two renamed sources in one list item; only the first rename found was made (in
# the order of the renames, not of the text), the other by the next run. Every source of an
# item is renamed now, in order.
s(src/k.cu"src/k.cu")
t(src/k.cu"kernel.cu")
