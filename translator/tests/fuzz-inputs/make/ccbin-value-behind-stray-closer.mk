# Found by the campaign of seed 1796476343684771430 (make only), minimised: a flag value that
# opens a reference behind a stray closer (`-ccbin }$(addprefix`) or an `=` that is no
# assignment's (`-ccbin =$(addprefix`, whose call was unwrapped, so the value closed and the
# next run dropped the flag) stays with its flag (B003), and the call glued to it stays whole.
C= -ccbin =$(addprefix -Xcompiler ,$(CCFLAGS))
D= -ccbin }$(addprefix -Xcompiler ,$(CCFLAGS-dc ))
E= -ccbin )$(addprefix -Xcompiler ,$(CCFLAGS))
k:
