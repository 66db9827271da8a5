//! Progressive jackpots carried from night to night: the rules a ledger
//! keeps ([`Progressive`]), where a pot stands ([`Pot`]), what a night
//! offered and how it went ([`Outcome`]), and the pot the next night
//! starts from ([`Pot::next`]), the one rule of carrying.
//!
//! A night's game offers the pot carried in plus its share of the game's
//! sales (to the ceiling), won by a full win within the pot's calls (on
//! or after the must-go date: within every call). Won, the next night
//! starts again from the seed amount and the first call limit; not won,
//! it carries the pot offered plus the increment (to the ceiling), with
//! `add_calls` more calls (to the game's numbers). A win shared at one
//! call splits the pot by the game's rule of sharing, like any prize.

use super::{money, Percent};
use serde::{Deserialize, Serialize};

/// A progressive jackpot's rules, as the ledger keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progressive {
    pub name: String,
    /// The pot a new jackpot (and one just won) starts from.
    pub seed: u64,
    /// Added each night it is not won.
    #[serde(default)]
    pub increment: u64,
    /// The share of its game's sales added to the pot each night.
    #[serde(default)]
    pub share: Percent,
    /// The calls a win must come within, at first.
    pub within: usize,
    /// Calls added each night it is not won.
    #[serde(default)]
    pub add_calls: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceiling: Option<u64>,
    /// `YYYY-MM-DD`: from this date it is won by any full win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_go: Option<String>,
}

/// Where a jackpot stands before a night.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pot {
    pub rules: Progressive,
    pub pot: u64,
    pub within: usize,
}

/// What a night's game offered, from the pot carried in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub name: String,
    /// The pot carried in.
    pub pot: u64,
    /// Added from tonight's sales.
    pub added: u64,
    /// The must-go date had come: any full win takes it.
    #[serde(default)]
    pub must_go: bool,
    /// The hall's day it was judged on (`YYYY-MM-DD`, the local date where
    /// the hall ran); older logs lack it, and were judged on the UTC date.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub day: String,
}

/// How a night's game went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub name: String,
    pub game: u64,
    /// The pot offered, and the calls it was offered within.
    pub offered: u64,
    pub within: usize,
    pub won: bool,
    /// Paid from the pot (the jackpot's shares).
    pub paid: u64,
    /// The game was voided (its seed lost): the pot stands as carried in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub void: bool,
}

impl Progressive {
    /// A new jackpot's first pot.
    pub fn fresh(&self) -> Pot {
        Pot {
            rules: self.clone(),
            pot: self.seed,
            within: self.within,
        }
    }

    fn capped(&self, amount: u64) -> u64 {
        let a = amount.min(money::MAX_MINOR);
        self.ceiling.map_or(a, |c| a.min(c.max(self.seed)))
    }

    /// Whether the must-go date has come on `date` (`YYYY-MM-DD`).
    pub fn must_go_on(&self, date: &str) -> bool {
        self.must_go.as_deref().is_some_and(|d| date >= d)
    }

    /// Its rules in words, for the board and the report.
    pub fn words(&self, currency: &str) -> String {
        let mut w = vec![format!(
            "starts at {} within {} calls",
            money::show(self.seed, currency),
            self.within
        )];
        if self.increment > 0 {
            w.push(format!(
                "+{} a night not won",
                money::show(self.increment, currency)
            ));
        }
        if self.share.0 > 0 {
            w.push(format!("+{} of its game's sales", self.share.words()));
        }
        if self.add_calls > 0 {
            let calls = crate::text::count_of(self.add_calls as u64, "call");
            w.push(format!("+{calls} a night not won"));
        }
        if let Some(c) = self.ceiling {
            w.push(format!("at most {}", money::show(c, currency)));
        }
        if let Some(d) = &self.must_go {
            w.push(format!("must go from {d}"));
        }
        w.join(", ")
    }
}

impl Pot {
    /// What tonight's game offers on `sales` (`must_go`: the must-go
    /// date has come), of `balls` numbers: the progress to log, the pot
    /// and the calls.
    pub fn offer(&self, sales: u64, must_go: bool, balls: u8) -> (Progress, u64, usize) {
        let offered = self
            .rules
            .capped(self.pot.saturating_add(self.rules.share.of(sales)));
        let offered = offered.max(self.pot);
        let within = if must_go {
            usize::from(balls)
        } else {
            self.within.min(usize::from(balls))
        };
        let progress = Progress {
            name: self.rules.name.clone(),
            pot: self.pot,
            added: offered - self.pot,
            must_go,
            day: String::new(),
        };
        (progress, offered, within)
    }

    /// Why `outcome` cannot follow from this pot, by the jackpot's own
    /// rules (whatever the night's sales): an offer below the pot carried
    /// in or above its ceiling, calls other than the pot's (or every call,
    /// past the must-go date), a win paid more than was offered.
    pub fn impossible(&self, outcome: &Outcome, balls: u8) -> Option<String> {
        let ceiling = self
            .rules
            .ceiling
            .map_or(money::MAX_MINOR, |c| c.max(self.rules.seed));
        let calls = [self.within.min(usize::from(balls)), usize::from(balls)];
        if outcome.offered < self.pot {
            Some(format!(
                "offered {} below the pot carried in, {}",
                outcome.offered, self.pot
            ))
        } else if outcome.offered > ceiling.max(self.pot) {
            Some(format!(
                "offered {} above the ceiling, {ceiling}",
                outcome.offered
            ))
        } else if !calls.contains(&outcome.within) {
            Some(format!(
                "offered within {} calls, but the pot stood within {}",
                outcome.within, self.within
            ))
        } else if outcome.won && (outcome.paid > outcome.offered || outcome.void) {
            Some(format!(
                "won and paid {}, but {} was offered",
                outcome.paid, outcome.offered
            ))
        } else if !outcome.won && outcome.paid > 0 {
            Some(format!("not won, but {} paid", outcome.paid))
        } else {
            None
        }
    }

    /// Where the jackpot stands after `outcome`, for the next night of
    /// `balls` numbers.
    pub fn next(&self, outcome: &Outcome, balls: u8) -> Pot {
        if outcome.void {
            return self.clone();
        }
        let rules = self.rules.clone();
        if outcome.won {
            return rules.fresh();
        }
        Pot {
            pot: rules.capped(outcome.offered.saturating_add(rules.increment)),
            within: (outcome.within.saturating_add(rules.add_calls)).min(usize::from(balls)),
            rules,
        }
    }
}
