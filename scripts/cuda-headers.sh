#!/usr/bin/env bash
# Builds a CUDA 11.8 tree that clang can use for `-x cuda -fsyntax-only`, from NVIDIA's PyPI wheels.
#
#   scripts/cuda-headers.sh [--with-cublas] [DIR]
#
# DIR defaults to target/cuda-11.8. The wheels are cached in ${HIPPORT_CACHE:-$HOME/.cache/hipport}/wheels,
# so a rerun only unpacks. The tree gets include/ (runtime, nvcc's crt/, CUB/libcu++, cuRAND,
# profiler API), bin/ptxas, nvvm/libdevice and lib64/, which is what clang's CUDA detection wants.
# cuBLAS headers come only with --with-cublas: its wheel is about 420 MB for a handful of headers.
# Prints the tree's path on success. Needs python3 with pip, and unzip or python3's zipfile.
set -euo pipefail

with_cublas=0
dir=""
for arg in "$@"; do
    case "$arg" in
        --with-cublas) with_cublas=1 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        -*) echo "cuda-headers.sh: unknown option $arg" >&2; exit 2 ;;
        *) dir="$arg" ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${dir:-$root/target/cuda-11.8}"
cache="${HIPPORT_CACHE:-$HOME/.cache/hipport}/wheels"
mkdir -p "$cache" "$dir"

# Pinned so that every run builds the same tree: CUDA 11.8 (cuRAND 10.3.0, cuBLAS 11.11.3).
wheels=(
    "nvidia-cuda-runtime-cu11==11.8.89"
    "nvidia-cuda-nvcc-cu11==11.8.89"
    "nvidia-cuda-cccl-cu11==11.8.89.post1"
    "nvidia-curand-cu11==10.3.0.86"
    "nvidia-cuda-profiler-api-cu11==11.8.86"
)
if [ "$with_cublas" = 1 ]; then wheels+=("nvidia-cublas-cu11==11.11.3.6"); fi

for spec in "${wheels[@]}"; do
    name="${spec%%==*}"
    version="${spec##*==}"
    pattern="$(echo "$name" | tr - _)-${version}-*.whl"
    # shellcheck disable=SC2086
    if ! ls "$cache"/$pattern >/dev/null 2>&1; then
        echo "cuda-headers: downloading $spec" >&2
        python3 -m pip download --quiet --no-deps --only-binary=:all: \
            --platform manylinux2014_x86_64 --platform manylinux1_x86_64 --python-version 3.10 \
            -d "$cache" "$spec" >&2
    fi
done

stamp="$dir/.hipport-wheels"
want="$(printf '%s\n' "${wheels[@]}")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "$dir"
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for spec in "${wheels[@]}"; do
    name="${spec%%==*}"
    version="${spec##*==}"
    pattern="$(echo "$name" | tr - _)-${version}-*.whl"
    # shellcheck disable=SC2086
    whl="$(ls "$cache"/$pattern | head -n1)"
    python3 - "$whl" "$tmp" <<'PY'
import sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    for info in z.infolist():
        # Headers, ptxas and libdevice are all clang needs; skip the shared libraries (large).
        n = info.filename
        if not n.startswith("nvidia/"):
            continue
        if "/include/" in n or n.endswith("/bin/ptxas") or "/nvvm/libdevice/" in n:
            z.extract(info, out)
PY
done

mkdir -p "$dir/include" "$dir/bin" "$dir/nvvm/libdevice" "$dir/lib64"
for pkg in "$tmp"/nvidia/*; do
    if [ -d "$pkg/include" ]; then cp -R "$pkg/include/." "$dir/include/"; fi
    if [ -f "$pkg/bin/ptxas" ]; then cp "$pkg/bin/ptxas" "$dir/bin/ptxas"; chmod +x "$dir/bin/ptxas"; fi
    if [ -d "$pkg/nvvm/libdevice" ]; then cp -R "$pkg/nvvm/libdevice/." "$dir/nvvm/libdevice/"; fi
done
# clang reads the version from version.json (CUDA >= 11.1 layout) or version.txt.
printf '{\n  "cuda" : { "name" : "CUDA SDK", "version" : "11.8.0" }\n}\n' > "$dir/version.json"
echo "CUDA Version 11.8.0" > "$dir/version.txt"
printf '%s\n' "$want" > "$stamp"
echo "$dir"
