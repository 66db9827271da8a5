#!/usr/bin/env bash
# A linked network on this machine. scripts/network.sh starts NATS and
# PostgreSQL in DIR; a stock of 9,000 cards is minted and the control's key
# made. Three venue halls (leeds, york, hull) open their nights: each sells
# books of a national game, books of a live game and a house game's books
# at its console (POST /api/sales). Then:
#   1. the national game: the control reveals the sealed order, each venue
#      calls it and claims; york's venue is killed mid-game and restarted;
#   2. the live game: the control calls, a claim holds the game, every
#      claim at that call is judged together and ties share to the cent;
#   3. `link verify` checks each game's record against the stock, the books
#      and every venue's log, and `hall verify --link` each venue's night
#      against the records it kept and the books.
# The servers and halls are stopped at the end; DIR keeps every log.
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

halls=()
stop() {
    for pid in "${halls[@]}"; do kill "$pid" 2>/dev/null || true; done
    "$root/scripts/network.sh" stop "$dir/net" >/dev/null
}
"$root/scripts/network.sh" start "$dir/net"
trap stop EXIT
set -a; . "$dir/net/network.env"; set +a

cd "$dir"
"$bingo" generate --game 75 --count 9000 --seed linked -q --out stock.bmc
public=$("$bingo" link key --out control.key 2>/dev/null)

# The two games' network files: the same allotments, the same prize rule.
cp "$root/data/link/network.toml" national-1.toml
sed -e 's/^game = .*/game = "live-1"/' -e 's/^play = .*/play = "live"\ncall_ms = 300\nclaim_ms = 500/' \
    -e 's/^pattern = .*/pattern = "line"/' "$root/data/link/network.toml" > live-1.toml

# A venue's hall: its night sells both linked games' books and its own.
open_hall() { # venue
    cat > "$1-night.toml" <<EOF
title = "$1 linked night"
currency = "£"

[[product]]
name = "National book"
price = "3.00"
faces = 6
linked = "national-1"

[[product]]
name = "Live book"
price = "2.00"
faces = 6
linked = "live-1"

[[product]]
name = "House book"
price = "1.50"
faces = 6

[[game]]
name = "House line"
pattern = "line"
prize = { share = "50%", min = "5.00" }
EOF
    "$bingo" hall --listen 127.0.0.1:0 --cards stock.bmc --night "$1-night.toml" \
        --log "$1-night.jsonl" > "$1-hall.txt" 2>&1 &
    halls+=($!)
    for _ in $(seq 100); do grep -q '^console' "$1-hall.txt" && break; sleep 0.1; done
    grep -q '^console' "$1-hall.txt" || { cat "$1-hall.txt" >&2; exit 1; }
}
sell() { # venue, product, first, last
    local console addr key
    console=$(sed -n 's|^console *http://||p' "$1-hall.txt")
    addr=${console%%/*}; key=${console##*#}; key=${key%% *}
    curl -sf -o /dev/null -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
        -d "{\"product\": \"$2\", \"first\": $3, \"last\": $4}" "http://$addr/api/sales"
}
venue_file() { # venue, game
    printf 'venue = "%s"\ngame = "%s"\nstock = "stock.bmc"\ncontrol = "%s"\nhall = "%s-night.jsonl"\n' \
        "$1" "$2" "$public" "$1" > "$2-$1.toml"
}
for v in leeds york hull; do open_hall "$v"; done
sell leeds "National book" 1 1200;    sell leeds "Live book" 1201 2400; sell leeds "House book" 2401 2700
sell york  "National book" 3001 4800; sell york  "Live book" 4801 5700; sell york  "House book" 5701 6000
sell hull  "National book" 6001 7200; sell hull  "Live book" 7201 8400
echo "sold at three halls' consoles (each night's log holds its sales)"

venue() { # game, venue: plays the venue's part in the background
    venue_file "$2" "$1"
    "$bingo" link venue "$1-$2.toml" --log "$1-$2.jsonl" --wait 300 >> "$1-$2.txt" 2>&1 &
}
play() { # game
    "$bingo" link control "$1.toml" --key control.key --log "$1-control.jsonl" > "$1-payouts.txt" &
    local control=$! pids=()
    if [ "$1" = national-1 ]; then
        # york's venue killed once it has kept the game's opening (and
        # sold), before the others sell; started again with its log, it
        # checks what it kept and catches up.
        venue "$1" york
        for _ in $(seq 200); do [ -s "$1-york.jsonl" ] && break; sleep 0.05; done
        kill -9 $! && wait $! 2>/dev/null || true
        echo "$1: york's venue killed mid-game; started again with its log"
    fi
    for v in leeds york hull; do venue "$1" "$v"; pids+=($!); done
    wait "$control"
    for pid in "${pids[@]}"; do wait "$pid"; done
    echo "$1 payouts ($1-payouts.txt: venue, call, face, amount):"
    sed 's/^/  /' "$1-payouts.txt"
    "$bingo" link verify "$1-control.jsonl" --control "$public" --stock stock.bmc \
        --venue-log "$1-leeds.jsonl" --venue-log "$1-york.jsonl" --venue-log "$1-hull.jsonl"
}
play national-1
play live-1
for v in leeds york hull; do
    "$bingo" hall verify "$v-night.jsonl" --cards stock.bmc --control "$public" \
        --database "$DATABASE_URL" --link "national-1-$v.jsonl" --link "live-1-$v.jsonl"
done
