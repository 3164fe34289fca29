#!/usr/bin/env bash
# Throughput, memory and start-up benchmark of hipport (see BENCHMARKS.md).
# Usage: scripts/bench.sh [MEGABYTES]   (default 200; the tree is generated under target/bench/)
set -euo pipefail
cd "$(dirname "$0")/.."
export HIPPORT_BENCH_MB="${1:-${HIPPORT_BENCH_MB:-200}}"
echo "# $(date -u +%Y-%m-%d) on $(nproc) cores: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
exec cargo bench -p hipport --bench throughput
