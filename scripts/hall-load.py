#!/usr/bin/env python3
"""Load test of `bingomint hall`, on 127.0.0.0/8 only, bounded in count and time.

Starts a hall on a card file (10,000,000 75-ball cards by default, minted
first if missing) and, for SECONDS seconds:

  * holds BOARDS board streams and PLAYERS player streams (GET /api/events),
    each from an address of its own in 127.0.0.0/8 (as the phones and screens
    of a room are; the hall holds at most 64 connections an address), in a
    process of their own;
  * makes a call every CALL_EVERY seconds, and notes when each stream saw it;
  * sends BINGO players' claims a second (POST /api/bingo, random faces, from
    many addresses) while a console reads the queue (GET /api/queue) and
    decides each claim (POST /api/claims {"queued": id});
  * or, with --claims N, N console claims a second (POST /api/claims) as before.

It prints the latency of each kind of request (median, p99, max), how late
the slowest stream saw each call, errors, and the hall's peak memory.

  scripts/hall-load.py [--cards FILE] [--boards 200] [--players 2000] [--bingo 200]
                       [--call-every 2] [--seconds 120] [--claims 0] [--slow 0]

With --slow N, N more clients (each from its own 127.1.x.y address) send a
request head a byte every 5 s; the run reports how many the hall closed and
after how long, and how fast a fresh GET /api/state answered meanwhile.

Exits 1 when a request failed or a stream missed a call. BINGOMINT_BIN names
another binary to load (an A/B of two builds).
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time

# Console claims that were a win (under all-holders: each found its sharers).
WINS = [0]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BINGOMINT_BIN", os.path.join(ROOT, "target", "release", "bingomint"))


def patch(doc, ops):
    """A JSON Patch (RFC 6902: add, remove, replace) applied to doc in place;
    the document after it."""
    for op in ops:
        if op["path"] == "":
            doc = op["value"]
            continue
        keys = [k.replace("~1", "/").replace("~0", "~") for k in op["path"].split("/")[1:]]
        at = doc
        for k in keys[:-1]:
            at = at[int(k)] if isinstance(at, list) else at[k]
        last = keys[-1]
        if isinstance(at, list):
            i = len(at) if last == "-" else int(last)
            if op["op"] == "add":
                at.insert(i, op["value"])
            elif op["op"] == "remove":
                del at[i]
            else:
                at[i] = op["value"]
        elif op["op"] == "remove":
            del at[last]
        else:
            at[last] = op["value"]
    return doc


def address(block, i):
    """The i-th client address of a block: 127.BLOCK.x.y."""
    return f"127.{block}.{i // 250}.{1 + i % 250}"


async def request(addr, method, path, key=None, body=None, source=None):
    host, port = addr.rsplit(":", 1)
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    local = (source, 0) if source else None
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=local)
    try:
        writer.write(head.encode() + b"\r\n" + data)
        text = await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    status = int(text[9:12])
    return status, json.loads(text.split(b"\r\n\r\n", 1)[1] or b"null")


async def stream(addr, source, seen, sent, ready):
    """One live stream: notes the time each call was first seen, and the
    bytes of the messages (sent: [bytes, messages, whole states])."""
    host, port = addr.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    writer.write(b"GET /api/events HTTP/1.1\r\nHost: hall\r\n\r\n")
    ready()
    state, seq = None, 0
    buf = b""
    head = True
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        now = time.monotonic()
        buf += chunk
        # A stream the hall turned away (503: past its caps) is a failure,
        # not a stream that merely saw no calls.
        if head and b"\r\n" in buf:
            status = buf.split(b"\r\n", 1)[0]
            if not status.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"stream from {source} refused: {status.decode(errors='replace')}")
            head = False
        *events, buf = buf.split(b"\n\n")
        for event in events:
            data = b"".join(line[6:] for line in event.split(b"\n") if line.startswith(b"data: "))
            if not data:
                continue
            sent[0] += len(data)
            sent[1] += 1
            m = json.loads(data)
            if "seq" not in m:
                # A hall that sends the whole state every time.
                state = m
                sent[2] += 1
            elif "state" in m:
                state, seq = m["state"], m["seq"]
                sent[2] += 1
            else:
                if m["seq"] != seq + 1:
                    raise RuntimeError(f"stream from {source}: patch {m['seq']} after {seq}")
                state, seq = patch(state, m["patch"]), m["seq"]
            for n in (state.get("game") or {}).get("calls", []):
                seen.setdefault(n, now)


def streams_process(addr, boards, players, conn):
    """Holds the streams until told to stop; sends back, for each stream,
    {ball: time first seen} and [bytes, messages, whole states]."""
    async def run():
        seen = [dict() for _ in range(boards + players)]
        sent = [[0, 0, 0] for _ in range(boards + players)]
        opened = 0

        def ready():
            nonlocal opened
            opened += 1

        sources = [address(2, i) for i in range(boards)] + [address(3, i) for i in range(players)]
        tasks = []
        for i, source in enumerate(sources):
            tasks.append(asyncio.create_task(stream(addr, source, seen[i], sent[i], ready)))
            if i % 100 == 99:
                await asyncio.sleep(0.05)
        while opened < len(sources):
            await asyncio.sleep(0.05)
        conn.send("ready")
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)
        failed = sum(1 for t in tasks if t.done() and t.exception())
        conn.send((seen, sent, failed))
        for t in tasks:
            t.cancel()

    asyncio.run(run())


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1])
    return 0


async def slow_client(addr, i, stop, closed):
    """Sends a request head a byte every 5 s until the hall closes the
    connection (noted with the time it took) or the run stops."""
    host, port = addr.rsplit(":", 1)
    try:
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(address(1, i), 0))
    except OSError:
        return
    opened = time.monotonic()
    writer.write(b"GET /api/state HTTP/1.1\r\n")
    try:
        while not stop.is_set():
            try:
                if await asyncio.wait_for(reader.read(1024), 5) == b"":
                    closed.append(time.monotonic() - opened)
                    return
            except asyncio.TimeoutError:
                writer.write(b"X")
    except OSError:
        closed.append(time.monotonic() - opened)
    finally:
        writer.close()


class Tally:
    def __init__(self):
        self.ms = {}
        self.errors = {}

    def note(self, what, t0, ok):
        self.ms.setdefault(what, []).append((time.perf_counter() - t0) * 1000)
        if not ok:
            self.errors[what] = self.errors.get(what, 0) + 1

    def summary(self):
        """Each kind of request: how many, median and p99 in ms, errors."""
        out = {}
        for what, ms in self.ms.items():
            ms = sorted(ms)
            out[what] = {"count": len(ms), "median_ms": statistics.median(ms),
                         "p99_ms": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
                         "errors": self.errors.get(what, 0)}
        return out

    def report(self):
        for what, ms in self.ms.items():
            ms.sort()
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            print(f"  {what:<22} {len(ms):>7}  median {statistics.median(ms):7.2f} ms  "
                  f"p99 {p99:7.2f} ms  max {ms[-1]:8.2f} ms  errors {self.errors.get(what, 0)}")


async def timed(tally, what, ok, *args, **kw):
    t0 = time.perf_counter()
    try:
        status, body = await request(*args, **kw)
    except (OSError, asyncio.TimeoutError, ValueError):
        tally.note(what, t0, False)
        return None, None
    tally.note(what, t0, ok(status))
    return status, body


async def drive(a, addr, key, cards, tally):
    """Calls, claims and the console for a.seconds; returns the calls made
    with the time each was answered."""
    calls = []
    stop = asyncio.Event()
    pending = set()

    async def caller():
        while not stop.is_set() and len(calls) < 75:
            status, body = await timed(tally, "POST /api/calls", lambda s: s == 201,
                                       addr, "POST", "/api/calls", key)
            if status == 201:
                calls.append((body["ball"], time.monotonic()))
            try:
                await asyncio.wait_for(stop.wait(), a.call_every)
            except asyncio.TimeoutError:
                pass

    async def player_claims():
        begun, sent = time.monotonic(), 0
        while not stop.is_set():
            due = int((time.monotonic() - begun) * a.bingo)
            while sent < due:
                card = str(random.randint(1, cards))
                source = address(4, sent % 2000)
                # A flood cap (429) is an answer, not an error.
                t = asyncio.create_task(timed(tally, "POST /api/bingo", lambda s: s in (202, 429),
                                              addr, "POST", "/api/bingo", None, {"card": card}, source=source))
                pending.add(t)
                t.add_done_callback(pending.discard)
                sent += 1
            await asyncio.sleep(0.005)

    async def console():
        while not stop.is_set():
            status, body = await timed(tally, "GET /api/queue", lambda s: s == 200,
                                       addr, "GET", "/api/queue", key)
            for w in (body or {}).get("queue", []):
                await timed(tally, "POST /api/claims queued", lambda s: s == 200,
                            addr, "POST", "/api/claims", key, {"queued": w["id"], "accept": False})
            await asyncio.sleep(0.05)

    async def one_claim(card):
        status, body = await timed(tally, "POST /api/claims", lambda s: s == 200,
                                   addr, "POST", "/api/claims", key, {"card": card})
        if body and body.get("win"):
            WINS[0] += 1

    async def console_claims():
        # From the --claims-after'th call on (a line game's winners by then).
        while not stop.is_set() and len(calls) < a.claims_after:
            await asyncio.sleep(0.05)
        begun, sent = time.monotonic(), 0
        while not stop.is_set():
            due = int((time.monotonic() - begun) * a.claims)
            while sent < due:
                card = str(random.randint(1, cards))
                t = asyncio.create_task(one_claim(card))
                pending.add(t)
                t.add_done_callback(pending.discard)
                sent += 1
            await asyncio.sleep(0.005)

    async def slow_watch(state_ms):
        while not stop.is_set():
            t0 = time.perf_counter()
            await request(addr, "GET", "/api/state")
            state_ms.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(1)

    slow_stop, slow_closed, state_ms = asyncio.Event(), [], []
    jobs = [caller()]
    if a.bingo:
        jobs += [player_claims(), console()]
    if a.claims:
        jobs.append(console_claims())
    slow = [asyncio.create_task(slow_client(addr, i, slow_stop, slow_closed)) for i in range(a.slow)]
    if a.slow:
        jobs.append(slow_watch(state_ms))
    tasks = [asyncio.create_task(j) for j in jobs]
    await asyncio.sleep(a.seconds)
    stop.set()
    await asyncio.gather(*tasks)
    if pending:
        await asyncio.wait(pending, timeout=30)
    slow_stop.set()
    for t in slow:
        t.cancel()
    if a.slow:
        state_ms.sort()
        print(f"slow clients: {a.slow}; closed by the hall: {len(slow_closed)}, after "
              f"{min(slow_closed, default=0):.1f}-{max(slow_closed, default=0):.1f} s; "
              f"GET /api/state meanwhile: median {statistics.median(state_ms):.2f} ms, max {state_ms[-1]:.2f} ms")
    return calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", default=os.path.join(ROOT, "target", "load-10m.bmc"))
    ap.add_argument("--boards", type=int, default=200, help="board streams")
    ap.add_argument("--players", type=int, default=2000, help="player streams")
    ap.add_argument("--bingo", type=int, default=200, help="players' claims a second, decided by a console")
    ap.add_argument("--claims", type=int, default=0, help="console claims a second")
    ap.add_argument("--claims-after", type=int, default=0, help="console claims start after this many calls")
    ap.add_argument("--pattern", default="coverall", help="the game's pattern (line: wins come early)")
    ap.add_argument("--share", default="claimed", help="claimed or all-holders (a win's sharers: every sold face)")
    ap.add_argument("--call-every", type=float, default=2.0, help="seconds between calls")
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--json", help="also write the figures to this file, as JSON (scripts/bench.py reads it)")
    ap.add_argument("--slow", type=int, default=0,
                    help="clients that trickle a header byte every 5 s, each from its own address")
    a = ap.parse_args()
    if not os.path.exists(a.cards):
        subprocess.run([BIN, "generate", "--count", "10000000", "--seed", "load", "--out", a.cards, "--quiet"], check=True)
    out = subprocess.run([BIN, "info", a.cards], capture_output=True, text=True).stdout
    cards = next(int(l.split()[1]) for l in out.splitlines() if l.split()[:1] == ["cards"])
    log = a.cards + ".load.jsonl"
    for f in (log, log + ".seed"):
        if os.path.exists(f):
            os.remove(f)
    hall = subprocess.Popen([BIN, "hall", "--cards", a.cards, "--listen", "127.0.0.1:0", "--log", log],
                            stdout=subprocess.PIPE, text=True)
    addr = key = None
    for _ in range(5):
        line = hall.stdout.readline()
        if line.startswith("console"):
            rest = line.split("http://", 1)[1]
            addr, key = rest.split("/console#")[0], rest.split("#", 1)[1].split()[0]
        if line.startswith("log"):
            break
    threading.Thread(target=hall.stdout.read, daemon=True).start()
    bad = 0
    try:
        start_peak = peak_kib(hall.pid)
        game = {"pattern": a.pattern} | ({"share": a.share} if a.share != "claimed" else {})
        status, answer = asyncio.run(request(addr, "POST", "/api/games", key, game))
        if status != 201:
            sys.exit(f"the hall did not start the game: {status} {answer}")
        here, there = multiprocessing.Pipe()
        viewers = multiprocessing.Process(target=streams_process, args=(addr, a.boards, a.players, there))
        if a.boards + a.players:
            viewers.start()
            assert here.recv() == "ready"
        tally = Tally()
        calls = asyncio.run(drive(a, addr, key, cards, tally))
        if a.claims:
            print(f"console claims that were a win: {WINS[0]} ({a.pattern}, share {a.share})")
        time.sleep(2.0)
        seen, sent, failed = ([], [], 0)
        if a.boards + a.players:
            here.send("stop")
            seen, sent, failed = here.recv()
            viewers.join()
        end_peak = peak_kib(hall.pid)
        # How late the slowest stream saw each call, after the call was answered.
        late, missed = [], 0
        for ball, at in calls:
            times = [s.get(ball) for s in seen]
            missed += sum(1 for t in times if t is None)
            late += [(t - at) * 1000 for t in times if t is not None]
        late.sort()
        print(f"cards: {cards}; streams: {a.boards} boards + {a.players} players; {len(calls)} calls, "
              f"one every {a.call_every} s; {a.seconds} s; players' claims {a.bingo}/s, console claims {a.claims}/s")
        tally.report()
        if late:
            p99 = late[min(len(late) - 1, int(0.99 * len(late)))]
            print(f"  calls seen by streams: {len(late)} deliveries, median {statistics.median(late):.0f} ms, "
                  f"p99 {p99:.0f} ms, max {late[-1]:.0f} ms after the call was answered; "
                  f"missed {missed}; streams that failed {failed}")
        if sent:
            total = sum(b for b, _, _ in sent)
            messages = sum(m for _, m, _ in sent)
            whole = sum(w for _, _, w in sent)
            print(f"  sent to the streams: {total / 1e6:.1f} MB in {messages} messages ({whole} whole states); "
                  f"{total / len(sent) / max(1, len(calls)):.0f} bytes per viewer per call, "
                  f"{total / messages:.0f} bytes a message")
        print(f"hall peak memory: {start_peak / 1024:.0f} MiB after start, {end_peak / 1024:.0f} MiB at the end")
        bad = missed + failed + sum(tally.errors.values())
        if a.json:
            seen_by = {"deliveries": len(late), "missed": missed, "failed": failed}
            if late:
                seen_by |= {"median_ms": statistics.median(late),
                            "p99_ms": late[min(len(late) - 1, int(0.99 * len(late)))]}
            with open(a.json, "w") as f:
                json.dump({"cards": cards, "streams": a.boards + a.players, "calls": len(calls),
                           "seconds": a.seconds, "requests": tally.summary(), "calls_seen": seen_by,
                           "peak_mib": end_peak / 1024, "bad": bad}, f, indent=1)
    finally:
        hall.terminate()
        hall.wait()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
