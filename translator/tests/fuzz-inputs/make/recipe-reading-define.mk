# A tab line after a rule is a recipe line, even one that reads `define`: no macro starts there,
# so the next line (`-rdc= g++ .o`, the variable `-rdc` set) keeps its name.
p:
	define RULE
-rdc= g++ .o
