#!/usr/bin/env bash
# Checks that CUDA sources compile as CUDA (host and device side) with clang and a CUDA 11.8 tree.
#
#   scripts/cuda-syntax-check.sh [FILE.cu ...]
#
# Without arguments it checks every corpus/kernels/*.cu. The tree comes from $HIPPORT_CUDA_PATH,
# else target/cuda-11.8 (build it with scripts/cuda-headers.sh). Files that include cuBLAS
# headers are skipped with a note when the tree has no cublas_v2.h (see --with-cublas there).
# Environment: CLANG (default clang-15), CUDA_ARCH (default sm_80), JOBS (default nproc).
# Exit status: 0 if every checked file passed, 1 if any failed, 2 if the tree is missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cuda="${HIPPORT_CUDA_PATH:-$root/target/cuda-11.8}"
clang="${CLANG:-clang-15}"
arch="${CUDA_ARCH:-sm_80}"
jobs="${JOBS:-$(nproc)}"

if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
    echo "cuda-syntax-check: no CUDA tree at $cuda (run scripts/cuda-headers.sh)" >&2
    exit 2
fi
if [ "$#" -eq 0 ]; then
    set -- "$root"/corpus/kernels/*.cu
fi

check_one() {
    local f="$1"
    if grep -q '#include <cublas' "$f" && [ ! -f "$cuda/include/cublas_v2.h" ]; then
        echo "SKIP $f (no cuBLAS headers in $cuda)"
        return 0
    fi
    local out
    if out="$("$clang" -x cuda --cuda-path="$cuda" --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version \
        -fsyntax-only "$f" 2>&1)"; then
        echo "OK   $f"
    else
        echo "FAIL $f"
        echo "$out" | sed 's/^/     /'
        return 1
    fi
}
export -f check_one
export cuda clang arch

log="$(printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'check_one "$@"' _ {} || true)"
echo "$log"
if echo "$log" | grep -q '^FAIL'; then exit 1; fi
exit 0
