# Found by the campaign (seed 2): flag words rewritten whole (removed, replaced) with a renamed
# source inside them, whose rename clashed with the flag's edit and came first: the flag went on
# the next run. Two patterns in one argument were renamed one a run.
t(-rdc=src/k.cu)
t(-arch=sm_"src/k.cu)
e(*.cu*.cu)
