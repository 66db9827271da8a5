"""Runs bingomint end to end and records the figures in BENCHMARKS.md.

Called by scripts/bench.sh after a release build. Every figure is the median
of RUNS runs (the machines are shared and noisy); ratios compare medians
measured in this same run.
"""

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "bingomint"
QUICK = os.environ.get("QUICK") == "1"
RUNS = int(os.environ.get("RUNS", "3" if QUICK else "5"))
TMPFS = Path(os.environ.get("TMPFS", "/dev/shm"))
DISK_DIR = Path(os.environ.get("DISK_DIR", ROOT / "target" / "bench-disk"))
PEER_C = Path(os.environ.get("PEER_C", ROOT.parent / "shared" / "peers" / "seed-algorithm-75.c"))
COUNT = 1_000_000 if QUICK else 10_000_000
BIG = 5_000_000 if QUICK else 100_000_000
STRIPS = 100_000 if QUICK else 1_000_000
PEER_COUNT = 100_000 if QUICK else 800_000
BOARDS = 20_000 if QUICK else 200_000
BOARDS_NULL = 100_000 if QUICK else 1_000_000
LOCKOUT = ROOT.parent / "shared" / "data" / "lockout"
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")


def run(cmd, devnull=False, **kw):
    if devnull:
        return subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, **kw)
    return subprocess.run(cmd, check=True, capture_output=True, text=True, env=ENV, **kw)


def timed(cmd, cleanup=None, devnull=False):
    """Wall seconds and (user+sys) CPU seconds of one run."""
    if cleanup:
        cleanup()
    start = time.perf_counter()
    before = os.times()
    run(cmd, devnull)
    after = os.times()
    wall = time.perf_counter() - start
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def median_of(cmd, cleanup=None, runs=RUNS, devnull=False):
    samples = [timed(cmd, cleanup, devnull) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples), samples


def medians_interleaved(a, cleanup_a, b, cleanup_b, runs=RUNS):
    """Median wall seconds of a and of b, run alternately (a, b, a, b, …) so
    both meet the same disk state, e.g. the write-back of earlier runs."""
    wa, wb = [], []
    for _ in range(runs):
        wa.append(timed(a, cleanup_a)[0])
        wb.append(timed(b, cleanup_b)[0])
    return statistics.median(wa), statistics.median(wb)


def remove(path):
    def go():
        if path.exists():
            path.unlink()
    return go


def peak_anon_kib(cmd):
    """Runs cmd, sampling /proc/PID/status every 20 ms; returns (peak RssAnon KiB, peak VmHWM KiB, wall s)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = {"RssAnon": 0, "VmHWM": 0}
    status = Path(f"/proc/{proc.pid}/status")

    def sample():
        while proc.poll() is None:
            try:
                for line in status.read_text().splitlines():
                    key = line.split(":")[0]
                    if key in peak:
                        peak[key] = max(peak[key], int(line.split()[1]))
            except (FileNotFoundError, ProcessLookupError, ValueError):
                pass
            time.sleep(0.02)

    t = threading.Thread(target=sample)
    t.start()
    out, err = proc.communicate()
    t.join()
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{err}")
    return peak["RssAnon"], peak["VmHWM"], time.perf_counter() - start


def machine():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    rustc = run(["rustc", "--version"]).stdout.strip()
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Linux {platform.release()}, {rustc}"


def main():
    rows = []
    notes = []
    record_bytes = 128 + 25 * COUNT
    print(f"machine: {machine()}", file=sys.stderr)

    # 1. CPU-bound: 75-ball to tmpfs.
    out = TMPFS / "bingomint-bench.bmc"
    cmd = [BIN, "generate", "--count", str(COUNT), "--seed", "1", "--quiet", "--force", "--out", out]
    wall, cpu, _ = median_of(cmd, remove(out))
    rows.append(("75-ball, tmpfs", f"`bingomint generate --count {COUNT} --seed 1 --out {out}`",
                 wall, f"{COUNT / wall / 1e6:.1f} M cards/s, {record_bytes / wall / 1e6:.0f} MB/s, {cpu:.2f} CPU-s"))
    tmpfs_rate = COUNT / wall
    star_cmd = cmd[:-2] + ["--star", "--out", out]
    wall_s, cpu_s, _ = median_of(star_cmd, remove(out))
    rows.append(("75-ball with stars, tmpfs", "same, `--star`", wall_s,
                 f"{COUNT / wall_s / 1e6:.1f} M cards/s, {cpu_s:.2f} CPU-s"))
    # Items cards: 5x5 from 75 songs, against the 75-ball rate just measured.
    songs = ROOT / "data" / "items" / "songs.txt"
    items_cmd = [BIN, "generate", "--items", songs, "--count", str(COUNT), "--seed", "1", "--quiet", "--force",
                 "--out", out]
    wall_i, cpu_i, _ = median_of(items_cmd, remove(out))
    rows.append(("items cards 5x5 from 75 songs, tmpfs",
                 f"`bingomint generate --items data/items/songs.txt --count {COUNT} --seed 1 --out {out}`", wall_i,
                 f"{COUNT / wall_i / 1e6:.1f} M cards/s, {COUNT / wall_i / tmpfs_rate:.0%} of 75-ball's rate "
                 f"(target: at least 25 %), {cpu_i:.2f} CPU-s"))
    for threads in ("1",):
        wall_1, cpu_1, _ = median_of(cmd[:-2] + ["--threads", threads, "--out", out], remove(out))
        rows.append((f"75-ball, tmpfs, --threads {threads}", f"same, `--threads {threads}`", wall_1,
                     f"{COUNT / wall_1 / 1e6:.1f} M cards/s"))
    run([BIN, "verify", "--quiet", out])
    wall_v, _, _ = median_of([BIN, "verify", "--quiet", out])
    rows.append(("verify (checksums, rules, uniqueness), tmpfs", f"`bingomint verify {out}`", wall_v,
                 f"{COUNT / wall_v / 1e6:.1f} M cards/s"))
    report = TMPFS / "bingomint-bench.audit.html"
    audit_cmd = [BIN, "audit", "--quiet", "--force", "--out", report, out]
    wall_a, cpu_a, _ = median_of(audit_cmd)
    rows.append(("audit (the whole battery and exact uniqueness), tmpfs",
                 f"`bingomint audit {out} --out {report}`", wall_a,
                 f"{COUNT / wall_a / 1e6:.1f} M cards/s, {cpu_a:.2f} CPU-s (target: 10 M cards in under 60 s)"))
    report.unlink(missing_ok=True)
    out.unlink()

    # 1b. 90-ball strips to tmpfs (tables built at start-up are included).
    strips = STRIPS
    for rules in ("uk", "es"):
        cmd = [BIN, "generate", "--game", "90", "--rules", rules, "--count", str(strips), "--seed", "1", "--quiet",
               "--force", "--out", out]
        wall_90, cpu_90, _ = median_of(cmd, remove(out))
        rows.append((f"90-ball strips, rules {rules}, tmpfs",
                     f"`bingomint generate --game 90 --rules {rules} --count {strips} --seed 1 --out {out}`",
                     wall_90, f"{strips / wall_90 / 1e3:.0f} k strips/s ({6 * strips / wall_90 / 1e6:.2f} M unique tickets/s), "
                     f"{cpu_90:.2f} CPU-s"))
        if rules == "uk":
            strip_rate = strips / wall_90
    if not QUICK:
        notes.append("90-ball tables: about 56 MB, shared by all threads (`Tables::memory`).")
    wall_c, _, _ = median_of([BIN, "count", "--game", "90"])
    rows.append(("90-ball tables: build + exact counts", "`bingomint count --game 90`", wall_c,
                 "builds the sampler's tables, then the strip-layout DP"))
    out.unlink()

    # 2. Disk with fsync, against dd writing the same bytes with fdatasync.
    DISK_DIR.mkdir(parents=True, exist_ok=True)
    disk_out = DISK_DIR / "bingomint-bench.bmc"
    dd_out = DISK_DIR / "dd-bench.bin"
    dd = ["dd", "if=/dev/zero", f"of={dd_out}", "bs=1M", f"count={record_bytes // 2**20 + 1}", "conv=fdatasync", "status=none"]
    cmd = [BIN, "generate", "--count", str(COUNT), "--seed", "1", "--quiet", "--force", "--out", disk_out]
    wall_disk, wall_dd = medians_interleaved(cmd, remove(disk_out), dd, remove(dd_out))
    disk_out.unlink()
    dd_out.unlink()
    rows.append(("75-ball, disk (fsync)", f"`bingomint generate --count {COUNT} --seed 1 --out {disk_out}`",
                 wall_disk, f"{COUNT / wall_disk / 1e6:.1f} M cards/s"))
    rows.append(("dd, same bytes (fdatasync)", f"`{' '.join(map(str, dd))}`", wall_dd,
                 f"{record_bytes / wall_dd / 1e6:.0f} MB/s"))
    disk_ratio = wall_dd / wall_disk
    if record_bytes / wall_dd > COUNT / wall * 25:
        notes.append(f"dd writes {record_bytes / wall_dd / 1e6:.0f} MB/s here, faster than the CPU-bound generation "
                     f"({COUNT * 25 / wall / 1e6:.0f} MB/s to tmpfs), so the disk ratio measures CPU speed, not the disk.")

    # 3. Memory at scale.
    big_out = TMPFS / "bingomint-big.bmc"
    remove(big_out)()
    anon, hwm, wall_big = peak_anon_kib([BIN, "generate", "--count", str(BIG), "--seed", "1", "--quiet", "--out", big_out])
    big_out.unlink()
    per_card = anon * 1024 / BIG
    rows.append((f"75-ball, {BIG:,} cards, tmpfs", f"`bingomint generate --count {BIG} --seed 1 --out {big_out}`",
                 wall_big, f"{BIG / wall_big / 1e6:.1f} M cards/s; peak anonymous memory {anon / 2**20:.2f} GiB "
                 f"= {per_card:.1f} bytes/card (peak RSS incl. file pages {hwm / 2**20:.2f} GiB)"))

    # 4. The original algorithm in C.
    peer = None
    if PEER_C.exists() and shutil.which("gcc"):
        with tempfile.TemporaryDirectory() as tmp:
            exe = Path(tmp) / "seed75"
            subprocess.run(["gcc", "-O2", "-DNO_AUDIT", "-o", exe, PEER_C], check=True)
            peer_out = TMPFS / "seed75.bin"
            wall_c, cpu_c, _ = median_of([exe, str(PEER_COUNT), peer_out, "1"], remove(peer_out))
            peer_out.unlink()
            bm_out = TMPFS / "bingomint-peer.bmc"
            wall_b, cpu_b, _ = median_of([BIN, "generate", "--count", str(PEER_COUNT), "--seed", "1", "--quiet",
                                          "--force", "--out", bm_out], remove(bm_out))
            bm_out.unlink()
            peer = (wall_c, cpu_c, wall_b, cpu_b)
            rows.append((f"original algorithm in C, {PEER_COUNT:,} cards", f"`seed75 {PEER_COUNT} out.bin 1` (gcc -O2)",
                         wall_c, f"{PEER_COUNT / cpu_c:,.0f} cards per CPU-s"))
            rows.append((f"bingomint, {PEER_COUNT:,} cards", f"`bingomint generate --count {PEER_COUNT}`",
                         wall_b, f"{PEER_COUNT / cpu_b:,.0f} cards per CPU-s"))
    else:
        notes.append(f"The C baseline was skipped: {PEER_C} or gcc not found.")

    board_rates = bench_boards(rows, notes)
    print_figures = bench_print_and_import(rows)
    bench_press(rows)
    bench_hall(rows, notes)
    write_report(rows, notes, tmpfs_rate, disk_ratio, per_card, peer, strip_rate, board_rates, print_figures)


def bench_boards(rows, notes):
    """Objective boards: JSONL to tmpfs and to /dev/null, against dd writing the same bytes."""
    short = LOCKOUT / "smo_short.json"
    combined = LOCKOUT / "smo_combined.json"
    if not short.exists():
        notes.append(f"The boards benchmarks used data/sample-goals.json: {short} is absent.")
        short = combined = ROOT / "data" / "sample-goals.json"
    out = TMPFS / "bingomint-boards.jsonl"
    base = [BIN, "boards", "--set", short, "--size", "5x5", "--seed", "s1", "--format", "jsonl", "--quiet"]
    cmd = base + ["--count", str(BOARDS), "--force", "--out", out]
    wall, cpu, _ = median_of(cmd, remove(out))
    size = out.stat().st_size
    out.unlink()
    rows.append((f"boards 5x5, {short.name}, JSONL to tmpfs",
                 f"`bingomint boards --set {short.name} --size 5x5 --count {BOARDS} --seed s1 --format jsonl --out {out}`",
                 wall, f"{BOARDS / wall / 1e3:.0f} k boards/s, {size / BOARDS:,.0f} bytes/board, {size / wall / 1e6:.0f} MB/s, {cpu:.2f} CPU-s"))
    file_rate = BOARDS / wall
    dd_out = TMPFS / "dd-boards.bin"
    dd = ["dd", "if=/dev/zero", f"of={dd_out}", "bs=1M", f"count={size // 2**20 + 1}", "status=none"]
    wall_dd, _, _ = median_of(dd, remove(dd_out))
    dd_out.unlink()
    rows.append(("dd, same bytes to tmpfs", f"`{' '.join(map(str, dd))}`", wall_dd, f"{size / wall_dd / 1e6:.0f} MB/s"))
    DISK_DIR.mkdir(parents=True, exist_ok=True)
    disk_out = DISK_DIR / "bingomint-boards.jsonl"
    dd_disk = DISK_DIR / "dd-boards.bin"
    ddd = ["dd", "if=/dev/zero", f"of={dd_disk}", "bs=1M", f"count={size // 2**20 + 1}", "conv=fdatasync", "status=none"]
    wall_disk, wall_ddd = medians_interleaved(base + ["--count", str(BOARDS), "--force", "--out", disk_out],
                                              remove(disk_out), ddd, remove(dd_disk))
    disk_out.unlink()
    dd_disk.unlink()
    rows.append((f"boards 5x5, {short.name}, JSONL to disk (fsync)", f"same, `--out {disk_out}`", wall_disk,
                 f"{BOARDS / wall_disk / 1e3:.0f} k boards/s"))
    rows.append(("dd, same bytes to disk (fdatasync)", f"`{' '.join(map(str, ddd))}`", wall_ddd,
                 f"{size / wall_ddd / 1e6:.0f} MB/s; dd's time / ours = {wall_ddd / wall_disk:.2f}"))
    null = base + ["--count", str(BOARDS_NULL)]
    wall_n, cpu_n, _ = median_of(null, devnull=True)
    rows.append((f"boards 5x5, {short.name}, JSONL rendered to /dev/null",
                 f"`bingomint boards --set {short.name} --count {BOARDS_NULL} --seed s1 --format jsonl > /dev/null`",
                 wall_n, f"{BOARDS_NULL / wall_n / 1e3:.0f} k boards/s, {cpu_n:.2f} CPU-s"))
    null_rate = BOARDS_NULL / wall_n
    wall_1, _, _ = median_of(null + ["--threads", "1"], devnull=True)
    rows.append(("same, --threads 1", "same, `--threads 1`", wall_1, f"{BOARDS_NULL / wall_1 / 1e3:.0f} k boards/s"))
    big = [BIN, "boards", "--set", combined, "--size", "7x7", "--seed", "s1", "--format", "jsonl", "--quiet",
           "--count", str(BOARDS_NULL // 4)]
    wall_b, _, _ = median_of(big, devnull=True)
    rows.append((f"boards 7x7, {combined.name}, JSONL to /dev/null",
                 f"`bingomint boards --set {combined.name} --size 7x7 --count {BOARDS_NULL // 4} --seed s1 --format jsonl > /dev/null`",
                 wall_b, f"{BOARDS_NULL // 4 / wall_b / 1e3:.0f} k boards/s"))
    return file_rate, null_rate, wall_dd / wall


def bench_print_and_import(rows):
    """print (pages a second, peak memory at two sizes) and import (a perm CSV)."""
    small, big = (100_000, 1_000_000) if QUICK else (1_000_000, 10_000_000)
    peaks = {}
    for n in (small, big):
        cards = TMPFS / f"bingomint-print-{n}.bmc"
        run([BIN, "generate", "--count", str(n), "--seed", "1", "--quiet", "--force", "--out", cards])
        pdf = TMPFS / "bingomint-print.pdf"
        cmd = [BIN, "print", cards, "--quiet", "--force", "--out", pdf]
        if n == small:
            wall, cpu, _ = median_of(cmd, remove(pdf), runs=min(RUNS, 3))
            pages = -(-n // 6)
            rows.append((f"print, {n:,} cards, six a page, to tmpfs", f"`bingomint print cards.bmc --out cards.pdf`",
                         wall, f"{pages / wall / 1e3:.1f} k pages/s, {pages / cpu / 1e3:.1f} k pages per CPU-s"))
        anon, hwm, wall = peak_anon_kib(cmd)
        peaks[n] = hwm
        rows.append((f"print, {n:,} cards: peak memory", "same, sampled every 20 ms", wall,
                     f"peak RSS {hwm / 1024:.0f} MiB (anonymous {anon / 1024:.0f} MiB)"))
        remove(pdf)()
        if n == small:
            csv = TMPFS / "bingomint-perms.csv"
            run([BIN, "export", cards, "--format", "csv", "--force", "--out", csv])
            out = TMPFS / "bingomint-imported.bmc"
            cmd = [BIN, "import", csv, "--game", "75", "--quiet", "--force", "--out", out]
            wall, cpu, _ = median_of(cmd, remove(out), runs=min(RUNS, 3))
            anon, hwm, _ = peak_anon_kib(cmd)
            mb = csv.stat().st_size / 1e6
            rows.append((f"import, a {mb:.0f} MB perm CSV of {n:,} cards, to tmpfs",
                         "`bingomint import perms.csv --game 75 --out perms.bmc`", wall,
                         f"{n / wall / 1e6:.2f} M cards/s, peak RSS {hwm / 1024:.0f} MiB"))
            remove(out)()
            remove(csv)()
        remove(cards)()
    return small, big, peaks


def bench_press(rows):
    """A print house's run: 90-ball strips on SRA3, 3 a sheet, cut into piles of whole books of 6 in
    six inks, press marks, a packing list and carton labels."""
    strips = 9_990 if QUICK else 99_990
    cards = TMPFS / "bingomint-press.bmc"
    run([BIN, "generate", "--game", "90", "--count", str(strips), "--seed", "1", "--quiet", "--force", "--out", cards])
    pdf, packing, labels = TMPFS / "bingomint-press.pdf", TMPFS / "bingomint-press.csv", TMPFS / "bingomint-labels.pdf"
    cmd = [BIN, "print", cards, "--paper", "sra3", "--layout", "3", "--order", "cut-stack", "--book-pages", "6",
           "--colours", "red", "blue", "green", "orange", "pink", "gray", "--press", "--packing", packing,
           "--books-per-carton", "50", "--carton-labels", labels, "--quiet", "--force", "--out", pdf]
    wall, cpu, _ = median_of(cmd, remove(pdf), runs=min(RUNS, 3))
    anon, hwm, _ = peak_anon_kib(cmd)
    sheets = strips // 3
    rows.append((f"press run, {strips:,} 90-ball strips, to tmpfs",
                 "`bingomint print strips.bmc --paper sra3 --layout 3 --order cut-stack --book-pages 6 --colours "
                 "(6 inks) --press --packing p.csv --books-per-carton 50 --carton-labels l.pdf --out run.pdf`",
                 wall, f"{sheets / wall / 1e3:.1f} k sheets/s, {cpu:.2f} CPU-s, peak RSS {hwm / 1024:.0f} MiB"))
    for path in (pdf, packing, labels, cards):
        remove(path)()


def bench_hall(rows, notes):
    """The hall under load (scripts/hall-load.py): console claims on 10 M cards, then a room of 200 boards and
    2,000 phones with players' claims queued and decided. One run each: the figures are p99s of thousands of
    requests, so a run is its own sample."""
    seconds = 20 if QUICK else 60
    cards = ROOT / "target" / ("load-1m.bmc" if QUICK else "load-10m.bmc")
    if not cards.exists():
        run([BIN, "generate", "--count", str(1_000_000 if QUICK else 10_000_000), "--seed", "load", "--quiet",
             "--out", cards])
    load = [sys.executable, str(ROOT / "scripts" / "hall-load.py"), "--cards", str(cards), "--seconds", str(seconds)]
    env = dict(ENV, BINGOMINT_BIN=str(BIN))
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("console", ["--claims", "50", "--players", "0"]), ("room", [])):
            out = Path(tmp) / f"{name}.json"
            done = subprocess.run(load + extra + ["--json", str(out)], env=env, stdout=subprocess.DEVNULL)
            if done.returncode != 0 or not out.exists():
                notes.append(f"The hall's load run `{name}` failed (exit {done.returncode}): its rows are missing.")
                continue
            figures[name] = json.loads(out.read_text())
    n = f"{1 if QUICK else 10} M cards"
    flag = f"--seconds {seconds}"
    if "console" in figures:
        req = figures["console"]["requests"]
        claims = req["POST /api/claims"]
        rows.append((f"hall: console claims, {n}, 50/s", f"`python3 scripts/hall-load.py --claims 50 {flag} --players 0`",
                     claims["p99_ms"] / 1e3, f"p99 {claims['p99_ms']:.2f} ms, median {claims['median_ms']:.2f} ms "
                     f"over {claims['count']:,} claims, {claims['errors']} errors"))
    if "room" in figures:
        room = figures["room"]
        bingo, seen = room["requests"]["POST /api/bingo"], room["calls_seen"]
        rows.append((f"hall: players' claims, {n}, 200 boards + 2,000 phones", f"`python3 scripts/hall-load.py {flag}`",
                     bingo["p99_ms"] / 1e3, f"p99 {bingo['p99_ms']:.2f} ms, median {bingo['median_ms']:.2f} ms "
                     f"over {bingo['count']:,} claims, {bingo['errors']} errors"))
        if "p99_ms" in seen:
            rows.append(("hall: a call seen by every stream", "same", seen["p99_ms"] / 1e3,
                         f"p99 {seen['p99_ms']:.0f} ms after the call was answered, {seen['deliveries']:,} deliveries, "
                         f"{seen['missed']} missed; hall peak {room['peak_mib']:.0f} MiB"))


def write_report(rows, notes, tmpfs_rate, disk_ratio, per_card, peer, strip_rate, board_rates, print_figures):
    lines = [
        "# Benchmarks",
        "",
        "Written by `scripts/bench.sh` (which runs `scripts/bench.py`); every time is the median of "
        f"{RUNS} runs, wall clock, of the release binary end to end (file created, cards drawn, "
        "duplicates resolved, checksummed, header written, fsynced, renamed). Micro-benchmarks of the "
        "stages: `cargo bench --bench pipeline`.",
        "",
        f"Machine: {machine()}. Run on {time.strftime('%Y-%m-%d')}" + (" (QUICK mode: smaller counts)." if QUICK else "."),
        "This file is the current run only; earlier runs, with the reasoning behind each change, are kept dated in "
        "`benchmarks/history/`.",
        "",
        "The hall's rows are one load run each (`scripts/hall-load.py`, 127.0.0.1 only); their \"wall s\" is the "
        "p99 of thousands of requests.",
        "",
        "| what | command | median wall s | rate |",
        "|---|---|---:|---|",
    ]
    for what, cmd, wall, rate in rows:
        lines.append(f"| {what} | {cmd} | {wall:.3f} | {rate} |")
    lines += ["", "## Against the targets", ""]
    lines.append(f"- To tmpfs, {COUNT:,} cards: **{tmpfs_rate / 1e6:.1f} M cards/s** (target ≥ 25 M cards/s: "
                 + ("met)." if tmpfs_rate >= 25e6 else "not met; see ARCHITECTURE.md, \"Where the time goes\")."))
    lines.append(f"- To disk with fsync: dd's time / ours = **{disk_ratio:.2f}** (target ≥ 0.85: "
                 + ("met)." if disk_ratio >= 0.85 else "not met)."))
    lines.append(f"- Memory at {BIG:,} cards: **{per_card:.1f} bytes of anonymous memory per card** (target ≤ 40: "
                 + ("met)." if per_card <= 40 else "not met)."))
    lines.append(f"- 90-ball, {STRIPS:,} uniform strips (uk) to tmpfs, unique tickets checked: **{strip_rate / 1e3:.0f} k strips/s** "
                 "(target ≥ 1,000,000 strips/s: " + ("met)." if strip_rate >= 1e6 else "not met; the best valid peer measured makes "
                 "~43,000 strips per CPU-second, biased by ticket position).") )
    file_rate, null_rate, dd_ratio = board_rates
    lines.append(f"- Objective boards, 5x5 from the 91-objective set, JSONL: **{null_rate / 1e3:.0f} k boards/s** rendered to "
                 f"/dev/null, **{file_rate / 1e3:.0f} k boards/s** written to a tmpfs file (target ≥ 200,000 boards/s: "
                 + ("met" if null_rate >= 2e5 else "not met") + " with the output rendered, "
                 + ("met" if file_rate >= 2e5 else "not met") + " with it written to tmpfs). The output's volume is much of "
                 f"the file run's cost: dd alone writes the same bytes to tmpfs in {dd_ratio:.2f}× our time "
                 "(JSONL with categories and tooltips is ~4.5 KB a board).")
    if peer:
        wall_c, cpu_c, wall_b, cpu_b = peer
        lines.append(f"- Against the original algorithm in C at {PEER_COUNT:,} cards: {cpu_c / cpu_b:.0f}× less CPU time, "
                     f"{wall_c / wall_b:.0f}× less wall time (and no false rejections: its 32-bit hash turns away "
                     "distinct cards, bingomint's exact keys never do). The C program is O(N²): "
                     "at 10 M cards it is estimated at ~70 CPU-minutes.")
    small, big, peaks = print_figures
    lines.append(f"- Print memory stays flat: peak RSS **{peaks[small] / 1024:.0f} MiB** at {small:,} cards and "
                 f"**{peaks[big] / 1024:.0f} MiB** at {big:,} (target under 300 MB at 10 M cards: "
                 + ("met)." if peaks[big] / 1024 < 300 else "not met).")
                 + " Peer: pdf-writer streaming makes ~12,500 pages per CPU-second in ~7 MB; printpdf needs ~73 KB a page.")
    lines += [""] + notes
    (ROOT / "BENCHMARKS.md").write_text("\n".join(lines).rstrip() + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
