# A replaced word that ends in closers it does not open (`-Xcompiler=-O2)` in an `$(eval`)
# keeps one copy of them: the replacement carried them and they stayed after the word too
# (`-O2))`).
Y += $(eval Z += -Xcompiler=-O2)
k:
	@echo $(Y)
