//! Win patterns and when a face completes one.
//!
//! A pattern is a set of *ways* to win: masks over a face's cells (bit
//! `row × cols + col`), any one of which wins when all of its cells are
//! marked. Blanks and the free centre hold 0 and are always marked. Two
//! 90-ball patterns depend on the ticket rather than on fixed cells: four
//! corners (the first and last number of the top and bottom rows) and early
//! five (any five numbers).
//!
//! A face's *completion call* is computed, not marked call by call: for each
//! way, the latest call among its numbers; the face wins at the earliest
//! way. [`Pattern::completion`] gives it for one face and a table of call
//! positions ([`super::calls::Calls::positions`]).

use super::calls::{Positions, NEVER};
pub use crate::game::patterns::Way;
use crate::game::patterns::Ways;
use crate::game::{Face, Spec};

mod distance;
pub use distance::{Aim, CANNOT};

/// A win pattern of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    name: String,
    kind: Ways,
}

/// When and how a face completed a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The call (from 1) that completed it.
    pub call: u8,
    /// Which way (an index into [`Pattern::way_name`]).
    pub way: usize,
}

impl Pattern {
    /// A pattern of `spec`'s game by name (`line`, `full-house`, …: the
    /// game's [`crate::game::Facts::patterns`]) or a custom mask
    /// (`mask:X...X/.X.X./..X../.X.X./X...X`, rows top to bottom, `X` a cell
    /// that must be marked; several masks joined with `|` mean any of them).
    /// The error names the pattern and lists the choices.
    pub fn parse(text: &str, spec: Spec) -> Result<Pattern, PatternError> {
        let facts = spec.facts();
        let kind = if let Some(masks) = text.strip_prefix("mask:") {
            Ways::Fixed(parse_masks(masks, facts.rows, facts.cols, facts.free)?)
        } else if let Some(builtin) = facts.patterns.iter().find(|p| p.name == text) {
            (builtin.ways)(facts)
        } else {
            let elsewhere = Spec::GAMES
                .iter()
                .filter_map(|g| Spec::named(g))
                .filter(|other| !other.same_game(spec))
                .filter(|other| other.facts().patterns.iter().any(|p| p.name == text))
                .map(|other| other.short_name())
                .collect();
            return Err(PatternError::Unknown {
                text: text.to_string(),
                spec,
                elsewhere,
            });
        };
        Ok(Pattern {
            name: text.to_string(),
            kind,
        })
    }

    /// The name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fixed ways, if the pattern has them (not four corners or early
    /// five of 90-ball, which depend on the ticket).
    pub fn ways(&self) -> Option<&[Way]> {
        match &self.kind {
            Ways::Fixed(ways) => Some(ways),
            _ => None,
        }
    }

    /// The name of way `way`.
    pub fn way_name(&self, way: usize) -> String {
        match &self.kind {
            Ways::Fixed(ways) => ways[way].name.clone(),
            Ways::NumberedCorners => "four corners".into(),
            Ways::AnyNumbers(k) => format!("{k} numbers"),
        }
    }

    /// The cells of way `way` on `face`: a mask over its cells.
    pub fn way_cells(&self, face: &Face, way: usize) -> u32 {
        match &self.kind {
            Ways::Fixed(ways) => ways[way].mask,
            Ways::NumberedCorners => ticket_corners(face),
            Ways::AnyNumbers(_) => numbered(face),
        }
    }

    /// When `face` completes the pattern under the call positions
    /// `positions` (see [`super::calls::Calls::positions`]), if it does.
    pub fn completion(&self, face: &Face, positions: &Positions) -> Option<Completion> {
        let (call, way) = self.earliest(face, positions, NEVER);
        (call != NEVER).then_some(Completion { call, way })
    }

    /// The earliest completion call of `face` and its way, looking only for
    /// calls below `bound` (anything later comes back as `bound` or more):
    /// the simulator's inner loop.
    #[inline]
    pub fn earliest(&self, face: &Face, positions: &Positions, bound: u8) -> (u8, usize) {
        let at = |cell: usize| positions[usize::from(face.cells[cell])];
        match &self.kind {
            Ways::Fixed(ways) => earliest_way(
                face.numbers(),
                ways.iter().map(|w| w.mask),
                positions,
                bound,
            ),
            Ways::NumberedCorners => {
                let mut latest = 0;
                let mut bits = ticket_corners(face);
                if bits == 0 {
                    return (bound, 0);
                }
                while bits != 0 {
                    latest = latest.max(at(bits.trailing_zeros() as usize));
                    bits &= bits - 1;
                }
                (latest, 0)
            }
            Ways::AnyNumbers(k) => {
                let mut calls = [NEVER; 27];
                let mut n = 0;
                for cell in 0..usize::from(face.rows) * usize::from(face.cols) {
                    if face.cells[cell] != 0 {
                        calls[n] = at(cell);
                        n += 1;
                    }
                }
                if n == 0 {
                    return (bound, 0);
                }
                let k = usize::from(*k).min(n).max(1);
                let (_, kth, _) = calls[..n].select_nth_unstable(k - 1);
                (*kth, 0)
            }
        }
    }

    /// Whether `face` can complete the pattern at all: some way holds a
    /// number of it (a custom mask may cover only a ticket's blanks).
    pub fn possible(&self, face: &Face) -> bool {
        let numbers = numbered(face);
        (0..self.way_count()).any(|w| self.way_cells(face, w) & numbers != 0)
    }

    /// The way that `call` (1-based) completes on `face`, if any: every
    /// number of the way called by then, the last of them at `call`. The
    /// house rule for `--last-call-must-complete`: the claim is good when
    /// the last number called completes a winning way, whichever way
    /// completed first.
    pub fn completes_at(&self, face: &Face, positions: &Positions, call: u8) -> Option<usize> {
        let at = |cell: usize| positions[usize::from(face.cells[cell])];
        let latest = |mask: u32| {
            (0..27)
                .filter(|&c| mask & (1 << c) != 0 && face.cells[c] != 0)
                .map(at)
                .max()
        };
        match &self.kind {
            Ways::AnyNumbers(k) => {
                let mut mine = (0..27).filter(|&c| face.cells[c] != 0).map(at);
                // As `earliest` counts: k, or every number of a face with fewer.
                let k = usize::from(*k).min(mine.clone().count()).max(1);
                let called = mine.clone().filter(|&p| p <= call).count();
                (called >= k && mine.any(|p| p == call)).then_some(0)
            }
            _ => (0..self.way_count()).find(|&w| latest(self.way_cells(face, w)) == Some(call)),
        }
    }

    /// How many ways the pattern has (one for the ways worked out per face).
    fn way_count(&self) -> usize {
        match &self.kind {
            Ways::Fixed(ways) => ways.len(),
            _ => 1,
        }
    }

    /// "need" or "needs", agreeing with a way's name: `rows 1 and 3 still
    /// need`, `the four corners still need`, `row 3 still needs`.
    pub fn needs(way: &str) -> &'static str {
        let plural = way.contains(" and ")
            || ["rows ", "both ", "four ", "the four ", "the centre four"]
                .iter()
                .any(|p| way.starts_with(p));
        if plural {
            "need"
        } else {
            "needs"
        }
    }

    /// For a face that has not completed: the way closest to completion and
    /// the numbers it still needs (for `check`'s answer); None when no way
    /// holds a number of the face, so it can never complete.
    pub fn nearest(&self, face: &Face, called: impl Fn(u8) -> bool) -> Option<(String, Vec<u8>)> {
        let missing = |way: usize| -> Vec<u8> {
            let mask = self.way_cells(face, way);
            (0..27)
                .filter(|&c| mask & (1 << c) != 0)
                .map(|c| face.cells[c])
                .filter(|&n| n != 0 && !called(n))
                .collect()
        };
        let numbers = numbered(face);
        let best = (0..self.way_count())
            .filter(|&w| self.way_cells(face, w) & numbers != 0)
            .min_by_key(|&w| missing(w).len())?;
        let mut numbers = missing(best);
        if let Ways::AnyNumbers(k) = self.kind {
            let have = (0..27)
                .filter(|&c| face.cells[c] != 0 && called(face.cells[c]))
                .count();
            numbers.truncate(usize::from(k).saturating_sub(have));
        }
        Some((self.way_name(best), numbers))
    }
}

/// The earliest completion call below `bound` of the ways `masks` over
/// `cells` (a face's numbers, row-major), and its way; `(bound, 0)` when
/// none completes below it. Cells with no number (free, blank) count as
/// marked; a way with no number on the face never completes. One pass marks the cells called before `bound`;
/// only a way all of whose cells are marked has its call worked out.
#[inline]
pub fn earliest_way(
    cells: &[u8],
    masks: impl Iterator<Item = u32>,
    positions: &Positions,
    bound: u8,
) -> (u8, usize) {
    let mut early = 0u32;
    for (i, &n) in cells.iter().enumerate() {
        early |= u32::from(positions[usize::from(n)] < bound) << i;
    }
    let (mut best, mut best_way) = (bound, 0);
    for (w, mask) in masks.enumerate() {
        if mask & !early == 0 {
            let mut latest = 0;
            let mut bits = mask;
            while bits != 0 {
                latest = latest.max(positions[usize::from(cells[bits.trailing_zeros() as usize])]);
                bits &= bits - 1;
            }
            // Free cells and blanks are "called" at 0 and every number at 1
            // or later, so 0 here is a way with no number on this face:
            // marked, but not won by it.
            if latest > 0 && latest < best {
                best = latest;
                best_way = w;
            }
        }
    }
    (best, best_way)
}

/// The cells of a face that hold numbers.
fn numbered(face: &Face) -> u32 {
    (0..usize::from(face.rows) * usize::from(face.cols))
        .filter(|&c| face.cells[c] != 0)
        .fold(0, |m, c| m | 1 << c)
}

/// The first and last numbered cells of a ticket's top and bottom rows.
fn ticket_corners(face: &Face) -> u32 {
    let cols = usize::from(face.cols);
    let mut mask = 0;
    for row in [0, usize::from(face.rows) - 1] {
        let cells: Vec<usize> = (row * cols..row * cols + cols)
            .filter(|&c| face.cells[c] != 0)
            .collect();
        if let (Some(&first), Some(&last)) = (cells.first(), cells.last()) {
            mask |= 1 << first | 1 << last;
        }
    }
    mask
}

/// `X...X/.X.X./…|…`: one or more masks of `rows` rows of `cols` cells,
/// each marking a cell that is not `free` on every face.
fn parse_masks(text: &str, rows: usize, cols: usize, free: u32) -> Result<Vec<Way>, PatternError> {
    text.split('|')
        .enumerate()
        .map(|(i, mask)| {
            let lines: Vec<&str> = mask.split('/').collect();
            let bad = |problem| PatternError::Mask {
                mask: mask.to_string(),
                problem,
                rows,
                cols,
            };
            if lines.len() != rows {
                return Err(bad(MaskProblem::Rows(lines.len())));
            }
            let mut bits = 0u32;
            for (r, line) in lines.iter().enumerate() {
                if line.chars().count() != cols {
                    return Err(bad(MaskProblem::Cells(r + 1, line.chars().count())));
                }
                for (c, ch) in line.chars().enumerate() {
                    match ch {
                        'X' | 'x' => bits |= 1 << (r * cols + c),
                        '.' | '-' | 'o' | 'O' => {}
                        other => return Err(bad(MaskProblem::Cell(other))),
                    }
                }
            }
            if bits == 0 {
                return Err(bad(MaskProblem::Unmarked));
            }
            if bits & !free == 0 {
                return Err(bad(MaskProblem::OnlyFree));
            }
            Ok(Way {
                name: format!("mask {}", i + 1),
                mask: bits,
            })
        })
        .collect()
}

/// A pattern that is not one of the game's and not a mask that fits it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// No pattern of the game has that name; `elsewhere` names the games
    /// that have one.
    #[error(
        "{text:?} is not {a} {game} pattern{hint}; choose one of {names}, or mask:{example}",
        text = crate::text::clip(text, 40),
        a = if spec.short_name().starts_with('8') { "an" } else { "a" },
        game = spec.short_name(),
        hint = if elsewhere.is_empty() {
            String::new()
        } else {
            format!(" ('{text}' is a {} pattern)", elsewhere.join(" and "))
        },
        names = spec.facts().patterns.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
        example = blank_mask(spec.facts().rows, spec.facts().cols)
    )]
    Unknown {
        text: String,
        spec: Spec,
        elsewhere: Vec<&'static str>,
    },
    /// A mask that does not fit a face of `rows` × `cols`.
    #[error(
        "mask {:?}: {problem}; write {rows} rows of {cols} cells, X marked and . not, \
         like mask:{example}",
        crate::text::clip(mask, 40),
        example = blank_mask(*rows, *cols)
    )]
    Mask {
        mask: String,
        problem: MaskProblem,
        rows: usize,
        cols: usize,
    },
}

/// What is wrong with a mask.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaskProblem {
    #[error("{0} rows")]
    Rows(usize),
    #[error("row {0} has {1} cells")]
    Cells(usize, usize),
    #[error("{0:?} is neither X nor .")]
    Cell(char),
    #[error("no cell is marked")]
    Unmarked,
    /// Every marked cell is free on every face: no card could win it.
    #[error("it marks only the free centre, which holds no number; mark a numbered cell")]
    OnlyFree,
}

/// `...../...../…`: a mask of `rows` rows of `cols` unmarked cells.
fn blank_mask(rows: usize, cols: usize) -> String {
    vec![".".repeat(cols); rows].join("/")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_verb_agrees_with_the_way() {
        for (way, verb) in [
            ("row 3", "needs"),
            ("every cell", "needs"),
            ("column B", "needs"),
            ("rows 1 and 3", "need"),
            ("both diagonals", "need"),
            ("the four corners", "need"),
            ("the centre four", "need"),
        ] {
            assert_eq!(super::Pattern::needs(way), verb, "{way}");
        }
    }

    use super::*;
    use crate::game::uk90::rules::Rules;
    use crate::game::us75::StarRule;
    use crate::play::calls::Calls;

    fn card() -> Face {
        let mut face = Face::new(5, 5);
        let rows = [
            [1, 16, 31, 46, 61],
            [2, 17, 32, 47, 62],
            [3, 18, 0, 48, 63],
            [4, 19, 34, 49, 64],
            [5, 20, 35, 50, 65],
        ];
        for (r, row) in rows.iter().enumerate() {
            face.cells[5 * r..5 * r + 5].copy_from_slice(row);
        }
        face
    }

    #[test]
    fn a_line_through_the_centre_needs_four_numbers() {
        let line = Pattern::parse(
            "line",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        assert_eq!(line.ways().unwrap().len(), 12);
        let calls = Calls::parse(75, "9, 3, 18, 70, 48, 63", "t").unwrap();
        let done = line.completion(&card(), calls.positions()).unwrap();
        assert_eq!(done.call, 6);
        assert_eq!(line.way_name(done.way), "row 3");
        let hard = Pattern::parse(
            "hardway",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        assert_eq!(hard.ways().unwrap().len(), 8);
        assert_eq!(hard.completion(&card(), calls.positions()), None);
    }

    #[test]
    fn masks_and_names() {
        let x = Pattern::parse(
            "x",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        let mask = Pattern::parse(
            "mask:X...X/.X.X./..X../.X.X./X...X",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        assert_eq!(x.ways().unwrap()[0].mask, mask.ways().unwrap()[0].mask);
        let two = Pattern::parse(
            "mask:XXXXX/...../...../...../.....|X..../X..../X..../X..../X....",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        assert_eq!(two.ways().unwrap().len(), 2);
        let frame = Pattern::parse(
            "frame",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap();
        assert_eq!(frame.ways().unwrap()[0].mask.count_ones(), 16);
        for bad in [
            "mask:X/X",
            "mask:XXXXX/...../...../...../....Z",
            "mask:...../...../...../...../.....",
        ] {
            assert!(Pattern::parse(
                bad,
                Spec::Us75 {
                    star: StarRule::Off
                }
            )
            .unwrap_err()
            .to_string()
            .starts_with("mask "));
        }
        let err = Pattern::parse(
            "full-house",
            Spec::Us75 {
                star: StarRule::Off,
            },
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("is a 90-ball pattern"), "{err}");
        for game in Spec::GAMES {
            let spec = Spec::named(game).unwrap();
            for builtin in spec.facts().patterns {
                Pattern::parse(builtin.name, spec).unwrap();
            }
        }
    }

    fn ticket() -> Face {
        let mut face = Face::new(3, 9);
        let rows: [[u8; 9]; 3] = [
            [0, 11, 0, 31, 0, 52, 61, 0, 81],
            [5, 0, 22, 0, 44, 0, 66, 77, 0],
            [9, 0, 28, 39, 0, 58, 0, 0, 90],
        ];
        for (r, row) in rows.iter().enumerate() {
            face.cells[9 * r..9 * r + 9].copy_from_slice(row);
        }
        face
    }

    #[test]
    fn ticket_patterns() {
        let t = ticket();
        let corners = Pattern::parse("four-corners", Spec::Uk90 { rules: Rules::Uk }).unwrap();
        let calls = Calls::parse(90, "11 81 9 1 90", "t").unwrap();
        assert_eq!(corners.completion(&t, calls.positions()).unwrap().call, 5);
        let five = Pattern::parse("early-five", Spec::Uk90 { rules: Rules::Uk }).unwrap();
        let calls = Calls::parse(90, "11 2 81 9 3 90 44 4", "t").unwrap();
        assert_eq!(five.completion(&t, calls.positions()).unwrap().call, 7);
        let (_, missing) = five.nearest(&t, |n| [11, 81].contains(&n)).unwrap();
        assert_eq!(missing.len(), 3);
        let one = Pattern::parse("one-line", Spec::Uk90 { rules: Rules::Uk }).unwrap();
        let calls = Calls::parse(90, "5 22 44 66 1 77", "t").unwrap();
        let done = one.completion(&t, calls.positions()).unwrap();
        assert_eq!((done.call, one.way_name(done.way).as_str()), (6, "row 2"));
        let two = Pattern::parse("two-lines", Spec::Uk90 { rules: Rules::Uk }).unwrap();
        assert_eq!(two.completion(&t, calls.positions()), None);
    }
}
