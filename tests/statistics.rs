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

/// 80-ball: every (cell, number) pair against 1/20, and the ordered pairs
/// (row 1, row 2) of each column against 1/380, over 2 M cards drawn
/// through the pipeline; its own family of 16 + 4 statistics at ALPHA.
#[test]
fn every_eighty_ball_cell_and_pair_is_uniform() {
    use bingomint::game::us80::{Us80, RECORD_SIZE};
    const CARDS80: usize = 2_000_000;
    const TESTS80: f64 = 20.0;
    let set = KeySet::with_capacity(CARDS80);
    let mut records = vec![0u8; CARDS80 * RECORD_SIZE];
    pipeline::mint_records(&Us80, 20261124, &mut records, &set, &|_| {}).unwrap();
    let mut cells = vec![[0u64; 20]; 16];
    let mut pairs = vec![[0u64; 400]; 4];
    for record in records.chunks_exact(RECORD_SIZE) {
        let grid = Us80.decode(record).unwrap().grid();
        for (r, row) in grid.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                cells[r * 4 + c][usize::from(n) - 1 - 20 * c] += 1;
            }
        }
        for (c, column) in pairs.iter_mut().enumerate() {
            let a = usize::from(grid[0][c]) - 1 - 20 * c;
            let b = usize::from(grid[1][c]) - 1 - 20 * c;
            column[a * 20 + b] += 1;
        }
    }
    let n = CARDS80 as f64;
    for (cell, counts) in cells.iter().enumerate() {
        let stat = chi_square(counts, n / 20.0);
        let bound = critical_of(19, TESTS80);
        assert!(
            stat < bound,
            "cell {cell}: chi-square {stat:.1} ≥ {bound:.1}"
        );
    }
    for (c, column) in pairs.iter().enumerate() {
        let observed: Vec<u64> = (0..400)
            .filter(|i| i / 20 != i % 20)
            .map(|i| column[i])
            .collect();
        let stat = chi_square(&observed, n / 380.0);
        let bound = critical_of(379, TESTS80);
        assert!(
            stat < bound,
            "column {c} pairs: chi-square {stat:.1} ≥ {bound:.1}"
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

/// 90-ball, both rule sets (`uk` draws each half's first vector by
/// rejection, `es` from a table of the half's sum): for each ticket
/// position 1–6 separately, the number of full (three-number) columns per
/// ticket and each column's count, against the exact marginals the
/// sampler's own DP computes. A generator biased by ticket position (as
/// greedy ones are) fails this.
#[test]
fn every_ticket_position_of_a_strip_is_unbiased() {
    use bingomint::game::uk90::rules::Rules;
    for rules in [Rules::Uk, Rules::Es] {
        ticket_positions_are_unbiased(rules);
    }
}

#[allow(clippy::needless_range_loop)] // grids indexed by ticket, row, column
fn ticket_positions_are_unbiased(rules: bingomint::game::uk90::rules::Rules) {
    use bingomint::game::uk90::{Uk90, RECORD_SIZE as STRIP};
    const STRIPS: usize = 300_000;
    // 2 rule sets × 6 positions × (1 full-column statistic + 9 column statistics).
    const FAMILY: f64 = 120.0;
    let game = Uk90::new(rules);
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
            "{rules:?} ticket {}: full columns chi-square {s:.1} ≥ {bound:.1}: {:?}",
            t + 1,
            full[t]
        );
        for c in 0..9 {
            let s = stat(&columns[t][c][1..], &column_p[c][1..]);
            let bound = critical_of(2, FAMILY);
            assert!(
                s < bound,
                "{rules:?} ticket {} column {}: chi-square {s:.1} ≥ {bound:.1}",
                t + 1,
                c + 1
            );
        }
    }
}

/// The simulator against exact means. For one face, the calls until a
/// pattern with ways W₁…W_k completes is T = min over ways of the latest
/// call among its numbers, and by inclusion–exclusion
/// P(T ≤ t) = Σ over non-empty sets S of ways of (−1)^(|S|+1) ·
/// P(all numbers of ∪S among the first t calls), with
/// P(u given numbers among the first t of n) = t(t−1)…(t−u+1) / n(n−1)…(n−u+1).
/// So E[T] = Σ_{t<n} (1 − P(T ≤ t)), exactly.
fn exact_mean(balls: u32, ways: &[u32], free: u32) -> f64 {
    let among_first = |u: u32, t: u32| -> f64 {
        (0..u)
            .map(|j| (f64::from(t) - f64::from(j)).max(0.0) / f64::from(balls - j))
            .product()
    };
    let k = ways.len();
    (0..balls)
        .map(|t| {
            let p: f64 = (1u32..1 << k)
                .map(|s| {
                    let union = (0..k)
                        .filter(|i| s & (1 << i) != 0)
                        .fold(0u32, |m, i| m | ways[i]);
                    let sign = if s.count_ones() % 2 == 1 { 1.0 } else { -1.0 };
                    sign * among_first((union & !free).count_ones(), t)
                })
                .sum();
            1.0 - p
        })
        .sum()
}

#[test]
fn simulated_means_match_the_exact_ones() {
    use bingomint::game::uk90::rules::Rules;
    use bingomint::game::Spec;
    use bingomint::play::pattern::Pattern;
    use bingomint::play::simulate::{fresh_faces, play, summarise};
    // The formula itself, against the closed forms: the latest of u
    // numbers among n calls comes on average at u(n+1)/(u+1).
    assert!((exact_mean(75, &[(1 << 25) - 1], 1 << 12) - 72.96).abs() < 1e-9);
    assert!((exact_mean(90, &[(1 << 15) - 1], 0) - 85.3125).abs() < 1e-9);
    let cases = [
        (
            Spec::Us75 {
                star: StarRule::Off,
            },
            "coverall",
            Some(72.96),
        ),
        (
            Spec::Us75 {
                star: StarRule::Off,
            },
            "four-corners",
            Some(60.8),
        ),
        (
            Spec::Us75 {
                star: StarRule::Off,
            },
            "line",
            None,
        ),
        (
            Spec::Us75 {
                star: StarRule::Off,
            },
            "postage-stamp",
            None,
        ),
        (Spec::Uk90 { rules: Rules::Uk }, "full-house", Some(85.3125)),
        (Spec::Uk90 { rules: Rules::Uk }, "one-line", None),
        (Spec::Uk90 { rules: Rules::Uk }, "two-lines", None),
        // 80-ball: the latest of 16 (4) of 80 numbers comes at 16·81/17
        // (4·81/5) on average.
        (Spec::Us80, "coverall", Some(16.0 * 81.0 / 17.0)),
        (Spec::Us80, "centre", Some(64.8)),
        (Spec::Us80, "line", None),
    ];
    const GAMES: u64 = 400_000;
    for (spec, name, closed) in cases {
        let face = fresh_faces(spec, 1, 21).unwrap()[0];
        let pattern = Pattern::parse(name, spec).unwrap();
        // The ways over this face's numbered cells; blanks count as free.
        let free = (0..27u32)
            .filter(|&c| {
                c < u32::from(face.rows) * u32::from(face.cols) && face.cells[c as usize] == 0
            })
            .fold(0, |m, c| m | 1 << c);
        let ways: Vec<u32> = pattern.ways().unwrap().iter().map(|w| w.mask).collect();
        let exact = exact_mean(u32::from(spec.balls()), &ways, free);
        if let Some(closed) = closed {
            assert!((exact - closed).abs() < 1e-9, "{name}: {exact} vs {closed}");
        }
        let games = play(&[face], &pattern, spec.balls(), GAMES, 5, &|_| {});
        let s = summarise(name, 1, 5, &games);
        let se = s.sd / (GAMES as f64).sqrt();
        // Five standard errors: a correct simulator fails with p < 1e-6.
        assert!(
            (s.mean - exact).abs() < 5.0 * se,
            "{name}: simulated {} vs exact {exact} (se {se})",
            s.mean
        );
    }
}

/// Items cards: every item equally likely in every cell (a 5×5 card with a
/// free centre from 75 items, and a grouped card from five groups of nine),
/// each cell a chi-square test; the family at ALPHA, Bonferroni over its 48
/// cells.
#[test]
fn every_item_is_equally_likely_in_every_cell() {
    use bingomint::game::items::{Deck, Design, Item, ItemList, Items};
    const CARDS: usize = 1_500_000;
    let item = |i: usize, group: Option<String>| Item {
        label: format!("item {i}"),
        group,
        image: None,
        sha256: None,
        file: None,
    };
    let plain = ItemList {
        name: "plain".into(),
        items: (0..75).map(|i| item(i, None)).collect(),
    };
    let grouped = ItemList {
        name: "grouped".into(),
        items: (0..45)
            .map(|i| item(i, Some(format!("{}", i / 9))))
            .collect(),
    };
    for (list, is_grouped, seed) in [(plain, false, 7), (grouped, true, 8)] {
        let design = Design {
            rows: 5,
            cols: 5,
            free: Some("FREE".into()),
            grouped: is_grouped,
            distinct_lines: false,
        };
        let spec = Deck::spec(design, list).unwrap();
        let game = Items::new(spec.items().unwrap());
        let set = KeySet::with_capacity(CARDS);
        let mut records = vec![0u8; CARDS * 25];
        pipeline::mint_records(&game, seed, &mut records, &set, &|_| {}).unwrap();
        let balls = usize::from(spec.balls());
        let mut cells = vec![vec![0u64; balls + 1]; 25];
        for record in records.chunks_exact(25) {
            for (c, &n) in record.iter().enumerate() {
                cells[c][usize::from(n)] += 1;
            }
        }
        for (c, counts) in cells.iter().enumerate().filter(|&(c, _)| c != 12) {
            // Grouped: column c % 5 draws from its group of nine.
            let pool: Vec<u64> = if is_grouped {
                let g = c % 5;
                counts[9 * g + 1..=9 * g + 9].to_vec()
            } else {
                counts[1..].to_vec()
            };
            assert_eq!(pool.iter().sum::<u64>(), CARDS as u64, "cell {c} strays");
            let stat = chi_square(&pool, CARDS as f64 / pool.len() as f64);
            let limit = critical_of(pool.len() - 1, 48.0);
            assert!(
                stat < limit,
                "cell {c} of {spec:?}: chi-square {stat} ≥ {limit}"
            );
        }
        assert!(
            cells[12][1..].iter().all(|&n| n == 0),
            "the free centre holds an item"
        );
    }
}
