#pragma once
#include "../hipcpu/vector_types.h"
