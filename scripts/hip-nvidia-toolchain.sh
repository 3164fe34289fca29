#!/usr/bin/env bash
# Builds what scripts/hipcc-nvidia needs to compile translated HIP code for NVIDIA GPUs with
# clang-15, through the HIP headers' NVIDIA platform (`hip/nvidia_detail/`, from Debian's
# libamdhip64-dev), so the runtime tests can run on an NVIDIA GPU:
#
#   scripts/hip-nvidia-toolchain.sh [DIR]
#
# DIR (default target/hip-nvidia) gets cuda/: the CUDA 11.8 tree of scripts/cuda-headers.sh
# (headers, ptxas, libdevice), libcudart.so.11.0 from the same runtime wheel, and `fatbinary`,
# which no CUDA 11 wheel carries: the one of the CUDA 13 nvcc wheel, behind a shim that turns
# the options clang 15 passes (--image=profile=sm_80,...) into that version's (--image3=...).
# Prints DIR/cuda on success. The wheels are cached like cuda-headers.sh's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/target/hip-nvidia}"
cache="${HIPPORT_CACHE:-$HOME/.cache/hipport}/wheels"
cuda="$dir/cuda"
nvcc13="nvidia-cuda-nvcc==13.0.88"

"$root/scripts/cuda-headers.sh" "$cuda" >/dev/null
mkdir -p "$cache" "$cuda/lib64"
pattern="$(echo "${nvcc13%%==*}" | tr - _)-${nvcc13##*==}-*.whl"
# shellcheck disable=SC2086
if ! ls "$cache"/$pattern >/dev/null 2>&1; then
    echo "hip-nvidia-toolchain: downloading $nvcc13" >&2
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
        --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --python-version 3.12 \
        -d "$cache" "$nvcc13" >&2
fi
# shellcheck disable=SC2086
nvcc_whl="$(ls "$cache"/$pattern | head -n1)"
# shellcheck disable=SC2086
rt_whl="$(ls "$cache"/nvidia_cuda_runtime_cu11-11.8.89-*.whl | head -n1)"
python3 - "$nvcc_whl" "$rt_whl" "$cuda" <<'PY'
import os, sys, zipfile
nvcc_whl, rt_whl, cuda = sys.argv[1:]
def take(whl, suffix, dest):
    with zipfile.ZipFile(whl) as z:
        name = next(n for n in z.namelist() if n.endswith(suffix))
        with z.open(name) as src, open(dest, "wb") as out:
            out.write(src.read())
    os.chmod(dest, 0o755)
take(nvcc_whl, "/bin/fatbinary", os.path.join(cuda, "bin", "fatbinary.cuda13"))
take(rt_whl, "/lib/libcudart.so.11.0", os.path.join(cuda, "lib64", "libcudart.so.11.0"))
PY
ln -sf libcudart.so.11.0 "$cuda/lib64/libcudart.so"
cat > "$cuda/bin/fatbinary" <<'SH'
#!/usr/bin/env bash
# clang 15 names images as --image=profile=sm_NN|compute_NN,file=F; CUDA 13 wants --image3.
args=()
for a in "$@"; do
  case "$a" in
    --image=profile=sm_*,file=*) p="${a#--image=profile=sm_}"; args+=("--image3=kind=elf,sm=${p%%,*},file=${a#*,file=}") ;;
    --image=profile=compute_*,file=*) p="${a#--image=profile=compute_}"; args+=("--image3=kind=ptx,sm=${p%%,*},file=${a#*,file=}") ;;
    *) args+=("$a") ;;
  esac
done
exec "$(dirname "$0")/fatbinary.cuda13" "${args[@]}"
SH
chmod +x "$cuda/bin/fatbinary"
echo "$cuda"
