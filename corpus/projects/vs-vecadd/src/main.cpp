#include <cstdio>

int run_vecadd();

int main() { return run_vecadd(); }
