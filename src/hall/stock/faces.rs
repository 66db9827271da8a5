//! Sets of faces as sorted, disjoint, non-touching ranges: what the stock
//! book adds, takes away and compares.

use std::ops::RangeInclusive;

/// A set of face numbers, held as ranges in order, merged where they touch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faces(Vec<RangeInclusive<u64>>);

impl Faces {
    /// The faces of `ranges`, in any order, overlapping or not.
    pub fn of(ranges: impl IntoIterator<Item = RangeInclusive<u64>>) -> Faces {
        let mut all: Vec<_> = ranges.into_iter().filter(|r| !r.is_empty()).collect();
        all.sort_by_key(|r| (*r.start(), *r.end()));
        let mut out: Vec<RangeInclusive<u64>> = Vec::new();
        for r in all {
            match out.last_mut() {
                Some(l) if *r.start() <= l.end().saturating_add(1) => {
                    *l = *l.start()..=(*l.end()).max(*r.end())
                }
                _ => out.push(r),
            }
        }
        Faces(out)
    }

    pub fn ranges(&self) -> &[RangeInclusive<u64>] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many faces.
    pub fn count(&self) -> u64 {
        self.0.iter().map(|r| r.end() - r.start() + 1).sum()
    }

    pub fn union(&self, other: &Faces) -> Faces {
        Faces::of(self.0.iter().chain(&other.0).cloned())
    }

    /// The faces of `self` not in `other`.
    pub fn minus(&self, other: &Faces) -> Faces {
        let mut out = Vec::new();
        for r in &self.0 {
            let mut from = *r.start();
            let mut covered = false;
            for o in (other.0.iter()).filter(|o| o.start() <= r.end() && r.start() <= o.end()) {
                if *o.start() > from {
                    out.push(from..=o.start() - 1);
                }
                if o.end() >= r.end() {
                    covered = true;
                    break;
                }
                from = from.max(o.end() + 1);
            }
            if !covered {
                out.push(from..=*r.end());
            }
        }
        Faces::of(out)
    }

    /// The faces in both.
    pub fn and(&self, other: &Faces) -> Faces {
        self.minus(&self.minus(other))
    }

    /// `1..6, 13..18` (`none` when empty).
    pub fn words(&self) -> String {
        if self.0.is_empty() {
            return "none".into();
        }
        let shown: Vec<String> = self.0.iter().map(range_words).collect();
        shown.join(", ")
    }

    /// As the stock book writes them: `[[1,6],[13,18]]`.
    pub fn pairs(&self) -> Vec<(u64, u64)> {
        self.0.iter().map(|r| (*r.start(), *r.end())).collect()
    }

    /// From the stock book's pairs; None when a pair runs backwards.
    pub fn from_pairs(pairs: &[(u64, u64)]) -> Option<Faces> {
        (pairs.iter().all(|(a, b)| a <= b)).then(|| Faces::of(pairs.iter().map(|&(a, b)| a..=b)))
    }
}

/// `7` or `1..6`.
pub fn range_words(r: &RangeInclusive<u64>) -> String {
    if r.start() == r.end() {
        r.start().to_string()
    } else {
        format!("{}..{}", r.start(), r.end())
    }
}
