#include <cudaver closed cudaF)rpee(;
 k<<prin>>>(p);
