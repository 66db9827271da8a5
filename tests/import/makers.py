"""Card and ticket files as other makers write them, for the import tests.

Written without bingomint: its own drawing and its own layouts. Usage:

    python3 makers.py DIR

writes into DIR, for each file, the file and `NAME.truth.json`: the faces it
holds as rows of numbers (0 for a blank or the free centre), with their
numbers and 75-ball stars (row-major cell index, or null).
"""

import csv
import json
import random
import sys
from pathlib import Path

rng = random.Random(20261125)
LETTERS = "BINGO"


def card75():
    cols = [rng.sample(range(15 * c + 1, 15 * c + 16), 5) for c in range(5)]
    rows = [[cols[c][r] for c in range(5)] for r in range(5)]
    rows[2][2] = 0
    return rows


def card80():
    cols = [rng.sample(range(20 * c + 1, 20 * c + 21), 4) for c in range(4)]
    return [[cols[c][r] for c in range(4)] for r in range(4)]


def ticket90():
    """A uk ticket: 15 numbers, five a row, 1-3 a column, columns ascending."""
    while True:
        counts = [1] * 9
        for c in rng.sample(range(9), 6):
            counts[c] += 1
        if max(counts) > 3:
            continue
        grid = [[0] * 9 for _ in range(3)]
        load = [0, 0, 0]
        ok = True
        for c in sorted(range(9), key=lambda c: -counts[c]):
            rows = sorted(sorted(range(3), key=lambda r: (load[r], rng.random()))[: counts[c]])
            if any(load[r] >= 5 for r in rows):
                ok = False
                break
            lo = 1 if c == 0 else 10 * c
            hi = 9 if c == 0 else (90 if c == 8 else 10 * c + 9)
            numbers = sorted(rng.sample(range(lo, hi + 1), counts[c]))
            for r, n in zip(rows, numbers):
                grid[r][c] = n
                load[r] += 1
        if ok and load == [5, 5, 5]:
            return grid


def truth(out, name, faces, numbers, stars=None):
    data = [
        {"number": n, "rows": f, "star": None if stars is None else stars[i]}
        for i, (n, f) in enumerate(zip(numbers, faces))
    ]
    (out / f"{name}.truth.json").write_text(json.dumps(data))


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)

    # 75-ball perms: "Card No.", a series column, 24 numbers column by column
    # (the free centre left out), Windows line ends; numbered from 1001.
    faces = [card75() for _ in range(40)]
    stars = [None] * 40
    with open(out / "perms.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(["Card No.", "Series"] + [f"n{k}" for k in range(1, 25)])
        for i, rows in enumerate(faces):
            cells = [rows[r][c] for c in range(5) for r in range(5) if (r, c) != (2, 2)]
            w.writerow([1001 + i, "AUTUMN"] + cells)
    truth(out, "perms.csv", faces, range(1001, 1041), stars)

    # 75-ball with stars, TSV, cells named r1c1 … and the centre as FREE.
    faces = [card75() for _ in range(30)]
    stars = [rng.choice([k for k in range(25) if k != 12]) for _ in faces]
    with open(out / "starred.tsv", "w", newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(["id"] + [f"r{r}c{c}" for r in range(1, 6) for c in range(1, 6)] + ["star"])
        for i, rows in enumerate(faces):
            cells = ["FREE" if (r, c) == (2, 2) else rows[r][c] for r in range(5) for c in range(5)]
            s = stars[i]
            w.writerow([i + 1] + cells + [f"{LETTERS[s % 5]}{s // 5 + 1}"])
    truth(out, "starred.tsv", faces, range(1, 31), stars)

    # 75-ball JSON: an array of objects, grids with null in the centre.
    faces = [card75() for _ in range(25)]
    items = []
    for i, rows in enumerate(faces):
        grid = [[None if (r, c) == (2, 2) else rows[r][c] for c in range(5)] for r in range(5)]
        items.append({"serial": 501 + i, "grid": grid, "colour": "blue"})
    (out / "cards.json").write_text(json.dumps(items, indent=1))
    truth(out, "cards.json", faces, range(501, 526), [None] * 25)

    # 80-ball text grids, "Card N" labels, blank lines between cards.
    faces = [card80() for _ in range(20)]
    with open(out / "eighty.txt", "w") as f:
        for i, rows in enumerate(faces):
            f.write(f"Card {i + 1}\n")
            for row in rows:
                f.write("  ".join(f"{n:2d}" for n in row) + "\n")
            f.write("\n")
    truth(out, "eighty.txt", faces, range(1, 21))

    # 90-ball single tickets, JSON Lines, "-" for blanks: never strips.
    faces = [ticket90() for _ in range(37)]
    with open(out / "tickets.jsonl", "w") as f:
        for i, rows in enumerate(faces):
            cells = [["-" if n == 0 else n for n in row] for row in rows]
            f.write(json.dumps({"ticket": i + 1, "rows": cells}) + "\n")
    truth(out, "tickets.jsonl", faces, range(1, 38))


if __name__ == "__main__":
    main(sys.argv[1])
