//! The hazard catalogue: one [`DiagInfo`] per rule, with its `hipport explain` page.
//!
//! IDs are stable: a rule that is retired keeps its number, and new rules take the next one.

use crate::diag::{DiagInfo, Severity};

/// H001: code that assumes a warp has 32 lanes.
pub const WARP_SIZE_32: DiagInfo = DiagInfo {
    id: "H001",
    name: "warp-size-32",
    severity: Severity::Error,
    summary: "A hard-coded warp size of 32 in lane or warp arithmetic",
    explain: "\
CUDA warps have 32 lanes. AMD wavefronts have 64 lanes on GCN and CDNA GPUs (gfx9: MI50/MI60, \
MI100, MI200 series, MI300 series) and 32 lanes on RDNA GPUs (gfx10, gfx11, gfx12: Radeon RX and \
Radeon PRO cards), where HIP does not support wave64. Code that writes the warp size as the number \
32 (or derives it: 31 as a lane mask, 0x1f, a shift by 5, a reduction loop that starts at offset 16, \
a per-warp array of 32 entries, blockDim.x / 32 as the number of warps) compiles on AMD but computes \
lane and warp indices for the wrong width on 64-lane GPUs: reductions silently cover half a \
wavefront, warp IDs collide, and lanes 32-63 read the wrong data.

hipport reports the literal when it appears in arithmetic with threadIdx, blockDim, or a variable \
whose name says it holds a lane or warp index (lane, laneId, warp_id; short names such as wid are \
not recognized), in `#define WARP_SIZE 32` and similar constants (also inside macro bodies), in \
shuffle loops that start at 16 or stop at 32 (a literal, or a constant of the file whatever \
its name: `o < SEG` with `#define SEG 32`), in shuffles at distance 16 or from lane 31, and in \
shared arrays of 32 entries indexed by lane or warp. An absolute-lane shuffle with no width (`__shfl`, \
`__shfl_sync`) whose source lane is a 32-lane index moved by a step (`tgx ^ k`, `tgx + k`, with \
`tgx = threadIdx.x & 31` or `% 32`) is an error, and a warning where the mask is read at run time \
and named for a warp or lane (`threadIdx.x & cData.warpmask`): HIP's source lane is a lane of the \
whole wavefront, so lanes 32-63 read lanes 0-31; `__shfl_xor(v, k)` or a width of 32 keeps each \
32-lane segment to itself. A broadcast with no width (`v = __shfl_sync(mask, v, 0)`) of the \
result of a device function whose xor shuffles combine 32 lanes (a tree from `WARP_SIZE / 2`, \
32) is an error in one-dimensional blocks wider than 32: each 32-lane half holds its own \
result, and lanes 32-63 read lanes 0-31's; `--fix` gives it width 32, as CUDA's. \
A shuffle loop from 16 (or bounded by 32) that only the \
block's first 32 threads run (inside `if (threadIdx.x < 32)`, or after `if (tid >= 32) \
return;`) is not reported: all its lanes take part on any wavefront size, and starting it at \
`warpSize / 2` would read lanes 32-63, which do not run it. A warp-size constant of 32 that also \
offsets a subscript in its scope (`s[k + warp_size]`) lays out data and is a note; a template's \
default that the template never reads is not reported. Likewise a `threadIdx.x < 32` guard whose branch only \
moves data (it calls nothing but atomics), and a 32-entry shared array indexed by the thread only \
in code the first 32 threads run: 32 values for 32 threads, on any wavefront size. Plain thread-index arithmetic (`tid >> 5`, \
`tid & 31`) is an error only in functions that do warp-level work (shuffles, votes, warpSize, \
lane or warp variables); elsewhere it is more often a bitmap of 32-bit words and is reported as a \
warning. Where such a lane or warp index is stored in a variable (`warp_id = tid / 32`, \
`lane_id = tid % 32`, or a count of such groups, `(blockDim.x + 31) / 32`, in a function \
without any warp-level work) that hands out a loop's share of the work (it is in the header of \
a `for`: `for (int row = warp_id; row < n; row += groups)`) and feeds no warp-level work in its \
function (no statement that names \
it, or a variable set from it, also names a shuffle, vote, warp barrier or a function or macro \
doing one, or reads a value one produced, directly or through a variable set from it such as \
`count = __popc(ballot)`, and it is not passed to a function defined elsewhere), it is a note \
whatever the variable is called: a split of the block's threads into groups of 32 (a strided \
load into shared memory before a barrier) is right on 64-lane wavefronts, and `warpSize` on one \
of its lines alone (the lane and the strides left at 32) would leave work undone; the help says \
to change the split as a whole or not at all. A 32 in unrelated arithmetic (a tile size, blockDim.x * 32, 32.0f) is not reported. \
A warp count such as `kThreads / 32` is reported where it initializes a warp-named variable \
or bounds a `for` loop in a function that numbers its warps by `warpSize`: on 64-lane \
wavefronts a loop over it reads per-warp entries no warp wrote. \
The shuffle findings are dropped in device functions that only kernels this file launches with \
blocks 32 threads wide reach (`<<<g, 32>>>`, `dim3(32, 8)`): there the 32 is the block's width, \
and a row that shares a 64-lane wavefront with another is H048's concern. What remains of H001 \
there (a lane index taken `& 31` beside a vote) is a note: a 64-lane wavefront then holds 32 \
threads, in lanes 0-31, so the index is the lane and the vote's bits 32-63 are 0. A shuffle whose width \
is read at run time counts as one with a width of 32 in two cases: in functions that only blocks \
32 threads wide reach (CUDA allows a width of at most 32, so each group of `width` lanes lies \
inside one 32-thread row), and where the width is a kernel parameter that every launch in the \
file passes as 32 or less. For example, `lane = threadIdx.x % WARP_SIZE` (`WARP_SIZE` 32) \
with `__shfl_xor_sync(mask, v, m, group)`, `group` a kernel argument, in blocks launched as \
`dim3 block(WARP_SIZE, 8)`; or `lane = threadIdx.x % width` with `__shfl_up_sync(mask, v, i, \
width)` in a kernel launched as `scan<<<1, 64>>>(d, 32)`: such shuffles keep to one 32-lane \
segment, as a width of 32 would, so the lane arithmetic over 32 is right and gets no H001. A \
width of `warpSize` or one above 32, or a shuffle without a width, is the wavefront's and is \
judged as usual. All findings are \
dropped in functions whose shuffles (and those of the functions they call) all stay in 32-lane \
segments and that vote nowhere: shuffles that pass a width of 32 (the builtins, or PyTorch's \
`WARP_SHFL_*` wrappers), a CUB logical warp of 32 lanes or fewer (`cub::WarpReduce<float, 32>`, \
which hipCUB runs as 32-lane groups of a wavefront, so `/ 32` and `TempStorage[256 / 32]` match \
it), a cooperative-groups tile of 32 or fewer (`thread_block_tile<32>`, whose ids \
`threadIdx.x >> 5` index a slot per tile), and xor shuffles whose lane \
distance is below 32 (a constant, or a loop from 16 down or from 1 up to 32, also from a template \
parameter, `m = N >> 1`, with each value the file instantiates it with), which never leave \
the lane's half of a 64-lane wavefront, also through a function that passes its parameters on as \
a shuffle's width or such a distance (`SHFL_XOR(v, m, WARP_SIZE)`, `shfl_xor_sync(x, delta)` in a \
project header; a wrapper called without its width, which defaults to `warpSize`, reads as the \
builtin without one, also through a function of the file that hands its parameters on to it, \
a functor's `down(v, d)`), and `__shfl_up`/`__shfl_down` by less than 32 whose \
result is read only where a lane index within 32 (`x & 31`, `x % 32`) keeps the source lane in \
the reader's 32 lanes (a segmented scan: `if (lane >= i)` after a shuffle up by `i`; \
`lane + i < 32`, `lane < 32 - i`, or `lane == 31 || ...` for a shuffle down by 1; a tree read at `lane == 0` or `tid % 32 == 0`, its distance halving from 16 or doubling from 1 while below 32 (1, 2, 4, 8, 16, whatever the bound's constant is called), also after the block that runs it, and at `threadIdx.x == 0` in a kernel of one-dimensional blocks that numbers 32-lane lanes and warps). Such code works on both halves of a wavefront \
independently (lane `tid & 31`, warp `tid >> 5`, one partial per 32 lanes), as on 32-lane warps; \
xor-only code counts so where a kernel of the file reaches it, or where it or a function of \
the file calling it takes both lanes and warps with 32 (`tid % 32`, `tid / 32`), with or \
without a kernel in the file; \
a `WARP_SIZE 32` constant that only such functions use is dropped too (also beside functions \
without shuffles or votes that only mask a lane with it, `id & (WARP_SIZE - 1)` after a \
`%laneid`), and so is one chosen \
under a test of the target's wavefront size or architecture (`#if __AMDGCN_WAVEFRONT_SIZE == 32`, \
the `#else` of `#ifdef __GFX9__`). So is one that the \
file's functions name without any warp-level work (no shuffle, vote, warp barrier, match, \
cooperative-groups tile, CUB warp primitive or inline assembly, in them or in what they call or \
the macros they use, and the constant not passed to a function defined elsewhere), or whose warp-level work the constant \
does not reach (no statement that names it, or a variable set from it by arithmetic such as \
`lane = tid % WARP_SIZE`, also names a warp operation, a function doing one, or a variable \
holding one's result; a load stride beside an unrelated reduction): there the 32 \
is a block's extent or a group of threads sharing a table, right on 64-lane wavefronts, and \
`warpSize` in its place would change what the code computes. The functions called may \
be defined in a project header the file includes (with quotes, or as `<dir/x.h>` found above \
it; a `.cuh` with the reduction, a \
`.cu` with the lane math): the header's own shuffles and votes decide, as in the file, and a \
function-like macro of either that is one shuffle with a width of 32 or less counts as one. \
A warp-size constant of 32 that a project header defines once, outside conditional code \
(`constexpr int WARP_SIZE = 32;` or `#define WARP_SIZE 32`), and that no function of the \
header uses, is a warning there that leaves the judgement to its includers (in a source file \
that no function of it uses, a note: it counts no lanes yet); an including file \
whose function's warp-level work the constant reaches gets an error at that function's first \
use of it, judged as a constant of the file (dropped in 32-lane segment code). So does a \
warp-size name the build defines as 32 (`-DWARP_SIZE=32` given to hipport with `-D`, in \
`hipport.toml`, or by a PyTorch `setup.py`) and the file does not define; the message says \
the value is the build's. \
None of this applies where \
the function, what it calls, or a kernel that reaches it also reads `warpSize` (or \
`C10_WARP_SIZE`): lanes counted by the wavefront's size and reductions over 32 lanes mix, and \
lane 0 of the wavefront reads half a sum. `threadIdx.x < 32` and shared arrays of 32 entries indexed by \
thread are reported only in functions that do warp-level work; elsewhere they are 32 bins or \
the first 32 elements (and the volatile warp-synchronous idiom, `if (tid < 32) { s[tid] += \
s[tid + 32]; ... }`, runs those threads in lockstep inside one wavefront of either width). \
`threadIdx.x < 32` is a warning, and an error where the branch holds an xor or down shuffle \
whose distance reaches 32 on 64-lane wavefronts (32 or more, `warpSize`-derived, or a loop \
variable starting from or bounded by `warpSize`, with no width of 32): its first step reads \
lanes 32-63, which do not run the branch. `threadIdx.x % 32 == 0` as the condition of a `?:` \
that only reads a value (no call, no write) into a variable the function never shuffles is a \
warning: on a 64-lane wavefront lanes 0 and 32 both read it, a superset of lane 0, which is \
harmless when every reader gets the same value and later code takes it from one lane; \
`if ((threadIdx.x & 31) == 0) p = *flag;` (a load with no thread index in it) followed at once \
by `p = __shfl_sync(mask, p, 0)` is not reported at all: the broadcast gives every lane lane 0's \
copy on either wavefront size. \
In segment code, targeting HIP 6.2 or later, a branch only one 32-lane group takes \
(`threadIdx.x < 32`, `warp == 0`, `threadIdx.x / 32 == 0`, `(threadIdx.x >> 5) == 0`, or \
`threadIdx.y == 0`, or a variable that holds it, in a kernel launched with rows of 32 threads) and that runs `_sync` shuffles, \
or a row's early `return` before them, is reported: half the 64-lane wavefront runs them with a \
mask that names all of it, which HIP's mask check traps in builds without NDEBUG. The \
translator writes `__activemask()` for the full masks of those shuffles (both arms of a row's \
`threadIdx.y == 0` test, the code after a row's early return, and the device functions of the \
file they call) instead of widening them: where it writes every one, the report is a note \
saying so (right on both wavefront sizes: on 32-lane GPUs such a branch is a whole warp), and \
a warning where some are left (masks it cannot read, functions it cannot see). Outside segment \
code too, such a branch that calls a device function with `_sync` shuffles gets the same (the \
function's masks become `__activemask()`, which is the whole wavefront for its callers that run \
it on every lane); a guard within the shuffle's own function is the translator's (H003 note). \
In any kernel, a branch (or early `return`) whose test reads a row index of 32 threads taken \
from `threadIdx.x` (`bool pred = row < rows` with `row = blockIdx.x * k + threadIdx.x / 32`, \
or `>> 5`, not also a lane within the row) and that runs `_sync` shuffles gets the same note \
and masks: a 64-lane wavefront holds two rows, and where one takes it and the other does not, \
half the wavefront runs them. \
A kernel the file does not launch that reads \
`threadIdx.y` counts as one launched with rows of 32 threads. The 32s of a \
function whose warp-level work is all on 32-thread cooperative-groups tiles count the tile's \
threads and are not reported; there a per-warp slot numbered by `warpSize` (`part[threadIdx.x \
/ warpSize]` written by the tiles' leaders, or a warp-named variable so set) is an error: on \
64-lane wavefronts two tiles share a slot and half the tiles' results are lost (index by \
`threadIdx.x / 32` or `tile.meta_group_rank()`). So is a loop whose index starts at a 32-thread \
tile's `thread_rank()` and steps by `warpSize` (`for (int i = t.thread_rank(); i < n; i += \
warpSize)`): on 64-lane wavefronts it steps 64 while the tile covers 32 indices, and indices \
32-63 of every 64 are never visited (step by `t.size()`); a loop over whole wavefronts \
(`threadIdx.x % warpSize`) is right and not reported. Nor is a constant of a host function used there only to shape \
launches (`dim3 block(warp_size, 4)`, or host arithmetic without calls that sets a variable \
used so: `int threads = n < kWarpSize ? kWarpSize : 256;`, or compared with or assigned to a \
block's thread count, `if (config.thread_per_block < kWarpSize) config.thread_per_block = \
kWarpSize;`): the kernel's code decides what its rows are. Host code \
that counts a block's warps with 32 (`16 * block.x / 32` on a `dim3`) gets a warning, and so does \
a host read of `warpSize`: hipcc's host compilation defines it as 64 whatever the targets, while \
RDNA GPUs run 32 lanes; there the help asks the device (`hipDeviceProp_t::warpSize`, \
`hipDeviceAttributeWarpSize`) instead of proposing `warpSize`. A host count that only sizes \
memory (a factor of `* sizeof(T)`, such as shared-memory bytes) is not reported: on 64-lane \
wavefronts it over-allocates, which is harmless. A host count of warps of 32 (`nwarps = threads / kWarpSize`) passed to a kernel of the file \
that numbers its warps by `warpSize` and reads that parameter is an error: on 64-lane wavefronts \
the kernel has half as many warps, and a loop over the count reads entries no warp wrote. \
A warp vote (`__any`, `__all`, `__ballot`, also `_sync`) in a function that, or whose caller \
in the file, numbers 32-lane warps of a 1-D block (`threadIdx.x % 32`, `threadIdx.x / 32`, the \
32 a literal or a constant) is a warning where no other H001 finding stands there: on 64-lane \
wavefronts the vote covers two such warps (blocks with rows are H048's). A function that \
shifts its ballot down to the thread's half (`__ballot(p) >> (__lane_id() & 32)`, as the help \
says) is right on both sizes: neither the vote nor its 32-lane lane and warp indices are reported. \
A lane taken from `threadIdx.x` alone by the wavefront's size (`threadIdx.x & (warpSize - 1)`) \
in a function that reads `threadIdx.y`, used as a ballot bit position (`(b >> lane) & 1`, \
`b & (1u << lane)`) or as a shuffle's source lane (no width of 32), is a warning: with blocks \
32 threads wide, two rows share a 64-lane wavefront and the second row's hardware lanes are \
32-63; `__lane_id()` is the hardware lane. \
In a file whose `%laneid` H006 ports as `__lane_id() & 31` (it keeps 32-lane warps), the help \
on a warp-size constant of 32 does not say to use `warpSize`: it sets segment sizes, right as \
they are, apart from votes and warp-wide operations. \
A `warpSize` in a string or comment does not \
make a function number its warps by `warpSize`. A shuffle loop of 32 lanes (from \
16, or bounded by 32) in a function that reads `threadIdx.y` may serve 32-wide blocks whose rows \
each hold their own full set of terms, where 16 is right and `warpSize / 2` would add two rows: \
its help says so (a file that launches the kernel only with 32-wide blocks gets no report).

Fix: use the built-in `warpSize` at run time (in device code), or make the warp size a template parameter and \
choose the instantiation on the host from `hipDeviceAttributeWarpSize` (the pattern the HIP \
documentation recommends). For a device-side constant, `#if defined(__GFX8__) || \
defined(__GFX9__)` selects 64 and anything else 32. Lane masks derived from the warp size must be \
64-bit (see H004).",
};

/// H002: `warpSize` used where a constant expression is required.
pub const WARPSIZE_CONSTEXPR: DiagInfo = DiagInfo {
    id: "H002",
    name: "warpsize-compile-time",
    severity: Severity::Error,
    summary: "warpSize used as a compile-time constant",
    explain: "\
Before ROCm 7.0 HIP's `warpSize` was a compile-time constant, so ported code used it as a \
template argument, an array bound, in static_assert, in a constexpr initializer or `if constexpr` \
condition, or as a case label; so does code that reaches it through a macro (`#define WARP_SIZE \
warpSize` on the ROCm side of `#ifndef USE_ROCM`, or an expression of it such as `#define \
NUM_WARPS (1024 / warpSize)`, which hipport follows, in the file itself or \
in a project header it includes (with quotes, or as `<dir/x.h>` found above it), directly or \
through other headers; the report then \
names the header and line of the definition). From ROCm 7.0 it is a run-time value (folded by the compiler for each target, but not a constant \
expression), and all of these fail to compile (hipport reports an error when the target HIP is \
7.0 or newer, a warning before). `__AMDGCN_WAVEFRONT_SIZE` (and \
`__AMDGCN_WAVEFRONT_SIZE__`) is deprecated by LLVM for the same reason.

PyTorch's `C10_WARP_SIZE` went the same way: recent ROCm builds of PyTorch (older ones defined it \
as `warpSize`, 64 in host code whatever the GPU) define it in host code as \
`at::cuda::warp_size()`, a run-time query of the current GPU, and keep a constant (64 on gfx9, \
32 otherwise) for device code only, so host code that uses it as a constant (a template argument \
of a kernel launch, an array bound, a constexpr) does not compile, whatever the HIP version. \
PyTorch's header names `C10_WARP_SIZE_UPPER_BOUND` and `C10_WARP_SIZE_LOWER_BOUND` for sizes \
known at compile time.

Fix: take the warp size as a template parameter chosen on the host from \
`hipDeviceAttributeWarpSize`, or, for device-only constants, select 64 when `__GFX8__` or \
`__GFX9__` is defined and 32 otherwise. Use `warpSize` only in run-time expressions.",
};

/// H003: a 32-bit mask given to a `_sync` warp builtin.
pub const SYNC_MASK_32: DiagInfo = DiagInfo {
    id: "H003",
    name: "sync-mask-32bit",
    severity: Severity::Error,
    summary: "A 32-bit or partial lane mask passed to a *_sync warp builtin",
    explain: "\
HIP's `__shfl_*_sync`, `__ballot_sync`, `__any_sync`, `__all_sync` and `__match_*_sync` \
(ROCm 6.2 as a preview behind HIP_ENABLE_WARP_SYNC_BUILTINS, on by default from ROCm 7.0) take \
a 64-bit mask and reject anything else with a static_assert (\"The mask must be a \
64-bit integer\"). CUDA code passes `0xffffffff`, `-1`, `~0`, an `unsigned` variable or the \
result of a function declared to return `unsigned` (`warp_converged_mask()`), or an expression of \
32-bit type written in the call (`(1U << n) - 1`, `bits & 0xff`) or given by a function-like \
macro whose body is one (`#define LOWN32(n) ((1u << (n)) - 1)`, reported where it is called; \
`--fix` casts the call, never the body, which other code may use): all 32-bit, so \
they stop compiling (`--fix` makes such an expression 64 bits with a cast, except one that \
shifts a 32-bit value, whose bits stop at lane 31 however wide it is made), and a 64-bit constant with no bits above bit 31 names only half of a \
64-lane wavefront.

The builtins also check that the mask equals the lanes that are active (`__hip_check_mask`: \
`MASK == __ballot(true)`, a trap in builds without NDEBUG). A kernel launched in the file with \
blocks whose thread count is not a multiple of 64 (`<<<n, 32>>>`) leaves a wavefront partly \
filled, so the widened full mask names lanes that hold no thread: that is a warning, with \
`__activemask()` as the mask to pass there.

With `--hip-version` below 6.2 the `_sync` builtins do not exist at all; hipport's translator \
rewrites calls whose mask is a full-warp constant to the unsynchronized `__shfl_*`, `__ballot`, \
`__any` and `__all` (and drops `__syncwarp`), a call without arguments of a function of the \
file whose body only returns the full mask (`constexpr unsigned converged_mask() { return \
0xffffffff; }`) counting as that constant, and reports the masks it cannot drop itself (T009), \
so those calls are not reported here. `__match_any_sync` and `__match_all_sync` have no such \
rewrite: they are reported as errors. `__uni_sync` has no HIP equivalent (T001), and \
`__syncwarp` and the `__reduce_*_sync` reductions came with HIP 7.0: for older targets the \
translator reports them (T002; a full-warp `__syncwarp` is dropped), and from 7.0 their masks \
are read here like the others.

From HIP 6.2 the translator widens the full mask of 32 lanes, in any spelling written in the \
call or as an object-like macro of the file (`0xffffffff`, `~0u`, `-1`, `uint32_t(-1)`), to \
`0xffffffffffffffffull`, so only the rest is reported here. It does so in the bodies of \
function-like macros too, where the mask may also be written after a comment or named by an \
object-like macro. A mask macro used only as `_sync` masks in a source file is widened in its \
definition; one a header defines, or one also used as a 32-bit value (`ballot == FULL`), keeps \
its definition and is widened at each mask use. A mask macro defined nowhere hipport \
sees (not in the file, its project headers, nor before an include of the file in a file of the \
input that includes it) is a warning, as hipport cannot widen it. A call its own function runs only for the first 32 threads (`if \
(threadIdx.x < 32)`, `if (warp == 0)` with 32-lane warps, after `if (tid >= 32) return;`) gets \
`__activemask()` instead, with a note: HIP 6.2 checks that the mask equals the lanes that run \
the call (`__hip_check_mask`, a trap unless `NDEBUG`), and on 64-lane wavefronts only 32 do. \
HIP before 7.0 has no `__syncwarp`: \
the translator drops a full-warp one (wavefronts execute in lockstep) and reports a partial one.

Fix (HIP >= 6.2, applied by `--fix`): declare mask variables `unsigned long long`, and write \
masks in function-like macros as `~0ull`. Partial masks need review: decide which of the 64 \
lanes must take part. A mask variable whose value is built for 32 lanes gets no fix, since a \
wider declaration keeps its value: `0xffffffff >> (32 - n)`, and a shift of a 32-bit value \
(`((1 << w) - 1) << (group * w)`, `1 << lane`), which names no lane above 31 (a shift past 31 \
bits is undefined) and is an error even where the variable is declared 64-bit; the help says to \
shift a 64-bit one (`1ull`), and where the shift's group index counts groups within 32 lanes \
(`group_per_warp = 32 / w`), to number the groups within the wavefront (`warpSize / w`).

With a HIP 6.2, 6.3 or 6.4 target the first `_sync` call of a file also gets a note: those releases \
declare the builtins only when `HIP_ENABLE_WARP_SYNC_BUILTINS` is defined, so code with correct \
64-bit masks still needs `-DHIP_ENABLE_WARP_SYNC_BUILTINS`.",
};

/// H004: a lane mask kept in 32 bits.
pub const LANE_MASK_TRUNCATED: DiagInfo = DiagInfo {
    id: "H004",
    name: "lane-mask-truncated",
    severity: Severity::Error,
    summary: "A ballot or lane mask stored or processed as a 32-bit value",
    explain: "\
HIP's `__ballot`, `__ballot_sync` and `__activemask` return a 64-bit mask (CUDA's return 32 bits). \
Storing the result in `unsigned` or `uint32_t`, counting it with `__popc`, searching it with \
`__ffs` or `__clz`, or building masks with `1u << lane` silently drops lanes 32-63 on 64-lane \
GPUs (MI100, MI200, MI300); `1 << lane` is undefined behaviour for lane >= 32. A ballot combined \
with other values (`__ballot_sync(m, p) * (x < cols)`, `c ? __ballot(p) : 0`, `m & __ballot(p)`) \
is still a 64-bit mask, and so is the result of a device function of the file that returns a \
ballot as it is: through a template type (`template<typename T> __device__ T ballot_sync(unsigned \
m, T v) { return __ballot(v); }`, whose call at a 32-bit `T` drops lanes 32-63 inside it, so \
widening the variable alone is not enough), `auto` or a 64-bit type. A function declared to \
return 32 bits is reported at its `return`, with a fix that widens the return type where \
the file calls it and no call keeps the result in 32 bits (a 32-bit variable, `__popc(f(p))`): \
widening the function alone would leave such callers truncating, and so would it for a helper \
only other files call (written for its 32 bits), so there the help names them, and, where \
a caller reads `threadIdx.y` or the file launches `dim3(32, H)` blocks, gives the per-row form \
first (`(uint32_t)(__ballot(p) >> (__lane_id() & 32))` in the function, broadcasts of width \
32). In a function that places lanes within 32 \
(`threadIdx.x & 31`) or reads `threadIdx.y` (blocks 32 threads wide: each 32-lane half of a \
wavefront is a row), the help also gives this half's bits, `(unsigned)(__ballot(p) >> \
(__lane_id() & 32))`, and no fix is applied. A ballot passed to a function of the file whose \
parameter is 32 bits wide (`int popc(unsigned x)`, `bfe(unsigned x, ...)`) is cut to lanes 0-31 \
there whatever the variable's type, so it is reported at the call, and the variable's \
declaration gets no fix: for code that keeps groups of 32 lanes take each group's half where the \
vote is made, `unsigned bits = (unsigned)(__ballot(p) >> (__lane_id() & ~31));`, and for a vote \
of the whole wavefront make the function take `unsigned long long`.

From HIP 6.2 (with `HIP_ENABLE_WARP_SYNC_BUILTINS` before 7.0) the cooperative-groups votes `g.ballot(p)`, `g.match_any(v)` and \
`g.match_all(v, pred)` also return `unsigned long long`, with the group's lanes packed from bit 0. \
A tile of 32 lanes or fewer fits in 32 bits, as in CUDA, and is not reported; a coalesced group \
(`coalesced_threads()`, which spans the whole 64-lane wavefront) or a 64-thread tile does not fit. \
A lane mask ANDed with a 32-thread tile's ballot (`t.ballot(p) & ((1 << lane) - 1)`, or through \
a variable holding either) must count tile ranks, 0-31: a mask of the lane within 32 (`1u << \
(threadIdx.x & 31)`, or `1u << t.thread_rank()`, also through a lane variable set so) is right \
on both wavefront sizes and is not reported, and one of the wavefront's lane (`threadIdx.x % warpSize`, up to 63) is an error \
whose fix is not `1ull` (a 64-bit mask of lanes 32-63 counts other ranks' bits) but the tile's \
rank in 32 bits, `(1u << t.thread_rank()) - 1`; no fix is applied.

Fix (applied by `--fix` where unambiguous): declare the variable `unsigned long long` (the type \
HIP's `__ballot` returns; with `uint64_t`, which is `unsigned long` on Linux, a call of `__ffsll` \
is ambiguous), use `__popcll`, `__ffsll` and `__clzll` (note that `__clzll` counts from bit 63), \
and shift `1ull`. `--fix` renames `__popc`/`__ffs` only where it also widens every 32-bit \
variable of the operand: of `below & present` with `below = (1u << lane) - 1`, or with a ballot \
variable it keeps 32 bits wide, `__popcll` would count the same lanes, and the help says to widen \
the operand first. `__brev` of a vote (HIP's takes `unsigned int`) reverses lanes 0-31 only and \
is reported like `__clz`, with no rename: `__brevll` reverses 64 bits, so lane 63 becomes bit 0; \
where each 32-lane half works on its own, `__brev((unsigned)(__ballot(p) >> (__lane_id() & 32)))` \
gives each half its own bits on both wavefront sizes.",
};

/// H005: code that relies on independent thread scheduling or partial-warp masks.
pub const THREAD_SCHEDULING: DiagInfo = DiagInfo {
    id: "H005",
    name: "independent-thread-scheduling",
    severity: Severity::Warning,
    summary: "__activemask, a partial __syncwarp or coalesced groups: depends on warp scheduling",
    explain: "\
AMD GPUs do not have Volta-style independent thread scheduling: the lanes of a wavefront run in \
lock step with an execution mask. Code that relies on divergent lanes making progress on their \
own (spin locks taken per lane), on `__activemask()` naming exactly the converged lanes, on \
`__syncwarp(mask)` with a partial mask, or on `coalesced_threads()` groups may compute a different \
set of lanes or deadlock. `__activemask` and the `_sync` builtins also need HIP 6.2 or newer. \
A coalesced group used only as a leader and its followers (the warp-aggregated atomic: rank 0 adds \
`size()`, `shfl(x, 0)` hands the result out) is right for any set of lanes and is not reported. \
A loop whose condition takes a lock (`while (atomicCAS(lock, 0, 1) != 0)`, `atomicExch(lock, 1)`) \
that is released after it is reported: the lane that wins cannot reach its release while the \
other lanes of its wavefront still spin. A CAS retry loop that updates a value, a lock only one \
lane takes (`if (threadIdx.x == 0)`), and a try-once `if (atomicCAS(...) == 0)` are not.

Fix: review the code: make the full wavefront take part, or compute the participating lanes \
explicitly with a 64-bit `__ballot`; take a lock from one lane per wavefront or block, or try it \
once per pass.",
};

/// H006: inline PTX.
pub const INLINE_PTX: DiagInfo = DiagInfo {
    id: "H006",
    name: "inline-ptx",
    severity: Severity::Error,
    summary: "Inline PTX assembly, which AMD compilers cannot assemble",
    explain: "\
`asm(\"...\")` statements in CUDA device code contain PTX, NVIDIA's virtual ISA. HIP accepts only \
AMD GCN/CDNA/RDNA assembly in inline asm, so every PTX statement must be rewritten by hand.

Known idioms have portable replacements, which hipport suggests: `%laneid` -> `__lane_id()` \
(which counts 0..63 on 64-lane wavefronts: where the code keeps 32-lane warps, a warp size of \
32 or `threadIdx.x / 32` warp ids, the lane within its warp is `__lane_id() & 31`, which the \
help gives first in a file that does), \
`%clock`/`%clock64` -> `clock64()` (or `wall_clock64()` for time), `%globaltimer` -> \
`wall_clock64()` (whose units differ: nanoseconds there, ticks at \
`hipDeviceAttributeWallClockRate` kHz here, so the help says to scale by `1000000 / rate_khz`), \
`shfl.sync` and the pre-Volta `shfl.up`/`.down`/`.bfly`/`.idx` -> `__shfl_*` (with the segment \
width packed in the `c` operand passed as `width`: without it the width is `warpSize`, 64 on \
CDNA), a predicated `@p ld`/`@p st` -> an `if` around a plain access, \
`ld.global.nc` -> `__ldg` or a plain load, the \
streaming cache operators `ld.global.cs`/`.lu` and `st.global.cs` -> \
`__builtin_nontemporal_load`/`__builtin_nontemporal_store` (on scalars or clang vectors) or a \
plain access, the other cache hints (`ld.global.cg`/`.ca`, `st.global.wb`/`.cg`/`.wt`, the \
qualifiers in either order: `ld.cg.global` too) -> a plain \
load or store, `ld.global.cv` -> a `volatile` load, \
`membar`/`fence` -> `__threadfence*()`, `bar.sync 0` (barrier 0, the whole block) -> \
`__syncthreads()`, `prmt` -> `__byte_perm`, `brev` -> `__brev`, `popc` -> `__popc`/`__popcll`, \
`cvt` to half -> `__float2half*`, `shf.l`/`shf.r` -> `__funnelshift_l`/`_r` (`_lc`/`_rc` \
clamped), `bfe`/`bfi` -> `__bitextract_u32`/`__bitinsert_u32` (and `_u64`), `mul.hi` -> \
`__umulhi`/`__mulhi`, `clz` -> `__clz`, `sad` -> `__sad`/`__usad`, `mov.b64 r, {lo, hi}` (pack, \
first element low) -> `r = ((unsigned long long)hi << 32) | lo`, `mov.b64 {lo, hi}, x` (unpack) -> \
`lo = (unsigned)x; hi = (unsigned)(x >> 32)` (`mov.b32` likewise with 16-bit halves), `mov.b64 \
r, x` -> an assignment or a bit cast (`__double_as_longlong`), `xor`/`and`/`or`/`not` on \
`.b32`/`.b64` -> `^`/`&`/`|`/`~`. PTX in a `#define` body is reported at the macro's `asm` too, where hipcc would \
compile the definition (a body the parser cannot read, with stringized `#dir` pieces or `##` \
names, is read as text). PTX in a device function's \
branch that only hipcc's host pass compiles (the `#else` of `#if \
defined(__HIP_DEVICE_COMPILE__)`) is never assembled and is not reported. A named barrier (`bar.sync 1, 256`, a barrier for part of the \
block, as warp-specialised kernels use) or `bar.arrive` has no HIP equivalent: `__syncthreads()` \
is `s_barrier`, which waits for every wave of the workgroup, so it deadlocks where the other \
waves never reach it. Tensor-core and async-copy PTX (`mma.sync`, `ldmatrix`, `cp.async`) needs a \
redesign with rocWMMA or MFMA intrinsics.",
};

/// H007: profiler start/stop.
pub const PROFILER_CONTROL: DiagInfo = DiagInfo {
    id: "H007",
    name: "profiler-control",
    severity: Severity::Warning,
    summary: "cudaProfilerStart/Stop: not supported by HIP at run time",
    explain: "\
`cudaProfilerStart` and `cudaProfilerStop` rename to `hipProfilerStart` and `hipProfilerStop`, \
which are deprecated and return `hipErrorNotSupported` on ROCm. A plain call therefore does \
nothing; a call wrapped in an error-checking macro (`CHECK(cudaProfilerStart())`) or whose result \
is tested aborts the program at run time, which hipport reports as an error.

Fix: use rocTX (`roctxProfilerPause`/`roctxProfilerResume` from rocprofiler-sdk, or \
`roctracer_start`/`roctracer_stop`) to limit collection, or drop the calls and select the region \
with the profiler's own options.",
};

/// H008: NVTX markers.
pub const NVTX: DiagInfo = DiagInfo {
    id: "H008",
    name: "nvtx",
    severity: Severity::Warning,
    summary: "NVTX annotations: use rocTX on ROCm",
    explain: "\
NVTX (`nvToolsExt.h`, `nvtx3/`) is NVIDIA's annotation library; ROCm's equivalent is rocTX \
(`roctracer/roctx.h`, library `roctx64`). The common calls map one to one: `nvtxRangePushA` -> \
`roctxRangePushA`, `nvtxRangePop` -> `roctxRangePop`, `nvtxMarkA` -> `roctxMarkA`, \
`nvtxRangeStartA` -> `roctxRangeStartA`, `nvtxRangeEnd` -> `roctxRangeStop`. Domains, event \
attributes (`nvtxEventAttributes_t`, `nvtxRangePushEx`), resource naming and payloads have no \
rocTX counterpart and need review: such a name stays as it is, and this report takes the place of \
T001 there (one report per name, an error; a note in a branch hipcc never compiles).

ROCm 7.0 to 7.2 deprecate ROCTracer and with it `roctracer/roctx.h` and `roctx64`; ROCm 7.2.1 ends \
their support (ROCTracer's README). They still ship in 7.2, so hipport writes them for every \
target. ROCprofiler-SDK's rocTX (`rocprofiler-sdk-roctx/roctx.h`, CMake package \
`rocprofiler-sdk-roctx`), which PyTorch's ROCm build already prefers, declares the same \
`roctxRangePushA`, `roctxRangePop`, `roctxMarkA`, `roctxRangeStartA` and `roctxRangeStop`: \
switch the include and the library to it for the releases after 7.2.",
};

/// H009: `__launch_bounds__` with a second or third argument.
pub const LAUNCH_BOUNDS: DiagInfo = DiagInfo {
    id: "H009",
    name: "launch-bounds",
    severity: Severity::Warning,
    summary: "__launch_bounds__ minimum-blocks argument means something else on AMD",
    explain: "\
In CUDA the second argument of `__launch_bounds__(MAX_THREADS, MIN_BLOCKS)` is the minimum number \
of resident blocks per multiprocessor. HIP passes it verbatim to `amdgpu_waves_per_eu`, the \
minimum number of waves per execution unit, which constrains register allocation differently. \
The HIP documentation says to use MIN_WARPS_PER_EU = MIN_BLOCKS * MAX_THREADS / 32; that formula \
is disputed (ROCm/hip#3167, #2521), so hipport reports the value it gives and leaves the choice to \
you. A value above 8 is more waves than a CDNA SIMD holds (hipcc reports an occupancy of 8 for \
gfx90a, 16 for gfx1030), which asks the compiler for the smallest register budget per wave, and \
`(T, 1)` constrains nothing on either side (a note). The three-argument CUDA 12 form (with maxBlocksPerCluster) is not accepted by HIP at all \
(error).",
};

/// H010: CUDA version macros in preprocessor conditions.
pub const VERSION_MACRO: DiagInfo = DiagInfo {
    id: "H010",
    name: "cuda-version-condition",
    severity: Severity::Warning,
    summary: "A CUDA version macro in #if or in code: undefined under hipcc",
    explain: "\
`CUDA_VERSION`, `CUDART_VERSION`, `__CUDACC_VER_MAJOR__` and friends are not defined when hipcc \
compiles, so in `#if` they read as 0 and `#ifdef` is false. Version guards therefore silently \
select the oldest-CUDA branch (or the non-CUDA branch), and renaming them to a HIP or PyTorch \
version macro is worse, because those count in a different number space (HIP_VERSION is e.g. \
60443483, TORCH_HIP_VERSION 604). hipport evaluates the condition with these macros undefined \
and says which branch HIP takes; where that branch holds an `#error` (`#if CUDA_VERSION < 8000` \
/ `#error \"CUDA >= 8.0 is required\"`), hipcc stops there and the report is an error. A test \
inside a branch hipcc skips (the CUDA side of the project's own `#ifdef USE_ROCM`) is not \
reported. The same holds for the version macros of CUDA's libraries, \
which their HIP counterparts do not define: `CUDNN_MAJOR`/`CUDNN_VERSION` (MIOpen), \
`CUBLAS_VER_MAJOR` (hipBLAS), `CUSPARSE_VERSION`, `CUFFT_VERSION`, `CURAND_VERSION`, \
`CUSOLVER_VERSION`, `CUB_VERSION`/`CUB_MAJOR_VERSION`/`CUB_MINOR_VERSION` (hipCUB defines \
`HIPCUB_VERSION` instead; `THRUST_VERSION` is not reported, rocThrust defines it) and \
`__CUDA_BF16_TYPES_EXIST__` (cuda_bf16.h; hip_bf16.h defines no such \
name), so a bfloat16 path or a cuDNN 7 feature in such a branch silently drops out. Used in code (`printf(\"%d\", CUDART_VERSION)`, \
`m.attr(\"cuda\") = CUDA_VERSION`), the name is undeclared and the line does not compile: an \
error, unless hipcc skips the line anyway. Where the `#else` hipcc takes already calls the \
mask-less HIP form of the `_sync` builtin the skipped branch calls (`#if CUDA_VERSION >= 9000` / \
`__all_sync(mask, v)` / `#else` / `__all(v)`), the report is a note that says so, and the \
translator's note that the skipped call stays as written (T009) is folded into it. Where the \
arm hipcc goes to is the project's own HIP path (`#elif __HIPCC__`, `#elif \
defined(__HIP_PLATFORM_AMD__)`), nothing is reported: the branch hipcc takes is the one \
written for it.

Fix: guard on `__HIP_PLATFORM_AMD__` / `HIP_VERSION` explicitly where the HIP path needs its own \
code, and check that the branch HIP takes compiles and is correct.",
};

/// H011: `__CUDA_ARCH__` in preprocessor conditions.
pub const CUDA_ARCH: DiagInfo = DiagInfo {
    id: "H011",
    name: "cuda-arch-condition",
    severity: Severity::Warning,
    summary: "__CUDA_ARCH__ in #if: undefined on AMD, the branch for other GPUs (or none) is taken",
    explain: "\
`__CUDA_ARCH__` is defined only when nvcc compiles device code. On AMD it is undefined in device \
code too, so `#ifdef __CUDA_ARCH__` device/host splits take the host branch everywhere, and \
feature gates such as `#if __CUDA_ARCH__ >= 700` take the fallback path.

It is an error where that path stops the build (an `#error`), or where, inside a function, the \
`#else` hipcc takes holds no code (only a `#pragma message` or a comment) while the skipped branch \
computes: hipcc then builds a kernel that skips the work, such as a tensor-core `mma` in `asm`, \
and leaves its results unset. It is an error, too, where such a test with no `#else` holds a \
kernel's whole body (hipcc compiles an empty kernel, a lone `s_endpgm`, and says nothing), and \
where a function defined only in the branch hipcc skips is called from code it compiles: hipcc \
fails with \"use of undeclared identifier\". `__HIP_DEVICE_COMPILE__` does not help there, since \
HIP-Clang parses kernel bodies in its host pass too; define the function unconditionally, or let \
hipcc in with `|| defined(__HIP_PLATFORM_AMD__)`. The same holds for a qualifier macro that only \
the branch hipcc skips defines with `__device__` (`#ifdef __CUDA_ARCH__` / `#define HD __host__ \
__device__` / `#else` / `#define HD` / `#endif`): under hipcc `HD` is empty in the device pass \
too, so functions declared with it are host-only and every kernel calling one fails (\"call to \
__host__ function from __global__ function\"). That is an error where the file uses the macro; \
define it as `__host__ __device__` unconditionally, or add `|| defined(__HIPCC__)` to the test \
(`--fix` does this where the conditional holds only such macros). The same for `#ifndef`, \
`#elif defined(__CUDA_ARCH__)` and `#if __CUDA_ARCH__ >= 700`, which hipcc reads as false in \
both passes. Where a kernel's whole body is \
guarded and calls cooperative-groups functions HIP lacks (`cg::labeled_partition`, `cg::reduce`), \
the help names them: dropping the guard alone does not build. An `#else` hipcc skips that only defines what \
HIP has itself (the CUDA Guide's `atomicAdd(double*, double)` for sm < 60) is not reported, and \
a skipped branch that holds nothing but such definitions (`#if __CUDA_ARCH__ < 600` around that \
`atomicAdd`, `<= 300` around `double` overloads of `__shfl_down`) is a note. An \
`#ifndef __CUDA_ARCH__` that only holds host-side stand-ins for CUDA's index variables \
(`extern const dim3 blockDim;`) is not reported: H025 reports the declarations, which no test of \
the device pass would fix.

Fix: use `__HIP_DEVICE_COMPILE__` to tell device from host compilation, and `__gfx*__` / \
`__GFX9__` target macros or `__HIP_ARCH_HAS_*` feature macros for features.",
};

/// H012: dynamic parallelism.
pub const DYNAMIC_PARALLELISM: DiagInfo = DiagInfo {
    id: "H012",
    name: "dynamic-parallelism",
    severity: Severity::Error,
    summary: "A kernel launch, device synchronization or runtime API call from device code",
    explain: "\
HIP does not support dynamic parallelism: kernels cannot launch kernels (`<<<...>>>` or \
`cudaLaunchDevice` in `__global__`/`__device__` code) and `cudaDeviceSynchronize()` cannot be \
called from device code. Nor does HIP have CUDA's device runtime API: `cudaGetLastError`, \
`cudaGetErrorString`, `cudaMalloc`, `cudaMemcpyAsync`, `cudaStreamCreateWithFlags` and the rest \
of what CUDA lets kernels call become HIP names that hipcc rejects in device code (\"no matching \
function\"). hipport reports those in `__global__` and `__device__`-only functions.

Fix: move the child launch to the host (launch the parent and the child in sequence, or use a \
persistent kernel with a work queue), or flatten the recursion.",
};

/// H013: texture and surface references.
pub const TEXTURE_REFERENCE: DiagInfo = DiagInfo {
    id: "H013",
    name: "texture-reference",
    severity: Severity::Warning,
    summary: "Texture or surface references (texture<>, surface<>, cudaBindTexture)",
    explain: "\
Texture and surface references (`texture<T, dim, mode>` globals bound with `cudaBindTexture*`, \
read with `tex1Dfetch(ref, i)`; `surface<>`) were removed in CUDA 12, and HIP's `hipTexRef*` API is \
deprecated (this report takes the place of T004's deprecation warning on `cudaBindTexture` and \
friends); texture support also depends on `hipDeviceAttributeImageSupport` (absent when \
`__HIP_NO_IMAGE_SUPPORT` is set). HIP still builds them (HIP 5.2.3 to 7.x, with deprecation \
warnings), so the declaration of each reference is a warning and its uses (binding, fetches) are \
notes.

Fix: use texture objects (`cudaTextureObject_t` / `hipTextureObject_t`), or, when the texture was \
used only for cached read-only loads, plain loads through a `const __restrict__` pointer or \
`__ldg`.",
};

/// H014: warp matrix (tensor core) API.
pub const WARP_MATRIX: DiagInfo = DiagInfo {
    id: "H014",
    name: "warp-matrix",
    severity: Severity::Error,
    summary: "nvcuda::wmma / mma.h tensor-core code has no HIP equivalent",
    explain: "\
HIP does not support CUDA's warp matrix types and functions (`nvcuda::wmma::fragment`, \
`load_matrix_sync`, `mma_sync`, `<mma.h>`). The AMD counterparts are rocWMMA (a similar but not \
identical API, with different fragment shapes per architecture and wave size) and the MFMA/WMMA \
compiler intrinsics; both need the kernel's tiling to be redesigned.",
};

/// H015: asynchronous copies and pipelines.
pub const ASYNC_COPY: DiagInfo = DiagInfo {
    id: "H015",
    name: "async-copy",
    severity: Severity::Error,
    summary: "cp.async / cuda::pipeline / memcpy_async have no HIP equivalent",
    explain: "\
Ampere's asynchronous global-to-shared copies (`cp.async` PTX, `cuda::pipeline`, \
`cuda::memcpy_async`, `__pipeline_memcpy_async`, `cooperative_groups::memcpy_async`) have no HIP \
API. Replace them with ordinary loads into shared memory followed by `__syncthreads()`, or with \
an explicit double-buffering scheme. `<cooperative_groups/memcpy_async.h>` included in a file \
that uses nothing of it (no `memcpy_async`, `wait`, `wait_prior`, pipeline) is a note: the port \
leaves the include out. `<cuda/barrier>` in a file with no async copy is reported as \
`cuda::barrier` alone: an arrive and wait of every thread of the block at once is \
`__syncthreads()`; a split arrive/wait has no HIP equivalent.",
};

/// H016: cooperative-groups tiles wider than the warp.
pub const TILE_WIDTH: DiagInfo = DiagInfo {
    id: "H016",
    name: "cg-tile-too-wide",
    severity: Severity::Warning,
    summary: "A cooperative-groups tile wider than an RDNA (32-lane) or CDNA (64-lane) wavefront",
    explain: "\
`tiled_partition<N>` and `thread_block_tile<N>` require N to be a power of two no larger than the \
wavefront: 64 on CDNA (MI100, MI200, MI300), 32 on RDNA. A 64-wide tile works only on CDNA \
(warning); wider tiles work nowhere (error). CUDA 12's `block_tile_memory` (`experimental` in \
CUDA 11), the scratch space that lets a tile span several warps (`this_thread_block(scratch)`, \
`tiled_partition<128>`), has no HIP counterpart and is reported as an error too: HIP's \
cooperative groups define no such type.",
};

/// H017: grid synchronization without a cooperative launch.
pub const GRID_SYNC: DiagInfo = DiagInfo {
    id: "H017",
    name: "grid-sync-without-cooperative-launch",
    severity: Severity::Error,
    summary: "this_grid().sync() in a file with no cooperative launch",
    explain: "\
A grid-wide barrier (`cooperative_groups::this_grid().sync()`) is valid only in a kernel launched \
with `hipLaunchCooperativeKernel` (CUDA: `cudaLaunchCooperativeKernel`) on a device whose \
`hipDeviceAttributeCooperativeLaunch` is set, with no more blocks than can be resident at once. \
hipport found the grid group but no cooperative launch in the same file: an error when the file \
launches the kernel with `<<<...>>>` (the barrier deadlocks or fails), a warning when the launch \
is elsewhere (another file may launch it cooperatively).",
};

/// H018: multi-grid groups.
pub const MULTI_GRID: DiagInfo = DiagInfo {
    id: "H018",
    name: "multi-grid-group",
    severity: Severity::Warning,
    summary: "this_multi_grid(): multi-device cooperative groups are deprecated in ROCm",
    explain: "\
Multi-grid cooperative groups (`this_multi_grid()`, `cudaLaunchCooperativeKernelMultiDevice`, \
renamed `hipLaunchCooperativeKernelMultiDevice`) have been deprecated since ROCm 5.0 (CUDA \
deprecated them in 11.3 and removed them in 12.0). A multi-grid barrier also needs every device \
to support cooperative launches.

Fix: launch one cooperative kernel per device and synchronize the devices from the host (streams \
and events), or exchange data through peer-to-peer copies between the phases.",
};

/// H019: managed memory.
pub const MANAGED_MEMORY: DiagInfo = DiagInfo {
    id: "H019",
    name: "managed-memory",
    severity: Severity::Warning,
    summary: "Managed memory: page migration needs XNACK on AMD",
    explain: "\
`cudaMallocManaged`, `__managed__`, `cudaMemAdvise` and `cudaMemPrefetchAsync` port to HIP, but \
managed memory migrates pages only when XNACK is enabled (`HSA_XNACK=1`), which is possible on \
MI200 (gfx90a) and MI300 (gfx942) but not on MI50/MI100 (gfx906, gfx908). Without XNACK managed \
allocations stay in host memory and kernels read them over the interconnect, many times slower.

A `__managed__` variable is registered by the program's startup code: with HIP 5.2.3 (Debian's \
libamdhip64) a program that has one dies with a segmentation fault in `__hipRegisterManagedVar` \
before `main` on a machine without a GPU (checked with hipcc 5.2.3), where a program without one \
gets an error code from its first HIP call; CPU-only test runs of such a binary crash.

Fix: run with `HSA_XNACK=1` on GPUs that support it and build for the `:xnack+` target, or use \
explicit device allocations and copies (a `__device__` variable and `hipMemcpyToSymbol` in place \
of a `__managed__` one).",
};

/// H020: `__threadfence_system`.
pub const THREADFENCE_SYSTEM: DiagInfo = DiagInfo {
    id: "H020",
    name: "threadfence-system",
    severity: Severity::Warning,
    summary: "__threadfence_system and host-visible polling need fine-grained memory",
    explain: "\
HIP-Clang's `__threadfence_system` does not make device writes visible to the host for ordinary \
(coarse-grained) allocations. Device-to-host flag polling works only on fine-grained memory \
(`hipHostMalloc` with `hipHostMallocCoherent`, or `hipExtMallocWithFlags` with \
`hipDeviceMallocFinegrained`), or with `HSA_DISABLE_CACHE=1`. The same holds for system-scope \
atomics (`atomicAdd_system`, `atomicCAS_system`, ...): \"any system-scope atomics sent to \
[coarse-grained memory] will not achieve system-scope coherency\" (ROCm documentation, AMD GPU \
atomics operation support), so a counter or flag they update for the host must be fine-grained.",
};

/// H021: `clock()`/`clock64()` in device code.
pub const DEVICE_CLOCK: DiagInfo = DiagInfo {
    id: "H021",
    name: "device-clock",
    severity: Severity::Warning,
    summary: "clock()/clock64() in device code count at a varying rate on AMD",
    explain: "\
On AMD `clock()` and `clock64()` read a shader-clock counter whose frequency varies with power \
management, and they do not work properly on RDNA3 (gfx11). Converting cycles to time with \
`clockRate` gives wrong results; hipport reports a `clockRate` read in files that count cycles \
(they call `clock()`/`clock64()` or name a value of cycles), not a device-info print.

Fix: measure time with `wall_clock64()` and divide by `hipDeviceAttributeWallClockRate` (kHz).",
};

/// H022: floating-point atomics.
pub const FLOAT_ATOMIC: DiagInfo = DiagInfo {
    id: "H022",
    name: "float-atomic",
    severity: Severity::Note,
    summary: "Floating-point atomics: CAS loops by default on AMD",
    explain: "\
HIP compiles `atomicAdd` (and min/max) on `float`/`double` to safe compare-and-swap loops unless \
`-munsafe-fp-atomics` is given or `unsafeAtomicAdd` is called; the hardware instructions are \
faster but give wrong answers on fine-grained (host-coherent) memory. RDNA1 and CDNA1 (MI100, for \
double) lack some hardware float atomics. Sums are order-dependent, so tests need a tolerance; \
a minimum or maximum is the same in any order, and its note says only the loop's cost and \
`unsafeAtomicMax`/`unsafeAtomicMin` (amd_hip_unsafe_atomic.h).

HIP's atomics have no `atomicAdd` for `__half`, `__half2` or bfloat16 at all in HIP 5 (5.2.3's \
amd_hip_atomic.h, confirmed with hipcc) nor in ROCm 6 (ROCm/hip#3573 shows 6.1.3 rejecting \
`atomicAdd(half2*, ...)`); ROCm added them in 2026 (ROCm/rocm-systems#5194). For a target before \
HIP 7.0 such a call is an error (\"no matching function for call to 'atomicAdd'\"), reported here \
as one; for 7.x a warning, since only releases after that change have the overloads.",
};

/// H045: atomics on types HIP has no overload for.
pub const ATOMIC_OVERLOAD: DiagInfo = DiagInfo {
    id: "H045",
    name: "atomic-overload-missing",
    severity: Severity::Error,
    summary:
        "Atomics HIP does not overload: 16-bit atomicCAS, signed 64-bit atomicMin/Max before 6.x",
    explain: "\
CUDA has `atomicCAS` on `unsigned short int` (16 bits, compute capability 7.0 and up), and code \
calls it on 16-bit integers and on the bits of `__half`/bfloat16 values. HIP's `atomicCAS` has \
overloads for `int`, `unsigned int`, `unsigned long`, `unsigned long long`, `float` and `double` \
only, in HIP 5.2.3 (amd_hip_atomic.h, confirmed with hipcc: \"no matching function for call to \
'atomicCAS'\") and in HIP 6.2's header; later ROCm headers add `unsigned short`, in a release \
not confirmed here. hipport reports calls whose address is a 16-bit variable or a cast to a \
16-bit pointer: an error for targets up to 6.2, a warning after.

`atomicMin` and `atomicMax` on `long long` (signed 64 bits): HIP 5.2.3 overloads them for \
`unsigned long long` only (hipcc: \"no matching function\"); the signed overloads were added in \
2023 (ROCm/hip#3297) and are in HIP 6.2's header. An error for targets before 5.7, a warning for \
5.7 to 6.1.

Fix: compare-and-swap the aligned 32-bit word that holds the value: read the word at \
`(unsigned int*)((size_t)p & ~3)`, replace the 16 bits at `((size_t)p & 2) * 8` in a copy, and \
`atomicCAS` the word until it succeeds.",
};

/// H023: shared memory above 64 KiB.
pub const SHARED_MEMORY_SIZE: DiagInfo = DiagInfo {
    id: "H023",
    name: "shared-memory-over-64k",
    severity: Severity::Error,
    summary: "More than 64 KiB of shared memory (LDS) per block",
    explain: "\
AMD GPUs give a workgroup at most 64 KiB of LDS (shared memory) on MI100, MI200 and MI300 \
(gfx908, gfx90a, gfx942) and on RDNA GPUs (gfx10 to gfx12); gfx950 (MI350/MI355) has 160 KiB. CUDA code written for Ampere or \
Hopper requests up to 227 KiB with `cudaFuncSetAttribute(..., \
cudaFuncAttributeMaxDynamicSharedMemorySize, N)` or declares large static `__shared__` arrays; on \
AMD the kernel fails to compile or to launch.

hipport reads the sizes the file makes constant (literals, macros, constants, and locals set once \
where they are declared: `int shared = 16 * 4384;`) and checks them against the LDS of each \
target of the build (`--offload-arch`, else the defaults of the target HIP): an error where every \
target falls short, a warning naming the ones that do where some (gfx950) have room. A launch or opt-in under a condition that reads the device's limit (`prop.sharedMemPerBlockOptin`, or a variable `cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)` set) is a note: on AMD the test fails and the code takes its other path.

Fix: shrink the tiles for AMD, and take the limit from `hipDeviceAttributeMaxSharedMemoryPerBlock` \
at run time.",
};

/// H024: FP8 types whose encoding changes.
pub const FP8_ENCODING: DiagInfo = DiagInfo {
    id: "H024",
    name: "fp8-encoding",
    severity: Severity::Error,
    summary: "FP8 types: the HIP counterparts on gfx94x use a different (FNUZ) encoding",
    explain: "\
`__nv_fp8_e4m3` and `__nv_fp8_e5m2` are the OCP FP8 formats. hipport's rules give them no HIP \
name, so the translator leaves them (this report takes the place of T001 there): the HIP \
types a port reaches for, \
`__hip_fp8_e4m3_fnuz` / `__hip_fp8_e5m2_fnuz`, are a different encoding (no infinities, one NaN, \
exponent bias shifted by one), and MI300 (gfx940-942) supports only FNUZ while gfx12 supports only \
OCP. Bit patterns stored or exchanged with other software change meaning, and scale factors \
calibrated for OCP ranges are off by a factor of two.

Fix: decide per target which format to use (`__hip_fp8_e4m3` OCP where supported), convert at the \
boundaries, and add numeric tests for FP8 round trips.",
};

/// H025: user definitions that clash with HIP built-ins.
pub const BUILTIN_CLASH: DiagInfo = DiagInfo {
    id: "H025",
    name: "builtin-clash",
    severity: Severity::Error,
    summary: "A user function that HIP already defines (redefinition error)",
    explain: "\
CUDA code often carries its own floating-point atomics (`atomicMin(float*, float)`, \
`atomicMax(float*, float)`, `atomicAdd(double*, double)` for old architectures) built from \
`atomicCAS`, or integer ones CUDA lacks (`atomicSub(unsigned long long*, ...)`). HIP defines \
these overloads itself (`atomicAdd`, `atomicSub`, `atomicExch`, `atomicMin`, `atomicMax` and \
`atomicCAS` for `int`, `unsigned int`, `unsigned long`, `unsigned long long`, `float` and \
`double`; the bitwise ones for the integers), so the user definition fails with \"redefinition \
of 'atomicMin'\". Only a definition at the global scope clashes (or one in an anonymous \
namespace, or in a namespace that a `using` of the file brings there): an overload in a named \
namespace (`mylib::atomicAdd(double*, double)`) is another function than HIP's `::atomicAdd`, \
which its callers (`mylib::atomicAdd(...)`, unqualified calls inside the namespace) need, and \
is not reported.

Likewise the free compound assignments of the CUDA samples' helper_math.h \
(`void operator+=(float3& a, float3 b)`, and `-=`, `*=`, `/=` on two vectors of one type): HIP's \
vector types (`HIP_vector_type`, amd_hip_vector_types.h) have these as members, so `v += w` is \
\"ambiguous\" in hipcc. Operators with a scalar right-hand side and the binary operators are not \
affected.

Likewise declarations of CUDA's built-in index variables (`extern const dim3 blockDim; extern \
const uint3 threadIdx;`, usually under `#ifndef __CUDA_ARCH__` as host-side stand-ins, as in \
NVIDIA's curand_mtgp32_kernel.h): HIP's headers declare `threadIdx`, `blockIdx`, `blockDim` and \
`gridDim` for device and host code alike with types of their own, so hipcc rejects them in both \
passes (\"redeclaration of 'blockDim' with a different type\"); `__HIP_DEVICE_COMPILE__` would \
not help, as the host pass still sees them. Delete them for HIP, or guard them with \
`#if !defined(__HIPCC__)` (checked with hipcc 5.2.3, both passes). `convert` puts that guard \
around them itself (whatever `--fix` says), so the converted file has neither this report nor \
H011's on an `#ifndef __CUDA_ARCH__` that holds only the guarded stand-ins.

Fix: delete the helper, or guard it with `#if !defined(__HIP_PLATFORM_AMD__)`.",
};

/// H026: the `register` keyword.
pub const REGISTER_KEYWORD: DiagInfo = DiagInfo {
    id: "H026",
    name: "register-keyword",
    severity: Severity::Warning,
    summary: "The register storage class was removed in C++17",
    explain: "\
nvcc accepts `register` silently. hipcc is clang: it warns (-Wdeprecated-register) in C++14 and \
rejects the keyword with `-std=c++17` or later, which ROCm libraries and PyTorch extensions use. \
Delete the keyword; it has had no effect on code generation for decades.",
};

/// H027: raw integer comparisons of memory-type enums.
pub const MEMORY_TYPE_ENUM: DiagInfo = DiagInfo {
    id: "H027",
    name: "memory-type-number",
    severity: Severity::Error,
    summary: "A memory type compared with a raw number: the enum values differ in HIP",
    explain: "\
`cudaMemoryType` numbers its values Unregistered=0, Host=1, Device=2, Managed=3; `hipMemoryType` \
has Host=0, Device=1, Array=2, Unified=3, Managed=4. Code that compares \
`cudaPointerAttributes::type` (or `memoryType`) with an integer instead of the enumerator tests \
for a different kind of memory after renaming.

Fix: compare with the named enumerators (`cudaMemoryTypeDevice` renames to \
`hipMemoryTypeDevice`).",
};

/// H028: `__ldg` and cache-hint loads and stores.
pub const CACHE_HINTS: DiagInfo = DiagInfo {
    id: "H028",
    name: "cache-hint",
    severity: Severity::Note,
    summary: "__ldg and cache-hint loads/stores: no-ops or missing on AMD",
    explain: "\
AMD compilers load all data through L1 and L2, so `__ldg` is accepted but is a plain load (note).

`__ldlu`, `__ldcv`, `__stcg`, `__stcs`, `__stwb` and `__stwt` have no HIP equivalent (the rules \
database, after HIPIFY, gives them none), so they stay as they are and the output does not \
compile. This report takes the place of T001 there: one report per call, an error (a note in a \
branch hipcc never compiles). Replace them with plain loads and stores, or with \
`__builtin_nontemporal_load`/`__builtin_nontemporal_store` for streaming data (on scalars and \
clang vector types: HIP's `float4` and `int4` are structs, which hipcc rejects there, so load \
them through `float __attribute__((ext_vector_type(4)))`).

`__ldcg`, `__ldca` and `__ldcs` keep their names. HIP 5.2.3 declares them for `__half` and \
`__half2` pointers only (amd_hip_fp16.h), where they are plain loads (note): on other types they \
are an error for a HIP 5 target, and a warning where hipport cannot see the pointer's type. From \
HIP 6 they are not reported.",
};

/// H029: bfloat16 and half conversions that several ROCm releases lack.
pub const BFLOAT16: DiagInfo = DiagInfo {
    id: "H029",
    name: "bfloat16-type",
    severity: Severity::Note,
    summary: "bfloat16 and half conversions with a rounding mode that HIP lacks",
    explain: "\
`__float2bfloat16_rd`, `__float2bfloat16_ru` and `__float2bfloat16_rz` are in no AMD release's \
amd_hip_bf16.h that hipport's authors could read (ROCm/clr and rocm-systems, 6.0 through 7.x; \
ROCm/hip#3425), and `__double2half` in none of AMD's fp16 headers read. (`__float2bfloat16_rn` \
is missing too, but it is the same round-to-nearest-even conversion as `__float2bfloat16`, which \
it becomes from HIP 6.0.) hipport's rules give them no HIP name, so the \
translator leaves them as they are. This report takes the place of T001 there (one report per name, at T001's severity: an error, or a note in a branch hipcc never compiles) and says why and where to look.

The bfloat16 types themselves are not reported: `__nv_bfloat16` and its typedef `nv_bfloat16` \
(and the `2` forms) all become `__hip_bfloat16` (`__hip_bfloat162`) from HIP 6.0, where \
hip/hip_bf16.h defines them, and stay, reported as T002, for older targets. (HIPIFY's table maps \
`__nv_bfloat16` to the legacy `hip_bfloat16` struct, which has no conversions to or from \
`__hip_bfloat16`; hipport's rules do not, so the two spellings stay one type.)

Fix: convert through float with the rounding written out, or check each intrinsic against the \
target ROCm's amd_hip_bf16.h / amd_hip_fp16.h.",
};

/// H030: `torch.cuda.profiler` in Python.
pub const TORCH_PROFILER: DiagInfo = DiagInfo {
    id: "H030",
    name: "torch-cuda-profiler",
    severity: Severity::Error,
    summary: "torch.cuda.profiler start/stop raise at run time on ROCm",
    explain: "\
`torch.cuda.profiler.start()`, `stop()` and `profile()` call cudaProfilerStart/Stop through \
PyTorch's CUDA runtime binding; on ROCm builds these are hipProfilerStart/Stop, which return \
hipErrorNotSupported, and PyTorch raises a RuntimeError. Guard them with `if torch.version.hip is \
None`, or use `torch.profiler` or rocprof's own range selection.",
};

/// H031: `torch.cuda.nvtx` in Python.
pub const TORCH_NVTX: DiagInfo = DiagInfo {
    id: "H031",
    name: "torch-cuda-nvtx",
    severity: Severity::Note,
    summary: "torch.cuda.nvtx ranges become rocTX ranges on ROCm",
    explain: "\
On ROCm builds `torch.cuda.nvtx.range_push`/`range_pop`/`mark`/`range` emit rocTX markers. They \
appear in rocprof / rocprofv3 traces collected with marker (roctx) tracing enabled, not in Nsight; \
scripts that drive nsys must be changed to drive rocprof.",
};

/// H032: `torch.version.cuda` in Python.
pub const TORCH_VERSION_CUDA: DiagInfo = DiagInfo {
    id: "H032",
    name: "torch-version-cuda",
    severity: Severity::Warning,
    summary: "torch.version.cuda is None on ROCm builds",
    explain: "\
On ROCm builds of PyTorch `torch.version.cuda` is None and `torch.version.hip` holds the HIP \
version. Code that tests `torch.version.cuda` to decide whether a GPU build is present takes the \
CPU path on ROCm, and code that parses it (`float(torch.version.cuda)`, \
`torch.version.cuda.split('.')`) raises. A test that refuses ROCm outright is reported too: \
`assert torch.version.cuda is not None`, `if torch.version.cuda is None:` followed by a `raise`, \
an exit, a bare `return` or a skip, the `else` of `if torch.version.cuda is not None:` doing \
the same, and `skipif(torch.version.cuda is None)`.

Not reported: an `is None` test that only picks a branch (the code goes on on ROCm), uses inside \
a block that runs only where `torch.version.cuda` is set, and uses that a `torch.version.hip` \
test has already decided: in the same statement, in an enclosing `if`, or in an earlier \
condition of the same `if`/`elif`/`else` chain (also through `IS_HIP_EXTENSION` or a name \
assigned from `torch.version.hip`), and a test of `torch.version.cuda` whose chain goes on to an \
`elif` on `torch.version.hip`.

Fix: test `torch.cuda.is_available()` for a GPU, and `torch.version.hip` to tell ROCm from CUDA.",
};

/// H033: CUB/hipCUB warp primitives whose logical warp width is assumed.
pub const WARP_LIBRARY_WIDTH: DiagInfo = DiagInfo {
    id: "H033",
    name: "warp-library-width",
    severity: Severity::Warning,
    summary: "A cub::Warp* primitive whose logical warp width differs between CUB and hipCUB",
    explain: "\
`cub::WarpReduce`, `WarpScan`, `WarpExchange`, `WarpLoad`, `WarpStore` and `WarpMergeSort` take a \
logical warp width as their second template argument. Left out, CUB uses 32 but hipCUB uses the \
hardware wavefront: 64 on CDNA (MI100, MI200, MI300), 32 on RDNA. Code that sizes its \
`TempStorage` arrays or computes warp indices with 32 then gets one primitive per 64 threads on \
CDNA, and half the data is never combined (warning).

An explicit width of 32 is portable: CDNA runs two 32-lane logical warps per wavefront, so \
indices and storage counted by 32 match it. Mixed with `warpSize` it is not: a function that \
numbers lanes or strides by `warpSize` (`lane = tid % warpSize; for (i = lane; i < n; i += \
warpSize)`) and reduces with `cub::WarpReduce<float, 32>` gathers values in lanes 32-63 that \
the second 32-lane logical warp reduces on its own, so lane 0's result misses them on CDNA \
(warning; use 32 throughout, or the default width with `warpSize`). A width of 64 exceeds \
RDNA's 32-lane wavefront (warning); wider widths exceed every AMD wavefront (error).

CUB 1.7 and older declare the shuffles without a width or a mask: `cub::ShuffleIndex(x, lane)`, \
`cub::ShuffleUp(x, delta)`, `cub::ShuffleDown(x, delta)`. hipCUB declares them only as \
`template <int LOGICAL_WARP_THREADS, typename T> T ShuffleIndex(T, int, unsigned int \
member_mask)` (`ShuffleUp`/`ShuffleDown` also take a first or last lane), with no default for \
either, so such a call does not compile after the rename (error): use `__shfl(x, lane)` \
(`__shfl_up`, `__shfl_down`), which works on the whole wavefront, or give the width and a mask, \
`hipcub::ShuffleIndex<HIPCUB_DEVICE_WARP_THREADS>(x, lane, mask)`.

Fix: pass the width explicitly and derive warp indices and storage counts from that same \
constant, or make it a template parameter chosen on the host from hipDeviceAttributeWarpSize.",
};

/// H034: cuBLAS calls whose hipBLAS argument types change between releases.
pub const BLAS_COMPUTE_TYPE: DiagInfo = DiagInfo {
    id: "H034",
    name: "blas-compute-type",
    severity: Severity::Warning,
    summary: "cuBLAS *Ex calls and compute types whose hipBLAS counterparts differ by release",
    explain: "\
`cublasGemmEx`, `cublasGemmBatchedEx` and `cublasGemmStridedBatchedEx` take a \
`cublasComputeType_t`. hipBLAS took a `hipblasDatatype_t` there until ROCm 6.0, then offered \
`hipblasComputeType_t` through the `_v2` functions (or with `HIPBLAS_V2` defined) while \
deprecating the old interface, and hipBLAS 3.0 (ROCm 7.0) dropped `hipblasDatatype_t` and made \
that API its only one, under the names without `_v2`. hipport writes `hipblasGemmEx_v2` for \
HIP 6.0 to 6.4 and `hipblasGemmEx` from HIP 7.0 on (the same for all 200-odd `_v2` names of \
hipBLAS 2.x, see `rules/data/hip-renamed.tsv`). Translated code is therefore tied to the hipBLAS \
release it was translated for: pin it with `--hip-version` and build against that ROCm. Mixing `HIP_R_16BF` and \
`HIPBLAS_R_16BF` in one call gives overload errors.

`CUBLAS_COMPUTE_32F_FAST_TF32` maps to `HIPBLAS_COMPUTE_32F_FAST_TF32`, which the rocBLAS \
backend answers with HIPBLAS_STATUS_NOT_SUPPORTED; use `CUBLAS_COMPUTE_32F`.

With `--blas rocblas` these calls become rocBLAS's `rocblas_gemm_ex` family, reported as T015 \
with rocBLAS's form, and H034 is not reported.",
};

/// H035: shuffles of half-precision values.
pub const HALF_SHUFFLE: DiagInfo = DiagInfo {
    id: "H035",
    name: "half-shuffle",
    severity: Severity::Error,
    summary: "__shfl* on a __half or bfloat16 value, which the target HIP does not overload",
    explain: "\
CUDA overloads the warp shuffles for `__half`, `__half2` and `__nv_bfloat16`. HIP before 5.6 has \
shuffles only for 32- and 64-bit integers, float and double: with HIP 5.2.3 `__shfl_xor(h, 1)` on \
a `__half` fails with \"call to '__shfl_xor' is ambiguous\", and on a `__half2` with \"no matching \
function for call to '__shfl_xor'\". HIP 5.6 added `__shfl`, `__shfl_up`, `__shfl_down` and \
`__shfl_xor` for `__half` and `__half2` to `amd_hip_fp16.h` (HIP 6.2's `_sync` forms forward to \
them), so for a target of 5.6 or later a `__half`/`__half2` shuffle is not reported.

bfloat16 shuffles are overloaded in ROCm 7's `hip_bf16.h`; the 6.x release that first declared \
them is not pinned, so for HIP 6.x targets a bfloat16 shuffle is a warning, before 6.0 an error, \
and from 7.0 on not reported. `at::Half`/`c10::Half` values are an error at every version.

A value declared with or cast to a half type is reported as above, also where its type is a \
plain alias of one (`typedef __half h16;`, `using h16 = __half;`) or `auto` from a half \
initializer. Where it is a parameter whose type is a template parameter of the function \
(`template <class T> T sum(T v) { ... __shfl_down_sync(m, v, o) ... }`), each call of the \
function in the file that makes that parameter a half type (`sum<__half>(x)`, `sum(h)`) is \
reported. A value cast to (or declared \
as) a type alias whose `using` or `typedef` earlier in the file names `__half`, `half`, \
`at::Half`, `c10::Half`, `__nv_bfloat16` or `__hip_bfloat16` (`using float_t = \
std::conditional<std::is_same<T, at::Half>::value, __half, T>::type`) is a warning where the half \
type would be reported: the shuffle fails to compile in the instantiations where the alias is a \
half type.

Fix (these compile with HIP 5.2.3): for `__half`, shuffle the 16 bits, \
`__ushort_as_half(__shfl_xor(__half_as_ushort(h), 1))`; for `__half2`, shuffle the 32 bits of \
the pair, `__builtin_bit_cast(__half2, __shfl_xor(__builtin_bit_cast(unsigned, h2), 1))`; or \
shuffle the value converted to float.",
};

/// H036: `cudaDeviceProp` fields that `hipDeviceProp_t` gained only in HIP 6.0.
pub const DEVICE_PROP_FIELD: DiagInfo = DiagInfo {
    id: "H036",
    name: "device-prop-field",
    severity: Severity::Error,
    summary: "Struct members HIP 5 lacks: cudaDeviceProp fields before HIP 6.0, cudaPointerAttributes::type before 5.5",
    explain: "\
HIP 5.2.3's `hipDeviceProp_t` has 53 members, some of them AMD's own; of the 80 of CUDA 11.8's \
`cudaDeviceProp`, 38 are not among them: these \
(`sharedMemPerMultiprocessor`, `regsPerMultiprocessor`, `sharedMemPerBlockOptin`, \
`maxBlocksPerMultiProcessor`, `persistingL2CacheMaxSize`, `asyncEngineCount`, `uuid`, the \
texture and surface limits, ...) arrived with HIP 6.0's `hipDeviceProp_tR0600`. Reading one of \
them fails to compile when the target is HIP 5 (\"no member named ... in hipDeviceProp_t\").

HIP 5 names the shared memory per multiprocessor `maxSharedMemoryPerMultiProcessor`, and HIP 6 \
keeps that name, so `--fix` rewrites `sharedMemPerMultiprocessor` to it.

`cudaPointerAttributes::type` (CUDA 10 and later) is `memoryType` in HIP's \
`hipPointerAttribute_t` up to HIP 5.4; HIP 5.5 has both names and HIP 6.0 only `type`. For a \
target before 5.5, `--fix` renames the member to `memoryType`.

`cudaTextureDesc::disableTrilinearOptimization` and `seamlessCubemap` (CUDA 11) are not members \
of HIP 5.2.3's `hipTextureDesc` (texture_types.h); reported for HIP 5.2 targets, later releases \
not checked.

For the other fields HIP 5 offers no substitute on AMD. HIP 5.2.3's `hipDeviceAttribute_t` \
names an attribute for each, but its header marks most of them \"Cuda only\" \
(`hipDeviceAttributeAsyncEngineCount`, `SharedMemPerBlockOptin`, `UnifiedAddressing`, \
`MaxBlocksPerMultiProcessor`, `Uuid`, the layered and mipmapped texture limits, ...), and HIP \
5's AMD runtime (hipamd's `hipDeviceGetAttribute`, read in source; not run here, for want of an \
AMD GPU) has no case for any of them, nor for the unmarked `MaxSurface1D/2D/3D`, \
`LocalL1CacheSupported` and `MaxRegistersPerMultiprocessor`: the call returns \
`hipErrorInvalidValue` and leaves the output unset.

Fix: target HIP 6.0 or later with `--hip-version`, where `hipDeviceProp_t` has the members, or \
do without the value on HIP 5 (the help names the attribute and whether it is marked).",
};

/// H037: compute-capability tests, which HIP answers with the GFX IP version.
pub const COMPUTE_CAPABILITY: DiagInfo = DiagInfo {
    id: "H037",
    name: "compute-capability",
    severity: Severity::Warning,
    summary: "Compute-capability tests, which HIP answers with the GFX IP version",
    explain: "\
CUDA code often picks a path by compute capability: `prop.major >= 8` for Ampere features, \
`major * 10 + minor >= 90` for Hopper. HIP fills `major` and `minor` (and the \
ComputeCapabilityMajor/Minor attributes) with the GFX IP version of the AMD GPU: gfx90a (MI200) \
is 9.0, gfx942 (MI300) 9.4, gfx1030 (RDNA2) 10.3, gfx1100 (RDNA3) 11.0. Every AMD GPU therefore \
passes a test written for Volta, Ampere or Hopper, and the code takes a path built for NVIDIA \
hardware (tensor-core tile shapes, `cp.async` pipelines, 32-lane warps) without any error.

`cudaChooseDevice(&dev, &want)` with `want.major = 8` asks for compute capability 8 or later; \
HIP's `hipChooseDevice` compares each nonzero field of `want` with `>=`, `major` and `minor` \
separately, against the GFX IP version, so `major = 8` admits every gfx9 and later GPU, and a \
device that matches nothing leaves the answer at device 0.

A test whose thresholds are compute capability 3.x or older (`major < 1 || (major == 1 && \
minor < 3)`, the old \"double precision needs sm_13\" check; `major * 10 + minor < 13`) is a \
note: every AMD GPU passes it as every NVIDIA GPU of the last decade does, so it behaves the \
same after the port.

Each test is reported (once per line); the capability queries (the major and minor attributes, \
`cuDeviceComputeCapability`) once per function. So is each call of cuda-samples' \
`_ConvertSMVer2Cores` and `_ConvertSMVer2ArchName` (helper_cuda.h), whose tables hold NVIDIA's \
compute capabilities only and fall back to their last entry for a GFX IP version; an AMD compute \
unit has 64 stream processors.

Fix: branch on what the code needs: the architecture name (`prop.gcnArchName`, for example \
starting with `gfx9`), an attribute query (`hipDeviceGetAttribute`), the warp size, or \
`__HIP_PLATFORM_AMD__` at compile time.",
};

/// H038: CUDA 12.2+/13 call forms that HIP's functions of the same name do not take.
pub const NEW_SIGNATURE: DiagInfo = DiagInfo {
    id: "H038",
    name: "new-signature",
    severity: Severity::Error,
    summary: "CUDA 12/13 call forms (cudaMemLocation arguments, the three-argument graph update) that HIP's functions do not take",
    explain: "\
CUDA 12.2 added `cudaMemPrefetchAsync_v2(ptr, bytes, location, flags, stream)` and \
`cudaMemAdvise_v2(ptr, bytes, advice, location)`, which take a `cudaMemLocation` instead of a \
device number, and CUDA 13 gave those forms the plain names. The translator renames the call to \
`hipMemPrefetchAsync`/`hipMemAdvise`, whose HIP forms take `int device` (and four arguments for \
the prefetch), so the result does not compile; HIPIFY's tables list no HIP name for the `_v2` \
forms. HIP 7.1 added `hipMemPrefetchAsync_v2` and `hipMemAdvise_v2` with CUDA's parameters: from \
`--hip-version 7.1` the `_v2` names map to them and a five-argument `cudaMemPrefetchAsync` \
becomes `hipMemPrefetchAsync_v2` (a four-argument `cudaMemAdvise` with a location cannot be told \
from the device form by its arguments, so it is still reported, pointing at `hipMemAdvise_v2`).

CUDA 12.0 changed `cudaGraphExecUpdate(exec, graph, &errorNode, &result)` (and \
`cuGraphExecUpdate`) to `cudaGraphExecUpdate(exec, graph, &resultInfo)`, with a \
`cudaGraphExecUpdateResultInfo` holding `result`, `errorNode` and `errorFromNode`. HIP's \
`hipGraphExecUpdate` (HIP 5.2.3's hip_runtime_api.h, and HIP 6) keeps CUDA 11's four \
arguments, `(hipGraphExec_t, hipGraph_t, hipGraphNode_t* hErrorNode_out, \
hipGraphExecUpdateResult* updateResult_out)`, and HIPIFY's tables list no HIP name for the \
struct, so the renamed three-argument call does not compile (\"no matching function\"). The \
struct has no HIP counterpart to hold the two outputs, so hipport does not rewrite the call.

Fix: pass the device number, `location.id` when `location.type` is \
`cudaMemLocationTypeDevice` (`hipCpuDeviceId` for the host), and drop the flags argument. For \
the graph update, declare `hipGraphNode_t errorNode; hipGraphExecUpdateResult result;`, call \
`hipGraphExecUpdate(exec, graph, &errorNode, &result)`, and read those where the code read the \
struct's members.",
};

/// H039: NVRTC options that name an NVIDIA architecture.
pub const RTC_ARCH_OPTION: DiagInfo = DiagInfo {
    id: "H039",
    name: "rtc-arch-option",
    severity: Severity::Error,
    summary: "NVRTC options naming an NVIDIA architecture, which hipRTC takes as the AMD target or ignores",
    explain: "\
`nvrtcCompileProgram` becomes `hiprtcCompileProgram`, and its option strings are passed through \
unchanged. What HIP 5.2.3's hipRTC does with an option naming an NVIDIA architecture depends on \
the spelling (each case run with hipRTC by hipport's tests):

- `--gpu-architecture=compute_80` or `--gpu-architecture=sm_80` (error): hipRTC rewrites \
`--gpu-architecture=` to `--offload-arch=` and takes the first such option's value as the AMD \
target. Given first (the usual case), the NVIDIA name aborts the whole process inside \
`hiprtcCompileProgram` (`munmap_chunk(): invalid pointer`, SIGABRT), not just the compilation; \
after a `--gpu-architecture=gfx90a` the compilation fails (\"invalid target ID 'compute_80'\").
- `--gpu-architecture`, `sm_80` as two strings (error): clang rejects `--gpu-architecture` \
without `=` (\"unsupported option\") and reads `sm_80` as an input file; the compilation fails \
even with an AMD target given.
- `-arch=sm_80`, `-arch=compute_80`, or `-arch`, `sm_80` as two strings (warning): clang ignores \
the option (\"argument unused during compilation\", in the program log) and the code is built \
for the `--gpu-architecture=gfx...` option if one is given.
- With no AMD target given (no architecture option, or only an ignored `-arch`), hipRTC asks \
the HIP runtime for the current device (`hipGetDevice`, then its `gcnArchName`) and compiles for \
it; with no AMD GPU visible the compilation fails with an empty log. `-arch=gfx90a` is not an \
AMD target either: only `--gpu-architecture=` and `--offload-arch=` are.

hipport reads every string literal of a file that calls `nvrtcCompileProgram`, and reports a \
literal that names an architecture, or builds one at run time (`\"--gpu-architecture=compute_\" \
+ std::to_string(major * 10 + minor)`, `\"-arch=sm_%d%d\"`).

Fix: pass the AMD target of the device the kernel will run on, read at run time: \
`std::string(\"--gpu-architecture=\") + prop.gcnArchName` after `hipGetDeviceProperties(&prop, \
device)`, first among the options. `--fix` writes nothing: the target is known only at run time, \
and dropping the option changes the number of options passed.",
};

/// H040: driver-API loading and linking of NVIDIA code (PTX, cubin, fatbinary).
pub const NVIDIA_CODE_OBJECT: DiagInfo = DiagInfo {
    id: "H040",
    name: "nvidia-code-object",
    severity: Severity::Error,
    summary: "Loading or JIT-linking PTX, cubin or fatbinary, which AMD GPUs cannot run",
    explain: "\
The driver API loads and links NVIDIA code: `cuModuleLoad(&m, \"kernels.ptx\")` (the path \
written there, or through the file's macro or constant: `#define KERNEL_FILE \"compare.ptx\"`; \
a path hipport cannot follow to a name, such as a parameter, gets a note, since a CUDA module \
file is NVIDIA code whatever its name), `cuModuleLoadData` on PTX text or on an image read from \
a `.fatbin`, `.cubin` or `.ptx` file the function names (in a literal or the file's macro; an \
image hipport cannot follow gets a note, unless the file makes it with NVRTC), and \
`cuLinkAddData`/`cuLinkAddFile` with `CU_JIT_INPUT_PTX`, \
`_CUBIN`, `_FATBINARY`, `_OBJECT`, `_LIBRARY` or `_NVVM`. The calls are renamed to \
`hipModuleLoad`, `hipModuleLoadData` and `hiprtcLinkAdd*`, which compile, but on an AMD GPU \
a module is an AMD code object (an ELF file for the `amdgcn` target) and hipRTC's linker takes \
LLVM bitcode (`HIPRTC_JIT_INPUT_LLVM_BITCODE`, from hipRTC with `-fgpu-rdc`): NVIDIA's formats \
fail at run time. Before HIP 6.4, `hiprtcLinkCreate` and `hiprtcLinkAddData` also take their \
options as `hiprtcJIT_option`, a different enum from the `hipJitOption` that `CUjit_option` \
becomes, so an options array does not compile there. Where a build rule of the converted tree \
writes the loaded file with hipcc's `--genco` (a CMake custom command that ran `nvcc -fatbin`, \
which hipport converts; the rule's `-o`, a variable the build file sets once, or its `OUTPUT`), \
the file is an AMD code object and the report is a note naming the rule, whose \
`--offload-arch` targets decide the GPUs it runs on; a rule hipport does not convert (a \
Makefile's `-fatbin`, B003) keeps the error.

Fix: build the kernels for AMD, offline (`hipcc --genco --offload-arch=gfx90a kernels.hip -o \
kernels.hsaco`, then `hipModuleLoad` that file) or at run time with hipRTC (the translated \
NVRTC calls give a code object for `hipModuleLoadData`).",
};

/// H041: CUDA version numbers compared with what HIP's version queries return.
pub const VERSION_QUERY: DiagInfo = DiagInfo {
    id: "H041",
    name: "version-query",
    severity: Severity::Warning,
    summary: "Runtime or driver version queries compared with CUDA version numbers",
    explain: "\
`cudaRuntimeGetVersion`, `cudaDriverGetVersion` and `cuDriverGetVersion` become \
`hipRuntimeGetVersion` and `hipDriverGetVersion`. On AMD GPUs both return the HIP runtime's \
own version, counted like HIP_VERSION (50221153 for Debian's HIP 5.2.3, 60443483 for 6.4; HIP \
5.2.3's header still documents the driver version as always 4, which is no longer so). Neither \
has any relation to CUDA's numbers, and the two are equal, so `driver < runtime` checks pass. A test \
such as `version >= 11020` then passes or fails for reasons unrelated to the features it was \
written for. hipport reports a query when its function also compares with a number in CUDA's \
range (9000 to 19999); a value that is only printed is not reported.

Fix: test the feature itself (`hipDeviceGetAttribute`, `HIP_VERSION` at compile time for HIP \
APIs), or branch on `__HIP_PLATFORM_AMD__`.",
};

/// H042: integer arithmetic on `CUdeviceptr`, which HIP makes a pointer.
pub const DEVICEPTR_INTEGER: DiagInfo = DiagInfo {
    id: "H042",
    name: "deviceptr-integer",
    severity: Severity::Error,
    summary: "Integer arithmetic on CUdeviceptr, which becomes the pointer hipDeviceptr_t",
    explain: "\
The driver API's `CUdeviceptr` is an unsigned integer (`unsigned long long`), so CUDA code \
offsets, aligns and masks device addresses with integer arithmetic: `base + offset`, \
`(p + 255) & ~255`, `p % 256`. hipport renames the type to `hipDeviceptr_t`, which HIP defines \
as `void*`: arithmetic on `void*` and bitwise operators on a pointer do not compile.

Fix: do the arithmetic on an integer and cast at the boundary: \
`(hipDeviceptr_t)((uintptr_t)base + offset)`, or `static_cast<char*>(base) + offset` for a \
byte offset.",
};

/// H043: device intrinsics that HIP defines with other results.
pub const INTRINSIC_RESULT: DiagInfo = DiagInfo {
    id: "H043",
    name: "intrinsic-result",
    severity: Severity::Error,
    summary: "Device intrinsics whose HIP definitions compute something else",
    explain: "\
Some CUDA device intrinsics keep their names in HIP but not their results. HIP's integer \
`__hadd(int, int)` and `__rhadd(int, int)` (amd_device_functions.h, in HIP 5.2.3 and in later \
ROCm/clr sources) end in `return ((value) >> 1 || sign);`, a logical OR, so they return 0 or 1 \
instead of the halved sum: `__hadd(10, 20)` is 1, not 15. hipport reports calls whose \
arguments are integers (literals or variables declared with an integer type); `__hadd` on \
`__half` values is the half-precision add and is not affected. `__uhadd` and `__urhadd`, which \
CUDA computes without overflow in the intermediate sum, are `(x + y) >> 1` and \
`(x + y + 1) >> 1` in 32 bits in HIP 5.2.3: sums of 2^32 or more differ (a warning). CUDA's \
`__hisinf` returns -1 for negative infinity; HIP's returns a `bool`, so `__hisinf(x) == -1` is \
never true (an error). A shuffle's source lane written as an offset with a width \
(`__shfl_sync(m, v, lane + 1, 8)`) wraps within the group of `width` lanes in CUDA; HIP's \
`__shfl` before 6.2 adds the group's base without wrapping (a warning). HIP 5.2.3's `hrcp` and \
`h2rcp` call `__llvm_amdgcn_rcp_f16`, which its device libraries do not define: the code \
compiles but the device link fails (\"undefined hidden symbol\"); headers of later releases (by \
5.6) define it, so these are reported for targets before 5.6 (divide instead: \
`__hdiv(__float2half(1.0f), x)`).

In HIP 5 (5.2.3's amd_hip_fp16.h), `__half2`'s members `x` and `y` are `unsigned short`: the \
raw bit patterns of the two halves. CUDA code that reads `v.x` as a half (`__half2float(v.x)`, \
`float lo = v.x`) converts the integer value of the bit pattern instead; later ROCm/clr sources \
make the members `__half`. hipport reports reads and writes of `.x`/`.y` on variables declared \
`__half2`, on elements of `__half2` arrays and pointers (`a[i].x`) and through `__half2` pointers \
(`p->x`, `(*p).x`) when the target is before HIP 6.0, and `--fix` turns reads into \
`__low2half(v)` / `__high2half(v)` (`__low2half(a[i])`, `__low2half(*p)`).

Conversions that name a rounding mode: HIP 5.2.3's headers convert `__double2float_rd`/`_ru`/`_rz` \
and the integer-to-float forms (`__int2float_rd`, `__ll2double_ru`, ...) with a plain cast, which \
rounds to nearest (hipcc folds `__double2float_rd(0.1)` to 0.1f, not the value below); later ROCm \
headers call OCML's directed conversions, in a release not confirmed here, so these are reported \
for targets before 6.0, as is `__float2half_rd`/`_ru`/`_rz`. In every release read (HIP 5.2.3 to the \
newest ROCm/clr headers) half-to-integer conversions truncate whatever the mode (`__half2int_rn` \
of 2.75 is 2, `__half2int_rd` of -0.5 is 0) and integer-to-half ones round to nearest; those are \
reported for every target, and `--fix` rewrites half-to-integer ones exactly as \
`(int)floorf(__half2float(h))` (`rintf` for `_rn`, `ceilf` for `_ru`).

Fix: compute the average directly, widened so the sum cannot overflow: \
`(int)(((long long)x + y) >> 1)`, and `(int)(((long long)x + y + 1) >> 1)` for `__rhadd`; read \
half2 members with `__low2half`/`__high2half`.",
};

/// H044: cooperative-groups members HIP 5.2.3 lacks.
pub const CG_MEMBER: DiagInfo = DiagInfo {
    id: "H044",
    name: "cg-member-missing",
    severity: Severity::Error,
    summary: "Cooperative-groups members that the target HIP does not have",
    explain: "\
HIP 5.2.3's cooperative groups (amd_hip_cooperative_groups.h) give groups `size`, \
`thread_rank`, `sync`, `group_index`, `thread_index`, `is_valid` and the tile shuffles, and \
nothing else. Later releases added, by HIP's changelogs and headers: `meta_group_rank` and \
`meta_group_size` in 5.7; a tile's or coalesced group's `ballot`, `any`, `all`, `match_any` and \
`match_all`, and `binary_partition`, in 6.2 (declared in 6.2 to 6.4 only when \
`HIP_ENABLE_WARP_SYNC_BUILTINS` is defined, like the `_sync` builtins they call; on by default \
from 7.0); a block's and grid's `group_dim` by 6.2 (the release between 5.3 and 6.2 that added \
it is not known, so hipport counts from 6.2); `num_threads` in 7.0; a grid's `block_rank` in \
7.12. CUDA 12's `dim_threads`, a grid's `num_blocks`, `block_index` and `dim_blocks`, and \
`labeled_partition` are in no HIP release. Nor are CUDA's `<cooperative_groups/reduce.h>` and \
`<cooperative_groups/scan.h>` in the releases through 7.0: `cg::reduce`, the `cg::plus`, `less`, \
`greater` and `bit_*` operators, and the scans are reported at their call (ROCm 7.13 adds \
`reduce` and the operators in <hip/amd_detail/amd_hip_cooperative_groups_reduce.h>, which CUDA's \
include does not become: targeting 7.13 or newer, a warning says to include it; no scan; the \
source is ROCm/HIPIFY issue #2597). The first such report in a file also says to remove the \
`#include` of the CUDA header, which no HIP release has, and stands for T007's report there. \
A member the target lacks does not compile (\"no \
member named ...\"). hipport reports them, on variables declared as a group (or `auto` from \
`tiled_partition`, `this_thread_block`, `coalesced_threads`, `this_grid`), for the target \
`--hip-version`, and for HIP 6.2 to 6.4 warns once per file that the votes need the macro and \
that those releases' headers build a tile's vote mask as `mask << (thread_rank() / size * size)` \
with the thread's rank in the block: from the 65th thread of a block the shift reaches 64, so \
votes in blocks of more than 64 threads read the wrong lanes (or, with an empty mask, trap in \
builds without NDEBUG). Newer headers take the rank modulo `warpSize`; the first release with \
that fix is not known. In a branch hipcc skips, the report is a note, except in a \
`__CUDA_ARCH__` branch that holds a kernel's whole body (`#if __CUDA_ARCH__ >= 700` around \
`cg::labeled_partition(...)`): H011 reports there that the kernel compiles empty and offers to \
drop the guard, so a missing member there is a warning, since it fails to compile as soon as the \
guard goes (H011's help names it too).

Fix: vote with `__ballot`/`__any`/`__all` on the wavefront (64-bit results), compute \
`meta_group_rank()` as `thread_rank() / tile size` of the parent (`threadIdx.x / 32` for \
`tiled_partition<32>` in one-dimensional blocks), `meta_group_size()` as the parent's size over \
the tile's, rounded up (`(blockDim.x + 31) / 32`), which the help gives for those two, and \
`num_threads()` as `size()`.",
};

/// H046: texture fetches with an explicit level of detail or gradients, which gfx90a cannot do.
pub const TEXTURE_LOD: DiagInfo = DiagInfo {
    id: "H046",
    name: "texture-lod-gfx90a",
    severity: Severity::Warning,
    summary: "Texture fetches with an explicit LOD or gradients: no gfx90a (MI200) code",
    explain: "\
`tex2DLod`, `tex2DGrad` and the other `...Lod`/`...Grad` texture fetches compile to image \
sampling instructions that gfx90a (MI200) does not have: hipcc 5.2.3 stops with \"fatal error: \
error in backend: requested image instruction is not supported on this GPU\" for \
`--offload-arch=gfx90a`, while gfx908 and RDNA (gfx1030) compile them; MI300 (gfx94x) has no \
image instructions at all (H052). gfx90a is among the default targets hipport writes into build \
files. Plain `tex2D`/`tex1Dfetch` are not affected.

Fix: drop gfx90a from the targets of the files that use them, or sample the level yourself \
(bilinear interpolation of a chosen mip level from a plain array).",
};

/// H052: texture and surface object reads and writes, which MI300 (gfx94x) cannot do.
pub const TEXTURE_MI300: DiagInfo = DiagInfo {
    id: "H052",
    name: "texture-mi300",
    severity: Severity::Warning,
    summary: "Texture and surface object reads and writes: no MI300 (gfx94x) code",
    explain: "\
MI300 GPUs (gfx940, gfx941, gfx942) have no image instructions, so nothing that goes through the \
texture unit compiles for them: hipcc 5.2.3 stops on `tex1D`/`tex2D`/`tex3D` and the layered and \
cubemap fetches with \"fatal error: error in backend: requested image instruction is not \
supported on this GPU\" for `--offload-arch=gfx940`, and later HIP headers define \
`__HIP_NO_IMAGE_SUPPORT` for gfx940-gfx942, which marks every texture and surface function \
(`tex1Dfetch` and `surf2Dwrite` too) unavailable: \"The image/texture API not supported on the \
device\". gfx942 is among the default targets hipport writes into build files from HIP 6.0. \
The host side (`hipCreateTextureObject`, arrays) is not affected, and at run time \
`hipDeviceAttributeImageSupport` says whether a device has images. hipport reports the first \
such call in each function; `...Lod`/`...Grad` fetches are reported as H046, and fail on MI300 \
as well.

hipport leaves this out where `--offload-arch` names no gfx94x target.

Fix: build the files that use textures or surfaces without gfx94x, or, for MI300, read the data \
from global memory through a `const __restrict__` pointer (with a pitched or linear layout), \
doing by hand what the texture did: clamping or wrapping the coordinates and interpolating \
between neighbours for linear filtering.",
};

/// H050: a ballot of a NaN test, which HIP 5.2.3's hipcc cannot compile.
pub const BALLOT_NAN: DiagInfo = DiagInfo {
    id: "H050",
    name: "ballot-nan-test",
    severity: Severity::Error,
    summary: "A ballot of a NaN test: HIP 5.2.3's hipcc crashes on it",
    explain: "\
`__ballot_sync(mask, isnan(v))` (also `__ballot`, `v != v`, `!(v == v)`, `__isnanf`, a double's \
`isnan`, or a `bool` variable initialized with one of them) compiles to an unordered float \
compare inside the wave ballot, which HIP 5.2.3's hipcc (clang 15) cannot select: it stops with \
\"fatal error: error in backend: Cannot select: ... setuo\" for gfx90a and gfx1030 alike. A \
ballot of an ordered compare (`v < 0.f`), of `isinf`, of a predicate that also holds an ordered \
compare (`v < 0.f || v != v`), and `__any`/`__all` of a NaN test compile. hipport reports it as \
an error for targets before HIP 5.3 and as a note for newer ones, whose compilers were not \
checked.

Fix: test the bits, which is an integer compare: `(__float_as_uint(v) << 1) > 0xff000000u` is \
true exactly for a float NaN, and `((unsigned long long)__double_as_longlong(d) << 1) > 0xffe0000000000000ull` for \
a double.",
};

/// H051: thread-block clusters (sm_90), which AMD GPUs do not have.
pub const THREAD_BLOCK_CLUSTER: DiagInfo = DiagInfo {
    id: "H051",
    name: "thread-block-cluster",
    severity: Severity::Error,
    summary: "Thread-block clusters (sm_90): no AMD equivalent",
    explain: "\
Hopper (sm_90) groups thread blocks into clusters: `__cluster_dims__(x, y, z)` on a kernel, the \
launch attribute `cudaLaunchAttributeClusterDimension` (`CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`) \
for `cudaLaunchKernelEx`, the `cudaFuncAttribute...Cluster...` attributes, \
`cudaOccupancyMaxActiveClusters`, and in the kernel `cooperative_groups::this_cluster()` with \
its `cluster_group` (`sync()`, `map_shared_rank()`: distributed shared memory, one block reading \
another's). AMD GPUs before gfx1250 have no level between the block and the grid and no way for a block \
to address another block's LDS, and no released HIP through 7.2 has these names (the rules give \
them no HIP equivalent; HIP's 7.13 preview adds `hipLaunchAttributeClusterDimension` for \
gfx1250 only), so they stay as they are and the output does not compile. This report takes the \
place of T001 there: one report per name, an error (a note in a branch hipcc never compiles).

hipport shows `__cluster_dims__(...)` to its parser as blanks, so the kernel it stands before \
still parses (and its other rewrites apply).

Fix: launch without clusters. Make each block self-contained (a larger block, up to 1024 \
threads, where the cluster shared data), or exchange data between blocks through global memory: \
atomics, a cooperative launch with a grid sync, or a second kernel.",
};

/// H047: `min`/`max` calls HIP resolves to another overload than CUDA.
pub const MIN_MAX_OVERLOAD: DiagInfo = DiagInfo {
    id: "H047",
    name: "min-max-overload",
    severity: Severity::Error,
    summary:
        "min/max: HIP's host overload is int-only, and mixed types compute in double on the device",
    explain: "\
CUDA's `crt/math_functions.hpp` defines the global `min` and `max` as `static inline __host__ \
__device__` functions for every arithmetic type, including mixed signedness (`unsigned int \
min(int, unsigned int)` compares as unsigned), so nvcc accepts them in host code too (clang's \
CUDA mode keeps them device-only). HIP does not, and both differences compile without a warning:

- Host code: HIP's only host `min`/`max` take `int` (clang's `__clang_hip_math.h`, HIP 5.2.3 \
to 7.x; wider host overloads exist only behind `__HIP_DEFINE_EXTENDED_HOST_MIN_MAX__`). With \
hipcc 5.2.3, host `min(0.5f, 0.7f)` returns 0, `max(1ll << 40, 3ll)` returns 3 and \
`min(size_t(1) << 33, size_t(1) << 34)` returns 0. An error for floating-point and 64-bit \
arguments, a warning for `unsigned int` (wrong above 2^31 - 1). In a `__host__ __device__` \
function that the file calls, and only from device code (kernels, `__device__` functions), the \
host side never runs where no other file can call it (`static`, an unnamed namespace, or \
`inline` in a source file): a note without a fix. Such a helper in a header (`inline`, `static` \
or in an unnamed namespace), with the same callers there, is a warning, since each file that \
includes it may call its copy on the host; a helper \
with external linkage keeps the error (a header may declare it for host code elsewhere), and so \
does one the file never calls, as its callers are not known.
- Device code: two arguments of different types match HIP's template that converts both to \
`double` (checked in hipcc's device IR). For `int` and `unsigned int`, CUDA compares as \
unsigned and HIP as signed, so `min(-1, 5u)` is 5 in CUDA and -1 in HIP; 64-bit values above \
2^53 are rounded; the result is a `double`. A warning, since the values agree while the signed \
argument is not negative.

hipport infers the arguments' types from declarations, literals, casts, arithmetic and the \
members of CUDA vector types (`p.x` of a `uint2` is `unsigned int`, of a `dim3` too), of \
`cudaDeviceProp` (`prop.multiProcessorCount` is `int`, `prop.sharedMemPerBlock` is `size_t`) and \
of the file's structs, and stays \
silent where they are unknown, where CUDA itself finds the call ambiguous (mixed ranks such as \
`int` and `long`), in files that define their own `min`/`max` or use `std::min`, and in files \
host compilers build.

Fix (`--fix`): host and `__host__ __device__` code call `std::min<T>(a, b)` with CUDA's \
overload type `T` (constexpr, so it compiles for the device too); device code converts the \
signed argument to the unsigned type.",
};

/// H048: blocks one warp wide with several rows, whose rows share a 64-lane wavefront.
pub const WARP_WIDE_ROWS: DiagInfo = DiagInfo {
    id: "H048",
    name: "warp-wide-rows",
    severity: Severity::Error,
    summary: "Blocks 32 threads wide with several rows: two rows share a 64-lane wavefront",
    explain: "\
A common CUDA layout gives each row of a 2-D block one warp: `dim3 block(32, 8)`, with \
`threadIdx.x` as the lane and `threadIdx.y` as the row. Threads are numbered x first, so a \
64-lane wavefront (CDNA: MI100, MI200, MI300) holds two rows, and warp operations written for \
one row see both. The rule reads the file's launches (`k<<<g, dim3(32, 8)>>>`), and for a \
kernel the file does not launch, the kernel's own numbering of its threads as rows of 32 \
(`threadIdx.y * 32 + threadIdx.x`, the 32 a literal or a constant: blocks 32 threads wide, \
launched elsewhere):

- `__shfl_sync(mask, v, 0)` reads lane 0 of the wavefront: the second row receives the first \
row's value (HIP computes the source as `src_lane + (lane & ~(width - 1))` with width \
`warpSize` = 64). An error.
- `__shfl_up_sync`/`__shfl_down_sync`: lanes at a row's edge read the other row, where CUDA \
returns their own value. A warning; not reported where the code shows it is unaffected: a \
reduction tree (the distance halving from at most 16, or doubling from 1 while below 32) whose \
result only each row's lane 0 reads \
(`threadIdx.x == 0`, a lane `% 32 == 0`, through a helper's return too) or broadcasts from \
lane 0 (reported there), and shifts guarded to stay in the row (`lane >= i` for an up shift, \
with `lane` a lane within 32, or `threadIdx.x` in blocks 32 threads wide).
- `__ballot_sync`, `__any_sync`, `__all_sync`, `__activemask`: the vote covers both rows. An \
error; not in a branch one row takes alone (`if (threadIdx.y == k)`, or its `else` in blocks of \
2 rows, or a device function only such branches call), where the other row's lanes are off \
and the vote counts one row.
- `cub::WarpReduce`, `WarpScan` and the other CUB warp primitives without a width: CUB's \
logical warp is 32 lanes, hipCUB's the whole wavefront, so one reduction or scan takes two \
rows. An error (elsewhere the default width is H033's warning).

The same holds for groups of 32 threads in one-dimensional blocks: a kernel or device function \
that numbers them, lanes and groups both (`lane = threadIdx.x % kGroup` with the group `gid / \
kGroup`, or `>> 5`, `& 31`, the 32 a literal, a constant, or template parameters whose \
values every instantiation the file writes gives, `k<8, 4><<<...>>>` for `TILEX * TILEY`, or \
their defaults) and broadcasts with \
`__shfl_sync(mask, v, src)` (no width) from a source lane that is below 32 (a constant, a loop \
from 0 up to below 32, `x % 32`, `x & 31`) gets the same error and fix: CUDA's width of 32 kept \
each group's broadcast in the group, HIP's default width is the wavefront, so on 64 lanes the \
second group reads the first group's lane. The group numbering may also be in a function \
that calls the one that broadcasts, three levels up (`lane = threadIdx.x & 31` in a kernel that \
passes it to a device function). Not where the function also reads `warpSize` (which \
width it means is then open), where the file launches the kernel only with blocks 32 threads \
wide (one group per block), nor where H001 already reports the shuffle (from lane 31). With the \
width the function works on 32-lane segments, so H001's findings on its group arithmetic are \
dropped as in other segment code.

`__shfl_xor_sync` with lane distances below 32 stays inside a row and is not reported; on RDNA \
(32-lane wavefronts) the layout ports unchanged. hipport reads the kernels the file launches with \
such blocks (`dim3(32, N)` or a `dim3` variable initialised so), and the device functions they \
call, three levels deep.

Fix (`--fix`): shuffles get width 32 (`__shfl_sync(mask, v, 0, 32)`), and CUB warp primitives \
a logical width of 32 (`cub::WarpReduce<float, 32>`), which confines each to its row on every \
GPU and means the same in CUDA. Votes need 64-wide blocks, or the row's half of a \
64-bit ballot.",
};

/// H049: NVRTC options that hipRTC (clang) rejects or ignores.
pub const RTC_NVRTC_OPTION: DiagInfo = DiagInfo {
    id: "H049",
    name: "rtc-nvrtc-option",
    severity: Severity::Error,
    summary: "NVRTC compile options that hipRTC rejects (compilation fails) or ignores",
    explain: "\
`nvrtcCompileProgram` becomes `hiprtcCompileProgram`, and its option strings are passed through \
unchanged. hipRTC hands them to clang, which knows none of NVRTC's own options. With HIP 5.2.3 \
most of them fail the run-time compilation (`HIPRTC_ERROR_COMPILATION`, with \"unsupported \
option\" or \"unknown argument\" in the log): `--use_fast_math`, `--fmad=`, `--ftz=`, \
`--prec-div=`, `--prec-sqrt=`, `-rdc=`/`--relocatable-device-code=`, `-G`/`--device-debug`, \
`--generate-line-info`, `-maxrregcount=`, `--restrict`, `--device-as-default-execution-space`, \
`--extensible-whole-program`, `--ptxas-options=`, `--dopt=`, `--disable-warnings`, \
`--diag-suppress=`, and others. Some short spellings are accepted and ignored with a warning, so \
the setting is silently lost: `-use_fast_math` (read as `-u se_fast_math`: no fast math), \
`-lineinfo`, `-default-device` (unmarked functions stay host-only, so kernels that call them do \
not compile), `-ewp`, `-dlto`, `-Xptxas=`.

hipport reads every string literal of a file that calls `nvrtcCompileProgram` (options are often \
collected away from the call) and reports those that spell one of these options exactly. An \
architecture option (`--gpu-architecture=compute_80`) is H039's concern.

Fix (`--fix`): where clang has the same switch the literal is rewritten: `--use_fast_math` to \
`-ffast-math`, `--fmad=true|false` to `-ffp-contract=fast|off`, `--ftz=true|false` to \
`-f[no-]gpu-flush-denormals-to-zero`, `-rdc=true|false` to `-f[no-]gpu-rdc`, `-G` to `-g`, \
`-lineinfo` to `-gline-tables-only`, `--disable-warnings` to `-w`. The others must go (the \
number of options passed changes with them, so hipport leaves that to you); bound registers with \
`__launch_bounds__` instead of `-maxrregcount`.",
};

/// H053: `__HIP_PLATFORM_HCC__`, which ROCm 6.0 removed, deciding a preprocessor branch.
pub const PLATFORM_HCC: DiagInfo = DiagInfo {
    id: "H053",
    name: "hip-platform-hcc",
    severity: Severity::Warning,
    summary:
        "__HIP_PLATFORM_HCC__ in #if/#ifdef: undefined from ROCm 6.0, the HIP branch is skipped",
    explain: "\
Code written for older ROCm tells HIP from CUDA with `#ifdef __HIP_PLATFORM_HCC__` (`#define \
WARP_SIZE 64` for HIP, 32 in the `#else`). HIP's headers defined that name beside \
`__HIP_PLATFORM_AMD__` up to ROCm 5.7 (HIP 5.2.3's hip_common.h defines both); ROCm 6.0 removed \
the long-deprecated name. With HIP 6.0 and later the test is false, so hipcc compiles the other \
branch, often the CUDA one with its 32-lane assumptions, and nothing warns. hipport judges the \
condition for the `--hip-version` target (the name counts as defined only before 6.0, or where \
`-D __HIP_PLATFORM_HCC__` says the build defines it) and reports it when the target skips the \
branch it guards. `__HIP_PLATFORM_NVCC__` (HIP on NVIDIA) went the same way; it is false on AMD in \
every release.

Fix: test `__HIP_PLATFORM_AMD__` (defined by HIP 5.x and later), `__HIPCC__` or the build's \
`USE_ROCM` instead.",
};

/// H054: a launch's error read with `cudaGetLastError` only after another runtime call, which
/// before HIP 7.0 replaced it.
pub const LAST_ERROR: DiagInfo = DiagInfo {
    id: "H054",
    name: "last-error-replaced",
    severity: Severity::Warning,
    summary: "cudaGetLastError after another runtime call: before HIP 7.0 a launch error is lost",
    explain: "\
A kernel launch returns nothing: a bad configuration (grid or block too large, too much shared \
memory) is reported only through the thread's last error, which CUDA keeps until \
`cudaGetLastError` reads it, whatever succeeds in between. Before HIP 7.0, `hipGetLastError` \
returned the status of the thread's last HIP call instead, success included (ROCm's \
hip-7-changes: `hipMalloc` fails, `hipSetDevice` succeeds, `hipGetLastError` gave `hipSuccess`; \
the old behaviour lives on as `hipExtGetLastError`). So `k<<<g, b>>>(...); \
cudaDeviceSynchronize(); CHECK(cudaGetLastError());` stops on a bad launch with CUDA and HIP 7.0, \
and passes with HIP 6.x and older: the synchronisation succeeds (nothing ran) and its \
`hipSuccess` is what the check reads. hipport reports a check (`cudaGetLastError` or \
`cudaPeekAtLastError` whose value is used, `C10_CUDA_KERNEL_LAUNCH_CHECK()`, or a macro of the \
file that calls one of them) that follows a launch in the same host function with another \
`cuda*` runtime call in between, for `--hip-version` targets before 7.0. A second launch in \
between replaces the first one's status the same way, and PyTorch operations between launch and \
check (which launch kernels of their own) too; hipport does not report those.

Fix: check right after each launch (`C10_CUDA_KERNEL_LAUNCH_CHECK()` or \
`CHECK(cudaGetLastError())` as the next statement), then synchronise and check the \
synchronisation's own result for errors of the kernel's run; or build for ROCm 7.0 or later.",
};

/// H055: a warp size of 64 fixed for AMD, which RDNA GPUs (32-lane wavefronts) break.
pub const WARP_SIZE_64: DiagInfo = DiagInfo {
    id: "H055",
    name: "warp-size-64",
    severity: Severity::Warning,
    summary: "A warp size fixed at 64 for AMD: RDNA GPUs run 32-lane wavefronts",
    explain: "\
Code ported to ROCm by hand often fixes the warp size at 64 for HIP (`#ifdef USE_ROCM` / `#define \
WARP_SIZE 64`), since MI-series (CDNA) GPUs run 64-lane wavefronts. RDNA GPUs (Radeon RX \
6000/7000/9000, Radeon PRO, gfx10 to gfx12) run 32 lanes: there `warpSize` is 32, \
`__AMDGCN_WAVEFRONT_SIZE` is 32, a reduction that starts at offset 32 adds each lane to itself \
(a shuffle from beyond the wavefront returns the lane's own value), `lane == 63` is never true, \
and per-warp arrays get half their slots written. hipport's build files target gfx1030 and \
gfx1100 by default, so such a build runs there. hipport reports an object-like macro or \
constant named as a warp size (`WARP_SIZE`, `kWarpSize`, `WAVEFRONT_SIZE`) defined as 64 in code \
hipcc compiles, unless a condition around it names the architecture (`__GFX9__`, `__gfx90a__`, \
`__AMDGCN_WAVEFRONT_SIZE`, `CDNA`), and not where `--offload-arch` names no RDNA target.

hipport also reports a constant of 64 whatever its name where its use shows it is the \
wavefront's size: a shuffle loop that starts at half of it (`for (o = kWarp / 2; ...)`), or an \
`#if` whose other arm defines it as 32 for the CUDA build.

Fix: use `warpSize` (a run-time value on AMD) in device code. A constant the host reads too (a \
launch's block size) cannot be chosen by the architecture, since hipcc's host pass never \
defines `__GFX9__` (see H061): make the warp size a template parameter chosen on the host from \
`hipDeviceAttributeWarpSize`. A constant only device code reads may be 64 only for CDNA \
targets: `#if defined(__GFX9__)` (gfx9 is CDNA and Vega, all wave64), else 32. Or build only \
for CDNA (`--offload-arch gfx90a,gfx942`).",
};

/// H056: a mask-less shuffle given a lane mask first, as a `_sync` builtin takes it.
pub const SHUFFLE_MASK_AS_VALUE: DiagInfo = DiagInfo {
    id: "H056",
    name: "shuffle-mask-as-value",
    severity: Severity::Error,
    summary: "__shfl_down(MASK, v, d): the mask-less shuffle shuffles the mask",
    explain: "\
HIP before 6.2 has only the mask-less shuffles, `__shfl(var, src, width)`, `__shfl_up`, \
`__shfl_down` and `__shfl_xor(var, delta, width)`, and hand-ported ROCm branches sometimes keep the \
`_sync` builtin's argument order: `__shfl_down(FULL_MASK, val, offset)`. That compiles (the mask \
converts to the value's type) and is wrong everywhere: the value shuffled is the constant mask, \
`val` is read as the lane distance and `offset` as the width. hipport reports a mask-less shuffle \
whose first argument is a full lane mask (`0xffffffff`, `~0u`, `-1`, or a macro named as a mask \
with such a value) and that has three or four arguments.

Fix: drop the mask (`__shfl_down(val, offset)`), or, for HIP 6.2 and later, call the `_sync` \
form with a 64-bit mask.",
};

/// H059: device code in the strings of a file that compiles a program at run time, which
/// hipRTC gets unported.
pub const RTC_DEVICE_STRING: DiagInfo = DiagInfo {
    id: "H059",
    name: "rtc-device-string",
    severity: Severity::Warning,
    summary:
        "warp-level device code in a string that NVRTC compiles at run time reaches hipRTC unported",
    explain: "\
Programs that compile kernels at run time (`nvrtcCreateProgram`, `hiprtcCreateProgram` after \
the port) often hold device code in C++ strings: a whole kernel in a raw string, or the warp \
macros the kernel files are built with (OpenMM's `defines[\"BALLOT(var)\"] = \
\"__ballot_sync(0xffffffff, var);\"`). hipport translates and checks the file's code, not the \
text of its strings, so hipRTC compiles that device code as written: HIP 5.2.3 has no \
`__ballot_sync` or `__shfl_sync` (the compilation fails at run time), later releases require \
64-bit masks, HIP's ballot returns 64 bits (an `int` keeps half a wavefront), and 32-lane warp \
arithmetic is wrong on CDNA's 64-lane wavefronts.

hipport reports each string literal of such a file that names device code a port must look \
at: `warpSize`, a shuffle, vote, lane mask or warp barrier, a cooperative-groups tile, or `asm` \
(a kernel string without them, a SAXPY, compiles under hipRTC as written). It does the same for a file whose \
whole text is string literals (xmrig-cuda's raw-string `CryptonightR.cu`, pulled into an \
initializer by `const char* src =` `#include \"CryptonightR.cu\"` `;`), which hipport leaves \
as written. Port the string by hand as a \
`.cu` file would be ported: write the kernel text to a `.cu` file and run `hipport check` on it.",
};

/// H058: `__half_raw` / `__half2_raw` built from bits with braces, which HIP reads as a value.
pub const HALF_RAW_INIT: DiagInfo = DiagInfo {
    id: "H058",
    name: "half-raw-init",
    severity: Severity::Error,
    summary: "__half_raw initialized with braces: HIP's first member is a _Float16, so the bits become a value",
    explain: "\
CUDA's `__half_raw` is `struct { unsigned short x; }`, so `__half_raw inf = {0x7C00};` builds a \
half from its bit pattern (here +infinity), a common way to write half constants (DeepSpeed's \
reduction initial values do it). HIP's `__half_raw` is a union whose first member is `_Float16 \
data`, with `unsigned short x` second (HIP 5.2.3's amd_hip_fp16.h, and later releases), so the \
same braces initialize `data` and convert the number: `{0x7C00}` is 31744.0, and `{0xFC00}`, \
meant as -infinity, is +64512.0. It compiles without a warning. `__half2_raw` is the same story \
(HIP 5 puts a `_Float16` pair first and rejects two values as excess elements; later releases \
put two `__half_raw` members first, which convert each value).

hipport reports brace initializers of both types (`__half_raw h = {bits};`, `__half_raw{bits}`) \
whose values are not floating literals or zero. Set the bits by name instead, `__half_raw h; \
h.x = 0x7C00;`, which is right with both toolkits, or use `__ushort_as_half(0x7C00)` in device \
code.",
};

/// H057: `cudaMemsetParams` initialized by position, whose HIP members before 7.0 come in
/// another order.
pub const MEMSET_PARAMS_ORDER: DiagInfo = DiagInfo {
    id: "H057",
    name: "memset-params-order",
    severity: Severity::Error,
    summary: "cudaMemsetParams initialized by position: hipMemsetParams orders its members differently before HIP 7.0",
    explain: "\
A memset node of a CUDA graph takes a `cudaMemsetParams` `{dst, pitch, value, elementSize, width, \
height}`. Before HIP 7.0, `hipMemsetParams` declares the same members in another order, `{dst, \
elementSize, height, pitch, value, width}` (HIP 5.2.3's hip_runtime_api.h; ROCm's hip-7-changes \
document quotes both and says 7.0 changed it to CUDA's order). An aggregate initialized by \
position, `cudaMemsetParams p = {ptr, 0, 0, 4, n, 1};`, therefore puts the pitch into \
`elementSize`, the value into `height` and so on: with constants it compiles and the node sets \
the wrong bytes. hipport reports such initializers for `--hip-version` targets before 7.0; \
members set by name, and designated initializers, are not reported.

Fix: set the members by name (`p.dst = ptr; p.value = 0; p.elementSize = 4; p.width = n; \
p.height = 1; p.pitch = 0;`), which is right for every release; or build for ROCm 7.0 or later.",
};

/// H060: a cooperative group's shuffle of a vector or struct value, which HIP's do not take.
pub const TILE_SHUFFLE_TYPE: DiagInfo = DiagInfo {
    id: "H060",
    name: "tile-shuffle-type",
    severity: Severity::Error,
    summary: "a cooperative-groups shuffle (tile.shfl_xor) of a vector or struct value, which HIP's shuffles do not take",
    explain: "\
CUDA's cooperative-groups shuffles, `thread_block_tile::shfl`, `shfl_xor`, `shfl_up` and \
`shfl_down` (and `coalesced_group`'s), take any trivially copyable type: `tile.shfl_xor(v, 1)` \
with a `uint4 v` moves all four members. Every HIP one begins with \
`static_assert(is_valid_type<T>::value, \"Neither an integer or float type.\")` \
(amd_hip_cooperative_groups.h, in HIP 5.2.3 and in later releases), so with a CUDA vector type \
(`uint4`, `float2`, `int3`) or a struct the call does not compile (\"static assertion failed\", \
then \"no matching function for call to '__shfl_xor'\").

The half types are classes in HIP (`__half`, `__half2`, the bfloat16 types), so \
`is_floating_point` is false for them too. hipport reports such a call where the shuffled value \
is a variable, an array element, a cast or a member of a struct the file declares, and its type \
is a CUDA vector type, a half type, or a struct, class or union the file defines: named \
directly, through the file's `typedef`/`using` aliases (`using U2 = uint2;`, `typedef struct \
{...} pair_t;`) or by `auto` from its initializer. Where the value's type is a template \
parameter of the function (`template <class T> T f(tile_t t, T v) { return t.shfl_down(v, 1); }`), \
each call of the function in the file that makes it such a type is reported. `double`, \
`long long`, `int64_t` and one member of a vector (`v.x`) are legal and not reported.

Fix: shuffle each member on its own, `v.x = tile.shfl_xor(v.x, 1); v.y = tile.shfl_xor(v.y, \
1);` and so on; for a struct, shuffle its members (or its bits as 32-bit integers); for a \
`__half`, its bits (`__ushort_as_half(tile.shfl_xor(__half_as_ushort(h), 1))`) or a `float`.",
};

/// H061: a warp size chosen by a device-only architecture test that the host also reads.
pub const WARP_SIZE_HOST_DEVICE: DiagInfo = DiagInfo {
    id: "H061",
    name: "warp-size-host-device",
    severity: Severity::Warning,
    summary: "A warp size chosen by `#if defined(__GFX9__)` that the host reads too: 32 on the host, 64 in gfx9 device code",
    explain: "\
hipcc compiles a `.hip`/`.cu` file twice: once for the host and once for each GPU target. Only \
the device passes define the architecture macros, `__GFX9__`, `__gfx90a__` and the other \
`__gfx*__`, and `__AMDGCN_WAVEFRONT_SIZE` (check with `hipcc --offload-arch=gfx90a -E \
--cuda-host-only`). A constant chosen by them (`#if defined(__GFX9__)` / `constexpr int \
kWarpSize = 64;` / `#else` / `kWarpSize = 32;`) is therefore 32 in the host pass and 64 in \
gfx9 device code. Where the host reads it too, a launch's block size (`<<<rows, kWarpSize>>>`) \
or a host computation of a grid, the host launches 32 threads per row while the kernel indexes \
and reduces over 64: half of each row is never read on MI-series (CDNA) and Vega GPUs. \
hipport reports such a constant, defined under one of these tests and read both by host code \
(a launch configuration or a host function) and by device code.

Fix: choose the warp size on the host at run time, from \
`hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev)`, and pass it to the kernel as a \
template parameter (instantiate 32 and 64 and pick one), or launch with a block size that does \
not depend on the warp size and read `warpSize` in device code.",
};

/// H062: a texture of float texels with linear filtering, which AMD GPUs may refuse or not
/// interpolate.
pub const TEXTURE_LINEAR_FLOAT: DiagInfo = DiagInfo {
    id: "H062",
    name: "texture-linear-float",
    severity: Severity::Warning,
    summary: "A linear-filtered texture of float texels (`filterMode = cudaFilterModeLinear`): AMD GPUs may refuse it or not interpolate",
    explain: "\
CUDA interpolates between texels in hardware for a texture with `filterMode = \
cudaFilterModeLinear` whose texels are read as their own type (`readMode = \
cudaReadModeElementType`, the default) over `float` or half data. hipport renames the enums, \
but on AMD GPUs this combination is not reliable: on gfx90a (MI200) `hipCreateTextureObject` \
returns `hipErrorNotSupported` for it (ROCm/clr issue 276, ROCm 7.2.1; gfx1100 accepts it), \
linear filtering over pitched 2-D memory (`cudaResourceTypePitch2D`) fails in \
`hipCreateTextureObject` (HeCBench issue 190: opticalFlow on MI250X), and TIGRE's AMD port \
(`Common/CUDA/cuda_to_hip.h`) notes ROCm and GPU combinations that accept such a texture and \
then sample the nearest texel without interpolating. Code that ignores the status of `hipCreateTextureObject` then reads from a \
texture that was never made, or computes results that differ from CUDA's without an error. \
hipport reports `cudaFilterModeLinear` set on a texture descriptor or a texture reference, \
unless the texels are read as normalized floats (`cudaReadModeNormalizedFloat`, 8- and 16-bit \
integer data) over a non-pitched resource. Point filtering is not reported.

Fix: do the interpolation in the kernel: create the texture with `cudaFilterModePoint` and \
blend the 2 (1-D), 4 (2-D) or 8 (3-D) neighbouring texels by the fractional part of the \
coordinate less 0.5, as the hardware does; at least check the `hipError_t` that \
`hipCreateTextureObject` returns and fall back to that path when it is not `hipSuccess`.",
};

/// Every hazard rule, in ID order.
pub const DIAGS: &[DiagInfo] = &[
    WARP_SIZE_32,
    WARPSIZE_CONSTEXPR,
    SYNC_MASK_32,
    LANE_MASK_TRUNCATED,
    THREAD_SCHEDULING,
    INLINE_PTX,
    PROFILER_CONTROL,
    NVTX,
    LAUNCH_BOUNDS,
    VERSION_MACRO,
    CUDA_ARCH,
    DYNAMIC_PARALLELISM,
    TEXTURE_REFERENCE,
    WARP_MATRIX,
    ASYNC_COPY,
    TILE_WIDTH,
    GRID_SYNC,
    MULTI_GRID,
    MANAGED_MEMORY,
    THREADFENCE_SYSTEM,
    DEVICE_CLOCK,
    FLOAT_ATOMIC,
    SHARED_MEMORY_SIZE,
    FP8_ENCODING,
    BUILTIN_CLASH,
    REGISTER_KEYWORD,
    MEMORY_TYPE_ENUM,
    CACHE_HINTS,
    BFLOAT16,
    TORCH_PROFILER,
    TORCH_NVTX,
    TORCH_VERSION_CUDA,
    WARP_LIBRARY_WIDTH,
    BLAS_COMPUTE_TYPE,
    HALF_SHUFFLE,
    DEVICE_PROP_FIELD,
    COMPUTE_CAPABILITY,
    NEW_SIGNATURE,
    RTC_ARCH_OPTION,
    NVIDIA_CODE_OBJECT,
    VERSION_QUERY,
    DEVICEPTR_INTEGER,
    INTRINSIC_RESULT,
    CG_MEMBER,
    ATOMIC_OVERLOAD,
    TEXTURE_LOD,
    TEXTURE_MI300,
    MIN_MAX_OVERLOAD,
    WARP_WIDE_ROWS,
    RTC_NVRTC_OPTION,
    BALLOT_NAN,
    THREAD_BLOCK_CLUSTER,
    PLATFORM_HCC,
    LAST_ERROR,
    WARP_SIZE_64,
    SHUFFLE_MASK_AS_VALUE,
    MEMSET_PARAMS_ORDER,
    HALF_RAW_INIT,
    RTC_DEVICE_STRING,
    TILE_SHUFFLE_TYPE,
    WARP_SIZE_HOST_DEVICE,
    TEXTURE_LINEAR_FLOAT,
];
