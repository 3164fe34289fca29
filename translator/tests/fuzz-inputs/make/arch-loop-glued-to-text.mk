# Found by the campaign of 2026-12-06 (seed 1796553276072622172, make only), minimised: a loop
# of architecture flags glued to other text became `$$--offload-arch=gfx90a`, no flag to the
# next run, which gave the command the targets. Such a loop stays whole (B009 warning).
p:
	nvcc $$$(foreach ,,-code)
q:
	nvcc x$(foreach a,$(A),-arch=sm_$(a)) q.cu
r:
	nvcc $(foreach a,$(A),-arch=sm_$(a)) r.cu
