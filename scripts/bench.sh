#!/usr/bin/env bash
# End-to-end benchmarks of the release binary; writes BENCHMARKS.md.
#
#   scripts/bench.sh            # full run (a few minutes; needs ~3 GB in /dev/shm)
#   QUICK=1 scripts/bench.sh    # smaller counts, for a smoke test
#
# Environment: RUNS (repetitions, default 5), TMPFS (default /dev/shm),
# DISK_DIR (a directory on a real disk, default target/bench-disk),
# PEER_C (the original algorithm in C, default ../shared/peers/seed-algorithm-75.c).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
exec python3 scripts/bench.py "$@"
