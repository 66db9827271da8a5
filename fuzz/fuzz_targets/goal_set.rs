//! Any text as a Lockout goal set: either every problem is reported, or the
//! set compiles for a 5x5 board and the board drawn from it reports exactly
//! the constraints it breaks.
#![no_main]

use bingomint::boards::board::{Size, Weighting};
use bingomint::boards::draw_numbered;
use bingomint::boards::engine::Engine;
use bingomint::boards::set::ObjectiveSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let set = match ObjectiveSet::from_json(text, "fuzz") {
        Ok(set) => set,
        Err(e) => {
            assert!(!e.problems.is_empty());
            return;
        }
    };
    let Ok(engine) = Engine::new(&set, Size { rows: 5, cols: 5 }, Weighting::Lockout) else {
        return;
    };
    let board = draw_numbered(&engine, 7, 1, 0);
    let mut broken = engine
        .violations(&board.cells)
        .expect("cells are goals of the set");
    let mut said: Vec<_> = board.relaxed.iter().map(|r| r.gave).collect();
    broken.sort_unstable();
    said.sort_unstable();
    assert_eq!(broken, said);
});
