//! A game's rules beyond its patterns: its name and paper, prize amounts,
//! and the special games halls play (a jackpot within N calls, bonanza
//! precalls, the wild number, prizes open at once), and where its balls
//! come from. A night file's game and a `POST /api/games` body both become
//! a [`Plan`]; the log's `game_start` line keeps its [`Rules`].

mod asked;
mod due;
mod near;

pub use asked::{Asked, AskedJackpot, FieldError, MAX_STAGES};
pub use due::{Due, PayoutKind};
pub use near::{Near, ToGo, NEAR_MOST};

use super::money;
pub use super::paper::{paper_colour, PaperError};
use super::sales::jackpot::Progress;
use super::sales::Cut;
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;
use crate::shown::max;
use serde::{Deserialize, Serialize};

/// What a game is started with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Patterns: in order (stages), or all open at once (`rules.concurrent`).
    pub stages: Vec<String>,
    /// The prize in words, as the board shows it.
    pub prize: String,
    pub last_call: bool,
    pub rules: Rules,
}

/// A game's rules beyond its patterns (all empty: a plain game, the log's
/// line as before).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The colour of the paper played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub currency: String,
    /// Each stage's (or prize's) amount in minor units; empty: no money.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub amounts: Vec<u64>,
    /// The patterns are prizes open at once, each won once, in any order.
    #[serde(default, skip_serializing_if = "is_false")]
    pub concurrent: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jackpot: Option<Jackpot>,
    /// Bonanza: numbers called when the game opens, before any claim.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub precalls: usize,
    /// The first ball's last digit marks every number ending in it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wild: bool,
    /// The balls come from a blower, keyed in by the caller: no seed, no
    /// commitment.
    #[serde(default, skip_serializing_if = "is_false")]
    pub blower: bool,
    /// The night's game this is (from 1), when it came from the programme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<usize>,
    /// Who shares a prize won at a call.
    #[serde(default, skip_serializing_if = "Share::is_all_holders")]
    pub share: Share,
    /// A prize for the faces nearest the last stage when it is won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near: Option<Near>,
    /// Each stage's (or prize's) share of the game's sales, where it is
    /// one (empty: none is); its amount in `amounts` is fixed from them
    /// when the game starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<Option<Cut>>,
    /// The game's sales when it started, when a prize is a share of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sales: Option<u64>,
    /// The progressive jackpot the last stage offers: `jackpot` holds
    /// the pot offered and its calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progressive: Option<Progress>,
}

/// Who shares a prize won at a call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Share {
    /// Every sold face that holds it at that call, claimed or not: for
    /// electronic play. (The rule of every log written before games
    /// stated one, so such a log reads as it was paid.)
    #[default]
    AllHolders,
    /// The faces claimed for it at that call: the claim accepted and the
    /// players' claims waiting for it (a sleeper is not paid), as paper
    /// halls play. A game's rule unless its night file says otherwise.
    Claimed,
}

impl Share {
    fn is_all_holders(&self) -> bool {
        *self == Share::AllHolders
    }

    /// The rule as a night file names it.
    pub fn name(self) -> &'static str {
        match self {
            Share::AllHolders => "all-holders",
            Share::Claimed => "claimed",
        }
    }
}

/// The last stage's (or last listed prize's) jackpot: paid for a win
/// completed within `within` calls, else the consolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jackpot {
    pub within: usize,
    pub prize: u64,
    pub consolation: u64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Rules that cannot be played, in words naming the field.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("{0}")]
    Bad(String),
}

fn bad(text: String) -> RuleError {
    RuleError::Bad(text)
}

impl Rules {
    /// Whether these are a plain game's rules.
    pub fn is_plain(&self) -> bool {
        *self == Rules::default()
    }

    /// Checks the rules against the game's `stages` and its `balls`.
    pub fn check(&self, stages: &[String], balls: u8) -> Result<(), RuleError> {
        self.check_stages(stages)?;
        self.check_cuts(stages.len())?;
        self.check_largest()?;
        let balls = usize::from(balls);
        if let Some(j) = &self.jackpot {
            if j.within == 0 || j.within > balls {
                return Err(bad(format!(
                    "jackpot.within: {} is not a call of this game: give 1 to {balls}",
                    j.within
                )));
            }
        }
        if let Some(j) = self.jackpot.filter(|j| j.within < self.precalls) {
            return Err(bad(format!(
                "jackpot.within: {} calls, but the bonanza makes {} precalls before anyone may claim: no win can come within it (give within {} or more)",
                j.within, self.precalls, self.precalls
            )));
        }
        if let Some(near) = &self.near {
            near.check(self.concurrent)?;
        }
        if self.precalls >= balls {
            return Err(bad(format!(
                "precalls: {} would leave no ball to play for: give 0 to {}",
                self.precalls,
                balls - 1
            )));
        }
        if let Some(paper) = &self.paper {
            paper_colour(paper).map_err(|why| bad(format!("paper: {why}")))?;
        }
        self.check_texts()
    }

    /// An amount for each of the `stages`, or none; no stage listed
    /// twice.
    fn check_stages(&self, stages: &[String]) -> Result<(), RuleError> {
        let n = stages.len();
        if !self.amounts.is_empty() && self.amounts.len() != n {
            let given = crate::text::count_of(self.amounts.len() as u64, "amount");
            let what = if self.concurrent { "prizes" } else { "stages" };
            return Err(bad(format!(
                "prize: {given} for {n} {what}; give one for each"
            )));
        }
        // A stage listed twice can never be won twice: once its prize is
        // paid, the second counts as won already and the game is stuck.
        for (i, s) in stages.iter().enumerate() {
            if stages[..i].contains(s) {
                return Err(bad(if self.concurrent {
                    format!("prizes: {s} is listed twice")
                } else {
                    format!("stages: {s} is listed twice; once it is paid the second can never be won (list each pattern once)")
                }));
            }
        }
        Ok(())
    }

    /// No amount (a stage's, the jackpot's, a consolation's, a share of
    /// sales' bounds) over the largest prize taken.
    fn check_largest(&self) -> Result<(), RuleError> {
        let big = [
            self.jackpot.map(|j| j.prize),
            self.jackpot.map(|j| j.consolation),
            self.near.map(|n| n.prize),
            self.cuts.iter().flatten().map(|c| c.min).max(),
            self.cuts.iter().flatten().filter_map(|c| c.max).max(),
        ];
        match (self.amounts.iter())
            .chain(big.iter().flatten())
            .find(|&&a| a > money::MAX_MINOR)
        {
            Some(&a) => Err(bad(format!(
                "prize: {} is over the largest prize taken ({})",
                a,
                money::show(money::MAX_MINOR, &self.currency)
            ))),
            None => Ok(()),
        }
    }

    /// A share of sales for each of `n` stages, or none; a maximum not
    /// below its minimum.
    fn check_cuts(&self, n: usize) -> Result<(), RuleError> {
        if !self.cuts.is_empty() && self.cuts.len() != n {
            return Err(bad(format!(
                "prize: {} shares of sales for {n} stages",
                self.cuts.len()
            )));
        }
        if let Some(c) = self
            .cuts
            .iter()
            .flatten()
            .find(|c| c.max.is_some_and(|m| m < c.min))
        {
            return Err(bad(format!(
                "prize.max: {} is below prize.min {}",
                self.money(c.max.unwrap_or(0)),
                self.money(c.min)
            )));
        }
        Ok(())
    }

    /// The game's texts are as the board shows them.
    fn check_texts(&self) -> Result<(), RuleError> {
        let texts = [
            ("name", self.name.as_deref(), max::NAME),
            ("paper", self.paper.as_deref(), max::NAME),
            ("currency", Some(self.currency.as_str()), max::CURRENCY),
        ];
        for (field, text, most) in texts {
            let Some(text) = text else { continue };
            let seen = shown_field(field, text, most)?;
            if seen != text {
                return Err(bad(format!(
                    "{field}: {text:?} is not as the board shows it: write {seen:?}"
                )));
            }
        }
        Ok(())
    }

    /// What stage `stage` of `stages` pays for a win at `call`: its
    /// amount, or the jackpot (within its calls) or the consolation for
    /// the last; None when the game has no money.
    pub fn due(&self, stage: usize, stages: usize, call: usize) -> Option<Due> {
        match &self.jackpot {
            Some(j) if stage + 1 == stages => Some(if call <= j.within {
                Due {
                    amount: j.prize,
                    kind: Some(PayoutKind::Jackpot),
                }
            } else {
                Due {
                    amount: j.consolation,
                    kind: Some(PayoutKind::Consolation),
                }
            }),
            _ => self
                .amounts
                .get(stage)
                .map(|&amount| Due { amount, kind: None }),
        }
    }

    /// The special games, in words: `jackpot £500.00 within 50 calls, else
    /// £100.00`, `bonanza: 43 numbers called first`, …
    pub fn specials(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(j) = self.jackpot {
            let (prize, consolation) = (self.money(j.prize), self.money(j.consolation));
            out.push(format!(
                "jackpot {prize} within {} calls, else {consolation}",
                j.within
            ));
        }
        if self.precalls > 0 {
            out.push(format!("bonanza: {} numbers called first", self.precalls));
        }
        if self.wild {
            out.push("wild number".into());
        }
        if self.concurrent {
            out.push("prizes open at once".into());
        }
        if let Some(near) = self.near {
            out.push(format!(
                "consolation {} to the faces {}",
                self.money(near.prize),
                near.words()
            ));
        }
        let n = self.cuts.len();
        for (k, cut) in self.cuts.iter().enumerate() {
            if let Some(cut) = cut {
                let which = if n > 1 {
                    format!("prize {}: ", k + 1)
                } else {
                    String::new()
                };
                out.push(format!("{which}{}", cut.words(&self.currency)));
            }
        }
        if let Some(sales) = self.sales {
            out.push(format!("the game's sales {}", self.money(sales)));
        }
        if let Some(p) = &self.progressive {
            let mut w = format!("progressive {:?}: {} carried in", p.name, self.money(p.pot));
            if self.sales.is_none() {
                w.push_str(" (and its share of the game's sales, when it starts)");
            }
            if p.added > 0 {
                w.push_str(&format!(", {} from tonight's sales", self.money(p.added)));
            }
            if p.must_go {
                w.push_str(", must go tonight");
            }
            out.push(w);
        }
        out
    }

    /// The special games as the programme lists them before the game
    /// starts: a progressive jackpot in one phrase (what is carried in, and
    /// that its share of the game's sales joins it), not an offer beside
    /// the pot it will grow from.
    pub fn programme_specials(&self) -> Vec<String> {
        let mut out = self.specials();
        if let (Some(p), Some(j), None) = (&self.progressive, self.jackpot, self.sales) {
            out.retain(|s| !s.starts_with("jackpot ") && !s.starts_with("progressive "));
            out.insert(
                0,
                format!(
                    "progressive jackpot {:?}: {} carried in, plus its share of the game's sales when it starts, within {} calls, else {}{}",
                    p.name,
                    self.money(p.pot),
                    j.within,
                    self.money(j.consolation),
                    if p.must_go { ", must go tonight" } else { "" }
                ),
            );
        }
        out
    }

    /// The rules as the programme states them, before a start fixes what
    /// comes from the night's sales and the ledger (a prize's share of
    /// sales, a progressive's pot and calls): a played game is compared
    /// with its night file so.
    pub fn as_planned(&self) -> Rules {
        let mut r = self.clone();
        r.sales = None;
        for (k, cut) in r.cuts.iter().enumerate() {
            if let (Some(_), Some(a)) = (cut, r.amounts.get_mut(k)) {
                *a = 0;
            }
        }
        if let Some(p) = r.progressive.as_mut() {
            (p.pot, p.added, p.must_go) = (0, 0, false);
            p.day.clear();
            if let Some(j) = r.jackpot.as_mut() {
                (j.within, j.prize) = (0, 0);
            }
        }
        r
    }

    /// The amounts of the prizes that are a share of sales, fixed on the
    /// game's `sales`.
    pub fn fix_cuts(&mut self, sales: u64) {
        if self.cuts.iter().all(Option::is_none) {
            return;
        }
        for (k, cut) in self.cuts.iter().enumerate() {
            if let (Some(cut), Some(a)) = (cut, self.amounts.get_mut(k)) {
                *a = cut.amount(sales);
            }
        }
        self.sales = Some(sales);
    }

    /// `minor` units in the game's currency.
    pub fn money(&self, minor: u64) -> String {
        money::show(minor, &self.currency)
    }

    /// The wild digit of a game whose first ball was `first`.
    pub fn wild_digit(&self, calls: &[u8]) -> Option<u8> {
        self.wild.then(|| calls.first().map(|b| b % 10)).flatten()
    }

    /// `order` as judged: with the wild digit's numbers marked at call 1.
    pub fn judged(&self, balls: u8, order: &[u8]) -> Calls {
        let calls = Calls::from_order(balls, order.to_vec());
        match self.wild_digit(order) {
            Some(d) => calls.with_wild(d),
            None => calls,
        }
    }
}

impl Plan {
    /// Checks the plan's patterns (each a pattern of `spec`'s game) and
    /// rules.
    pub fn check(&self, spec: crate::game::Spec) -> Result<Vec<Pattern>, RuleError> {
        if self.stages.is_empty() {
            return Err(bad("give the game's pattern, stages or prizes".into()));
        }
        let patterns = self
            .stages
            .iter()
            .map(|s| Pattern::parse(s, spec).map_err(|why| bad(format!("pattern {s:?}: {why}"))))
            .collect::<Result<Vec<_>, _>>()?;
        self.rules.check(&self.stages, spec.balls())?;
        Ok(patterns)
    }

    /// The prize in words for the board: the text given, else each
    /// stage's amount (`one-line £10.00 · full-house £50.00`).
    pub fn prize_text(&self) -> String {
        if !self.prize.is_empty() || self.rules.amounts.is_empty() {
            return self.prize.clone();
        }
        let r = &self.rules;
        // A share of sales not fixed yet (the game not started) in words.
        let amount = |k: usize, a: u64| match (r.cuts.get(k).copied().flatten(), r.sales) {
            (Some(cut), None) => cut.words(&r.currency),
            _ => r.money(a),
        };
        let parts: Vec<String> = (self.stages.iter().zip(&r.amounts).enumerate())
            .map(|(k, (s, &a))| format!("{s} {}", amount(k, a)))
            .collect();
        if parts.len() == 1 {
            amount(0, r.amounts[0])
        } else {
            parts.join(" · ")
        }
    }
}

/// `text` as the board will show it ([`crate::shown`]), or what is wrong
/// with it, naming `field`: every text of a game passes here on its way in,
/// from a night file or the console.
pub fn shown_field(field: &str, text: &str, most: usize) -> Result<String, RuleError> {
    crate::shown::shown(text, most).map_err(|e| bad(format!("{field}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jackpot_pays_within_its_calls_and_the_consolation_after() {
        let rules = Rules {
            amounts: vec![1000, 2000],
            jackpot: Some(Jackpot {
                within: 50,
                prize: 50_000,
                consolation: 10_000,
            }),
            ..Rules::default()
        };
        assert_eq!(rules.due(0, 2, 10).unwrap().amount, 1000);
        assert_eq!(rules.due(1, 2, 50).unwrap().kind, Some(PayoutKind::Jackpot));
        assert_eq!(rules.due(1, 2, 51).unwrap().amount, 10_000);
        assert_eq!(Rules::default().due(0, 1, 3), None);
    }

    /// See: the hall's books — rules that cannot be won passed --check.
    #[test]
    fn rules_that_cannot_be_won_are_refused() {
        let stages = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let err = Rules::default()
            .check(&stages(&["line", "line", "coverall"]), 75)
            .unwrap_err()
            .to_string();
        assert!(err.contains("stages: line is listed twice"), "{err}");
        let jackpot = Rules {
            precalls: 50,
            jackpot: Some(Jackpot {
                within: 40,
                prize: 100,
                consolation: 10,
            }),
            ..Rules::default()
        };
        let err = jackpot
            .check(&stages(&["coverall"]), 75)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("jackpot.within: 40 calls") && err.contains("50 precalls"),
            "{err}"
        );
        let big = Rules {
            amounts: vec![u64::MAX],
            ..Rules::default()
        };
        assert!(big
            .check(&stages(&["line"]), 75)
            .unwrap_err()
            .to_string()
            .contains("over the largest prize"));
        assert!(Rules::default()
            .check(&stages(&["line", "coverall"]), 75)
            .is_ok());
    }

    #[test]
    fn papers_are_named_colours_or_inks() {
        assert_eq!(paper_colour("Yellow").unwrap(), "#ffe94d");
        assert_eq!(paper_colour("cmyk:0,0,0,0").unwrap(), "#ffffff");
        assert_eq!(paper_colour("cmyk:0,0,100,0").unwrap(), "#ffff00");
        // See: hardening round four (junk among the numbers was skipped).
        for junk in [
            "cmyk:a,b,c,d,1,2,3,4",
            "cmyk:0,junk,0,0,0",
            "cmyk:0,0,0",
            "cmyk:nan,0,0,0",
        ] {
            assert!(paper_colour(junk).is_err(), "{junk}");
        }
        assert!(paper_colour("goldish")
            .unwrap_err()
            .to_string()
            .contains("cmyk:C,M,Y,K"));
    }

    #[test]
    fn the_wild_digit_comes_from_the_first_ball() {
        let rules = Rules {
            wild: true,
            ..Rules::default()
        };
        let calls = rules.judged(75, &[27, 3]);
        for n in [7, 17, 27, 37, 47, 57, 67, 3] {
            assert!(calls.called(n), "{n}");
        }
        assert!(!calls.called(77) && !calls.called(8));
        assert_eq!(calls.positions()[17], 1);
        assert_eq!(calls.positions()[3], 2);
        assert_eq!(rules.wild_digit(&[]), None);
    }
}
