#!/usr/bin/env python3
"""A linked national game at scale on this machine: a control and VENUES
venue processes (default 300), NATS and PostgreSQL started by
scripts/network.sh in a temporary folder, every venue selling 30 faces of
one stock. Prints how long the sealed order and the settlement took to
reach every venue (from the control signing the record to the venue taking
it: p50, p99, max), the claims booked, the messages the game took and the
control's peak memory.

    python3 scripts/link-bench.py [--venues 300] [--play national|live] [--call-ms 500]
                                  [--claim-ms 1000]
                                  [--pattern coverall|any-number|top-row-number|PATTERN]

With --play live the control calls (a call every --call-ms, shown 250 ms
after it is signed) and the figures include each call's arrival at every
venue. --pattern any-number (any one number of a face: 24 one-cell masks)
makes about a third of every venue's faces win at the first call: every
venue claims at that one call, about 2,400 to 3,000 claims judged together.
--pattern top-row-number (any one number of a face's top row) makes one
face in 15 win at the first call: about 600 claims from about 260 venues.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, max(0, round(p / 100 * len(v) + 0.5) - 1))]


def env_of(net):
    out = {}
    for line in open(os.path.join(net, "network.env")):
        k, _, v = line.strip().partition("=")
        out[k] = v
    return out


def peak_kib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venues", type=int, default=300)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/bingomint"))
    ap.add_argument("--play", choices=["national", "live"], default="national")
    ap.add_argument("--call-ms", type=int, default=500)
    ap.add_argument("--claim-ms", type=int, default=1000)
    ap.add_argument("--pattern", default="coverall")
    a = ap.parse_args()
    cells = {"any-number": [(r, c) for r in range(5) for c in range(5) if (r, c) != (2, 2)],
             "top-row-number": [(0, c) for c in range(5)]}.get(a.pattern)
    if cells:
        a.pattern = "mask:" + "|".join(
            "/".join("".join("X" if (r, c) == cell else "." for c in range(5)) for r in range(5))
            for cell in cells)
    if a.venues < 1 or a.venues > 1000:
        sys.exit("--venues: give 1 to 1000")
    work = tempfile.mkdtemp(prefix="link-bench-")
    net = os.path.join(work, "net")
    subprocess.run([os.path.join(ROOT, "scripts/network.sh"), "start", net], check=True, stdout=subprocess.DEVNULL)
    try:
        run(a, work, net)
    finally:
        subprocess.run([os.path.join(ROOT, "scripts/network.sh"), "stop", net], stdout=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", work])


def setup(a, work):
    faces = 30
    subprocess.run([a.bin, "generate", "--game", "75", "--count", str(a.venues * faces), "--seed", "bench",
                    "-q", "--out", os.path.join(work, "stock.bmc")], check=True)
    public = subprocess.run([a.bin, "link", "key", "--out", os.path.join(work, "control.key")],
                            check=True, capture_output=True, text=True).stdout.strip()
    names = [f"v{k:03}" for k in range(a.venues)]
    with open(os.path.join(work, "network.toml"), "w") as f:
        f.write(f'play = "{a.play}"\ncall_ms = {a.call_ms}\nclaim_ms = {a.claim_ms}\n')
        f.write(f'game = "bench"\nstock = "stock.bmc"\npattern = "{a.pattern}"\n'
                'prize = { share = "50%" }\nsales_seconds = 600\nclaim_seconds = 600\n')
        for k, n in enumerate(names):
            f.write(f'[[venue]]\nid = "{n}"\nfaces = "{k * faces + 1}..{(k + 1) * faces}"\n')
    for k, n in enumerate(names):
        with open(os.path.join(work, f"{n}.toml"), "w") as f:
            f.write(f'venue = "{n}"\ngame = "bench"\nstock = "stock.bmc"\ncontrol = "{public}"\n'
                    f'sold = "{k * faces + 1}..{(k + 1) * faces}"\nprice = "0.50"\n')
    return names


def run(a, work, net):
    names = setup(a, work)
    e = env_of(net)
    env = dict(os.environ, NATS_URL=e["NATS_URL"], DATABASE_URL=e["DATABASE_URL"])
    start = time.monotonic()
    # The payouts (a line each, thousands in a big game) go to a file: a
    # pipe nobody reads until the end would fill and stop the control.
    said = open(os.path.join(work, "control.txt"), "w+")
    control = subprocess.Popen([a.bin, "link", "control", "network.toml", "--key", "control.key",
                                "--log", "control.jsonl"], cwd=work, env=env,
                               stdout=said, stderr=subprocess.STDOUT, text=True)
    venues = [subprocess.Popen([a.bin, "link", "venue", f"{n}.toml", "--log", f"{n}.jsonl", "--wait", "600",
                                "--timings", f"{n}.tsv"], cwd=work, env=env,
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"{n}.err"), "w"))
              for n in names]
    peak = 0
    while control.poll() is None:
        peak = max(peak, peak_kib(control.pid) or 0)
        time.sleep(0.1)
    wall = time.monotonic() - start
    control.wait()
    said.seek(0)
    out = said.read()
    failed = [n for n, p in zip(names, venues) if p.wait() != 0]
    if control.returncode != 0 or failed:
        sys.exit(f"control exit {control.returncode}: {out[-2000:]}\nvenues failed: {failed[:10]}")
    report(a, work, e, names, wall, peak, out)


def report(a, work, e, names, wall, peak, out):
    took = {}
    for n in names:
        for line in open(os.path.join(work, f"{n}.tsv")):
            seq, kind, signed, taken = line.split("\t")
            took.setdefault(kind, []).append(int(taken) - int(signed))
    records = [json.loads(l)["record"] for l in open(os.path.join(work, "control.jsonl"))]
    at = {r["body"]["kind"]: r["at_ms"] for r in records}
    q = lambda sql: subprocess.run(["psql", e["DATABASE_URL"], "-tAc", sql], capture_output=True,
                                   text=True).stdout.strip()
    jsz = json.load(urllib.request.urlopen(e["NATS_MONITOR"] + "/jsz?streams=true"))
    msgs = sum(s["state"]["messages"] for a_ in jsz.get("account_details", [])
               for s in a_.get("stream_detail", []))
    print(f"venues                     {len(names)} ({a.play})")
    print(f"game, first to last record {(at['settled'] - at['open']) / 1000:.2f} s (wall {wall:.2f} s, processes starting included)")
    print(f"sales: open to closed      {(at['sales_closed'] - at['open']) / 1000:.2f} s")
    for kind in ["call", "verdicts", "reveal", "settled"]:
        v = took.get(kind)
        if not v:
            continue
        print(f"{kind:8} to every venue   p50 {statistics.median(v):.0f} ms, p99 {pct(v, 99)} ms, max {max(v)} ms ({len(v)} deliveries)")
    if a.play == "national":
        print(f"reveal to settled          {(at['settled'] - at['reveal']) / 1000:.2f} s (claims judged and booked)")
    else:
        print(f"calls                      {sum(1 for r in records if r['body']['kind'] == 'call')}; "
              f"hold to verdicts {(at['verdicts'] - at['hold']) / 1000:.2f} s (the claim window of {a.claim_ms} ms, "
              f"then every claim judged and booked), to settled {(at['settled'] - at['hold']) / 1000:.2f} s")
    calls = q("select string_agg(distinct call::text, ',') from claims")
    print(f"claims booked              {q('select count(*) from claims')} from "
          f"{q('select count(distinct venue) from claims')} venues at call(s) {calls} "
          f"(distinct {q('select count(distinct (venue, claim)) from claims')}), "
          f"winners {q('select count(*) from payouts')} at call {q('select call from settlements')}")
    print(f"messages on the broker     {msgs} (control records {len(records)})")
    print(f"control peak memory        {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
