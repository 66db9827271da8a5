//! Value stability: the exact cards, strips, boards and call orders fixed
//! seeds give.
//!
//! A seed is a promise: these tests pin the first records of every game and
//! rule set (and a hash of many more, so chunk streams and repair are pinned
//! too), boards with their seed strings, and call orders and simulated games.
//! When one fails, the output for a seed changed: bump
//! `seed::ALGORITHM_VERSION` (cards, strips, calls) or
//! `boards::BOARD_ALGORITHM` (boards) and pin the new values, never just the
//! new values alone.

use bingomint::boards::board::{Size, Weighting};
use bingomint::boards::engine::Engine;
use bingomint::boards::list::BoardList;
use bingomint::boards::set::ObjectiveSet;
use bingomint::boards::{self, BoardSeed, BOARD_ALGORITHM};
use bingomint::dedup::KeySet;
use bingomint::game::uk90::rules::Rules;
use bingomint::game::uk90::Uk90;
use bingomint::game::us75::{StarRule, Us75};
use bingomint::game::us80::Us80;
use bingomint::game::Game;
use bingomint::pipeline::{self, CHUNK};
use bingomint::seed::ALGORITHM_VERSION;
use xxhash_rust::xxh3::xxh3_64;

/// Mints `count` records of `game` from seed 1 and returns them.
fn mint<G: Game>(game: &G, count: usize) -> Vec<u8> {
    let spec = game.spec();
    let mut records = vec![0u8; count * spec.record_size()];
    let set = KeySet::with_capacity(count * spec.keys_per_card());
    pipeline::mint_records(game, 1, &mut records, &set, &|_| {}).unwrap();
    records
}

#[test]
fn the_versions_these_values_belong_to() {
    assert_eq!(ALGORITHM_VERSION, 4);
    assert_eq!(BOARD_ALGORITHM, 1);
}

#[test]
fn us75_cards_of_seed_1() {
    // More than one chunk, so the second chunk's stream is pinned too.
    let count = CHUNK + 4464;
    let plain = mint(&Us75::new(StarRule::Off), count);
    assert_eq!(
        plain[..25],
        [
            13, 2, 8, 4, 14, 17, 22, 21, 16, 30, 44, 32, 12, 37, 33, 58, 55, 54, 60, 48, 61, 72,
            68, 64, 62
        ]
    );
    assert_eq!(xxh3_64(&plain), 0x7fe7_1c9e_7f17_ace2);
    let stars = mint(&Us75::new(StarRule::On), count);
    // The same numbers here; the centre byte holds the star's cell.
    assert_eq!(stars[..25], {
        let mut first = <[u8; 25]>::try_from(&plain[..25]).unwrap();
        first[12] = 24;
        first
    });
    assert_eq!(xxh3_64(&stars), 0x0243_8ce2_507e_34d8);
}

#[test]
fn us80_cards_of_seed_1() {
    // More than one chunk, so the second chunk's stream is pinned too.
    let cards = mint(&Us80, CHUNK + 4464);
    // Column-major: the first column top to bottom, then the second, ….
    assert_eq!(
        cards[..16],
        [2, 17, 18, 7, 21, 40, 37, 30, 54, 55, 48, 60, 76, 70, 66, 65]
    );
    assert_eq!(xxh3_64(&cards), 0x4995_accf_15f6_43ea);
}

#[test]
fn items_cards_of_seed_1() {
    use bingomint::game::items::{Deck, Design, ItemList, Items};
    let list = ItemList::builtin("loteria").unwrap();
    let design = Design {
        rows: 4,
        cols: 4,
        ..Design::default()
    };
    let spec = Deck::spec(design, list).unwrap();
    let tablas = mint(&Items::new(spec.items().unwrap()), CHUNK + 100);
    assert_eq!(
        tablas[..16],
        [5, 4, 38, 43, 39, 27, 16, 15, 24, 8, 31, 52, 46, 10, 20, 2]
    );
    assert_eq!(xxh3_64(&tablas), 0xa27018304a025bde);
    // A free centre and columns by group: lotería's first 45 cards, five
    // groups of nine.
    let mut list = ItemList::builtin("loteria").unwrap();
    list.items.truncate(45);
    for (i, item) in list.items.iter_mut().enumerate() {
        item.group = Some(format!("{}", i / 9));
    }
    let design = Design {
        rows: 5,
        cols: 5,
        free: Some("FREE".into()),
        grouped: true,
        distinct_lines: false,
    };
    let spec = Deck::spec(design, list).unwrap();
    let cards = mint(&Items::new(spec.items().unwrap()), 1000);
    assert_eq!(
        cards[..25],
        [
            1, 13, 23, 29, 39, 2, 12, 27, 34, 43, 7, 10, 0, 33, 41, 8, 15, 26, 28, 37, 4, 14, 22,
            31, 38
        ]
    );
    assert_eq!(xxh3_64(&cards), 0x83d5a368aafc3c5d);
}

#[test]
fn uk90_strips_of_seed_1_under_both_rule_sets() {
    // Ticket 1 of strip 1, row by row (0 = blank), and a hash of 2,000 strips.
    let cases: [(Rules, [u8; 27], u64); 2] = [
        (
            Rules::Uk,
            [
                0, 0, 0, 0, 49, 58, 60, 76, 80, 1, 0, 20, 30, 0, 0, 62, 0, 88, 5, 14, 27, 35, 0,
                59, 0, 0, 0,
            ],
            0xabd1_be63_fd4f_2fe2,
        ),
        (
            Rules::Es,
            [
                3, 13, 0, 30, 0, 53, 68, 0, 0, 5, 0, 21, 31, 43, 0, 0, 79, 0, 0, 15, 0, 0, 48, 57,
                69, 0, 87,
            ],
            0xd00a_55d5_4fc0_6159,
        ),
    ];
    for (rules, ticket, hash) in cases {
        let strips = mint(&Uk90::new(rules), 2000);
        assert_eq!(strips[..27], ticket, "{}", rules.name());
        assert_eq!(xxh3_64(&strips), hash, "{}", rules.name());
    }
}

/// A uk strip has a stream of its own: strip n of a run is the strip drawn
/// from `(seed, n)` alone, wherever it falls in the batches of eight.
#[test]
fn a_uk_strip_is_drawn_again_from_its_seed_and_number() {
    let game = Uk90::new(Rules::Uk);
    let strips = mint(&game, 2000);
    let size = game.spec().record_size();
    for n in [1u64, 2, 8, 9, 17, 1000, 1999, 2000] {
        let strip = game.draw(&mut bingomint::seed::own_stream(1, n, 0));
        let mut record = vec![0u8; size];
        game.encode(&strip, &mut record);
        let at = (n as usize - 1) * size;
        assert_eq!(record, strips[at..at + size], "strip {n}");
    }
}

/// The boards' cells, attempts and relaxed counts, as bytes to hash.
fn board_bytes(boards: &BoardList, with_relaxed: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    for b in boards.iter() {
        bytes.extend(b.attempt.to_le_bytes());
        for c in b.cells {
            bytes.extend(c.to_le_bytes());
        }
        if with_relaxed {
            bytes.push(b.relaxed.len() as u8);
        }
    }
    bytes
}

fn sample_set() -> ObjectiveSet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample-goals.json");
    ObjectiveSet::from_file(&path).unwrap()
}

/// Boards of the project's sample set: a batch, and board 17 alone from its
/// seed string, at 5x5 (no relaxation) and 7x7 (relaxes).
#[test]
fn boards_of_seed_strings() {
    let set = sample_set();
    // (size, seed, board 1's first cells, its relaxed count, hash of 500
    // boards, board 17's first cells)
    type Case = (&'static str, &'static str, [u16; 5], usize, u64, [u16; 5]);
    let cases: [Case; 2] = [
        (
            "5x5",
            "s1",
            [321, 400, 304, 336, 464],
            0,
            0x5117_b8bd_844a_187a,
            [289, 112, 448, 144, 464],
        ),
        (
            "7x7",
            "league-7",
            [16, 272, 480, 353, 193],
            3,
            0x53a3_bf6e_6e14_ae18,
            [176, 352, 96, 544, 560],
        ),
    ];
    for (size, seed, first, relaxed, hash, seventeen) in cases {
        let size: Size = size.parse().unwrap();
        let engine = Engine::new(&set, size, Weighting::Lockout).unwrap();
        let (batch, _) =
            boards::mint(&engine, &BoardSeed::parse(seed).unwrap(), 500, &|_| {}).unwrap();
        assert_eq!(batch.get(0).cells[..5], first, "{size} {seed}");
        assert_eq!(batch.get(0).relaxed.len(), relaxed, "{size} {seed}");
        assert_eq!(xxh3_64(&board_bytes(&batch, true)), hash, "{size} {seed}");
        let named = BoardSeed::parse(&format!("{seed}:v1:17")).unwrap();
        let (one, _) = boards::mint(&engine, &named, 1, &|_| {}).unwrap();
        assert_eq!(one.get(0).cells[..5], seventeen, "{size} {seed}:v1:17");
        assert_eq!(one.get(0), batch.get(16));
    }
}

/// A set of nine goals at 3x3 has only 9! boards, so a batch of 3,000
/// repeats some: the redrawn boards (attempt ≥ 1) are pinned too.
#[test]
fn redrawn_boards_of_a_small_set() {
    let set = crate::common::nine_goal_set();
    let engine = Engine::new(&set, "3x3".parse().unwrap(), Weighting::Lockout).unwrap();
    let (batch, stats) =
        boards::mint(&engine, &BoardSeed::parse("d").unwrap(), 3000, &|_| {}).unwrap();
    assert_eq!(stats.redrawn, 12);
    let redrawn: Vec<(usize, u32)> = batch
        .iter()
        .enumerate()
        .filter(|(_, b)| b.attempt > 0)
        .map(|(i, b)| (i + 1, b.attempt))
        .take(4)
        .collect();
    assert_eq!(redrawn, [(466, 1), (781, 1), (1039, 1), (1428, 1)]);
    assert_eq!(xxh3_64(&board_bytes(&batch, false)), 0xa8e3_8b72_167a_960c);
}

#[test]
fn call_orders_and_simulated_games_of_seed_1() {
    use bingomint::play::calls::Calls;
    use bingomint::play::pattern::Pattern;
    use bingomint::play::simulate::{fresh_faces, play, summarise};
    assert_eq!(
        Calls::seeded(75, 1, 12).order(),
        [61, 30, 46, 64, 56, 11, 16, 63, 31, 28, 40, 58]
    );
    assert_eq!(
        Calls::seeded(90, 1, 12).order(),
        [84, 16, 29, 20, 76, 9, 10, 12, 86, 18, 13, 3]
    );
    assert_eq!(
        Calls::seeded(80, 1, 12).order(),
        [61, 54, 16, 52, 70, 47, 69, 36, 12, 35, 27, 4]
    );
    // `simulate --cards 10 --pattern line --games 1000 --seed 1`.
    let spec = bingomint::game::Spec::Us75 {
        star: StarRule::Off,
    };
    let faces = fresh_faces(spec, 10, 1).unwrap();
    let line = Pattern::parse("line", spec).unwrap();
    let games = play(&faces, &line, 75, 1000, 1, &|_| {});
    let s = summarise("line", 10, 1, &games);
    assert_eq!(s.mean, 25.405);
    assert_eq!(s.first_win[..3], [(6, 1), (7, 1), (8, 2)]);
}
