//! Any text as a goal set through `boards --check`: the reader's every
//! problem, or the report on a small sample of boards at a size taken from
//! the input. Nothing panics; a report that says every limit held has no
//! repeated goal and no board that relaxed one.
#![no_main]

use bingomint::boards::board::{Size, Weighting};
use bingomint::boards::check::{repeated_goals, report_on};
use bingomint::boards::set::ObjectiveSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&shape, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let set = match ObjectiveSet::from_json(text, "fuzz") {
        Ok(set) => set,
        Err(e) => {
            assert!(!e.problems.is_empty());
            return;
        }
    };
    let size = Size {
        rows: 3 + usize::from(shape % 4),
        cols: 3 + usize::from(shape / 4 % 4),
    };
    let weighting = if shape & 0x80 == 0 {
        Weighting::Lockout
    } else {
        Weighting::Proportional
    };
    let mut lines = Vec::new();
    if let Ok(held) = report_on(&set, "fuzz", size, weighting, 4, &mut |l| lines.push(l)) {
        assert!(!lines.is_empty());
        if held {
            assert!(repeated_goals(&set).is_empty());
            assert!(!lines
                .iter()
                .any(|l| l.contains("needed a constraint to give way")));
        }
    }
});
