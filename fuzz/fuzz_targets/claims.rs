//! Patterns × faces × calls: any mask (or built-in) of any game against any
//! face (numbers or blanks in any cell) and any calls, through `check`, the
//! house rule of the last call, `winners`' earliest completion and a
//! simulated game. Nothing panics, and every answer agrees with the cells:
//! a win's way holds a number, all its numbers are called, the last of them
//! at the call named; a face no way can win is said to be one.
#![no_main]

use bingomint::game::{Face, Spec};
use bingomint::play::calls::{Calls, NEVER};
use bingomint::play::claims::{check, Verdict};
use bingomint::play::pattern::Pattern;
use bingomint::play::simulate::play;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [game, pick, ncalls, rest @ ..] = data else {
        return;
    };
    let spec = Spec::named(Spec::GAMES[usize::from(*game) % Spec::GAMES.len()]).expect("a game");
    let facts = spec.facts();
    let (rows, cols) = (facts.rows, facts.cols);
    let cells = rows * cols;
    if rest.len() < cells {
        return;
    }
    let (face_bytes, rest) = rest.split_at(cells);
    // The pattern: a built-in by number, or the rest as a mask's text.
    let pattern = if *pick < 128 {
        let builtin = &facts.patterns[usize::from(*pick) % facts.patterns.len()];
        Pattern::parse(builtin.name, spec).expect("a built-in pattern")
    } else {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        match Pattern::parse(&format!("mask:{text}"), spec) {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    // The face: each cell a number of the game or blank (0); a repeat or a
    // free cell is blank.
    let mut face = Face::new(rows, cols);
    let mut seen = [false; 256];
    for (i, &b) in face_bytes.iter().enumerate() {
        let n = b % (facts.balls + 1);
        let free = facts.free & (1 << i) != 0;
        face.cells[i] = if n == 0 || free || seen[usize::from(n)] {
            0
        } else {
            seen[usize::from(n)] = true;
            n
        };
    }
    // The calls: a seeded order of the game, cut to 1 + ncalls % balls.
    let seed = u64::from_le_bytes(std::array::from_fn(|i| face_bytes[i % face_bytes.len()]));
    let count = 1 + usize::from(*ncalls) % usize::from(facts.balls);
    let calls = Calls::seeded(facts.balls, seed, count);
    let positions = calls.positions();
    let latest = |way: usize| {
        let mask = pattern.way_cells(&face, way);
        let mine: Vec<u8> = (0..cells)
            .filter(|&c| mask & (1 << c) != 0 && face.cells[c] != 0)
            .map(|c| positions[usize::from(face.cells[c])])
            .collect();
        mine.into_iter().max()
    };
    let possible = pattern.possible(&face);
    let last = count as u8;
    for rule in [false, true] {
        match check(&face, &pattern, &calls, rule) {
            Verdict::Win(done) => {
                assert!(done.call >= 1 && usize::from(done.call) <= count);
                if pattern.ways().is_some() {
                    assert_eq!(latest(done.way), Some(done.call));
                }
                if rule {
                    assert_eq!(done.call, last);
                }
            }
            Verdict::NotAtLastCall(done) => {
                assert!(rule && done.call >= 1 && done.call < last);
                assert_eq!(pattern.completes_at(&face, positions, last), None);
            }
            Verdict::NoWin { missing, .. } => {
                assert!(possible);
                assert!(pattern.completion(&face, positions).is_none());
                if pattern.ways().is_some() {
                    assert!(!missing.is_empty());
                }
            }
            Verdict::CannotWin => assert!(!possible),
        }
    }
    // The simulator's inner loop agrees: a face that can win does by the
    // last ball; one that cannot never does.
    let games = play(&[face], &pattern, facts.balls, 1, seed, &|_| {});
    if possible {
        assert!(games[0].first >= 1 && games[0].first <= facts.balls);
    } else {
        assert_eq!(games[0].first, NEVER);
    }
});
