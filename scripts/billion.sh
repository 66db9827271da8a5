#!/usr/bin/env bash
# A billion unique 75-ball cards in one run, within the memory budget, on
# disk: times `generate` and `verify` (elapsed, peak RSS) against dd writing
# the same bytes with fdatasync, run before and after. Needs ~30 GB free in
# DIR and a release build.
#
#   scripts/billion.sh [DIR] [COUNT]     (defaults: ./billion, 1000000000)
#   SKIP_VERIFY=1 scripts/billion.sh ...  (generate and dd only)
set -euo pipefail
dir=${1:-billion}
count=${2:-1000000000}
bin=${BINGOMINT:-target/release/bingomint}
mkdir -p "$dir"
out="$dir/big.bmc"
rm -f "$out" "$dir/dd.bin"
timed() { /usr/bin/time -f "%e s elapsed, %M KB peak RSS, %U s user, %S s system" "$@"; }
# The size of the file generate writes: header, block table, records.
bytes=$((128 + (count + 63) / 64 * 8 + count * 25))
dd_run() {
    echo "== dd, $bytes bytes, fdatasync"
    timed dd if=/dev/zero of="$dir/dd.bin" bs=64M count="$bytes" iflag=count_bytes conv=fdatasync status=none
    rm -f "$dir/dd.bin"
}
dd_run
echo "== generate --count $count"
BINGOMINT_TIMINGS=1 timed "$bin" generate --count "$count" --seed 1 --out "$out"
dd_run
ls -l "$out"
if [ -z "${SKIP_VERIFY:-}" ]; then
    echo "== verify"
    timed "$bin" verify "$out"
fi
