// Cooperative groups: block and tile groups.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {

constexpr int C = 8;

__global__ void coop_kernel(unsigned long long* out) {
    cg::thread_block block = cg::this_thread_block();
    const unsigned t = block.thread_rank();
    auto put = [&](int k, unsigned long long v) { out[k * 128 + t] = v; };
    auto tile16 = cg::tiled_partition<16>(block);
    auto tile32 = cg::tiled_partition<32>(block);
    int v16 = static_cast<int>(t), v32 = static_cast<int>(t);
    for (unsigned off = 8; off > 0; off /= 2) v16 += tile16.shfl_down(v16, off);
    for (unsigned off = 16; off > 0; off /= 2) v32 += tile32.shfl_xor(v32, off);
    put(0, tile16.shfl(v16, 0));  // every rank gets its tile's sum
    put(1, v32);
    put(2, tile16.ballot(t % 2 == 0));
    put(3, tile16.meta_group_rank() * 100 + tile16.thread_rank());
    put(4, block.size());
    put(5, tile32.any(t == 70) * 10 + tile32.all(t >= 64));
    tile16.sync();
    cg::sync(block);
    put(6, tile32.shfl_up(static_cast<int>(t) * 10, 1));
    put(7, block.thread_index().y);
}

}  // namespace

int case_coop() {
    unsigned long long* out;
    hipMalloc(&out, sizeof(unsigned long long) * 128 * C);
    hipLaunchKernelGGL(coop_kernel, 1, dim3(64, 2), 0, 0, out);
    auto at = [&](int k, int t) { return out[k * 128 + t]; };
    printf("tile16_sum.0=%llu\ntile16_sum.53=%llu\ntile32_sum.70=%llu\n", at(0, 0), at(0, 53), at(1, 70));
    printf("tile16_ballot.20=%#llx\ntile16_rank.50=%llu\nblock_size=%llu\n", at(2, 20), at(3, 50), at(4, 0));
    printf("tile32_any_all.64=%llu\ntile32_any_all.0=%llu\n", at(5, 64), at(5, 0));
    printf("tile32_up.32=%llu\ntile32_up.33=%llu\nthread_y.69=%llu\n", at(6, 32), at(6, 33), at(7, 69));
    hipFree(out);
    return 0;
}
