# Campaign find of 2026-12-06 (buildfix12): a line started by nvcc, hipcc after the first run,
# must be read as nvcc's list by the second run too (it unwrapped `-Xcompiler -t`).
nvcc NVCC= -Xcompiler -t -Xcompiler -dc
p:
