// hipcpu: HIP version macros (hipcpu models the HIP 6.2 interface).
#pragma once
#include "../hipcpu/common.h"
