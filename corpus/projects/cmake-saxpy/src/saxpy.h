#pragma once
#include <cstddef>

// Computes y = a * x + y on the GPU for n elements; returns 0 on success.
int saxpy_gpu(float a, const float* x, float* y, std::size_t n);
