// hipcpu: cooperative groups (block and tiles).
#pragma once
#include "hip_runtime.h"
#include "../hipcpu/cooperative_groups.h"
