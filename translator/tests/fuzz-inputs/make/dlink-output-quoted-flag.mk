# Found by the campaign of 2026-12-05 (seed 104), minimised: a device link whose output is an
# unclosed quote holding a flag was stubbed with that output kept; the next run read the flag
# among the stub's compile flags (a relocatable compile of dlink.o) and rewrote the link of
# dlink.o. An output with a flag behind a quote or a blank leaves the command whole (B013).
:dlink.o
	$(CXX) $^
dlink.o:
	nvcc -dlink -o "--relocatable-device-code=true

:b.o
	$(CXX) $^
b.o:
	nvcc -dlink -o " --relocatable-device-code=true
	-dc
