//! The battery on a file's cards, as players see them (faces, not bytes).
//!
//! A card game (one face a record, column c holding K = balls / columns
//! numbers): every numbered cell is a digit stream (its number less the
//! column's lowest, uniform below K); each column's numbers as a set (each
//! number in m of K places: a chi-square corrected for drawing without
//! replacement) and as an order (m! orders, equally likely: the
//! permutation test); the star's cell.
//!
//! A strip game (six faces holding every number once): every number is a
//! digit stream (the ticket that holds it, uniform below 6: a uniform
//! strip favours no position); each ticket's row patterns and column
//! counts against the exact law of the sampler's tables.
//!
//! Both: runs up and down of each record's hash in file order.
//!
//! Records are read in segments of [`SEGMENT`] in parallel; the counts do
//! not depend on the thread count.

use super::streams::Stream;
use super::{stats, Battery, Family, Residuals, Test};
use crate::game::{Face, Spec, Text, Visit};
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

/// Records a segment holds.
pub const SEGMENT: usize = 1 << 18;

/// Runs the card battery over `records` (whole records of `spec`),
/// calling `done(range)` with each segment's record range once it is read.
/// Records that break the rules are counted and left out (a `verify`
/// names them).
pub fn battery(
    spec: Spec,
    records: &[u8],
    done: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Battery {
    spec.visit(Read {
        spec,
        records,
        done,
    })
}

struct Read<'a> {
    spec: Spec,
    records: &'a [u8],
    done: &'a (dyn Fn(std::ops::Range<usize>) + Sync),
}

impl Visit for Read<'_> {
    type Out = Battery;
    fn visit<G: Text>(self, game: &G) -> Battery {
        let size = self.spec.record_size();
        let count = self.records.len() / size;
        let shape = Shape::of(self.spec);
        let segments: Vec<Tally> = (0..count.div_ceil(SEGMENT))
            .into_par_iter()
            .map(|s| {
                let range = s * SEGMENT..((s + 1) * SEGMENT).min(count);
                let mut tally = Tally::new(&shape);
                let mut faces = vec![Face::new(1, 1); self.spec.faces()];
                for record in self.records[range.start * size..range.end * size].chunks_exact(size)
                {
                    match game.read_faces(record, &mut faces) {
                        Ok(()) => tally.add(&shape, &faces, record),
                        Err(_) => tally.broken += 1,
                    }
                }
                tally.finish_segment();
                (self.done)(range);
                tally
            })
            .collect();
        let mut total = Tally::new(&shape);
        for t in &segments {
            total.merge(t);
        }
        total.battery(&shape, self.spec, count as u64)
    }
}

/// Where a game's digits come from.
struct Shape {
    strip: bool,
    /// Card games: the numbered cells (row-major index), each one's
    /// column, the numbers a column draws from, its lowest less one.
    cells: Vec<usize>,
    column_of: Vec<usize>,
    /// Each column's numbers: the lowest less one and how many (an items
    /// game's column may draw from the whole list, or from its group).
    pools: Vec<(usize, usize)>,
    /// Where each column's counts start in [`Tally`]'s numbers.
    offsets: Vec<usize>,
    labels: Vec<String>,
    cols: usize,
    /// Numbered cells a column holds.
    heights: Vec<usize>,
    balls: usize,
    /// Strips: the exact layout law.
    law: Option<crate::game::uk90::law::LayoutLaw>,
}

impl Shape {
    fn of(spec: Spec) -> Shape {
        let facts = spec.facts();
        let (rows, cols) = (facts.rows, facts.cols);
        let cells: Vec<usize> = (0..rows * cols)
            .filter(|i| facts.free >> i & 1 == 0)
            .collect();
        let column_of: Vec<usize> = cells.iter().map(|i| i % cols).collect();
        let labels = cells
            .iter()
            .map(|&i| match facts.letters.get(i % cols) {
                Some(letter) => format!("cell {letter}{}", i / cols + 1),
                None => format!("cell row {} column {}", i / cols + 1, i % cols + 1),
            })
            .collect();
        let heights = (0..cols)
            .map(|c| column_of.iter().filter(|&&x| x == c).count())
            .collect();
        let span = usize::from(facts.balls) / cols;
        let pools: Vec<(usize, usize)> = (0..cols)
            .map(|c| match spec.items() {
                Some(deck) => {
                    let pool = deck.pool(c);
                    (usize::from(*pool.start()) - 1, pool.len())
                }
                None => (c * span, span),
            })
            .collect();
        let offsets = pools
            .iter()
            .scan(0, |at, &(_, k)| {
                let here = *at;
                *at += k;
                Some(here)
            })
            .collect();
        Shape {
            strip: facts.faces > 1,
            pools,
            offsets,
            cells,
            column_of,
            labels,
            cols,
            heights,
            balls: usize::from(facts.balls),
            law: spec.layout_law(),
        }
    }

    fn streams(&self) -> usize {
        if self.strip {
            self.balls
        } else {
            self.cells.len()
        }
    }
}

/// One segment's counts (or, merged, the file's).
struct Tally {
    streams: Vec<Stream>,
    /// Card games: each number's count, each column's orders (Lehmer
    /// codes), each cell's stars.
    numbers: Vec<u64>,
    orders: Vec<Vec<u64>>,
    stars: Vec<u64>,
    /// Strips: (ticket, row) → row pattern counts; (ticket, column) →
    /// counts of 0–3 numbers.
    rows: Vec<Vec<u64>>,
    columns: Vec<[u64; 4]>,
    updown: UpDown,
    broken: u64,
}

impl Tally {
    fn new(shape: &Shape) -> Tally {
        let (rows, columns) = if shape.strip {
            (vec![vec![0; 512]; 18], vec![[0; 4]; 54])
        } else {
            (Vec::new(), Vec::new())
        };
        Tally {
            streams: (0..shape.streams())
                .map(|s| match shape.strip {
                    true => Stream::new(6),
                    false => Stream::new(shape.pools[shape.column_of[s]].1),
                })
                .collect(),
            numbers: vec![0; shape.pools.iter().map(|&(_, k)| k).sum()],
            orders: shape
                .heights
                .iter()
                .map(|&m| vec![0; factorial(m)])
                .collect(),
            stars: vec![0; 32],
            rows,
            columns,
            updown: UpDown::default(),
            broken: 0,
        }
    }

    #[inline]
    fn add(&mut self, shape: &Shape, faces: &[Face], record: &[u8]) {
        self.updown.push(xxh3_64(record));
        if shape.strip {
            return self.add_strip(faces);
        }
        let face = &faces[0];
        let cells = face.numbers();
        let mut column = [[0u8; 8]; 8];
        let mut filled = [0usize; 8];
        for (s, (&i, &c)) in shape.cells.iter().zip(&shape.column_of).enumerate() {
            let digit = usize::from(cells[i]) - 1 - shape.pools[c].0;
            self.numbers[shape.offsets[c] + digit] += 1;
            self.streams[s].push(digit);
            column[c][filled[c]] = cells[i];
            filled[c] += 1;
        }
        for c in 0..shape.cols {
            self.orders[c][lehmer(&column[c][..filled[c]])] += 1;
        }
        if let Some((r, c)) = face.star_at() {
            self.stars[r * shape.cols + c] += 1;
        }
    }

    fn add_strip(&mut self, faces: &[Face]) {
        for (t, face) in faces.iter().enumerate() {
            let mut counts = [0usize; 9];
            for r in 0..3 {
                let mut mask = 0;
                for (c, count) in counts.iter_mut().enumerate() {
                    let n = face.at(r, c);
                    if n != 0 {
                        mask |= 1 << c;
                        *count += 1;
                        self.streams[usize::from(n) - 1].push(t);
                    }
                }
                self.rows[t * 3 + r][mask] += 1;
            }
            for (c, &k) in counts.iter().enumerate() {
                self.columns[t * 9 + c][k.min(3)] += 1;
            }
        }
    }

    fn finish_segment(&mut self) {
        self.streams.iter_mut().for_each(Stream::finish_segment);
        self.updown.finish_segment();
    }

    fn merge(&mut self, other: &Tally) {
        for (a, b) in self.streams.iter_mut().zip(&other.streams) {
            a.merge(b);
        }
        super::add_counts(&mut self.numbers, &other.numbers);
        for (a, b) in self.orders.iter_mut().zip(&other.orders) {
            super::add_counts(a, b);
        }
        super::add_counts(&mut self.stars, &other.stars);
        for (a, b) in self.rows.iter_mut().zip(&other.rows) {
            super::add_counts(a, b);
        }
        for (a, b) in self.columns.iter_mut().zip(&other.columns) {
            super::add_counts(a, b);
        }
        self.updown.merge(&other.updown);
        self.broken += other.broken;
    }

    fn battery(&self, shape: &Shape, spec: Spec, count: u64) -> Battery {
        let mut tests = Vec::new();
        let mut residuals = Vec::new();
        let read = count - self.broken;
        if shape.strip {
            self.strip_tests(shape, read, &mut tests, &mut residuals);
        } else {
            self.card_tests(shape, read, &mut tests, &mut residuals);
        }
        self.updown
            .test("each record's hash, in file order", &mut tests);
        let mut battery = Battery {
            subject: spec.made(read),
            tests,
            checks: Vec::new(),
            residuals,
            alpha: 0.0,
        };
        if self.broken > 0 {
            battery.checks.push(super::Check {
                name: "rules".into(),
                passed: false,
                detail: format!(
                    "{} records break the game's rules (run verify)",
                    self.broken
                ),
            });
        }
        battery
    }

    fn card_tests(
        &self,
        shape: &Shape,
        n: u64,
        tests: &mut Vec<Test>,
        residuals: &mut Vec<Residuals>,
    ) {
        let mut bars = Vec::new();
        for (c, &m) in shape.heights.iter().enumerate() {
            let (lo, k) = shape.pools[c];
            let counts = &self.numbers[shape.offsets[c]..shape.offsets[c] + k];
            let name = column_name(shape, c);
            // Each card draws m of the column's K numbers without
            // replacement: Pearson's statistic times (K − 1)/(K − m) is
            // chi-square with K − 1 degrees of freedom.
            let (x, df) = stats::pearson_uniform(counts);
            let x = x * (k - 1) as f64 / (k - m) as f64;
            tests.push(Test::chi(
                Family::ChiSquare,
                format!("{name}: each number equally often"),
                x,
                df,
                n,
            ));
            let q = m as f64 / k as f64;
            let sd = (n as f64 * q * (1.0 - q)).sqrt();
            bars.extend(counts.iter().enumerate().map(|(i, &o)| {
                let z = (o as f64 - n as f64 * q) / sd;
                ((1 + lo + i).to_string(), z)
            }));
            let (x, df) = stats::pearson_uniform(&self.orders[c]);
            let what = format!(
                "{name}: each of the {} orders of its numbers equally often",
                self.orders[c].len()
            );
            tests.push(Test::chi(Family::Permutation, what, x, df, n));
        }
        let title = "each number's count, column by column".to_string();
        residuals.push(Residuals { title, bars });
        for (s, label) in shape.labels.iter().enumerate() {
            self.streams[s].tests(label, true, tests);
        }
        let stars: Vec<u64> = shape.cells.iter().map(|&i| self.stars[i]).collect();
        if stars.iter().any(|&s| s > 0) {
            let (x, df) = stats::pearson_uniform(&stars);
            let name = format!(
                "the star: on each of the {} numbered cells equally often",
                stars.len()
            );
            tests.push(Test::chi(
                Family::ChiSquare,
                name,
                x,
                df,
                stars.iter().sum(),
            ));
        }
    }

    fn strip_tests(
        &self,
        shape: &Shape,
        n: u64,
        tests: &mut Vec<Test>,
        residuals: &mut Vec<Residuals>,
    ) {
        let law = shape.law.as_ref().expect("a strip game has a layout law");
        for t in 0..6 {
            for r in 0..3 {
                let (x, df) = stats::pearson_lumped(&self.rows[t * 3 + r], &law.rows[r]);
                let name = format!(
                    "ticket {} row {}: each row pattern at its exact rate",
                    t + 1,
                    r + 1
                );
                tests.push(Test::chi(Family::ChiSquare, name, x, df, n));
            }
            for c in 0..9 {
                let (x, df) = stats::pearson_lumped(&self.columns[t * 9 + c], &law.columns[c]);
                let name = format!(
                    "ticket {} column {}: 1, 2 or 3 numbers at their exact rates",
                    t + 1,
                    c + 1
                );
                tests.push(Test::chi(Family::ChiSquare, name, x, df, n));
            }
        }
        let sd = (n as f64 * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
        let bars = self
            .streams
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    (i + 1).to_string(),
                    (s.frequencies()[0] as f64 - n as f64 / 6.0) / sd,
                )
            })
            .collect();
        residuals.push(Residuals {
            title: "how often each number is on ticket 1".into(),
            bars,
        });
        for (i, stream) in self.streams.iter().enumerate() {
            stream.tests(&format!("number {}: its ticket", i + 1), true, tests);
        }
    }
}

/// A column's name in test names: `column B`, `column 2`.
fn column_name(shape: &Shape, c: usize) -> String {
    let letter = shape
        .labels
        .iter()
        .zip(&shape.column_of)
        .find(|(_, &col)| col == c);
    match letter {
        Some((label, _)) if label.starts_with("cell ") && !label.contains("row") => {
            format!("column {}", &label[5..label.len() - 1])
        }
        _ => format!("column {}", c + 1),
    }
}

fn factorial(m: usize) -> usize {
    (1..=m).product()
}

/// The rank (0 ≤ rank < m!) of the order of `values` (distinct).
fn lehmer(values: &[u8]) -> usize {
    let m = values.len();
    let mut code = 0;
    for i in 0..m {
        let smaller = values[i + 1..].iter().filter(|&&v| v < values[i]).count();
        code = code * (m - i) + smaller;
    }
    code
}

/// Runs up and down of a sequence of (practically) continuous values: a
/// run ends where the direction turns; ties are skipped.
#[derive(Default)]
struct UpDown {
    last: Option<u64>,
    up: Option<bool>,
    runs: u64,
    n: u64,
    mean: f64,
    var: f64,
    total: u64,
}

impl UpDown {
    #[inline]
    fn push(&mut self, x: u64) {
        self.n += 1;
        if let Some(last) = self.last {
            if x != last {
                let up = x > last;
                if self.up != Some(up) {
                    self.runs += 1;
                    self.up = Some(up);
                }
            }
        }
        self.last = Some(x);
    }

    fn finish_segment(&mut self) {
        // (2n − 1)/3 runs expected among n values, variance (16n − 29)/90.
        if self.n >= 2 {
            let n = self.n as f64;
            self.mean += (2.0 * n - 1.0) / 3.0;
            self.var += (16.0 * n - 29.0) / 90.0;
            self.total += self.n;
        }
        (self.last, self.up, self.n) = (None, None, 0);
    }

    fn merge(&mut self, other: &UpDown) {
        self.runs += other.runs;
        self.mean += other.mean;
        self.var += other.var;
        self.total += other.total;
    }

    fn test(&self, what: &str, tests: &mut Vec<Test>) {
        if self.var > 0.0 {
            let z = (self.runs as f64 - self.mean) / self.var.sqrt();
            tests.push(Test::normal(
                Family::Runs,
                format!("{what}: runs up and down"),
                z,
                self.total,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lehmer_codes_number_every_order_once() {
        let mut seen = std::collections::HashSet::new();
        let mut v = [1u8, 2, 3, 4];
        // Heap's algorithm would do; 4! orders by brute force.
        for a in 0..4 {
            for b in 0..4 {
                for c in 0..4 {
                    for d in 0..4 {
                        let idx = [a, b, c, d];
                        if (0..4).all(|i| idx.contains(&i)) {
                            for (slot, &i) in v.iter_mut().zip(&idx) {
                                *slot = i as u8;
                            }
                            assert!(seen.insert(lehmer(&v)));
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), 24);
        assert!(seen.iter().all(|&c| c < 24));
    }
}
