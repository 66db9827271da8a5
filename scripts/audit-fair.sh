#!/usr/bin/env bash
# How often a fair file fails the audit: mint FILES files of COUNT records
# with different seeds, audit each, count the failures. At the default
# α = 0.01 a correct generator should fail about 1 in 100 or fewer (Holm's
# procedure is conservative).
#
#   scripts/audit-fair.sh [FILES] [COUNT] [GAME]     default: 50 1000000 75
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-50}
count=${2:-1000000}
game=${3:-75}
cargo build --release --quiet
bin=target/release/bingomint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for seed in $(seq 1 "$files"); do
    "$bin" generate --game "$game" --count "$count" --seed "fair-$seed" --out "$work/f.bmc" --quiet
    if ! "$bin" audit "$work/f.bmc" --out "$work/r" --force --quiet >"$work/line"; then
        failed=$((failed + 1))
        echo "seed fair-$seed: $(cat "$work/line")"
    fi
    rm -f "$work/f.bmc"
done
echo "$game-ball, $count records a file: $failed of $files fair files failed at alpha 0.01"
