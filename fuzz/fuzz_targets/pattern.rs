//! Any text as `--pattern` of any game: an error, or a pattern whose
//! completion on a face under any calls agrees with the positions of the
//! numbers of the way it names.
#![no_main]

use bingomint::game::{Face, Spec};
use bingomint::play::calls::Calls;
use bingomint::play::pattern::Pattern;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let games = Spec::GAMES;
    let spec = Spec::named(games[usize::from(first) % games.len()]).expect("a game");
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(pattern) = Pattern::parse(text, spec) else {
        return;
    };
    // A fixed face of the game and the calls 1, 2, 3, … in order.
    let (rows, cols) = spec.face_shape();
    let free = spec.facts().free;
    let mut face = Face::new(rows, cols);
    for (i, cell) in face.cells[..rows * cols].iter_mut().enumerate() {
        *cell = if free & 1 << i != 0 { 0 } else { (i + 1) as u8 };
    }
    let order: Vec<String> = (1..=spec.balls()).map(|n| n.to_string()).collect();
    let calls = Calls::parse(spec.balls(), &order.join(","), "fuzz").unwrap();
    let done = pattern
        .completion(&face, calls.positions())
        .expect("every number called completes any pattern");
    let mask = pattern.way_cells(&face, done.way);
    let latest = (0..rows * cols)
        .filter(|&c| mask & (1 << c) != 0)
        .map(|c| calls.positions()[usize::from(face.cells[c])])
        .max()
        .unwrap_or(0);
    if pattern.ways().is_some() {
        assert_eq!(done.call, latest);
    }
});
