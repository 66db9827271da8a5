//! The 90-ball game's facts: a ticket's shape, its built-in patterns
//! (lines, full house, the corners and early five that move with a
//! ticket's blanks, tambola's top, middle and bottom lines) and how a strip sits on paper.

use super::tables::TICKETS;
use crate::game::facts::{Facts, LabelAt, Paper};
use crate::game::patterns::{self, Builtin, Way, Ways};

/// The 90-ball game's facts.
pub const FACTS: Facts = Facts {
    short_name: "90-ball",
    describe: "90-ball (UK, strips of six 3×9 tickets)",
    noun: "strip",
    face_noun: "ticket",
    faces: TICKETS,
    rows: 3,
    cols: 9,
    balls: 90,
    free: 0,
    letters: &[],
    patterns: &PATTERNS,
    paper: Paper {
        layouts: &[1, 2, 3, 4, 6],
        default_layout: 2,
        label_at: LabelAt::Above,
        label: (0.7, 1.8),
        gap: 0.3,
    },
};

pub(crate) const PATTERNS: [Builtin; 8] = [
    Builtin {
        name: "one-line",
        about: "any row",
        ways: |_| Ways::Fixed(patterns::rows(3, 9)),
    },
    Builtin {
        name: "two-lines",
        about: "any two rows",
        ways: |_| Ways::Fixed(two_rows()),
    },
    Builtin {
        name: "full-house",
        about: "every number",
        ways: |_| {
            Ways::Fixed(vec![patterns::way(
                "every number",
                &(0..27).collect::<Vec<_>>(),
            )])
        },
    },
    Builtin {
        name: "four-corners",
        about: "the first and last number of the top and bottom rows",
        ways: |_| Ways::NumberedCorners,
    },
    Builtin {
        name: "early-five",
        about: "any five numbers of the ticket",
        ways: |_| Ways::AnyNumbers(5),
    },
    // Tambola's line prizes, each a row of its own.
    Builtin {
        name: "top-line",
        about: "every number of the top row",
        ways: |_| Ways::Fixed(vec![patterns::rows(3, 9).swap_remove(0)]),
    },
    Builtin {
        name: "middle-line",
        about: "every number of the middle row",
        ways: |_| Ways::Fixed(vec![patterns::rows(3, 9).swap_remove(1)]),
    },
    Builtin {
        name: "bottom-line",
        about: "every number of the bottom row",
        ways: |_| Ways::Fixed(vec![patterns::rows(3, 9).swap_remove(2)]),
    },
];

/// Each pair of a ticket's three rows.
fn two_rows() -> Vec<Way> {
    let rows = patterns::rows(3, 9);
    [(0, 1), (0, 2), (1, 2)]
        .iter()
        .map(|&(a, b)| Way {
            name: format!("rows {} and {}", a + 1, b + 1),
            mask: rows[a].mask | rows[b].mask,
        })
        .collect()
}
