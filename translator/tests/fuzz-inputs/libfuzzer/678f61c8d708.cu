#define L(k, ...) k<<<1, 1>f
#def_8:d;
