//! Any text as a seed: a plain seed always parses, the same text gives the
//! same value, and a board's seed string round-trips.
#![no_main]

use bingomint::boards::BoardSeed;
use bingomint::seed::Seed;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    assert_eq!(Seed::parse(text), Seed::parse(text));
    let Ok(seed) = BoardSeed::parse(text) else {
        return;
    };
    if let Some(number) = seed.board {
        let again = BoardSeed::parse(&seed.of_board(number, seed.attempt)).unwrap();
        assert_eq!(
            (again.value, again.board, again.attempt),
            (seed.value, seed.board, seed.attempt)
        );
    }
    let _ = BoardSeed::for_run(Some(text), 1);
});
