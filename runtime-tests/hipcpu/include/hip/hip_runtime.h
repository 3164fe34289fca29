// hipcpu: HIP runtime for the host; kernels run as fibers at HIPCPU_WARP_SIZE lanes per warp.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "../hipcpu/api.h"
#include "../hipcpu/device.h"
#include "../hipcpu/texture.h"

// `__noinline__` is also an attribute spelling used inside libstdc++ headers, so it is defined
// last, after the standard headers that use it have been seen.
#include <functional>
#include <memory>
#include <string>
#include <vector>
#ifndef __noinline__
#define __noinline__ __attribute__((noinline))
#endif
