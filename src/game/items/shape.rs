//! An items card's shape: which sizes and free cells make sense, how a
//! grouped list becomes columns, and the facts (names, patterns) of a deck.

use super::list::ItemList;
use super::{PAPER, SIDES};
use crate::game::facts::Facts;
use crate::game::patterns::{self, Builtin, Ways};

/// Whether `rows` × `cols` with the free cell `free` is a card.
pub fn check(rows: usize, cols: usize, free: Option<&str>) -> Result<(), String> {
    if !SIDES.contains(&rows) || !SIDES.contains(&cols) {
        return Err(format!(
            "{rows}x{cols}: an items card is 3 to 5 rows by 3 to 5 columns, such as 5x5 or 4x4"
        ));
    }
    if let Some(text) = free {
        if rows != cols || rows % 2 == 0 {
            return Err(format!(
                "a {rows}x{cols} card has no centre cell: a free centre needs 3x3 or 5x5 (or --no-free)"
            ));
        }
        if text.trim().is_empty() || text.chars().count() > super::list::MAX_LABEL {
            return Err(format!(
                "{text:?}: the free cell's text is 1 to {} characters",
                super::list::MAX_LABEL
            ));
        }
    }
    Ok(())
}

/// The list reordered group by group (groups in order of first
/// appearance) and the bounds of each column's balls; or why the groups
/// do not make columns.
pub fn grouped(
    list: ItemList,
    rows: usize,
    cols: usize,
    free: bool,
) -> Result<(ItemList, Vec<u8>), String> {
    let Some(groups) = list.groups() else {
        let line = list
            .items
            .iter()
            .position(|i| i.group.is_none())
            .unwrap_or(0)
            + 1;
        return Err(format!(
            "--columns grouped needs a group for every item; item {line} ({:?}) has none \
             (give the list a 'group' column)",
            list.items[line - 1].label
        ));
    };
    if groups.len() != cols {
        let names: Vec<&str> = groups.iter().map(|(g, _)| g.as_str()).collect();
        return Err(format!(
            "--columns grouped: {} groups ({}) for {cols} columns; give one group a column",
            groups.len(),
            names.join(", ")
        ));
    }
    let mut bounds = vec![0u8];
    let mut items = Vec::with_capacity(list.items.len());
    for (c, (name, members)) in groups.iter().enumerate() {
        let need = rows - usize::from(free && c == cols / 2);
        if members.len() < need {
            return Err(format!(
                "--columns grouped: group {name:?} has {} items for {need} cells of its column",
                members.len()
            ));
        }
        items.extend(members.iter().map(|&i| list.items[i].clone()));
        bounds.push(items.len() as u8);
    }
    Ok((
        ItemList {
            name: list.name,
            items,
        },
        bounds,
    ))
}

/// The facts of a deck of `list` on `rows` × `cols` cards. Their strings
/// live as long as the deck (decks are kept for the process's life).
pub fn facts(rows: usize, cols: usize, free: bool, grouped: bool, list: &ItemList) -> Facts {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let letters: Vec<&'static str> = match (grouped, list.groups()) {
        (true, Some(groups)) => groups.into_iter().map(|(g, _)| leak(g)).collect(),
        _ => Vec::new(),
    };
    let describe = format!(
        "items ({rows}×{cols}, {} items of '{}'{})",
        list.items.len(),
        list.name,
        if free { ", free centre" } else { "" }
    );
    let square = rows == cols;
    let patterns: &'static [Builtin] = if square { &SQUARE } else { &OBLONG };
    Facts {
        short_name: "items",
        describe: leak(describe),
        noun: "card",
        face_noun: "card",
        faces: 1,
        rows,
        cols,
        balls: list.items.len() as u8,
        free: if free { 1 << (rows * cols / 2) } else { 0 },
        letters: Box::leak(letters.into_boxed_slice()),
        patterns,
        paper: PAPER,
    }
}

/// Every line's cells (rows, columns, and on a square both diagonals),
/// the free cell `free` left out.
pub fn lines(rows: usize, cols: usize, free: Option<usize>) -> Vec<Vec<usize>> {
    let mut ways = patterns::rows(rows, cols);
    ways.extend(patterns::columns(rows, cols, &[]));
    if rows == cols {
        ways.extend(patterns::diagonals(rows));
    }
    ways.iter()
        .map(|w| {
            (0..rows * cols)
                .filter(|&i| w.mask & 1 << i != 0 && Some(i) != free)
                .collect()
        })
        .collect()
}

fn lines_ways(f: &Facts) -> Ways {
    let mut ways = patterns::rows(f.rows, f.cols);
    ways.extend(patterns::columns(f.rows, f.cols, f.letters));
    if f.rows == f.cols {
        ways.extend(patterns::diagonals(f.rows));
    }
    Ways::Fixed(ways)
}

const ROW: Builtin = Builtin {
    name: "row",
    about: "any row",
    ways: |f| Ways::Fixed(patterns::rows(f.rows, f.cols)),
};
const COLUMN: Builtin = Builtin {
    name: "column",
    about: "any column",
    ways: |f| Ways::Fixed(patterns::columns(f.rows, f.cols, f.letters)),
};
const CORNERS: Builtin = Builtin {
    name: "four-corners",
    about: "the four corners",
    ways: |f| Ways::Fixed(vec![patterns::corners(f.rows, f.cols)]),
};
const COVERALL: Builtin = Builtin {
    name: "coverall",
    about: "every cell",
    ways: |f| Ways::Fixed(vec![patterns::every_cell(f.rows, f.cols)]),
};

/// A square card's patterns.
static SQUARE: [Builtin; 7] = [
    Builtin {
        name: "line",
        about: "any row, column or diagonal",
        ways: lines_ways,
    },
    ROW,
    COLUMN,
    Builtin {
        name: "diagonal",
        about: "either diagonal",
        ways: |f| Ways::Fixed(patterns::diagonals(f.rows)),
    },
    CORNERS,
    Builtin {
        name: "x",
        about: "both diagonals",
        ways: |f| {
            let both = patterns::diagonals(f.rows)
                .iter()
                .fold(0, |m, w| m | w.mask);
            Ways::Fixed(vec![patterns::Way {
                name: "both diagonals".into(),
                mask: both,
            }])
        },
    },
    COVERALL,
];

/// An oblong card's patterns (no diagonals).
static OBLONG: [Builtin; 5] = [
    Builtin {
        name: "line",
        about: "any row or column",
        ways: lines_ways,
    },
    ROW,
    COLUMN,
    CORNERS,
    COVERALL,
];
