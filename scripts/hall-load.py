#!/usr/bin/env python3
"""Load test of `bingomint hall`, on 127.0.0.1 only, bounded in count and time.

Starts a hall on a card file (10,000,000 75-ball cards by default, minted
first if missing), connects VIEWERS board viewers to the live stream, makes a
call every second and sends CLAIMS claims a second for SECONDS seconds, then
prints the claims' latency (median, p99, max), whether every viewer saw
every call, and the hall's peak memory at the start and the end.

  scripts/hall-load.py [--cards FILE] [--viewers 200] [--claims 50] [--seconds 60] [--slow 2000]

With --slow N, N more clients (each from its own 127.1.x.y address) send a
request head a byte every 5 s; the run reports how many the hall closed and
after how long, and how fast a fresh GET /api/state answered meanwhile.
"""
import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "bingomint")


def request(addr, method, path, key=None, body=None):
    host, port = addr.rsplit(":", 1)
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    with socket.create_connection((host, int(port)), timeout=30) as s:
        s.sendall(head.encode() + b"\r\n" + data)
        chunks = []
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
    text = b"".join(chunks).decode()
    status = int(text[9:12])
    return status, json.loads(text.split("\r\n\r\n", 1)[1] or "null")


def viewer(addr, seen, stop, ready, source):
    host, port = addr.rsplit(":", 1)
    # Each viewer from an address of its own in 127.0.0.0/8, as phones and
    # screens in a room are: the hall holds at most 64 connections an address.
    s = socket.create_connection((host, int(port)), timeout=5, source_address=(source, 0))
    s.sendall(b"GET /api/events HTTP/1.1\r\n\r\n")
    ready.release()
    buf = b""
    s.settimeout(1)
    while not stop.is_set():
        try:
            c = s.recv(65536)
        except socket.timeout:
            continue
        if not c:
            break
        buf += c
        while b"\n\n" in buf:
            event, buf = buf.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    state = json.loads(line[6:])
                    game = state.get("game") or {}
                    for n in game.get("calls", []):
                        seen.add(n)
    s.close()


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1])
    return 0


def slow_client(addr, i, stop, closed, begun):
    """Sends a request head a byte every 5 s until the hall closes the
    connection (noted with the time it took) or the run stops."""
    host, port = addr.rsplit(":", 1)
    source = f"127.1.{i // 250}.{1 + i % 250}"
    try:
        s = socket.create_connection((host, int(port)), timeout=5, source_address=(source, 0))
    except OSError:
        return
    s.settimeout(0.5)
    opened = time.monotonic()
    try:
        s.sendall(b"GET /api/state HTTP/1.1\r\n")
        last = time.monotonic()
        while not stop.is_set():
            try:
                if s.recv(1024) == b"":
                    closed.append(time.monotonic() - opened)
                    return
            except socket.timeout:
                pass
            if time.monotonic() - last >= 5:
                s.sendall(b"X")
                last = time.monotonic()
    except OSError:
        closed.append(time.monotonic() - opened)
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", default=os.path.join(ROOT, "target", "load-10m.bmc"))
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--claims", type=int, default=50, help="claims a second")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--slow", type=int, default=0,
                    help="clients that trickle a header byte every 5 s, each from its own address")
    a = ap.parse_args()
    if not os.path.exists(a.cards):
        subprocess.run([BIN, "generate", "--count", "10000000", "--seed", "load", "--out", a.cards, "--quiet"], check=True)
    log = a.cards + ".load.jsonl"
    for f in (log, log + ".seed"):
        if os.path.exists(f):
            os.remove(f)
    hall = subprocess.Popen([BIN, "hall", "--cards", a.cards, "--listen", "127.0.0.1:0", "--log", log],
                            stdout=subprocess.PIPE, text=True)
    addr = key = None
    for _ in range(4):
        line = hall.stdout.readline()
        if line.startswith("console"):
            rest = line.split("http://", 1)[1]
            addr, key = rest.split("/console#")[0], rest.split("#", 1)[1].split()[0]
        if line.startswith("log"):
            break
    threading.Thread(target=lambda: hall.stdout.read(), daemon=True).start()
    count = 0
    try:
        start_peak = peak_kib(hall.pid)
        request(addr, "POST", "/api/games", key, {"pattern": "coverall"})
        stop = threading.Event()
        ready = threading.Semaphore(0)
        seen = [set() for _ in range(a.viewers)]
        threads = [threading.Thread(target=viewer, args=(addr, seen[i], stop, ready, f"127.0.{2 + i // 250}.{1 + i % 250}"), daemon=True) for i in range(a.viewers)]
        for t in threads:
            t.start()
        for _ in threads:
            ready.acquire()
        out = subprocess.run([BIN, "info", a.cards], capture_output=True, text=True).stdout
        cards = next(int(l.split()[1]) for l in out.splitlines() if l.split()[:1] == ["cards"])
        slow_stop, slow_closed = threading.Event(), []
        slow = [threading.Thread(target=slow_client, args=(addr, i, slow_stop, slow_closed, None), daemon=True)
                for i in range(a.slow)]
        for t in slow:
            t.start()
        state_ms = []
        latencies, calls, errors = [], [], 0
        begun = time.monotonic()
        next_call = begun
        sent = 0
        while time.monotonic() - begun < a.seconds:
            now = time.monotonic()
            if now >= next_call and a.slow and len(state_ms) < a.seconds:
                t0 = time.perf_counter()
                request(addr, "GET", "/api/state")
                state_ms.append((time.perf_counter() - t0) * 1000)
            if now >= next_call and len(calls) < 75:
                status, body = request(addr, "POST", "/api/calls", key)
                if status == 201:
                    calls.append(body["ball"])
                next_call += 1.0
            due = int((now - begun) * a.claims)
            while sent < due:
                card = str(random.randint(1, cards))
                t0 = time.perf_counter()
                status, body = request(addr, "POST", "/api/claims", key, {"card": card})
                latencies.append((time.perf_counter() - t0) * 1000)
                errors += status != 200
                sent += 1
            time.sleep(0.002)
        time.sleep(1.0)
        stop.set()
        missed = sum(1 for s in seen if not set(calls) <= s)
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
        end_peak = peak_kib(hall.pid)
        print(f"cards: {cards}, viewers: {a.viewers}, claims: {len(latencies)} in {a.seconds} s ({a.claims}/s), calls: {len(calls)}")
        print(f"claim latency ms: median {statistics.median(latencies):.2f}, p99 {p(0.99):.2f}, max {latencies[-1]:.2f}; errors {errors}")
        print(f"viewers that missed a call: {missed} of {a.viewers}")
        print(f"hall peak memory: {start_peak / 1024:.0f} MiB after start, {end_peak / 1024:.0f} MiB at the end")
        if a.slow:
            slow_stop.set()
            state_ms.sort()
            print(f"slow clients: {a.slow}; closed by the hall: {len(slow_closed)}, after "
                  f"{min(slow_closed, default=0):.1f}-{max(slow_closed, default=0):.1f} s; "
                  f"GET /api/state meanwhile: median {statistics.median(state_ms):.2f} ms, max {state_ms[-1]:.2f} ms")
        count = missed + errors
    finally:
        hall.terminate()
        hall.wait()
    sys.exit(1 if count else 0)


if __name__ == "__main__":
    main()
