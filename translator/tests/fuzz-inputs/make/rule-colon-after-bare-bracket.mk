# Found by the campaign of seed 1796477525151265654 (make only, `make reads the input, not the
# output`), minimised: a bracket outside a reference is a character to make, so the next line
# is a rule whose colon follows a bare `(`. Read as no rule, its tab line was no recipe but a
# `define`, and `-rdc=` (the variable `-rdc` set) was dropped as a macro's flag: a missing
# separator. The rule's colon is found as make finds it (`make::rule_colon`).
line (`-rdc= g++ .o`, the variable: no macro
	define RULE

-rdc= g++ .o
