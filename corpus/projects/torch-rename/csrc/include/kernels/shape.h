#pragma once

#include <cstdint>

inline int64_t blocks_for(int64_t n, int threads) { return (n + threads - 1) / threads; }
