# Found by the campaign of seed 1796479002583085703 (make only, 300 s), minimised: `-rdc`
# took `g$(addprefix` as its value and both were dropped, leaving `-Xcompiler ,$(CCFLA))`, which
# the next run unwrapped. Any flag whose value word opens a reference that closes after a blank
# stays, with a B003 warning (the `-ccbin` case of ccbin-value-opens-reference.mk, for all).
A := -rdc g$(addprefix -Xcompiler ,$(CCFLA))
k:
