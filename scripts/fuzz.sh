#!/usr/bin/env bash
# Runs every fuzz target (cargo-fuzz, nightly) for a given time and records
# each run's executions and findings.
#
#   scripts/fuzz.sh                  # 60 s per target
#   scripts/fuzz.sh 600              # 10 minutes per target
#   scripts/fuzz.sh 60 range         # one target
#   scripts/fuzz.sh --runs 10000000  # ten million executions per target
#
# Targets (fuzz/fuzz_targets/): card_file (every card-file layout, through
# verify, the block checks, export and show), goal_set (Lockout sets through
# validation, the engine and the limits check), seed (seed strings), range
# (--range), calls (--calls and calls files), pattern (--pattern names and
# masks, through completion), claims (any mask or built-in against any face
# and calls: check, the last-call rule, winners, the simulator), goal_set_check
# (goal sets through --check's report on a small sample), hall_request (any
# bytes as an HTTP request to the hall, and as each route's JSON body),
# shown (any text through the normaliser of text people see: room seeds,
# titles, labels), picture (any bytes as an item's PNG or JPEG picture),
# hall_verify (any text as a night's log through `hall verify`, seeded with
# real logs).
# Seeds: fuzz/seeds/TARGET (kept in the repository); the growing corpus:
# fuzz/corpus/TARGET (local). A crash is saved in fuzz/artifacts/TARGET and
# ends the script with a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
limit=(-max_total_time="${1:-60}")
what="${1:-60} s"
if [ "${1:-}" = --runs ]; then
    limit=(-runs="$2")
    what="a limit of $2 executions"
    shift 2
else
    shift || true
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(card_file goal_set seed range calls pattern claims goal_set_check hall_request shown picture hall_verify)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
mkdir -p logs
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    # One worker, built with AddressSanitizer (cargo-fuzz's default): the
    # readers reach the unsafe code of the exact-key set.
    cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        "${limit[@]}" -rss_limit_mb=1024 -print_final_stats=1 >"logs/$target.log" 2>&1 || {
        echo "$target: FAILED (see fuzz/logs/$target.log and fuzz/artifacts/$target)"
        exit 1
    }
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$target.log" | grep -o '[0-9]*$' | tail -1)
    echo "$target: ${runs:-?} executions ($what), no crash"
done
