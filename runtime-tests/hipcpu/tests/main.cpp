// hipcpu selftest driver: `selftest <case>` runs one case and prints `key=value` lines, which
// runtime-tests/tests/hipcpu_selftest.rs compares with values worked out by hand for the width.
#include <cstdio>
#include <cstring>

int case_warp();
int case_activemask();
int case_bits();
int case_hardcoded32();
int case_block();
int case_atomics();
int case_divergence();
int case_warp_deadlock();
int case_stack_overflow();
int case_warp_mismatch();
int case_launch_errors();
int case_api();
int case_numerics();
int case_extern_shared();
int case_coop();
int case_rand();
int case_cub();
int case_blas();
int case_texture();

int main(int argc, char** argv) {
    struct Case {
        const char* name;
        int (*run)();
    };
    static const Case cases[] = {
        {"warp", case_warp},
        {"activemask", case_activemask},
        {"bits", case_bits},
        {"hardcoded32", case_hardcoded32},
        {"block", case_block},
        {"atomics", case_atomics},
        {"divergence", case_divergence},
        {"warp_deadlock", case_warp_deadlock},
        {"stack_overflow", case_stack_overflow},
        {"warp_mismatch", case_warp_mismatch},
        {"launch_errors", case_launch_errors},
        {"api", case_api},
        {"numerics", case_numerics},
        {"extern_shared", case_extern_shared},
        {"coop", case_coop},
        {"rand", case_rand},
        {"cub", case_cub},
        {"blas", case_blas},
        {"texture", case_texture},
    };
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <case>\n", argv[0]);
        return 2;
    }
    for (const Case& c : cases)
        if (std::strcmp(c.name, argv[1]) == 0) return c.run();
    std::fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
