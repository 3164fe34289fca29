# Found by the seeded run (seed 0x5eed): the file ends inside a bracket comment, which took the
# appended epilogue in; the next run appended it again. Nothing is appended (B008).
add_executable(a a.cu)
#[[ an open comment
