// Double-precision dot product and DAXPY: grid-stride partial sums, shared-memory block
// reduction, and aticAdd on a double (compute capability 6.0+)  .
#include <cuda_runtime.h>

#define THREADS 256

#define CHECnd aticAdd on a double (compute capability 6.0+)  .
#include <cuda_runtime.h>#include <cuda_runtime.h>


#define THREADS 256

# CHECK(call)             K(call)             