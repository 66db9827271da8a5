#!/usr/bin/env python3
"""What the paper stock book (`hall --stock`) costs a sale, on 127.0.0.1 only.

Each sale is logged (one fsync) and then, with --stock, written to the
stock book (a second fsync). This makes a card file, a night of one
product and a fresh stock book in a folder of its own, then for each of
ROUNDS rounds starts a hall without the book and one with it, sells SALES
books of 6 by POST /api/sales, and prints each run's time a sale and the
medians and their ratio.

  scripts/stock-bench.py [--bin target/release/bingomint] [--sales 500] [--rounds 5]
"""

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

NIGHT = """title = "Bench"
currency = "£"
[[product]]
name = "Book"
price = "12.00"
faces = 6
games = "all"
[[game]]
name = "Line"
pattern = "line"
prize = "10.00"
"""


def run(bin_, dir_, log, sales, stock=None):
    """Starts a hall on `log` (with the stock book `stock`), sells `sales`
    books and stops it: seconds a sale."""
    args = [bin_, "hall", "--cards", "c.bmc", "--night", "night.toml",
            "--listen", "127.0.0.1:0", "--log", log]
    if stock:
        args += ["--stock", stock]
    hall = subprocess.Popen(args, cwd=dir_, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        addr = key = None
        for _ in range(8):
            m = re.search(r"console\s+http://([^/]+)/console#(\w+)", hall.stdout.readline())
            if m:
                addr, key = m.group(1), m.group(2)
                break
        if not addr:
            raise SystemExit("the hall did not start")
        begun = time.perf_counter()
        for i in range(sales):
            body = json.dumps({"product": "Book", "first": 6 * i + 1, "last": 6 * i + 6})
            req = urllib.request.Request(
                f"http://{addr}/api/sales", data=body.encode(),
                headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
            urllib.request.urlopen(req).read()
        return (time.perf_counter() - begun) / sales
    finally:
        hall.kill()
        hall.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="target/release/bingomint")
    p.add_argument("--sales", type=int, default=500)
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    bin_ = str(Path(a.bin).resolve())
    with tempfile.TemporaryDirectory() as d:
        count = str(a.sales * 6)
        subprocess.run([bin_, "generate", "--count", count, "--seed", "stock-bench", "-q",
                        "--out", "c.bmc"], cwd=d, check=True)
        Path(d, "night.toml").write_text(NIGHT)
        without, with_ = [], []
        for r in range(a.rounds):
            for f in Path(d).glob("*.jsonl*"):
                f.unlink()
            subprocess.run([bin_, "hall", "stock", "receive", "stock.jsonl", "--cards", "c.bmc"],
                           cwd=d, check=True, stdout=subprocess.DEVNULL)
            without.append(run(bin_, d, f"a{r}.jsonl", a.sales))
            with_.append(run(bin_, d, f"b{r}.jsonl", a.sales, "stock.jsonl"))
            print(f"round {r + 1}: {without[-1] * 1000:.2f} ms a sale without the book, "
                  f"{with_[-1] * 1000:.2f} ms with it")
        m0, m1 = statistics.median(without), statistics.median(with_)
        print(f"median of {a.rounds} rounds of {a.sales} sales: {m0 * 1000:.2f} ms a sale without "
              f"--stock, {m1 * 1000:.2f} ms with it, ratio {m1 / m0:.2f}")


if __name__ == "__main__":
    main()
