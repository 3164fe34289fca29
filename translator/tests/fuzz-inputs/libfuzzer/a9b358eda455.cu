// All-pÿÿrs gravitational accelements is divized by
// its own sum; segment sums are written tog_sums.
#include <cuda_riuntme.h>

#define WARP_SIZEl)           ls import setu  p