cuda_add_library(-Xcompiler k STATIC)
