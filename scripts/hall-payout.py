#!/usr/bin/env python3
"""What a winning claim costs the hall on a large file, on 127.0.0.1 only.

A win at the console shows the split Accept would pay before it pays. Under
the rule `share = "claimed"` (the default) the sharers are the claims made
for the prize: a lookup of a few faces. Under `share = "all-holders"` they
are every sold face holding it: a scan of every card file. This starts a
hall (balls from the blower, so the game is known), keys in card 1's first
row, then, for each rule, times ROUNDS claims of each kind:

  * a losing claim (a lookup of one face),
  * a winning claim, checked (the lookup and the sharers found),
  * a winning claim accepted: the sharers and the payout written to the log
    (one a game, so each round starts a game and keys the row again).

Before the claims it waits for the "to go" counts to follow the row (the
hall's tracker, on a thread of its own) and reports that wait too: a new
game's counts, then five balls.

and prints the median and max of each, in milliseconds; and what one viewer
of the live stream was sent: the state whole at first, then the largest
change (a payout split many ways among them).

With --consolation K (1 to 5, or nearest) each game also pays a
consolation by closeness: the accepted claim then finds the faces K away
(read off the tracker) in the same request.

  scripts/hall-payout.py [--cards FILE] [--count 10000000] [--rounds 20]
                         [--share claimed,all-holders] [--consolation K]

BINGOMINT_BIN names the binary (default target/release/bingomint).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def request(addr, key, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://{addr}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("Authorization", "Bearer " + key)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def watch(addr, sizes):
    """One live stream: appends the bytes of each message's data to sizes."""
    with urllib.request.urlopen(f"http://{addr}/api/events", timeout=600) as r:
        for line in r:
            if line.startswith(b"data: "):
                sizes.append(len(line) - 7)


def timed(f):
    t = time.perf_counter()
    out = f()
    return (time.perf_counter() - t) * 1000, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cards")
    ap.add_argument("--count", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--share", default="claimed,all-holders")
    ap.add_argument("--consolation", help="1 to 5, or nearest")
    a = ap.parse_args()
    binary = os.environ.get("BINGOMINT_BIN", "target/release/bingomint")
    work = tempfile.mkdtemp(prefix="hall-payout-")
    cards = a.cards or os.path.join(work, "cards.bmc")
    if not os.path.exists(cards):
        subprocess.run([binary, "generate", "--count", str(a.count), "--seed", "payout",
                        "-q", "--out", cards], check=True)
    hall = subprocess.Popen([binary, "hall", "--cards", cards, "--balls", "blower",
                             "--listen", "127.0.0.1:0", "--log", os.path.join(work, "n.jsonl")],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = hall.stdout.readline()
        addr, key = line.split("http://")[1].split()[0].split("/console#")
        sizes = []
        threading.Thread(target=watch, args=(addr, sizes), daemon=True).start()
        s, face = request(addr, None, "POST", "/api/faces", {"card": "1"})
        row = face["cells"][:5]
        loser = next(str(n) for n in range(2, 1000)
                     if not any(c in row for c in request(addr, None, "POST", "/api/faces",
                                                          {"card": str(n)})[1]["cells"][:5]))
        for share in a.share.split(","):
            times = {"counts up to date": [], "losing claim": [], "winning claim, checked": [],
                     "winning claim, accepted": []}
            for _ in range(a.rounds):
                body = {"pattern": "row", "share": share}
                if a.consolation:
                    k = a.consolation
                    body["consolation"] = {"to_go": k if k == "nearest" else int(k),
                                           "prize": "1.00"}
                s, g = request(addr, key, "POST", "/api/games", body)
                assert s == 201, g
                for b in row:
                    request(addr, key, "POST", "/api/calls", {"ball": b})
                # The "to go" counts follow the calls on the hall's own
                # thread; a claim the moment a ball is keyed waits for them
                # (all holders): time them apart, as a caller's claims come
                # seconds after a ball.
                t = time.perf_counter()
                while request(addr, None, "GET", "/api/state")[1]["game"]["counting"]:
                    time.sleep(0.002)
                times["counts up to date"].append((time.perf_counter() - t) * 1000)
                ms, (s, v) = timed(lambda: request(addr, key, "POST", "/api/claims",
                                                   {"card": loser}))
                assert s == 200 and not v["win"], v
                times["losing claim"].append(ms)
                ms, (s, v) = timed(lambda: request(addr, key, "POST", "/api/claims",
                                                   {"card": "1"}))
                assert s == 200 and v["win"], v
                times["winning claim, checked"].append(ms)
                ms, (s, v) = timed(lambda: request(addr, key, "POST", "/api/claims",
                                                   {"card": "1", "accept": True}))
                assert s == 200 and v["accepted"], v
                times["winning claim, accepted"].append(ms)
                st = request(addr, None, "GET", "/api/state")[1]
                if st["game"]:
                    request(addr, key, "POST", "/api/games/end", {})
            print(f"{binary}: {a.count:,} cards, share = {share}, {a.rounds} rounds "
                  f"(sharers paid: {len(v['also_winning'])})")
            if a.consolation:
                print(f"  the last {v.get('near', 'no consolation')[:120]}")
            for kind, ms in times.items():
                print(f"  {kind:<26} median {statistics.median(ms):8.2f} ms   "
                      f"max {max(ms):8.2f} ms")
            time.sleep(0.5)
            print(f"  live stream: {len(sizes)} messages, the first (the state whole) "
                  f"{sizes[0]:,} bytes, the largest after it {max(sizes[1:]):,} bytes")
    finally:
        hall.kill()
        hall.wait()


if __name__ == "__main__":
    sys.exit(main())
