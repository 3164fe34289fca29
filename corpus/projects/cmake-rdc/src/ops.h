#pragma once

// Scales n values by 2 * a on the GPU and returns how many results are wrong.
int scale_check(int n, float a);
