//! The check of a board that shares nothing with the draw: every limit
//! recounted from the cells alone. `verify`-style tests hold each drawn
//! board's `relaxed` list against it.

use super::board::{bits, unpack, Gave, Size};
use super::engine::{Engine, EngineError};
use super::render::constraint_text;
use super::set::ObjectiveSet;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Sample boards `boards --check` draws, and their seed.
pub const SAMPLE_BOARDS: u64 = 10_000;
const SAMPLE_SEED: u64 = 0x0c4e_c4ed;

/// What a sample of boards says about a set at a size.
pub struct Sample {
    /// Boards of the sample that had a constraint give way.
    pub relaxed: u64,
    /// Each kind of constraint that gave way, in words, with how many boards
    /// it gave way on; most common first.
    pub tally: Vec<(String, u64)>,
}

/// Draws `boards` sample boards (on the current rayon pool) and tallies
/// what gave way on them.
pub fn sample(set: &ObjectiveSet, engine: &Engine, boards: u64) -> Sample {
    type Tally = (u64, BTreeMap<String, u64>);
    let (relaxed, tally): Tally = (1..=boards)
        .into_par_iter()
        .map(|n| {
            let board = super::draw_numbered(engine, SAMPLE_SEED, n, 0);
            let mut kinds: Vec<Gave> = board.relaxed.iter().map(|r| r.gave).collect();
            kinds.sort_unstable();
            kinds.dedup();
            kinds
        })
        .fold(Tally::default, |(mut boards, mut map), kinds| {
            boards += u64::from(!kinds.is_empty());
            for gave in kinds {
                *map.entry(constraint_text(set, engine, gave)).or_default() += 1;
            }
            (boards, map)
        })
        .reduce(Tally::default, |(n, mut a), (m, b)| {
            for (k, v) in b {
                *a.entry(k).or_default() += v;
            }
            (n + m, a)
        });
    let mut tally: Vec<(String, u64)> = tally.into_iter().collect();
    tally.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Sample { relaxed, tally }
}

/// Kinds of relaxation [`report`] lists.
const REPORT_ROWS: usize = 12;

/// `boards --check` in words, a line at a time to `line`: what the set
/// holds, what it cannot do at `size`, and what gave way on a sample of
/// boards (drawn on the current rayon pool). Returns whether every limit
/// held: no goal text repeated among the enabled objectives, and every
/// sample board met every limit without relaxing one. Fails when the set
/// cannot make boards of that size at all.
pub fn report(
    set: &ObjectiveSet,
    set_name: &str,
    size: Size,
    weighting: super::board::Weighting,
    line: &mut dyn FnMut(String),
) -> Result<bool, EngineError> {
    report_on(set, set_name, size, weighting, SAMPLE_BOARDS, line)
}

/// [`report`] on a sample of `boards` boards (tests and fuzzing take a few).
pub fn report_on(
    set: &ObjectiveSet,
    set_name: &str,
    size: Size,
    weighting: super::board::Weighting,
    boards: u64,
    line: &mut dyn FnMut(String),
) -> Result<bool, EngineError> {
    line(format!("'{set_name}': valid Lockout schema v3 set"));
    line(format!("  {}", super::set::summary(set)));
    for note in notes(set, size) {
        line(format!("  note: {note}"));
    }
    let repeated = repeated_goals(set);
    for (goal, objectives) in &repeated {
        let list: Vec<String> = objectives
            .iter()
            .map(|k| format!("objectives[{k}]"))
            .collect();
        line(format!(
            "  problem: {} share the goal {:?}: a board can show it {} times",
            list.join(", "),
            crate::text::clip(goal, 60),
            objectives.len()
        ));
    }
    let engine = Engine::new(set, size, weighting)?;
    if let Some(note) = room_note(set, size) {
        line(format!("  note: {note}"));
    }
    let found = sample(set, &engine, boards);
    if found.relaxed == 0 {
        line(format!(
            "  {size}: all {boards} sample boards met every limit without relaxing any"
        ));
        return Ok(repeated.is_empty());
    }
    line(format!(
        "  {size}: {} of {boards} sample boards needed a constraint to give way (after backtracking):",
        found.relaxed
    ));
    for (what, n) in found.tally.iter().take(REPORT_ROWS) {
        line(format!("    {n:>6} boards: {what}"));
    }
    if found.tally.len() > REPORT_ROWS {
        line(format!(
            "    … and {} rarer ones",
            found.tally.len() - REPORT_ROWS
        ));
    }
    Ok(false)
}

/// Goals as shown (with each range value put in) that several enabled
/// objectives can show, compared trimmed and without regard to case; each
/// with those objectives' indexes. `{{X}} coins` over 1-5 and over 6-10
/// share nothing; two objectives with the same plain text do.
pub fn repeated_goals(set: &ObjectiveSet) -> Vec<(String, Vec<usize>)> {
    let mut by_goal: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, o) in set
        .objectives
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.disabled)
    {
        let shown: Vec<String> = if o.range.is_empty() {
            vec![o.text(None)]
        } else {
            o.range.iter().map(|&v| o.text(Some(v))).collect()
        };
        for text in shown {
            let holders = by_goal.entry(text.trim().to_lowercase()).or_default();
            if holders.last() != Some(&k) {
                holders.push(k);
            }
        }
    }
    let mut repeated: Vec<(String, Vec<usize>)> =
        by_goal.into_iter().filter(|(_, ks)| ks.len() > 1).collect();
    repeated.sort_by(|a, b| a.1.cmp(&b.1));
    repeated.dedup_by(|a, b| a.1 == b.1);
    repeated
}

/// What a set cannot do at `size`, before any board is drawn: forced
/// positions the size lacks, individual limits too small to fill it.
pub fn notes(set: &ObjectiveSet, size: Size) -> Vec<String> {
    let mut notes = Vec::new();
    for (k, o) in set.objectives.iter().enumerate() {
        for pos in &o.forced {
            if pos.cell(size.rows, size.cols).is_none() {
                notes.push(format!(
                    "objectives[{k}] {:?} is forced into {pos}, which a {size} board does not have; ignored at this size",
                    o.goal
                ));
            }
        }
    }
    notes
}

/// The note when the individual limits cannot fill a board of `size`.
pub fn room_note(set: &ObjectiveSet, size: Size) -> Option<String> {
    let room: usize = set
        .objectives
        .iter()
        .filter(|o| !o.disabled)
        .map(|o| o.individual_limit as usize)
        .sum();
    (room < size.cells()).then(|| {
        format!(
            "the individual limits allow {room} cells in all, a {size} board has {}: \
             every board exceeds some individual_limit",
            size.cells()
        )
    })
}

impl Engine {
    /// Every constraint `cells` breaks, counted from scratch (independent of
    /// the draw's bookkeeping): one entry per objective beyond a limit. A
    /// board is valid exactly when this equals its `relaxed` list (as a
    /// multiset, ignoring cells). Also fails on a repeated (objective, value)
    /// goal or a cell the set does not have, which no board may hold.
    pub fn violations(&self, cells: &[u16]) -> Result<Vec<Gave>, String> {
        if cells.len() != self.size.cells() {
            return Err(format!("{} cells on a {} board", cells.len(), self.size));
        }
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut count = vec![0i16; self.objs.len()];
        let mut board = vec![0i16; self.board_cap.len()];
        for (i, &cell) in cells.iter().enumerate() {
            let (k, vi) = unpack(cell);
            if k >= self.objs.len() || vi >= self.objs[k].values as usize {
                return Err(format!("cell {i} holds no goal of the set"));
            }
            if !seen.insert(cell) {
                return Err(format!("cell {i} repeats a goal already on the board"));
            }
            count[k] += 1;
            for c in bits(self.objs[k].board) {
                board[c] += 1;
            }
        }
        for (k, &n) in count.iter().enumerate() {
            for _ in self.objs[k].limit..n {
                out.push(Gave::IndividualLimit);
            }
        }
        for (c, &n) in board.iter().enumerate() {
            for _ in self.board_cap[c]..n {
                out.push(Gave::BoardCategory { category: c as u16 });
            }
        }
        for l in 0..self.lines.len() {
            let mut per_obj = std::collections::HashMap::new();
            let mut per_cat = vec![0i16; self.nl];
            for v in self.line_cells(l) {
                let (k, _) = unpack(cells[v]);
                *per_obj.entry(k).or_insert(0) += 1;
                for c in bits(self.objs[k].line) {
                    per_cat[c] += 1;
                }
            }
            for (_, n) in per_obj {
                for _ in 1..n {
                    out.push(Gave::RepeatInLine { line: l as u8 });
                }
            }
            for (c, &n) in per_cat.iter().enumerate() {
                for _ in self.line_cap[l * self.nl + c]..n {
                    out.push(Gave::LineCategory {
                        category: c as u16,
                        line: l as u8,
                    });
                }
            }
        }
        out.sort_unstable();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{pack, Size, Weighting};
    use super::super::set::ObjectiveSet;
    use super::*;

    fn set(json: &str) -> ObjectiveSet {
        ObjectiveSet::from_json(json, "t.json").unwrap()
    }

    #[test]
    fn violations_are_counted_from_scratch() {
        let s = set(r#"{"limits": {"board": {"b": 10}, "line": {"l": 0}},
                "objectives": [{"goal": "{{X}} a", "range": [1,2,3], "individual_limit": 2,
                                "board_categories": ["b"], "line_categories": ["l"]},
                               {"goal": "{{X}} c", "range": [1,2,3,4,5,6,7,8,9,10,11,12],
                                "individual_limit": 12}]}"#);
        let e = Engine::new(&s, Size { rows: 3, cols: 3 }, Weighting::Lockout).unwrap();
        // Objective 0 three times in row 1 (limit 2): its individual limit
        // is exceeded once, the board cap (10 % of 9 → 1) twice, and in row
        // 1 the line cap (0 % → 1) twice and "no repeat" twice. Objective 1
        // fills the rest with distinct values.
        let cells = [
            pack(0, 0),
            pack(0, 1),
            pack(0, 2),
            pack(1, 0),
            pack(1, 1),
            pack(1, 2),
            pack(1, 3),
            pack(1, 4),
            pack(1, 5),
        ];
        let v = e.violations(&cells).unwrap();
        let count = |g: Gave| v.iter().filter(|&&x| x == g).count();
        assert_eq!(count(Gave::IndividualLimit), 1);
        assert_eq!(count(Gave::BoardCategory { category: 0 }), 2);
        assert_eq!(count(Gave::RepeatInLine { line: 0 }), 2);
        assert_eq!(
            count(Gave::LineCategory {
                category: 0,
                line: 0
            }),
            2
        );
        let mut repeated = cells;
        repeated[8] = pack(1, 0);
        assert!(e
            .violations(&repeated)
            .unwrap_err()
            .contains("repeats a goal"));
        let mut foreign = cells;
        foreign[8] = pack(0, 5);
        assert!(e
            .violations(&foreign)
            .unwrap_err()
            .contains("no goal of the set"));
    }
}
