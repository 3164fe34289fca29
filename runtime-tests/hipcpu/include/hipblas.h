// hipcpu: the pre-5.2 top-level spelling of hipblas/hipblas.h.
#pragma once
#include "hipblas/hipblas.h"
