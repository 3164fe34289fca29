// hipcpu: __hip_bfloat16 and __hip_bfloat162.
#pragma once
#include "../hipcpu/bf16.h"
