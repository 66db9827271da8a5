//! Every sold face followed call by call: how far each is from each open
//! prize, so the caller sees at every call how many faces hold it and how
//! many are one or two away, and a prize's sharers are read off rather
//! than found by a scan of every sold face.
//!
//! Built once when the hall opens: an index from each number to the sold
//! faces holding it (one `u32` per number printed: the face's place in
//! 27 bits, its cell in 5), and per face the mask of its numbered cells
//! and of those called (`u32` each). A call touches only the faces holding
//! its number, in parallel; a recall touches them back. A prize's "to go"
//! is worked out from the two masks ([`Pattern::to_go`]); the count of
//! faces at each distance, and the faces that hold it, are kept as the
//! calls come. Memory: 4 bytes per number printed and 8 per face (a
//! 75-ball card 104 bytes, a 90-ball ticket 68, an 80-ball card 72).
//!
//! The tracker is a cache. What it answers is used only when it was
//! brought to exactly the calls and pattern asked about ([`Tracker::winners`]);
//! otherwise the caller scans, as `hall verify` always does.

use super::refusal::Refusal;
use super::sold::is_sold;
use crate::cardfile::CardFile;
use crate::play::calls::{Calls, NEVER};
use crate::play::pattern::{Pattern, CANNOT};
use crate::play::scan_faces;
use rayon::prelude::*;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering::Relaxed};

/// The most faces one tracker follows (27 bits of an index entry).
pub const MAX_TRACKED: u64 = 1 << 27;
/// Distances counted one by one; farther faces share the last count.
pub const DISTANCES: usize = 28;
/// Records read at a time while the index is built.
const CHUNK: u64 = 1 << 16;

/// A run of tracked faces: `len` faces of file `file` numbered from
/// `face`, tracked from place `at`.
#[derive(Clone, Copy, Debug)]
struct Run {
    at: u32,
    file: usize,
    face: u64,
    len: u32,
}

/// An open prize as tracked: its stage, pattern, the count of faces at
/// each distance, and the faces that hold it (places, ascending).
struct Prize {
    stage: usize,
    pattern: Pattern,
    counts: [u64; DISTANCES],
    holders: Vec<u32>,
    /// Each face's distance ([`CANNOT`]: it cannot hold it).
    away: Vec<AtomicU8>,
}

/// The sold faces `to_go` numbers from a prize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Away {
    /// The distance (0: no sold face was near).
    pub to_go: u8,
    /// How many sold faces are that far.
    pub faces: u64,
    /// Which, in file and face order; empty when they are more than the
    /// limit asked.
    pub listed: Vec<(usize, u64)>,
}

/// How far the sold faces are from a prize at the calls tracked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    pub stage: usize,
    /// Faces that hold it now, one away, two away.
    pub holding: u64,
    pub one: u64,
    pub two: u64,
}

/// The sold faces, followed call by call.
pub struct Tracker {
    rows: usize,
    cols: usize,
    /// `starts[b]..starts[b + 1]`: the entries of number `b`.
    starts: Vec<u64>,
    /// Face place << 5 | cell, by number, places ascending.
    entries: Vec<u32>,
    numbered: Vec<u32>,
    marked: Vec<AtomicU32>,
    runs: Vec<Run>,
    /// The numbers marked.
    called: Vec<bool>,
    prizes: Vec<Prize>,
}

/// One chunk's changes to the prizes as a number is marked: per prize,
/// the counts moved by distance, and the faces that came to hold it (or
/// no longer do), places ascending.
type Changes = (Vec<[i64; DISTANCES]>, Vec<Vec<u32>>);

impl Tracker {
    /// The index of every sold face of `files` (`sold`: ranges of the
    /// first file; None, all); None when they are more than
    /// [`MAX_TRACKED`] (the hall then scans).
    pub fn build(
        files: &[CardFile],
        sold: Option<&[RangeInclusive<u64>]>,
    ) -> Result<Option<Tracker>, Refusal> {
        let spec = files[0].header().spec;
        let facts = spec.facts();
        let balls = usize::from(spec.balls());
        let mut tracker = Tracker {
            rows: facts.rows,
            cols: facts.cols,
            starts: vec![0; balls + 2],
            entries: Vec::new(),
            numbered: Vec::new(),
            marked: Vec::new(),
            runs: Vec::new(),
            called: vec![false; balls + 1],
            prizes: Vec::new(),
        };
        if !tracker.count_faces(files, sold)? {
            return Ok(None);
        }
        tracker.place_faces(files, sold)?;
        tracker.marked = (0..tracker.numbered.len())
            .map(|_| AtomicU32::new(0))
            .collect();
        Ok(Some(tracker))
    }

    /// The first pass: how many faces hold each number, and each face's
    /// numbered cells; false when the sold faces are more than
    /// [`MAX_TRACKED`].
    fn count_faces(
        &mut self,
        files: &[CardFile],
        sold: Option<&[RangeInclusive<u64>]>,
    ) -> Result<bool, Refusal> {
        let mut faces = Vec::new();
        for (f, records) in sold_records(files, sold) {
            let mut first = *records.start();
            while first <= *records.end() {
                let last = (first + CHUNK - 1).min(*records.end());
                faces.clear();
                faces.extend(
                    scan_faces(&files[f], first..=last, |n, face| {
                        is_sold(sold, f, n).then_some((n, *face))
                    })
                    .map_err(|e| Refusal::NoFace(e.to_string()))?,
                );
                for (n, face) in &faces {
                    if self.numbered.len() as u64 >= MAX_TRACKED {
                        return Ok(false);
                    }
                    self.push_face(f, *n);
                    let mut numbered = 0;
                    for (cell, &x) in face.numbers().iter().enumerate() {
                        if x != 0 {
                            numbered |= 1 << cell;
                            self.starts[usize::from(x) + 1] += 1;
                        }
                    }
                    self.numbered.push(numbered);
                }
                first = last + 1;
            }
        }
        for b in 1..self.starts.len() {
            self.starts[b] += self.starts[b - 1];
        }
        Ok(true)
    }

    /// The second pass: the entries, by number, places ascending.
    fn place_faces(
        &mut self,
        files: &[CardFile],
        sold: Option<&[RangeInclusive<u64>]>,
    ) -> Result<(), Refusal> {
        self.entries = vec![0; *self.starts.last().unwrap_or(&0) as usize];
        let mut next = self.starts.clone();
        let mut place = 0u32;
        for (f, records) in sold_records(files, sold) {
            let mut first = *records.start();
            while first <= *records.end() {
                let last = (first + CHUNK - 1).min(*records.end());
                let cells = scan_faces(&files[f], first..=last, |n, face| {
                    is_sold(sold, f, n).then_some(face.cells)
                })
                .map_err(|e| Refusal::NoFace(e.to_string()))?;
                for face in cells {
                    let cells = &face[..self.rows * self.cols];
                    for (cell, &x) in cells.iter().enumerate().filter(|(_, &x)| x != 0) {
                        let slot = &mut next[usize::from(x)];
                        self.entries[*slot as usize] = place << 5 | cell as u32;
                        *slot += 1;
                    }
                    place += 1;
                }
                first = last + 1;
            }
        }
        Ok(())
    }

    /// A face tracked at the next place.
    fn push_face(&mut self, file: usize, face: u64) {
        let at = self.numbered.len() as u32;
        match self.runs.last_mut() {
            Some(run) if run.file == file && run.face + u64::from(run.len) == face => run.len += 1,
            _ => self.runs.push(Run {
                at,
                file,
                face,
                len: 1,
            }),
        }
    }

    /// How many faces are tracked.
    pub fn faces(&self) -> usize {
        self.numbered.len()
    }

    /// The bytes the tracker holds.
    pub fn bytes(&self) -> usize {
        self.entries.len() * 4
            + self.numbered.len() * 8
            + self.starts.len() * 8
            + self.runs.len() * std::mem::size_of::<Run>()
            + self
                .prizes
                .iter()
                .map(|p| p.holders.len() * 4 + p.away.len())
                .sum::<usize>()
    }

    /// The file and face number of place `at`.
    fn face_at(&self, at: u32) -> (usize, u64) {
        let k = self.runs.partition_point(|r| r.at <= at) - 1;
        let run = self.runs[k];
        (run.file, run.face + u64::from(at - run.at))
    }

    /// Brings the tracker to `calls` (as judged) and the open prizes
    /// `prizes` (stage, pattern): the numbers called since are marked, the
    /// numbers recalled unmarked, the distances counted again for a prize
    /// that opened.
    pub fn sync(&mut self, calls: Option<&Calls>, prizes: &[(usize, &Pattern)]) {
        let same = self.prizes.len() == prizes.len()
            && (self.prizes.iter().zip(prizes))
                .all(|(p, (k, pattern))| p.stage == *k && p.pattern == **pattern);
        if !same {
            self.prizes.clear();
        }
        let want = |b: usize| calls.is_some_and(|c| c.positions()[b] != NEVER);
        for b in 1..self.called.len() {
            if want(b) != self.called[b] {
                self.mark(b, want(b));
            }
        }
        if !same {
            self.prizes = (prizes.iter())
                .map(|&(stage, pattern)| self.count(stage, pattern))
                .collect();
        }
    }

    /// A prize counted afresh over every face.
    fn count(&self, stage: usize, pattern: &Pattern) -> Prize {
        let (rows, cols) = (self.rows, self.cols);
        let away: Vec<AtomicU8> = (self.numbered.par_iter().zip(&self.marked))
            .map(|(&numbered, marked)| {
                AtomicU8::new(pattern.to_go(rows, cols, numbered, marked.load(Relaxed)))
            })
            .collect();
        let (counts, holders) = (away.par_iter())
            .enumerate()
            .fold(
                || ([0u64; DISTANCES], Vec::new()),
                |(mut counts, mut holders), (at, d)| {
                    let d = d.load(Relaxed);
                    if d != CANNOT {
                        counts[usize::from(d).min(DISTANCES - 1)] += 1;
                    }
                    if d == 0 {
                        holders.push(at as u32);
                    }
                    (counts, holders)
                },
            )
            .reduce(
                || ([0u64; DISTANCES], Vec::new()),
                |(mut a, mut ha), (b, hb)| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    ha.extend(hb);
                    (a, ha)
                },
            );
        Prize {
            stage,
            pattern: pattern.clone(),
            counts,
            holders,
            away,
        }
    }

    /// Marks (or unmarks) number `b` on every face holding it, keeping each
    /// prize's counts and holders.
    fn mark(&mut self, b: usize, on: bool) {
        self.called[b] = on;
        let range = self.starts[b] as usize..self.starts[b + 1] as usize;
        let (rows, cols, numbered, marked) = (self.rows, self.cols, &self.numbered, &self.marked);
        let prizes: Vec<(&Pattern, &[AtomicU8])> = (self.prizes.iter())
            .map(|p| (&p.pattern, p.away.as_slice()))
            .collect();
        // Per prize: the counts moved, and the faces that came to hold it
        // (marking) or no longer do (unmarking), places ascending.
        let changes: Vec<Changes> = self.entries[range]
            .par_chunks(1 << 14)
            .map(|chunk| {
                let mut moved = vec![[0i64; DISTANCES]; prizes.len()];
                let mut flipped = vec![Vec::new(); prizes.len()];
                for &entry in chunk {
                    let at = (entry >> 5) as usize;
                    let cell = (entry & 31) as usize;
                    let old = marked[at].load(Relaxed);
                    let new = if on {
                        old | 1 << cell
                    } else {
                        old & !(1 << cell)
                    };
                    marked[at].store(new, Relaxed);
                    for (k, (pattern, away)) in prizes.iter().enumerate() {
                        let before = away[at].load(Relaxed);
                        let after = if on {
                            pattern.to_go_marking(rows, cols, numbered[at], new, cell, before)
                        } else {
                            pattern.to_go(rows, cols, numbered[at], new)
                        };
                        if before != after {
                            away[at].store(after, Relaxed);
                            moved[k][usize::from(before).min(DISTANCES - 1)] -= 1;
                            moved[k][usize::from(after).min(DISTANCES - 1)] += 1;
                            if (before == 0) != (after == 0) {
                                flipped[k].push(at as u32);
                            }
                        }
                    }
                }
                (moved, flipped)
            })
            .collect();
        self.fold(&changes, on);
    }

    /// Each chunk's `changes` to the prizes (the counts moved, the faces
    /// that came to hold one or no longer do) taken into their counts
    /// and holders.
    fn fold(&mut self, changes: &[Changes], on: bool) {
        for (k, prize) in self.prizes.iter_mut().enumerate() {
            let mut flipped = Vec::new();
            for (moved, chunk) in changes {
                for (count, d) in prize.counts.iter_mut().zip(moved[k]) {
                    *count = count.wrapping_add_signed(d);
                }
                flipped.extend_from_slice(&chunk[k]);
            }
            if flipped.is_empty() {
                continue;
            }
            if on {
                prize.holders = merge(&prize.holders, &flipped);
            } else {
                prize
                    .holders
                    .retain(|at| flipped.binary_search(at).is_err());
            }
        }
    }

    /// How far the faces are from each open prize.
    pub fn distances(&self) -> Vec<Distances> {
        (self.prizes.iter())
            .map(|p| Distances {
                stage: p.stage,
                holding: p.counts[0],
                one: p.counts[1],
                two: p.counts[2],
            })
            .collect()
    }

    /// Whether the tracker stands at exactly `calls`.
    fn at(&self, calls: &Calls) -> bool {
        let positions = calls.positions();
        (1..self.called.len()).all(|b| self.called[b] == (positions[b] != NEVER))
            && (self.called.len()..256).all(|b| positions[b] == NEVER)
    }

    /// How many sold faces hold `pattern` after `calls`, when the tracker
    /// stands there (a split too wide to pay is refused without listing it).
    pub fn holding(&self, pattern: &Pattern, calls: &Calls) -> Option<usize> {
        let prize = self.prizes.iter().find(|p| p.pattern == *pattern)?;
        self.at(calls).then_some(prize.holders.len())
    }

    /// The sold faces exactly `to_go` numbers from `pattern` after `calls`
    /// (None: the nearest that do not hold it), in file and face order,
    /// read off; more than `limit` are counted, not listed. None when the
    /// tracker does not stand at these calls and this prize.
    pub fn away(
        &self,
        pattern: &Pattern,
        calls: &Calls,
        to_go: Option<u8>,
        limit: usize,
    ) -> Option<Away> {
        let prize = self.prizes.iter().find(|p| p.pattern == *pattern)?;
        if !self.at(calls) {
            return None;
        }
        // The last count holds every face farther: not one distance.
        let counted = 1..DISTANCES - 1;
        let d = match to_go {
            Some(k) if counted.contains(&usize::from(k)) => k,
            Some(_) => return None,
            None => counted.clone().find(|&k| prize.counts[k] > 0).unwrap_or(0) as u8,
        };
        let faces = if d == 0 {
            0
        } else {
            prize.counts[usize::from(d)]
        };
        let listed = if d == 0 || faces > limit as u64 {
            Vec::new()
        } else {
            (prize.away.par_iter().enumerate())
                .filter(|(_, a)| a.load(Relaxed) == d)
                .map(|(at, _)| self.face_at(at as u32))
                .collect()
        };
        Some(Away {
            to_go: d,
            faces,
            listed,
        })
    }

    /// The sold faces that hold `pattern` after `calls`, in file and face
    /// order (with `last_call`, only those the last call completes), read
    /// off: None when the tracker does not stand at these calls and this
    /// prize, or the rule needs a call the masks do not keep.
    pub fn winners(
        &self,
        pattern: &Pattern,
        calls: &Calls,
        last_call: bool,
    ) -> Option<Vec<(usize, u64)>> {
        let prize = self.prizes.iter().find(|p| p.pattern == *pattern)?;
        if !self.at(calls) {
            return None;
        }
        if !last_call {
            return Some(prize.holders.iter().map(|&at| self.face_at(at)).collect());
        }
        // A wild game's numbers all come at the first call: the last call
        // alone does not say which completed a way then.
        let &last = calls.order().last()?;
        if calls.len() < 2 || calls.positions().iter().filter(|&&p| p == 1).count() > 1 {
            return None;
        }
        let (b, e) = (
            self.starts[usize::from(last)],
            self.starts[usize::from(last) + 1],
        );
        let entries = &self.entries[b as usize..e as usize];
        // A holder without the last number was complete before it.
        let through = |&at: &u32| {
            let k = entries.partition_point(|e| e >> 5 < at);
            let Some(&entry) = entries.get(k).filter(|&&e| e >> 5 == at) else {
                return false;
            };
            let (numbered, marked) = (
                self.numbered[at as usize],
                self.marked[at as usize].load(Relaxed),
            );
            pattern.complete_through(
                self.rows,
                self.cols,
                numbered,
                marked,
                (entry & 31) as usize,
            )
        };
        Some(
            prize
                .holders
                .iter()
                .filter(|at| through(at))
                .map(|&at| self.face_at(at))
                .collect(),
        )
    }
}

/// The records of each file holding a sold face, as runs of records.
fn sold_records(
    files: &[CardFile],
    sold: Option<&[RangeInclusive<u64>]>,
) -> Vec<(usize, RangeInclusive<u64>)> {
    let mut out = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let header = file.header();
        if header.count == 0 {
            continue;
        }
        match (sold, f) {
            (Some(ranges), 0) => {
                let mut records: Vec<(u64, u64)> = (ranges.iter())
                    .filter_map(|r| header.records_within(r))
                    .collect();
                records.sort_unstable();
                let mut merged: Vec<(u64, u64)> = Vec::new();
                for (a, b) in records {
                    match merged.last_mut() {
                        Some((_, end)) if a <= *end + 1 => *end = (*end).max(b),
                        _ => merged.push((a, b)),
                    }
                }
                out.extend(merged.into_iter().map(|(a, b)| (f, a..=b)));
            }
            _ => out.push((f, 1..=header.count)),
        }
    }
    out
}

/// Two ascending lists as one.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

mod follow;
#[cfg(test)]
mod tests;

pub use follow::Follower;
