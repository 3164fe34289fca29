# Found by the campaign (seed 1): a source pattern beside a renamed source in one argument
# followed the renames only once the source was renamed, on the next run.
file(GLOB S "*.cu kernel.cu")
