//! Call orders: the numbers in the order the caller draws them.
//!
//! A seeded order is a uniform shuffle of `1..=balls` (Fisher–Yates with
//! exact bounded draws) from the calls stream of the seed, so the same seed
//! gives the same order on every machine. Orders typed by people (a
//! `--calls` list, a calls file) are parsed and checked: every number in the
//! game, none twice.

use crate::seed::{below_u32, stream};

use crate::seed::CALLS_STREAM;

/// Marks a number that has not been called in a [`Calls::positions`] table.
pub const NEVER: u8 = u8::MAX;

/// `positions[n]`: the call (from 1) at which number `n` came, [`NEVER`]
/// for a number not called, 0 at index 0 (blanks and free cells, marked
/// before any call). Indexed by any `u8`, so it holds every game's numbers
/// and a lookup needs no bounds check.
pub type Positions = [u8; 256];

/// A sequence of distinct calls of a game with `balls` numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calls {
    balls: u8,
    order: Vec<u8>,
    /// The call at which each number came.
    positions: Positions,
}

impl Calls {
    /// The first `count` calls of the uniform order of `1..=balls` drawn from
    /// `seed` (`count` is capped at `balls`).
    pub fn seeded(balls: u8, seed: u64, count: usize) -> Calls {
        Calls::shuffled(balls, seed, CALLS_STREAM, count)
    }

    /// A uniform order of `1..=balls` from stream `id` of `seed` (the
    /// simulator draws game `g` from its own stream).
    pub fn shuffled(balls: u8, seed: u64, id: u64, count: usize) -> Calls {
        let mut order: Vec<u8> = (1..=balls).collect();
        shuffle(&mut order, seed, id);
        order.truncate(count.min(usize::from(balls)));
        Calls::from_order(balls, order)
    }

    /// Calls in `order` (distinct numbers of the game, as a generator drew
    /// them).
    pub fn from_order(balls: u8, order: Vec<u8>) -> Calls {
        let mut positions = [NEVER; 256];
        // Blanks and the free centre: marked before any call.
        positions[0] = 0;
        for (i, &n) in order.iter().enumerate() {
            positions[usize::from(n)] = (i + 1) as u8;
        }
        Calls {
            balls,
            order,
            positions,
        }
    }

    /// Parses calls typed by a person: numbers separated by commas, spaces
    /// or newlines; `#` starts a comment to the end of its line. `what`
    /// names the source in errors (`--calls`, `calls.txt`).
    pub fn parse(balls: u8, text: &str, what: &str) -> Result<Calls, CallsError> {
        let many_lines = text.lines().nth(1).is_some();
        let mut order = Vec::new();
        let mut seen = [0usize; 256];
        for (line_no, line) in text.lines().enumerate() {
            let fail = |problem| CallsError {
                what: what.to_string(),
                line: many_lines.then_some(line_no + 1),
                problem,
            };
            let line = line.split('#').next().unwrap_or("");
            for word in line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
            {
                let n: u8 = match word.parse::<u32>() {
                    Ok(n) if (1..=u32::from(balls)).contains(&n) => n as u8,
                    Ok(n) => return Err(fail(CallsProblem::NotOfGame { n, balls })),
                    Err(_) => {
                        let word = crate::text::clip(word, 40).into_owned();
                        return Err(fail(CallsProblem::NotANumber { word, balls }));
                    }
                };
                let call = order.len() + 1;
                let first = seen[usize::from(n)];
                if first != 0 {
                    return Err(fail(CallsProblem::Twice { n, first, call }));
                }
                seen[usize::from(n)] = call;
                order.push(n);
            }
        }
        if order.is_empty() {
            return Err(CallsError {
                what: what.to_string(),
                line: None,
                problem: CallsProblem::Empty,
            });
        }
        Ok(Calls::from_order(balls, order))
    }

    /// How many numbers the game has (1 to this).
    pub fn balls(&self) -> u8 {
        self.balls
    }

    /// The calls in order.
    pub fn order(&self) -> &[u8] {
        &self.order
    }

    /// How many numbers were called.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no number was called.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The call (from 1) at which each number came, [`NEVER`] for numbers
    /// not called; index 0 (a blank or the free centre) holds 0: always
    /// marked.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// Whether `n` was called.
    pub fn called(&self, n: u8) -> bool {
        n != 0 && self.positions[usize::from(n)] != NEVER
    }

    /// These calls in a wild game whose wild digit is `digit`: every
    /// number of the game ending in it counts as called at the first call
    /// (the calls' order is unchanged).
    pub fn with_wild(mut self, digit: u8) -> Calls {
        if self.order.is_empty() {
            return self;
        }
        for n in (1..=self.balls).filter(|n| n % 10 == digit) {
            let at = &mut self.positions[usize::from(n)];
            *at = (*at).min(1);
        }
        self
    }
}

/// Fisher–Yates over `items` from stream `id` of `seed`.
fn shuffle(items: &mut [u8], seed: u64, id: u64) {
    let mut rng = stream(seed, id);
    for i in (1..items.len()).rev() {
        let j = below_u32(&mut rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// Calls typed by a person that cannot be used: where (`what`, and the
/// line when the text has several) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CallsError {
    pub what: String,
    pub line: Option<usize>,
    pub problem: CallsProblem,
}

impl std::fmt::Display for CallsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.problem, self.line) {
            (CallsProblem::Empty, _) => write!(f, "{} holds no calls", self.what),
            (problem, Some(line)) => write!(f, "{} line {line}: {problem}", self.what),
            (problem, None) => write!(f, "{}: {problem}", self.what),
        }
    }
}

/// What is wrong with typed calls.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallsProblem {
    #[error("{n} is not a number of this game (1 to {balls})")]
    NotOfGame { n: u32, balls: u8 },
    #[error(
        "{word:?} is not a number; calls are numbers 1 to {balls} separated by commas or spaces"
    )]
    NotANumber { word: String, balls: u8 },
    #[error("{n} is called twice (calls {first} and {call})")]
    Twice { n: u8, first: usize, call: usize },
    #[error("no calls")]
    Empty,
    #[error("{word:?} is not an item of this list (its items are {examples}, …): give the items called, by label or number, separated by commas")]
    NotAnItem { word: String, examples: String },
}

/// Calls of `spec`'s game as people give them: numbers, or for an items
/// game also the items' labels (in any case, as a person sees them),
/// separated by commas or lines. `what` names the source in errors.
pub fn parse_for(spec: crate::game::Spec, text: &str, what: &str) -> Result<Calls, CallsError> {
    let balls = spec.balls();
    let Some(deck) = spec.items() else {
        return Calls::parse(balls, text, what);
    };
    let folded: Vec<String> = deck.list.labels().map(crate::shown::folded).collect();
    let find = |word: &str| {
        let key = crate::shown::folded(&crate::shown::shown(word, usize::MAX).ok()?);
        folded.iter().position(|l| *l == key).map(|i| i + 1)
    };
    let many_lines = text.lines().nth(1).is_some();
    let mut numbers = String::new();
    for (line_no, line) in text.lines().enumerate() {
        // A calls file's comments (`12  # apple`) are not calls.
        let line = line.split('#').next().unwrap_or("");
        for word in line.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let picked: Vec<String> = if word.parse::<u32>().is_ok() {
                vec![word.to_string()]
            } else if let Some(n) = find(word) {
                vec![n.to_string()]
            } else {
                // Labels of one word each, separated by spaces, or numbers.
                let parts: Option<Vec<String>> = word
                    .split_whitespace()
                    .map(|w| match w.parse::<u32>() {
                        Ok(_) => Some(w.to_string()),
                        Err(_) => find(w).map(|n| n.to_string()),
                    })
                    .collect();
                parts.ok_or_else(|| CallsError {
                    what: what.to_string(),
                    line: many_lines.then_some(line_no + 1),
                    problem: CallsProblem::NotAnItem {
                        word: crate::text::clip(word, 40).into_owned(),
                        examples: deck.list.labels().take(3).collect::<Vec<_>>().join(", "),
                    },
                })?
            };
            for n in picked {
                numbers.push_str(&n);
                numbers.push(',');
            }
        }
        numbers.push('\n');
    }
    Calls::parse(balls, &numbers, what)
}

/// The game a calls file names on its first line, as `bingomint calls`
/// writes it: `75`, or `items, 54 items of "Lotería"`.
pub fn game_line(spec: crate::game::Spec) -> String {
    match spec.items() {
        Some(deck) => format!("items, {} items of {:?}", spec.balls(), deck.list.name),
        None => spec.balls().to_string(),
    }
}

/// A calls file, as `bingomint calls` prints it: a first line naming the
/// game (`about` says whose order it is), then a call a line; an items
/// game's label follows its number after `#`, so the file reads back.
pub fn calls_file(spec: crate::game::Spec, about: &str, calls: &[u8]) -> String {
    let mut text = format!(
        "# bingomint calls: game {}, {about}, {} calls\n",
        game_line(spec),
        calls.len()
    );
    for &n in calls {
        match spec.items() {
            Some(_) => text.push_str(&format!("{n:<4}# {}\n", spec.ball(n))),
            None => text.push_str(&format!("{n}\n")),
        }
    }
    text
}

/// The calls of an items game as an M3U playlist in called order: each
/// item's `file` (a song), or its label where it has none, titled with its
/// label (a player resolves relative paths from the playlist's folder).
pub fn playlist(spec: crate::game::Spec, about: &str, calls: &[u8]) -> Option<String> {
    let deck = spec.items()?;
    let mut text = format!("#EXTM3U\n#PLAYLIST:{} ({about})\n", deck.list.name);
    for &n in calls {
        let item = &deck.list.items[usize::from(n) - 1];
        let path = one_line(item.file.as_deref().unwrap_or(&item.label));
        // A line starting with '#' is a comment to a player: the same
        // relative path, written so it is read as one.
        let path = if path.starts_with('#') {
            format!("./{path}")
        } else {
            path
        };
        text.push_str(&format!("#EXTINF:-1,{}\n{path}\n", one_line(&item.label)));
    }
    Some(text)
}

/// `text` on one line: lists are checked when read, but a card file made
/// by hand could still hold a line break, which would add an entry.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The game a calls file's first line names ([`game_line`]'s words), if
/// it has that line.
pub fn file_game(text: &str) -> Option<String> {
    let rest = text
        .lines()
        .next()?
        .strip_prefix("# bingomint calls: game ")?;
    let fields: Vec<&str> = rest.split(',').map(str::trim).collect();
    match fields[..] {
        ["items", list, ..] => Some(format!("items, {list}")),
        [game, ..] => game.parse::<u8>().ok().map(|g| g.to_string()),
        [] => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_orders_are_permutations_and_reproducible() {
        for balls in [75, 90] {
            let calls = Calls::seeded(balls, 7, 200);
            let mut sorted = calls.order().to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=balls).collect::<Vec<_>>());
            assert_eq!(calls, Calls::seeded(balls, 7, 200));
            assert_ne!(calls, Calls::seeded(balls, 8, 200));
            assert_eq!(Calls::seeded(balls, 7, 5).order(), &calls.order()[..5]);
        }
    }

    #[test]
    fn every_number_is_equally_likely_first() {
        // 75 × 400 draws: each first call 400 times on average; a
        // chi-squared of 74 degrees of freedom stays below 125 (p ≈ 0.0003).
        let mut counts = [0u32; 76];
        for seed in 0..30_000 {
            counts[usize::from(Calls::seeded(75, seed, 1).order()[0])] += 1;
        }
        let expected = 400.0;
        let chi: f64 = counts[1..]
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi < 125.0, "{chi}");
    }

    #[test]
    fn typed_calls_are_checked() {
        let calls = Calls::parse(75, "12, 44 7\n# a comment\n68,3 # more", "f").unwrap();
        assert_eq!(calls.order(), &[12, 44, 7, 68, 3]);
        assert_eq!(calls.positions()[7], 3);
        assert_eq!(calls.positions()[1], NEVER);
        assert_eq!(calls.positions()[0], 0);
        assert!(calls.called(68) && !calls.called(1));
        let err = |text: &str| Calls::parse(75, text, "--calls").unwrap_err().to_string();
        assert_eq!(
            err("1,76"),
            "--calls: 76 is not a number of this game (1 to 75)"
        );
        assert_eq!(err("1,2,1"), "--calls: 1 is called twice (calls 1 and 3)");
        assert!(err("1,x").contains("\"x\" is not a number"));
        assert_eq!(err(" # none"), "--calls holds no calls");
        assert_eq!(
            Calls::parse(90, "1\n2\n0", "c.txt")
                .unwrap_err()
                .to_string(),
            "c.txt line 3: 0 is not a number of this game (1 to 90)"
        );
        let long = format!("1 {}", "y".repeat(100_000));
        assert!(err(&long).len() < 200, "a long word is cut in the message");
    }
}
