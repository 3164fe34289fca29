#!/usr/bin/env bash
# Runs the runtime tests' numerics on an NVIDIA GPU, with HIP's NVIDIA platform, from a build
# made on a machine without one (the GPU machine has no Rust toolchain and device time is short).
#
#   scripts/gpu-check.sh prepare     # here: toolchain, build, and a bundle in target/gpu-check/
#   scripts/gpu-check.sh run [OUT]   # on the GPU machine, from the repository root
#
# `prepare` builds the translated corpus kernels with scripts/hipcc-nvidia (clang-15, CUDA 11.8,
# sm_80 code plus PTX, which newer GPUs compile at load time) and the `kernels` test and `results`
# binaries, then gathers what `run` needs in target/gpu-check/: the two binaries, build.rs's
# outputs (status, translations, the hip/ and CPU libraries; no precompiled headers) and
# libcudart.so.11.0. `run` gives the tests that copy (HIPPORT_RUNTIME_OUT) and writes to OUT
# (default target/gpu-check/results): kernels.log, RESULTS-nvidia.md (the results table, hip
# column = the GPU) and, when the machine has nvcc, the same tests with the hip/ libraries
# replaced by the untranslated CUDA kernels built with nvcc (cuda-baseline.log,
# RESULTS-cuda-baseline.md), which tells a translation fault from a kernel or reference fault.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$root/target/gpu-check"

prepare() {
    local cuda build
    cuda="$("$root/scripts/hip-nvidia-toolchain.sh")"
    build="$root/target/gpu-check-build"
    export HIPCC="$root/scripts/hipcc-nvidia" HIPPORT_OFFLOAD_ARCH=sm_80 HIPPORT_HIP_PLATFORM=nvidia
    export HIPPORT_NVIDIA_CUDA="$cuda" CARGO_TARGET_DIR="$build"
    (cd "$root" && cargo test -p runtime-tests --test kernels --no-run --message-format=json) \
        >"$build.json"
    (cd "$root" && cargo build -p runtime-tests --bin results)
    local kernels out
    kernels="$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "kernels" and m.get("executable"):
        print(m["executable"])' "$build.json" | tail -n1)"
    out="$(dirname "$(ls -t "$build"/debug/build/runtime-tests-*/out/status.tsv | head -n1)")"
    rm -rf "$bundle"
    mkdir -p "$bundle/out" "$bundle/lib"
    cp "$kernels" "$bundle/kernels"
    cp "$build/debug/results" "$bundle/results"
    cp "$cuda/lib64/libcudart.so.11.0" "$bundle/lib/"
    (cd "$out" && tar --exclude='*.gch' --exclude='*.pch' -cf - .) | (cd "$bundle/out" && tar -xf -)
    # The binaries find the corpus by the absolute path of this checkout.
    echo "$root" >"$bundle/repo-root"
    du -sh "$bundle"
    echo "carry target/gpu-check; on the GPU machine run: scripts/gpu-check.sh run \$OUT"
}

run() {
    local dest="${1:-$bundle/results}"
    mkdir -p "$dest"
    [ -x "$bundle/kernels" ] || { echo "gpu-check: no bundle; run 'prepare' first" >&2; exit 2; }
    local want
    want="$(cat "$bundle/repo-root")"
    if [ "$(cd "$want" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
        if [ -e "$want" ]; then
            echo "gpu-check: $want exists and is not this checkout" >&2
            exit 2
        fi
        mkdir -p "$(dirname "$want")"
        ln -s "$root" "$want"
    fi
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$dest/gpu.txt" 2>&1 || true
    cat "$dest/gpu.txt"
    export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export HIPPORT_RUNTIME_OUT="$bundle/out" HIPPORT_SEED="${HIPPORT_SEED:-20261204}"
    local rc=0
    timeout 180 "$bundle/kernels" --test-threads=8 >"$dest/kernels.log" 2>&1 || rc=$?
    grep -E "^test result|on hip:" "$dest/kernels.log" || true
    "$bundle/results" --write="$dest/RESULTS-nvidia.md" >/dev/null || rc=1

    if command -v nvcc >/dev/null; then
        # The same tests against the original CUDA kernels, built with nvcc for this GPU.
        local base="$bundle/out-cuda" arch
        nvcc --version | tail -n2 >>"$dest/gpu.txt"
        arch="sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)"
        rm -rf "$base"
        cp -r "$bundle/out" "$base"
        rm -rf "$base/outcomes" "$base"/hip/lib*.so
        cp "$bundle/out/hip/libhipport_devinfo.so" "$base/hip/"
        # Only nvcc's rows for the hip backend and its arch; the meta names nvcc and that arch.
        grep -v -P '^[^\t]+\t(hip|sm_\d+)\t' "$bundle/out/status.tsv" >"$base/status.tsv"
        sed -i -e "s|^archs\t.*|archs\t$arch|" -e "s|^hipcc\t.*|hipcc\tnvcc (untranslated CUDA)|" \
            "$base/meta.tsv"
        local k
        for k in "$root"/corpus/kernels/*.cu; do
            k="$(basename "$k" .cu)"
            (
                libs=()
                case "$k" in cublas_*) libs=(-lcublas) ;; curand_*) libs=(-lcurand) ;; esac
                if nvcc -std=c++17 -O2 -arch="$arch" -Xcompiler -fPIC -shared \
                    "$root/corpus/kernels/$k.cu" -o "$base/hip/lib$k.so" "${libs[@]}" \
                    >"$base/hip/$k.log" 2>&1; then
                    printf '%s\t%s\tok\tnvcc\n' "$k" hip "$k" "$arch"
                else
                    err="$(grep -m1 error "$base/hip/$k.log" | tr '\t' ' ')"
                    printf '%s\t%s\tfail\tnvcc: %s\n' "$k" hip "$err" "$k" "$arch" "$err"
                fi
            ) &
            while [ "$(jobs -rp | wc -l)" -ge 12 ]; do sleep 0.2; done
        done >>"$base/status.tsv"
        wait
        HIPPORT_RUNTIME_OUT="$base" timeout 180 "$bundle/kernels" --test-threads=8 >"$dest/cuda-baseline.log" 2>&1 || true
        HIPPORT_RUNTIME_OUT="$base" "$bundle/results" --write="$dest/RESULTS-cuda-baseline.md" >/dev/null || true
        grep -E "^test result" "$dest/cuda-baseline.log" || true
    fi
    return "$rc"
}

case "${1:-}" in
    prepare) prepare ;;
    run) shift; run "$@" ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
esac
