// hipcpu: __half and __half2.
#pragma once
#include "../hipcpu/fp16.h"
