// hipcpu: host HIP runtime API (see runtime-tests/hipcpu/README.md).
#pragma once
#include "../hipcpu/api.h"
