//! Property tests of the library's invariants over many seeds and sizes.

use bingomint::dedup::KeySet;
use bingomint::game::us75::{Card, StarRule, Us75, RECORD_SIZE};
use bingomint::game::Game;
use bingomint::game::Text;
use bingomint::pipeline;
use bingomint::seed::stream;
use proptest::prelude::*;
use std::collections::HashSet;

fn game(star: bool) -> Us75 {
    Us75::new(if star { StarRule::On } else { StarRule::Off })
}

/// Rebuilds a record from a CSV line: 25 numbers row-major and a star cell name.
fn record_from_csv(line: &str) -> [u8; RECORD_SIZE] {
    let fields: Vec<&str> = line.trim_end().split(',').collect();
    assert_eq!(fields.len(), 27, "{line}");
    let mut record = [0u8; RECORD_SIZE];
    for (i, field) in fields[1..26].iter().enumerate() {
        let (row, col) = (i / 5, i % 5);
        record[col * 5 + row] = field.parse().unwrap();
    }
    record[12] = match fields[26] {
        "" => 12,
        cell => {
            let col = "BINGO".find(&cell[..1]).unwrap();
            let row: usize = cell[1..].parse::<usize>().unwrap() - 1;
            (col * 5 + row) as u8
        }
    };
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_minted_card_is_valid_and_unique(seed in any::<u64>(), count in 1usize..6000, star in any::<bool>()) {
        let game = game(star);
        let set = KeySet::with_capacity(count);
        let mut records = vec![0u8; count * RECORD_SIZE];
        let stats = pipeline::mint_records(&game, seed, &mut records, &set, &|_| {}).unwrap();
        prop_assert_eq!(stats.cards, count as u64);
        let mut keys = HashSet::new();
        for record in records.chunks_exact(RECORD_SIZE) {
            let card = game.decode(record).map_err(|e| TestCaseError::fail(e.0))?;
            prop_assert!(keys.insert(card.key()));
            prop_assert_eq!(card.star().is_some(), star);
        }
    }

    #[test]
    fn csv_export_round_trips(seed in any::<u64>(), star in any::<bool>()) {
        let game = game(star);
        let mut rng = stream(seed, 0);
        for n in 1..=64u64 {
            let card: Card = game.draw(&mut rng);
            let mut row = csv::StringRecord::new();
            game.csv_row(n, &n.to_string(), &card, 0, &mut row);
            let line = row.iter().collect::<Vec<_>>().join(",");
            let prefix = format!("{},", n);
            prop_assert!(line.starts_with(&prefix));
            let back = game.decode(&record_from_csv(&line)).map_err(|e| TestCaseError::fail(e.0))?;
            prop_assert_eq!(back, card);
        }
    }

    #[test]
    fn txt_export_is_the_grid(seed in any::<u64>()) {
        let game = game(true);
        let card = game.draw(&mut stream(seed, 1));
        let mut line = String::new();
        game.txt_line(&card, &mut line);
        let numbers: Vec<u8> = line.split_whitespace().map(|n| n.parse().unwrap()).collect();
        let grid: Vec<u8> = card.grid().iter().flatten().copied().collect();
        prop_assert_eq!(numbers, grid);
    }
}
