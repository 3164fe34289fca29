# Found by the campaign of 2026-12-05 (seed 102), minimised: a reference that does not close on
# its line (make reads it to the first closer it finds, that of $(CUDA_PATH)) had its
# $(CUDA_PATH)/bin/nvcc rewritten to hipcc, which took that closer away: make stopped with
# "unterminated variable reference". Words from such an opening on are left as they are.
run:
	./$(TARGNVCC      ?= $(CUDA_PATH)/bin/nvcc
