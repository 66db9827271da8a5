#!/usr/bin/env bash
# A linked network on this machine: NATS and PostgreSQL started in DIR by
# scripts/network.sh, a stock of 9,000 cards, the control's key, and a
# national game played by a control and three venues (leeds, york, hull),
# then checked by `link verify` against the stock, the books and every
# venue's log. The servers are stopped at the end; DIR keeps the logs.
#
#   scripts/link-demo.sh DIR
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: scripts/link-demo.sh DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
[ -e "$dir" ] && { echo "link-demo: '$dir' exists; give a new folder" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bingo=${BINGOMINT:-$root/target/release/bingomint}
[ -x "$bingo" ] || (cd "$root" && cargo build --release --quiet)

"$root/scripts/network.sh" start "$dir/net"
trap '"$root/scripts/network.sh" stop "$dir/net" >/dev/null' EXIT
set -a; . "$dir/net/network.env"; set +a

cd "$dir"
"$bingo" generate --game 75 --count 9000 --seed linked -q --out stock.bmc
public=$("$bingo" link key --out control.key 2>/dev/null)
cp "$root/data/link/network.toml" network.toml
sell() { # venue, faces sold
    sed -e "s/^venue = .*/venue = \"$1\"/" -e "s/^sold = .*/sold = \"$2\"/" \
        -e "s/PUBLIC-KEY/$public/" "$root/data/link/venue.toml" > "$1.toml"
}
sell leeds 1..2500
sell york 3001..5800
sell hull 6001..8000

"$bingo" link control network.toml --key control.key --log control.jsonl > control.txt &
control=$!
pids=()
for venue in leeds york hull; do
    "$bingo" link venue "$venue.toml" --log "$venue.jsonl" --wait 300 > "$venue.txt" &
    pids+=($!)
done
wait "$control"
for pid in "${pids[@]}"; do wait "$pid"; done
echo "payouts (control.txt):"
cat control.txt
"$bingo" link verify control.jsonl --control "$public" --stock stock.bmc \
    --venue-log leeds.jsonl --venue-log york.jsonl --venue-log hull.jsonl
