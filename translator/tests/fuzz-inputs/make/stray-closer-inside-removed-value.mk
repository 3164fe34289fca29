# Found by the campaign of seed 1796476343684771430 (make only, 300 s), minimised: a removed
# value with a stray closer inside it (`<)$(CXX)`, `)()`, `){}`) was read as ending in one, so
# its last closer stayed and met the `--hip-link` the link gets. Only the closers that end a
# word and close nothing in it stay.
p:
	$(NVCC) -code <)$(CXX)  -rdc=true
q:
	$(NVCC) -code )() -rdc=true
r:
	$(NVCC) -code=){} -rdc=true
