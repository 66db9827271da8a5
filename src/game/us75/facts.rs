//! The 75-ball game's facts: shape, letters, the free centre, its built-in
//! patterns and how a card sits on paper.

use crate::game::facts::{Facts, LabelAt, Paper};
use crate::game::patterns::{self, Builtin, Ways};

const LETTERS: [&str; 5] = ["B", "I", "N", "G", "O"];
/// The free centre, row-major.
const FREE: usize = 12;

/// The 75-ball game's facts.
pub const FACTS: Facts = Facts {
    short_name: "75-ball",
    describe: "75-ball (US, 5×5, free centre)",
    noun: "card",
    face_noun: "card",
    faces: 1,
    rows: 5,
    cols: 5,
    balls: 75,
    free: 1 << FREE,
    letters: &LETTERS,
    patterns: &PATTERNS,
    paper: Paper {
        layouts: &[1, 2, 3, 4, 6, 8, 9, 12, 18],
        default_layout: 6,
        label_at: LabelAt::Below,
        label: (1.0, 1.9),
        gap: 0.0,
    },
};

const PATTERNS: [Builtin; 10] = [
    Builtin {
        name: "line",
        about: "any row, column or diagonal",
        ways: |_| Ways::Fixed(patterns::lines(5, &LETTERS)),
    },
    Builtin {
        name: "row",
        about: "any row",
        ways: |_| Ways::Fixed(patterns::rows(5, 5)),
    },
    Builtin {
        name: "column",
        about: "any column",
        ways: |_| Ways::Fixed(patterns::columns(5, 5, &LETTERS)),
    },
    Builtin {
        name: "diagonal",
        about: "either diagonal",
        ways: |_| Ways::Fixed(patterns::diagonals(5)),
    },
    Builtin {
        name: "four-corners",
        about: "the four corners",
        ways: |_| Ways::Fixed(vec![patterns::corners(5, 5)]),
    },
    Builtin {
        name: "x",
        about: "both diagonals",
        ways: |_| {
            let both = patterns::diagonals(5).iter().fold(0, |m, w| m | w.mask);
            Ways::Fixed(vec![patterns::Way {
                name: "both diagonals".into(),
                mask: both,
            }])
        },
    },
    Builtin {
        name: "postage-stamp",
        about: "a 2×2 block in a corner",
        ways: |_| {
            Ways::Fixed(vec![
                patterns::way("top-left stamp", &patterns::block(5, (0, 0), 2)),
                patterns::way("top-right stamp", &patterns::block(5, (0, 3), 2)),
                patterns::way("bottom-left stamp", &patterns::block(5, (3, 0), 2)),
                patterns::way("bottom-right stamp", &patterns::block(5, (3, 3), 2)),
            ])
        },
    },
    Builtin {
        name: "frame",
        about: "the outer frame",
        ways: |_| {
            let ring: Vec<usize> = (0..25)
                .filter(|&i| i / 5 == 0 || i / 5 == 4 || i % 5 == 0 || i % 5 == 4)
                .collect();
            Ways::Fixed(vec![patterns::way("the outer frame", &ring)])
        },
    },
    Builtin {
        name: "hardway",
        about: "a row or column not through the free centre",
        ways: |_| {
            let mut ways = patterns::rows(5, 5);
            ways.extend(patterns::columns(5, 5, &LETTERS));
            ways.retain(|w| w.mask & (1 << FREE) == 0);
            Ways::Fixed(ways)
        },
    },
    Builtin {
        name: "coverall",
        about: "every cell",
        ways: |_| Ways::Fixed(vec![patterns::every_cell(5, 5)]),
    },
];
