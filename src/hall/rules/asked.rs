//! A game as asked: what a night file's `[[game]]` and a `POST /api/games`
//! body both say of a game, their amounts already read, made into a
//! [`Plan`] by one function. Each reader keeps only its own format's part
//! (TOML values or JSON text, a night's stage amounts and progressives);
//! the terms both give are judged here, once, with one error type.

use super::{shown_field, Jackpot, Near, Plan, Rules, Share};
use crate::hall::sales::jackpot::Progress;
use crate::hall::sales::Cut;
use crate::shown::max;

/// The most stages (or prizes open at once) a game has: more than any
/// hall plays, and each is sent to every viewer.
pub const MAX_STAGES: usize = 20;

/// A game as asked, by a night file or the API.
#[derive(Clone, Debug, Default)]
pub struct Asked {
    pub name: Option<String>,
    pub paper: Option<String>,
    /// The prize in words, as the board shows it (the API's `prize`).
    pub words: String,
    /// One pattern.
    pub pattern: Option<String>,
    /// Patterns in order.
    pub stages: Option<Vec<String>>,
    /// Prizes open at once: each its pattern, and its amount if named.
    pub prizes: Option<Vec<(String, Option<u64>)>>,
    /// The stages' amounts and shares of sales (a night file's `prize`),
    /// when given; never with `prizes`, which name their own.
    pub amounts: Option<(Vec<u64>, Vec<Option<Cut>>)>,
    pub last_call: bool,
    pub jackpot: Option<AskedJackpot>,
    pub near: Option<Near>,
    pub precalls: usize,
    pub wild: bool,
    pub share: Option<Share>,
    /// The programme's game number, for a night file's game.
    pub planned: Option<usize>,
    pub currency: String,
}

/// A jackpot as asked: without a consolation, the last stage's amount is
/// paid after the jackpot's calls.
#[derive(Clone, Debug)]
pub struct AskedJackpot {
    pub within: usize,
    pub prize: u64,
    pub consolation: Option<u64>,
    /// A night's progressive: its pot and calls as the rules start them.
    pub progress: Option<Progress>,
}

/// A field of a game that cannot be played (none: the game as a whole),
/// and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct FieldError {
    pub field: Option<String>,
    pub why: String,
}

impl FieldError {
    /// A mistake in `field`.
    pub fn of(field: &str, why: impl Into<String>) -> FieldError {
        FieldError {
            field: Some(field.to_string()),
            why: why.into(),
        }
    }

    /// A mistake of the game as a whole (or a text that names its field
    /// itself).
    pub fn game(why: impl Into<String>) -> FieldError {
        FieldError {
            field: None,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.why),
            None => f.write_str(&self.why),
        }
    }
}

impl Asked {
    /// The game as a plan.
    pub fn plan(self) -> Result<Plan, FieldError> {
        self.bounded()?;
        let shown = |field: &str, text: Option<&str>, most: usize| {
            (text.map(|t| shown_field(field, t, most)).transpose())
                .map_err(|e| FieldError::game(e.to_string()))
        };
        let name = shown("name", self.name.as_deref(), max::NAME)?;
        let paper = shown("paper", self.paper.as_deref(), max::NAME)?;
        let words = shown("prize", Some(&self.words), max::PRIZE)?.unwrap_or_default();
        let (listed, cuts) = self.amounts.unwrap_or_default();
        let (stages, amounts, concurrent) = match (self.pattern, self.stages, self.prizes) {
            (Some(p), None, None) => (vec![p], listed, false),
            (None, Some(s), None) => (s, listed, false),
            (None, None, Some(prizes)) => {
                let amounts = prizes.iter().filter_map(|(_, a)| *a).collect();
                (prizes.into_iter().map(|(p, _)| p).collect(), amounts, true)
            }
            _ => unreachable!("bounded: exactly one was given"),
        };
        let last = amounts.last().copied();
        let (jackpot, progress) = match self.jackpot {
            Some(j) => (
                Some(Jackpot {
                    within: j.within,
                    prize: j.prize,
                    consolation: j.consolation.or(last).unwrap_or(0),
                }),
                j.progress,
            ),
            None => (None, None),
        };
        Ok(Plan {
            stages,
            prize: words,
            last_call: self.last_call,
            rules: Rules {
                name,
                paper,
                currency: self.currency,
                amounts,
                concurrent,
                jackpot,
                precalls: self.precalls,
                wild: self.wild,
                blower: false,
                planned: self.planned,
                share: self.share.unwrap_or(Share::Claimed),
                near: self.near,
                cuts,
                sales: None,
                progressive: progress,
            },
        })
    }

    /// Refuses a game that gives none of a pattern, stages or prizes, or
    /// more than one; or more than [`MAX_STAGES`] stages or prizes open
    /// at once.
    fn bounded(&self) -> Result<(), FieldError> {
        let given = [
            self.pattern.is_some(),
            self.stages.is_some(),
            self.prizes.is_some(),
        ];
        match given.iter().filter(|&&g| g).count() {
            0 => {
                return Err(FieldError::game(
                    "give one of pattern, stages (in order) or prizes (open at once)",
                ))
            }
            1 => {}
            _ => {
                return Err(FieldError::game(
                    "give pattern or stages, not both (or prizes, alone)",
                ))
            }
        }
        let (n, open) = (
            self.stages.as_ref().map_or(1, Vec::len),
            self.prizes.as_ref().map_or(0, Vec::len),
        );
        if n.max(open) <= MAX_STAGES {
            return Ok(());
        }
        let field = if open > 0 { "prizes" } else { "stages" };
        Err(FieldError::of(
            field,
            format!(
                "{} in one game; a game has at most {MAX_STAGES}",
                n.max(open)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked() -> Asked {
        Asked {
            pattern: Some("line".into()),
            ..Asked::default()
        }
    }

    #[test]
    fn a_game_gives_exactly_one_shape_and_at_most_twenty_stages() {
        let none = Asked::default().plan().unwrap_err();
        assert!(
            none.to_string().starts_with("give one of pattern"),
            "{none}"
        );
        let both = Asked {
            stages: Some(vec!["line".into()]),
            ..asked()
        };
        let said = both.plan().unwrap_err().to_string();
        assert!(said.contains("pattern or stages, not both"), "{said}");
        let many = Asked {
            pattern: None,
            prizes: Some(vec![("line".into(), None); 21]),
            ..asked()
        };
        let said = many.plan().unwrap_err();
        assert_eq!(said.field.as_deref(), Some("prizes"));
        assert!(said.why.contains("21 in one game"), "{said}");
    }

    #[test]
    fn a_jackpot_consoles_with_the_last_amount_unless_it_names_one() {
        let jackpot = |consolation| AskedJackpot {
            within: 50,
            prize: 50_000,
            consolation,
            progress: None,
        };
        let staged = |consolation| Asked {
            pattern: None,
            stages: Some(vec!["line".into(), "house".into()]),
            amounts: Some((vec![1000, 2500], Vec::new())),
            jackpot: Some(jackpot(consolation)),
            ..Asked::default()
        };
        let plan = staged(None).plan().unwrap();
        assert_eq!(plan.rules.jackpot.unwrap().consolation, 2500);
        let plan = staged(Some(700)).plan().unwrap();
        assert_eq!(plan.rules.jackpot.unwrap().consolation, 700);
        let open = Asked {
            pattern: None,
            prizes: Some(vec![
                ("line".into(), Some(100)),
                ("house".into(), Some(900)),
            ]),
            jackpot: Some(jackpot(None)),
            ..Asked::default()
        };
        let plan = open.plan().unwrap();
        assert!(plan.rules.concurrent);
        assert_eq!(plan.rules.amounts, [100, 900]);
        assert_eq!(plan.rules.jackpot.unwrap().consolation, 900);
    }

    #[test]
    fn texts_are_checked_by_their_field() {
        let said = Asked {
            name: Some("a\u{7}b".into()),
            ..asked()
        }
        .plan()
        .unwrap_err()
        .to_string();
        assert!(said.starts_with("name: "), "{said}");
        let said = Asked {
            words: "x".repeat(max::PRIZE + 1),
            ..asked()
        }
        .plan()
        .unwrap_err()
        .to_string();
        assert!(said.starts_with("prize: "), "{said}");
    }
}
