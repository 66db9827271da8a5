use super::list::{Item, ItemList};
use super::*;
use crate::seed::stream;
use std::collections::HashSet;

fn list(n: usize) -> ItemList {
    ItemList {
        name: "test".into(),
        items: (1..=n)
            .map(|i| Item {
                label: format!("item {i}"),
                group: Some(format!("g{}", (i - 1) % 3)),
                image: None,
                sha256: None,
                file: None,
            })
            .collect(),
    }
}

fn design(rows: usize, cols: usize, free: Option<String>, grouped: bool) -> Design {
    Design {
        rows,
        cols,
        free,
        grouped,
        distinct_lines: false,
    }
}

fn deck(spec: Spec) -> &'static Deck {
    spec.items().unwrap()
}

#[test]
fn drawn_cards_follow_the_rules_and_round_trip() {
    for (rows, cols, free, grouped) in [
        (5, 5, true, false),
        (4, 4, false, false),
        (3, 5, false, false),
        (3, 3, true, true),
    ] {
        let free = free.then(|| "FREE".to_string());
        let spec = Deck::spec(design(rows, cols, free.clone(), grouped), list(30)).unwrap();
        let game = Items::new(deck(spec));
        let mut rng = stream(3, 0);
        let mut record = vec![0u8; spec.record_size()];
        for _ in 0..5_000 {
            let card = game.draw(&mut rng);
            game.encode(&card, &mut record);
            assert_eq!(game.decode(&record), Ok(card));
            let balls: Vec<u8> = record.iter().copied().filter(|&b| b != 0).collect();
            let distinct: HashSet<u8> = balls.iter().copied().collect();
            assert_eq!(distinct.len(), rows * cols - usize::from(free.is_some()));
            if free.is_some() {
                assert_eq!(record[rows * cols / 2], 0);
            }
            if grouped {
                for (i, &b) in record.iter().enumerate().filter(|(_, &b)| b != 0) {
                    assert!(game.deck().pool(i % cols).contains(&b));
                }
            }
        }
    }
}

#[test]
fn grouped_lists_are_numbered_group_by_group() {
    let spec = Deck::spec(design(3, 3, None, true), list(9)).unwrap();
    let d = deck(spec);
    let groups: Vec<&str> = d
        .list
        .items
        .iter()
        .map(|i| i.group.as_deref().unwrap())
        .collect();
    assert_eq!(
        groups,
        ["g0", "g0", "g0", "g1", "g1", "g1", "g2", "g2", "g2"]
    );
    assert_eq!(d.list.items[1].label, "item 4");
    assert_eq!(d.facts().letters, ["g0", "g1", "g2"]);
    assert_eq!((d.pool(0), d.pool(2)), (1..=3, 7..=9));
}

#[test]
fn what_cannot_make_a_card_is_refused_in_words() {
    let refused = |rows, cols, free: Option<&str>, grouped, n| {
        Deck::spec(design(rows, cols, free.map(String::from), grouped), list(n)).unwrap_err()
    };
    assert!(refused(5, 5, Some("FREE"), false, 23).contains("23 items for 24 cells"));
    assert!(refused(4, 4, Some("FREE"), false, 30).contains("no centre cell"));
    assert!(refused(6, 6, None, false, 40).contains("3 to 5 rows"));
    assert!(refused(4, 4, None, true, 30).contains("3 groups"));
    assert!(refused(3, 3, None, true, 8).contains("has 2 items for 3 cells"));
    Deck::spec(design(5, 5, Some("FREE".into()), false), list(24)).unwrap();
}

#[test]
fn keys_are_exact_and_decks_are_kept_once() {
    let spec = Deck::spec(design(3, 3, Some("★".into()), false), list(8)).unwrap();
    let again = Deck::spec(design(3, 3, Some("★".into()), false), list(8)).unwrap();
    assert!(std::ptr::eq(deck(spec), deck(again)));
    // 8 items on 8 cells: 8! cards, every one reached and no two keys alike.
    let game = Items::new(deck(spec));
    let mut rng = stream(5, 0);
    let mut seen = HashSet::new();
    for _ in 0..1_000_000 {
        seen.insert(game.keys(&game.draw(&mut rng)).as_ref()[0]);
    }
    assert_eq!(num_bigint::BigUint::from(seen.len()), deck(spec).count());
    assert_eq!(seen.len(), 40_320);
}

#[test]
fn grouped_counts_agree_with_every_card_drawn() {
    let spec = Deck::spec(design(3, 3, Some("FREE".into()), true), list(9)).unwrap();
    let game = Items::new(deck(spec));
    let mut rng = stream(6, 0);
    let seen: HashSet<_> = (0..50_000)
        .map(|_| game.keys(&game.draw(&mut rng)).as_ref()[0])
        .collect();
    // Columns 1 and 3: 3! each; the centre column 2 of its 3.
    assert_eq!(seen.len(), 6 * 6 * 6);
    assert_eq!(deck(spec).count(), num_bigint::BigUint::from(216u32));
}

#[test]
fn decode_names_the_broken_rule() {
    let spec = Deck::spec(design(3, 3, Some("FREE".into()), false), list(10)).unwrap();
    let game = Items::new(deck(spec));
    let mut record = [1, 2, 3, 4, 0, 5, 6, 7, 8];
    game.decode(&record).unwrap();
    record[4] = 9;
    assert_eq!(
        game.decode(&record).unwrap_err().0,
        "the free centre holds item 9, expected 0"
    );
    record[4] = 0;
    record[8] = 11;
    assert_eq!(
        game.decode(&record).unwrap_err().0,
        "row 3 column 3 holds item 11, outside 1–10"
    );
    record[8] = 1;
    assert_eq!(
        game.decode(&record).unwrap_err().0,
        "item 1 (\"item 1\") is on the card twice"
    );
}

#[test]
fn the_stored_list_reads_back_as_the_same_game() {
    let spec = Deck::spec(design(5, 5, Some("FREE".into()), true), {
        let mut l = list(45);
        l.items.iter_mut().enumerate().for_each(|(i, item)| {
            item.group = Some(["B", "I", "N", "G", "O"][i % 5].into());
        });
        l
    })
    .unwrap();
    let d = deck(spec);
    let (shape, flags) = d.header_fields();
    let read = Deck::from_stored(
        usize::from(shape >> 4),
        usize::from(shape & 15),
        flags,
        d.stored(),
    );
    assert_eq!(read, Ok(spec));
    assert!(Deck::from_stored(5, 5, flags & !FLAG_FREE, d.stored()).is_err());
    assert!(Deck::from_stored(5, 5, flags | 8, d.stored()).is_err());
}

#[test]
fn value_stability_first_tabla_of_seed_42() {
    let spec = Deck::spec(
        design(4, 4, None, false),
        ItemList::builtin("loteria").unwrap(),
    )
    .unwrap();
    let game = Items::new(deck(spec));
    let card = game.draw(&mut stream(42, 0));
    let labels: Vec<&str> = card.cells()[..16]
        .iter()
        .map(|&n| deck(spec).label(n))
        .collect();
    assert_eq!(labels, PINNED_TABLA);
}

/// The first lotería tabla of seed 42 (algorithm version 4).
const PINNED_TABLA: [&str; 16] = [
    "La Botella",
    "La Bandera",
    "El Alacrán",
    "El Camarón",
    "La Sirena",
    "La Rana",
    "Las Jaras",
    "La Maceta",
    "La Muerte",
    "La Campana",
    "La Dama",
    "El Pájaro",
    "La Rosa",
    "La Chalupa",
    "El Sol",
    "El Borracho",
];

#[test]
fn with_distinct_lines_each_line_is_a_key_and_the_bound_is_counted() {
    let d = Design {
        distinct_lines: true,
        ..design(5, 5, Some("FREE".into()), false)
    };
    let spec = Deck::spec(d, list(30)).unwrap();
    let game = Items::new(deck(spec));
    assert_eq!(spec.keys_per_card(), 12);
    let card = game.draw(&mut stream(1, 0));
    let keys = game.keys(&card);
    assert_eq!(keys.as_ref().len(), 12);
    // Row 1 as a set: its five items sorted, after its size.
    let mut row: Vec<u8> = card.cells()[..5].to_vec();
    row.sort_unstable();
    assert_eq!(keys.as_ref()[0].0[..6], [&[5u8][..], &row[..]].concat()[..]);
    // The middle row has four items and the free cell.
    assert_eq!(keys.as_ref()[2].0[0], 4);
    // 8 five-item lines and 4 four-item lines a card: C(30,5)/8, C(30,4)/4.
    assert_eq!(deck(spec).most_cards(), Some(27_405 / 4));
}
