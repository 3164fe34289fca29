#!/usr/bin/env bash
# Installs what hipport's tests need on a Debian machine: Debian's HIP 5.2.3 toolchain (hipcc,
# headers, device libraries), the HIP libraries Debian packages, clang-15 for the CUDA syntax
# check, and the tools the tests call (git, patch, cmake, make, g++, python3).
set -euo pipefail
pkgs=(hipcc libamdhip64-dev rocm-device-libs clang-15 libhiprand-dev librocrand-dev libhipsparse-dev
      librocprim-dev git patch cmake make g++ python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
hipcc --offload-arch=gfx90a --version >/dev/null 2>&1 || true
echo "dependencies ready: $(command -v hipcc) $(command -v clang-15)"
