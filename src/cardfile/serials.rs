//! Serials as another maker printed them: a prefix (`CH-`), a number padded
//! with zeros (`04512`), and numbers that need not follow one another (the
//! cards of several packs: 04512, 04515, 04518). An imported file keeps them
//! in its provenance as runs of consecutive numbers, in file order; a face's
//! number is its serial's number, so every command that finds a face by
//! number finds it by the serial on the paper.

use serde::{Deserialize, Serialize};

/// The longest prefix a serial may carry, in characters.
pub const MAX_PREFIX: usize = 16;

/// A file's serials: each face's number, and how it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Serials {
    /// Text before the number on every face (`CH-`), or empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prefix: String,
    /// Digits the number is padded to with zeros (`04512`: 5), or 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub width: u8,
    /// Runs of consecutive numbers in file order: (first number, faces).
    pub runs: Vec<(u64, u64)>,
}

fn is_zero(w: &u8) -> bool {
    *w == 0
}

/// A serial as written, split: its prefix, number and padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub prefix: String,
    pub number: u64,
    /// The digits' count when the number starts with a zero, else 0.
    pub width: u8,
}

impl Written {
    /// A plain number, no prefix, no padding.
    pub fn plain(number: u64) -> Written {
        Written {
            prefix: String::new(),
            number,
            width: 0,
        }
    }

    /// As it was written.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// Splits `text` (`CH-04512`, `04512`, `4512`) into prefix and number:
    /// the number is the digits at its end. None when there are none, the
    /// number is 0 or too long, or the prefix is too long or holds a
    /// control character.
    pub fn parse(text: &str) -> Option<Written> {
        Written::read(text).ok()
    }

    /// As [`Written::parse`], with the reason a serial is refused: a
    /// prefix holding a character that cannot be typed back as seen (a
    /// digit of another script, an invisible or direction mark, a space
    /// other than the plain one) is named. A spreadsheet's guard
    /// apostrophe before `=`, `+`, `-` or `@` is no part of the serial.
    pub fn read(text: &str) -> Result<Written, String> {
        let t = text.trim();
        let t = match t.strip_prefix('\'') {
            Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest,
            _ => t,
        };
        let refused = || format!("{text:?} is not a face number or serial (4512, 04512, CH-04512)");
        if t.len() <= 18 && t.bytes().all(|b| b.is_ascii_digit()) {
            // The usual case: a plain number, read without looking for a prefix.
            let width = if t.starts_with('0') { t.len() as u8 } else { 0 };
            let number = t.parse().ok().filter(|&n| n > 0).ok_or_else(refused)?;
            return Ok(Written {
                prefix: String::new(),
                number,
                width,
            });
        }
        let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (prefix, number) = t.split_at(t.len() - digits);
        if digits == 0 || digits > 18 || prefix.chars().count() > MAX_PREFIX {
            return Err(refused());
        }
        if let Some(c) = prefix.chars().find(|&c| !typed_back(c)) {
            return Err(format!(
                "{text:?}: its prefix holds {c:?} (U+{:04X}), which cannot be typed back as it is seen: write the prefix in letters, ASCII digits and plain spaces, or import with --renumber",
                u32::from(c)
            ));
        }
        let n: u64 = number.parse().ok().filter(|&n| n > 0).ok_or_else(refused)?;
        let width = if number.starts_with('0') {
            digits as u8
        } else {
            0
        };
        Ok(Written {
            prefix: prefix.to_string(),
            number: n,
            width,
        })
    }
}

/// Whether `c` in a prefix is typed back as it is seen: no control,
/// invisible or direction mark, no space but the plain one, and no digit
/// but the ASCII ones (an Arabic-Indic `٢` would read as part of the
/// number to a person, and as prefix to the file).
fn typed_back(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    let group = c.general_category_group();
    let odd_space = group == GeneralCategoryGroup::Separator && c != ' ';
    let foreign_digit = c.is_numeric() && !c.is_ascii_digit();
    !(group == GeneralCategoryGroup::Other || odd_space || foreign_digit)
}

impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let width = usize::from(self.width);
        write!(f, "{}{:0width$}", self.prefix, self.number)
    }
}

impl Serials {
    /// Whether these are plain numbers one after another (nothing to keep
    /// beyond the first).
    pub fn is_plain(&self) -> bool {
        self.prefix.is_empty() && self.width == 0 && self.runs.len() <= 1
    }

    /// Faces numbered.
    pub fn faces(&self) -> u64 {
        self.runs.iter().map(|r| r.1).sum()
    }

    /// The first face's number.
    pub fn first(&self) -> u64 {
        self.runs.first().map_or(1, |r| r.0)
    }

    /// The last face's number.
    pub fn last(&self) -> u64 {
        self.runs.last().map_or(1, |r| r.0 + r.1 - 1)
    }

    /// Adds the next face's number: it must be greater than the last.
    pub fn push(&mut self, n: u64) -> bool {
        let last = self.runs.last().map(|r| r.0 + r.1 - 1);
        match (last, self.runs.last_mut()) {
            (Some(last), Some((_, len))) if n == last + 1 => *len += 1,
            (Some(last), _) if n <= last => return false,
            _ => self.runs.push((n, 1)),
        }
        true
    }

    /// The number of face `index` (from 0, in file order).
    pub fn number(&self, index: u64) -> Option<u64> {
        let mut at = 0;
        for &(first, len) in &self.runs {
            if index < at + len {
                return Some(first + index - at);
            }
            at += len;
        }
        None
    }

    /// The index (from 0) of the face numbered `n`.
    pub fn index_of(&self, n: u64) -> Option<u64> {
        let run = self.runs.partition_point(|&(first, _)| first <= n);
        let (first, len) = *self.runs.get(run.checked_sub(1)?)?;
        let before: u64 = self.runs[..run - 1].iter().map(|r| r.1).sum();
        (n < first + len).then_some(before + n - first)
    }

    /// The indices (from 0) of the first and last faces numbered within
    /// `lo..=hi`, if any is.
    pub fn indices_within(&self, lo: u64, hi: u64) -> Option<(u64, u64)> {
        let (mut at, mut first, mut last) = (0, None, None);
        for &(f, len) in &self.runs {
            let end = f + len - 1;
            if first.is_none() && end >= lo {
                first = Some(at + lo.saturating_sub(f));
            }
            if f <= hi {
                last = Some(at + hi.min(end) - f);
            }
            at += len;
        }
        first.zip(last).filter(|(a, b)| a <= b)
    }

    /// The first number of `lo..=hi` that numbers no face, and the next
    /// number above it that does (None: every number in it is a face).
    pub fn missing_within(&self, lo: u64, hi: u64) -> Option<(u64, Option<u64>)> {
        let run = self.runs.partition_point(|&(first, _)| first <= lo);
        let missing = match run.checked_sub(1).map(|r| self.runs[r]) {
            Some((first, len)) if lo < first + len => first + len,
            _ => lo,
        };
        (missing <= hi).then(|| {
            let next = self.runs.iter().map(|r| r.0).find(|&f| f > missing);
            (missing, next)
        })
    }

    /// The first and last as printed, and the runs when there are gaps:
    /// `CH-04512–CH-04566 in 19 runs (gaps kept)`.
    pub fn describe(&self) -> String {
        let (first, last) = (self.text(self.first()), self.text(self.last()));
        match self.runs.len() {
            0 | 1 => format!("{first}–{last}"),
            n => format!("{first}–{last} in {n} runs (gaps kept)"),
        }
    }

    /// Whether `w` is written as these serials write its number: the same
    /// prefix, and the same zeros in front (`04512` where the width is 5).
    pub fn writes(&self, w: &Written) -> bool {
        let digits = w.number.checked_ilog10().map_or(1, |d| d + 1) as u8;
        self.same_prefix(w) && (w.width == self.width || (w.width == 0 && self.width <= digits))
    }

    /// Whether `w` has these serials' prefix (most have none: compared
    /// without a call for the bytes, once a face).
    pub fn same_prefix(&self, w: &Written) -> bool {
        w.prefix.len() == self.prefix.len() && (self.prefix.is_empty() || w.prefix == self.prefix)
    }

    /// Number `n` as printed: `CH-04512`.
    pub fn text(&self, n: u64) -> String {
        format!(
            "{}{:0width$}",
            self.prefix,
            n,
            width = usize::from(self.width)
        )
    }

    /// The number `text` names: the serial as printed (`CH-04512`), or its
    /// number alone (`04512`, `4512`). The prefix is matched in any case.
    pub fn read(&self, text: &str) -> Option<u64> {
        let w = Written::parse(text)?;
        (w.prefix.is_empty() || w.prefix.eq_ignore_ascii_case(&self.prefix)).then_some(w.number)
    }

    /// Why these serials cannot number `faces` faces, if they cannot:
    /// runs empty, overlapping or out of order, a number past any file, a
    /// prefix too long or ending in a digit.
    pub fn check(&self, faces: u64) -> Result<(), String> {
        if self.faces() != faces {
            return Err(format!(
                "the serials number {} faces, the file holds {faces}",
                self.faces()
            ));
        }
        let mut last = 0u64;
        for &(first, len) in &self.runs {
            if first <= last || len == 0 || first.checked_add(len).is_none_or(|e| e > 1 << 60) {
                return Err(format!(
                    "the run of {len} serials from {first} is out of order or out of range"
                ));
            }
            last = first + len - 1;
        }
        let prefix_ok = self.prefix.chars().count() <= MAX_PREFIX
            && !self.prefix.ends_with(|c: char| c.is_ascii_digit())
            && !self.prefix.chars().any(|c| c.is_control());
        if !prefix_ok || self.width > 18 {
            return Err(format!(
                "the serials' prefix {:?} or width {} cannot be printed",
                self.prefix, self.width
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charity() -> Serials {
        let mut s = Serials {
            prefix: "CH-".into(),
            width: 5,
            runs: vec![],
        };
        for n in [4512, 4513, 4515, 4518, 4519, 4520] {
            assert!(s.push(n));
        }
        s
    }

    #[test]
    fn gaps_are_kept_as_runs_and_found_both_ways() {
        let s = charity();
        assert_eq!(s.runs, vec![(4512, 2), (4515, 1), (4518, 3)]);
        let numbers: Vec<u64> = (0..6).map(|i| s.number(i).unwrap()).collect();
        assert_eq!(numbers, [4512, 4513, 4515, 4518, 4519, 4520]);
        assert_eq!(s.number(6), None);
        for (i, n) in numbers.iter().enumerate() {
            assert_eq!(s.index_of(*n), Some(i as u64));
        }
        for absent in [1, 4511, 4514, 4516, 4517, 4521] {
            assert_eq!(s.index_of(absent), None, "{absent}");
        }
        assert!(s.check(6).is_ok());
        assert_eq!(s.indices_within(4514, 4517), Some((2, 2)));
        assert_eq!(s.indices_within(4516, 4517), None);
        assert_eq!(s.indices_within(1, 9999), Some((0, 5)));
        assert_eq!(s.indices_within(4513, 4519), Some((1, 4)));
        assert!(s.check(7).is_err());
    }

    #[test]
    fn a_range_reaching_into_a_gap_names_the_first_number_missing() {
        let s = charity();
        assert_eq!(s.missing_within(4512, 4513), None);
        assert_eq!(s.missing_within(4518, 4520), None);
        assert_eq!(s.missing_within(4512, 4515), Some((4514, Some(4515))));
        assert_eq!(s.missing_within(4516, 4517), Some((4516, Some(4518))));
        assert_eq!(s.missing_within(4519, 4521), Some((4521, None)));
        assert_eq!(s.missing_within(1, 1), Some((1, Some(4512))));
    }

    #[test]
    fn a_number_not_after_the_last_is_refused() {
        let mut s = charity();
        assert!(!s.push(4520));
        assert!(!s.push(4000));
        assert!(s.push(4600));
    }

    #[test]
    fn serials_read_as_printed_or_by_number() {
        let s = charity();
        assert_eq!(s.text(4512), "CH-04512");
        let written = |t: &str| Written::parse(t).unwrap();
        assert!(s.writes(&written("CH-04512")) && s.writes(&written("CH-12345")));
        assert!(!s.writes(&written("CH-4512")) && !s.writes(&written("CH-004512")));
        assert!(!s.writes(&written("AB-04512")));
        for typed in ["CH-04512", "ch-04512", "04512", "4512", " CH-4512 "] {
            assert_eq!(s.read(typed), Some(4512), "{typed}");
        }
        assert_eq!(s.read("AB-04512"), None);
        assert_eq!(s.read("CH-"), None);
        let w = Written::parse("No. 0077").unwrap();
        assert_eq!((w.prefix.as_str(), w.number, w.width), ("No. ", 77, 4));
        assert_eq!(Written::parse("12").unwrap().width, 0);
        assert_eq!(Written::parse("CH-0000"), None);
    }

    #[test]
    fn forged_runs_are_named() {
        let mut s = charity();
        s.runs = vec![(10, 2), (11, 1)];
        assert!(s.check(3).is_err());
        s.runs = vec![(0, 3)];
        assert!(s.check(3).is_err());
        s.runs = vec![(u64::MAX - 1, 3)];
        assert!(s.check(3).is_err());
        s.runs = vec![(5, 3)];
        s.prefix = "A1".into();
        assert!(s.check(3).is_err());
    }
}
