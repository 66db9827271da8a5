//! Statistical tests of fairness, run in release mode (`cargo test --release`).
//!
//! Each test draws a fixed-seed sample through the real pipeline and compares
//! observed frequencies with the exact expected ones by a chi-square test.
//! Each test's family of statistics has an overall significance level
//! ALPHA = 0.001, split evenly (Bonferroni) over its statistics, so a
//! correct generator fails it with probability below 0.1%; with fixed seeds
//! the outcome is deterministic, so a pass stays a pass.

use bingomint::dedup::KeySet;
use bingomint::game::us75::{StarRule, Us75, RECORD_SIZE};
use bingomint::game::Game;
use bingomint::pipeline;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Overall significance level of this file's tests.
const ALPHA: f64 = 0.001;
/// Chi-square statistics computed in this file: 24 cells + 1 star + 4 pair tests.
const TESTS: f64 = 29.0;
/// Cards drawn.
const CARDS: usize = 3_000_000;

fn critical(df: usize) -> f64 {
    critical_of(df, TESTS)
}

fn critical_of(df: usize, tests: f64) -> f64 {
    ChiSquared::new(df as f64)
        .unwrap()
        .inverse_cdf(1.0 - ALPHA / tests)
}

fn chi_square(observed: &[u64], expected: f64) -> f64 {
    observed
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

fn sample() -> Vec<u8> {
    let game = Us75::new(StarRule::On);
    let set = KeySet::with_capacity(CARDS);
    let mut records = vec![0u8; CARDS * RECORD_SIZE];
    pipeline::mint_records(&game, 20261122, &mut records, &set, &|_| {}).unwrap();
    records
}

#[test]
fn every_cell_number_and_the_star_are_uniform() {
    let records = sample();
    let game = Us75::new(StarRule::On);
    let mut cells = vec![[0u64; 15]; 25];
    let mut stars = [0u64; 25];
    // Ordered pairs (row 1, row 2) of each of B, I, G, O: 15 × 14 = 210 outcomes.
    let mut pairs = vec![[0u64; 225]; 5];
    for record in records.chunks_exact(RECORD_SIZE) {
        let card = game.decode(record).unwrap();
        let grid = card.grid();
        for (r, row) in grid.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                if n != 0 {
                    cells[r * 5 + c][usize::from(n) - 1 - 15 * c] += 1;
                }
            }
        }
        for c in [0, 1, 3, 4] {
            let a = usize::from(grid[0][c]) - 1 - 15 * c;
            let b = usize::from(grid[1][c]) - 1 - 15 * c;
            pairs[c][a * 15 + b] += 1;
        }
        let (r, c) = card.star().unwrap();
        stars[r * 5 + c] += 1;
    }
    let n = CARDS as f64;
    for (cell, counts) in cells.iter().enumerate() {
        if cell == 12 {
            assert!(counts.iter().all(|&c| c == 0));
            continue;
        }
        let stat = chi_square(counts, n / 15.0);
        assert!(
            stat < critical(14),
            "cell {cell}: chi-square {stat:.1} ≥ {:.1}",
            critical(14)
        );
    }
    assert_eq!(stars[12], 0, "a star on the free centre");
    let star_cells: Vec<u64> = stars
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 12)
        .map(|(_, &s)| s)
        .collect();
    let stat = chi_square(&star_cells, n / 24.0);
    assert!(
        stat < critical(23),
        "star: chi-square {stat:.1} ≥ {:.1}",
        critical(23)
    );
    for c in [0, 1, 3, 4] {
        let observed: Vec<u64> = (0..225)
            .filter(|i| i / 15 != i % 15)
            .map(|i| pairs[c][i])
            .collect();
        assert_eq!(observed.len(), 210);
        let stat = chi_square(&observed, n / 210.0);
        assert!(
            stat < critical(209),
            "column {c} pairs: chi-square {stat:.1} ≥ {:.1}",
            critical(209)
        );
    }
}

#[test]
fn the_test_can_fail() {
    // The same statistic on a visibly biased sample must exceed the bound,
    // or the test above proves nothing.
    let mut biased = [200_000u64; 15];
    biased[0] += 3_000;
    biased[1] -= 3_000;
    assert!(chi_square(&biased, 200_000.0) > critical(14));
}

/// 90-ball: for each ticket position 1–6 separately, the number of full
/// (three-number) columns per ticket and each column's count, against the
/// exact marginals the sampler's own DP computes. A generator biased by
/// ticket position (as greedy ones are) fails this.
#[test]
#[allow(clippy::needless_range_loop)] // grids indexed by ticket, row, column
fn every_ticket_position_of_a_strip_is_unbiased() {
    use bingomint::game::uk90::rules::Rules;
    use bingomint::game::uk90::{Uk90, RECORD_SIZE as STRIP};
    const STRIPS: usize = 300_000;
    // 6 positions × (1 full-column statistic + 9 column statistics).
    const FAMILY: f64 = 60.0;
    let game = Uk90::new(Rules::Uk);
    let set = KeySet::with_capacity(STRIPS * 6);
    let mut records = vec![0u8; STRIPS * STRIP];
    pipeline::mint_records(&game, 90, &mut records, &set, &|_| {}).unwrap();

    let p = game.tables().vector_probabilities();
    let mut full_p = [0.0f64; 4];
    let mut column_p = [[0.0f64; 4]; 9];
    for (v, &pv) in game.tables().vectors.iter().zip(&p) {
        full_p[v.iter().filter(|&&x| x == 3).count()] += pv;
        for c in 0..9 {
            column_p[c][usize::from(v[c])] += pv;
        }
    }
    let mut full = [[0u64; 4]; 6];
    let mut columns = [[[0u64; 4]; 9]; 6];
    for record in records.chunks_exact(STRIP) {
        let strip = game.decode(record).unwrap();
        for t in 0..6 {
            let mut threes = 0;
            for c in 0..9 {
                let k = (0..3).filter(|&r| strip.cells[t][r][c] != 0).count();
                columns[t][c][k] += 1;
                threes += usize::from(k == 3);
            }
            full[t][threes] += 1;
        }
    }
    let n = STRIPS as f64;
    let stat = |observed: &[u64], probabilities: &[f64]| -> f64 {
        observed
            .iter()
            .zip(probabilities)
            .filter(|(_, &q)| q > 0.0)
            .map(|(&o, &q)| (o as f64 - n * q).powi(2) / (n * q))
            .sum()
    };
    for t in 0..6 {
        let s = stat(&full[t], &full_p);
        let bound = critical_of(3, FAMILY);
        assert!(
            s < bound,
            "ticket {}: full columns chi-square {s:.1} ≥ {bound:.1}: {:?}",
            t + 1,
            full[t]
        );
        for c in 0..9 {
            let s = stat(&columns[t][c][1..], &column_p[c][1..]);
            let bound = critical_of(2, FAMILY);
            assert!(
                s < bound,
                "ticket {} column {}: chi-square {s:.1} ≥ {bound:.1}",
                t + 1,
                c + 1
            );
        }
    }
}
