//! The audit's battery has power and keeps its promise: fair files fail at
//! most at the stated rate, and each deliberately flawed file fails, named
//! by the tests that catch it, at the size stated in the README (run in
//! release mode, `cargo test --release`).
//!
//! Each flawed generator here is one a real maker could ship: a naive
//! shuffle, cards made by small changes of the one before, one number a
//! little too frequent, a star kept off the corners, 90-ball strips filled
//! greedily ticket by ticket.

use bingomint::audit::{cards, Battery, Family};
use bingomint::game::uk90::rules::Rules;
use bingomint::game::us75::StarRule;
use bingomint::game::{Game, Spec};
use bingomint::seed::{below_u32, stream, Rng};

const ALPHA: f64 = 0.01;

fn audit(spec: Spec, records: &[u8]) -> Battery {
    let mut battery = cards::battery(spec, records, &|_| {});
    battery.judge(ALPHA);
    battery
}

fn below(rng: &mut Rng, n: usize) -> usize {
    below_u32(rng, n as u32) as usize
}

/// A 75-ball record from its columns (top to bottom; the N column's
/// middle entry is ignored) and its star (column-major cell, or none).
fn record75(columns: &[[u8; 5]; 5], star: Option<usize>) -> [u8; 25] {
    let mut r = [0u8; 25];
    for (c, column) in columns.iter().enumerate() {
        r[c * 5..c * 5 + 5].copy_from_slice(column);
    }
    r[12] = star.map_or(12, |s| s as u8);
    r
}

/// Five distinct numbers of column c, in uniformly random order.
fn fair_column(rng: &mut Rng, c: usize) -> [u8; 5] {
    let mut pool: Vec<u8> = (1..=15).map(|n| n + 15 * c as u8).collect();
    std::array::from_fn(|i| pool.swap_remove(below(rng, 15 - i)))
}

fn fair_card(rng: &mut Rng) -> [[u8; 5]; 5] {
    std::array::from_fn(|c| fair_column(rng, c))
}

/// The numbered cells, column-major, without the centre.
fn numbered() -> impl Iterator<Item = usize> {
    (0..25).filter(|&i| i != 12)
}

/// A file of `n` 75-ball cards, each from `make`.
fn file75(n: usize, seed: u64, mut make: impl FnMut(&mut Rng) -> [u8; 25]) -> Vec<u8> {
    let mut rng = stream(seed, 1);
    (0..n).flat_map(|_| make(&mut rng)).collect()
}

/// The naive shuffle: each place swapped with any place, not only the
/// ones after it (5⁵ equally likely paths over 120 orders).
fn naive_order(rng: &mut Rng, c: usize) -> [u8; 5] {
    let mut column = fair_column(rng, c);
    column.sort_unstable();
    for i in 0..5 {
        column.swap(i, below(rng, 5));
    }
    column
}

/// One card from the one before: one numbered cell changed to a number its
/// column does not hold.
fn small_change(rng: &mut Rng, last: &mut Option<[[u8; 5]; 5]>) -> [u8; 25] {
    let mut card = last.unwrap_or_else(|| fair_card(rng));
    let cell = numbered().nth(below(rng, 24)).expect("24 cells");
    let (c, row) = (cell / 5, cell % 5);
    loop {
        let n = 1 + 15 * c as u8 + below(rng, 15) as u8;
        if !card[c].contains(&n) || (c == 2 && card[c][2] == n) {
            card[c][row] = n;
            break;
        }
    }
    *last = Some(card);
    record75(&card, None)
}

/// Number 1 two per cent too frequent: a card without it takes it in a
/// random B cell one time in a hundred (1/3 + 2/3 · 1/100 = 1.02 / 3).
fn one_too_many(rng: &mut Rng) -> [u8; 25] {
    let mut card = fair_card(rng);
    if !card[0].contains(&1) && below(rng, 100) == 0 {
        card[0][below(rng, 5)] = 1;
    }
    record75(&card, None)
}

/// The star on any numbered cell but the four corners.
fn star_off_corners(rng: &mut Rng) -> [u8; 25] {
    let cells: Vec<usize> = numbered().filter(|i| ![0, 4, 20, 24].contains(i)).collect();
    record75(&fair_card(rng), Some(cells[below(rng, cells.len())]))
}

/// A 90-ball strip filled greedily: each ticket one number a column, then
/// every other number, in random order, to the first ticket that can take
/// it; each ticket's rows filled largest column first into the emptiest
/// row. Returns None when the fill gets stuck (the caller starts again).
fn greedy_strip(rng: &mut Rng) -> Option<[u8; 162]> {
    let sizes = [9usize, 10, 10, 10, 10, 10, 10, 10, 11];
    let mut tickets = vec![vec![Vec::<u8>::new(); 9]; 6];
    let mut rest = Vec::new();
    for (c, &size) in sizes.iter().enumerate() {
        let base = if c == 0 { 1 } else { 10 * c as u8 };
        let mut numbers: Vec<u8> = (base..base + size as u8).collect();
        for ticket in tickets.iter_mut() {
            ticket[c].push(numbers.swap_remove(below(rng, numbers.len())));
        }
        rest.extend(numbers);
    }
    while !rest.is_empty() {
        let n = rest.swap_remove(below(rng, rest.len()));
        let c = if n == 90 { 8 } else { usize::from(n) / 10 };
        let total = |t: &Vec<Vec<u8>>| t.iter().map(Vec::len).sum::<usize>();
        let ticket = tickets
            .iter_mut()
            .find(|t| t[c].len() < 3 && total(t) < 15)?;
        ticket[c].push(n);
    }
    let mut record = [0u8; 162];
    for (t, ticket) in tickets.iter_mut().enumerate() {
        let mut free = [5usize; 3];
        let mut order: Vec<usize> = (0..9).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(ticket[c].len()));
        for c in order {
            ticket[c].sort_unstable();
            let mut rows: Vec<usize> = (0..3).collect();
            rows.sort_by_key(|&r| std::cmp::Reverse(free[r]));
            let mut rows = rows[..ticket[c].len()].to_vec();
            rows.sort_unstable();
            for (&r, &n) in rows.iter().zip(&ticket[c]) {
                free[r] -= 1;
                record[t * 27 + r * 9 + c] = n;
            }
        }
        if free != [0; 3] {
            return None;
        }
    }
    Some(record)
}

fn fair75(n: usize, seed: u64) -> Vec<u8> {
    file75(n, seed, |rng| record75(&fair_card(rng), None))
}

#[test]
fn fair_files_fail_at_most_at_the_stated_rate() {
    let spec = Spec::Us75 {
        star: StarRule::Off,
    };
    let failed = (0..50)
        .filter(|&seed| !audit(spec, &fair75(100_000, 1000 + seed)).passed())
        .count();
    eprintln!("fair 75-ball files of 100,000 cards failed: {failed} of 50 at α = {ALPHA}");
    // At α = 0.01, 4 or more failures of 50 has probability 0.0016.
    assert!(failed <= 3, "{failed} of 50 fair files failed");
}

#[test]
fn the_files_bingomint_mints_pass() {
    for spec in [
        Spec::Us75 { star: StarRule::On },
        Spec::Us80,
        Spec::Uk90 { rules: Rules::Uk },
        Spec::Uk90 { rules: Rules::Es },
    ] {
        let count = if spec.faces() > 1 { 50_000 } else { 300_000 };
        let mut records = vec![0u8; count * spec.record_size()];
        spec.visit(Mint(&mut records));
        let battery = audit(spec, &records);
        assert!(
            battery.passed(),
            "{}: {:?}",
            battery.subject,
            battery.rejected()
        );
        assert!(battery.tests.len() > 100);
    }
}

/// Mints records as `generate` does, seeded 20261125.
struct Mint<'a>(&'a mut [u8]);

impl bingomint::game::Visit for Mint<'_> {
    type Out = ();
    fn visit<G: bingomint::game::Text>(self, game: &G) {
        let records = self.0.len() / game.spec().record_size();
        let set = bingomint::dedup::KeySet::with_capacity(records * game.spec().faces());
        bingomint::pipeline::mint_records(game, 20261125, self.0, &set, &|_| {}).unwrap();
    }
}

/// The smallest of `sizes` at which the flawed file fails, with the
/// families that caught it; asserts that it fails at `stated` and that
/// `family` is among them.
fn caught(
    name: &str,
    sizes: &[usize],
    stated: usize,
    family: Family,
    make: impl Fn(usize) -> (Spec, Vec<u8>),
) {
    let mut first = None;
    for &n in sizes {
        let (spec, records) = make(n);
        let battery = audit(spec, &records);
        let families: Vec<&str> = battery.failed_families().iter().map(|f| f.name()).collect();
        eprintln!(
            "{name}, {n}: {}",
            if battery.passed() {
                "passed".into()
            } else {
                families.join(", ")
            }
        );
        if !battery.passed() && first.is_none() {
            first = Some(n);
        }
        if n == stated {
            assert!(!battery.passed(), "{name} passed at {n}");
            assert!(
                battery.failed_families().contains(&family),
                "{name} at {n}: {families:?}"
            );
        }
    }
    assert!(
        first.is_some_and(|f| f <= stated),
        "{name}: first caught at {first:?}"
    );
}

#[test]
fn each_flawed_file_fails_named_by_the_tests_that_catch_it() {
    let off = Spec::Us75 {
        star: StarRule::Off,
    };
    let sizes = [1_000, 10_000, 100_000, 1_000_000];
    caught("naive shuffle", &sizes, 1_000, Family::Permutation, |n| {
        (
            off,
            file75(n, 1, |rng| {
                record75(&std::array::from_fn(|c| naive_order(rng, c)), None)
            }),
        )
    });
    caught(
        "each card a small change of the one before",
        &sizes,
        1_000,
        Family::Serial,
        |n| {
            let mut last = None;
            (off, file75(n, 2, |rng| small_change(rng, &mut last)))
        },
    );
    caught(
        "number 1 two per cent too frequent",
        &sizes,
        100_000,
        Family::ChiSquare,
        |n| (off, file75(n, 3, one_too_many)),
    );
    caught(
        "a star never on a corner",
        &sizes,
        1_000,
        Family::ChiSquare,
        |n| {
            (
                Spec::Us75 { star: StarRule::On },
                file75(n, 4, star_off_corners),
            )
        },
    );
    caught(
        "90-ball strips filled greedily",
        &[1_000, 10_000, 100_000],
        1_000,
        Family::ChiSquare,
        |n| {
            let mut rng = stream(5, 1);
            let records = (0..n)
                .flat_map(|_| {
                    std::iter::repeat_with(|| greedy_strip(&mut rng))
                        .flatten()
                        .next()
                        .unwrap()
                })
                .collect();
            (Spec::Uk90 { rules: Rules::Uk }, records)
        },
    );
}

#[test]
fn the_greedy_strips_are_valid_strips() {
    // The flawed 90-ball file must break no rule: the audit has to find
    // its bias, not a broken record.
    let game = bingomint::game::uk90::Uk90::new(Rules::Uk);
    let mut rng = stream(6, 1);
    for _ in 0..200 {
        let record = std::iter::repeat_with(|| greedy_strip(&mut rng))
            .flatten()
            .next()
            .unwrap();
        game.decode(&record).expect("a valid strip");
    }
}

/// The live calls' generator (ChaCha20 under the whole hall seed) passes
/// the calls battery on 100,000 games of each game, seeded as
/// `audit --calls --generator hall --seed live-audit` seeds them.
#[test]
fn the_halls_live_calls_pass_the_calls_battery() {
    use bingomint::audit::calls;
    use bingomint::play::calls::Calls;
    for balls in [75u8, 80, 90] {
        let order = |g: u64| {
            let seed = calls::hall_seed("live-audit", g);
            Calls::of_hall(balls, &seed, "", usize::from(balls))
        };
        let mut battery = calls::battery(balls, 100_000, &order, &|_| {});
        battery.judge(ALPHA);
        assert!(
            battery.passed(),
            "{balls}-ball: {:?}",
            battery
                .rejected()
                .iter()
                .map(|t| t.name.clone())
                .collect::<Vec<_>>()
        );
    }
}
