#pragma once

// Sets x[i] = i * step on the GPU (x is device memory).
void fill(float* x, int n, float step);
