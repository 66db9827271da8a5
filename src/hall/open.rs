//! The open game, as the log's lines build it: its patterns and rules, the
//! calls made, the prizes won and paid.

use super::rules::Rules;
use super::state::PayoutShown;
use super::{Event, HallError};
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;

/// The open game.
pub(super) struct Open {
    pub game: u64,
    pub balls: u8,
    pub stages: Vec<String>,
    /// The stages' patterns, parsed once.
    pub patterns: Vec<Pattern>,
    /// The stage being played (stages in order).
    pub stage: usize,
    pub prize: String,
    pub last_call: bool,
    pub commitment: String,
    pub seed: String,
    /// The calls shown, in order, as the log's lines give them.
    pub calls: Vec<u8>,
    /// The room's seed, once given (or logged as none).
    pub room: Option<Option<String>>,
    /// Whether any ball was called (a recall does not undo it).
    pub ever_called: bool,
    /// The hall's whole order, once the seed is known (empty for a
    /// blower's game): where its next call comes from.
    pub order: Vec<u8>,
    pub rules: Rules,
    /// The prizes paid, in order (a stage is won when it is paid).
    pub payouts: Vec<PayoutShown>,
    /// What the room must be told (a recall).
    pub announcement: Option<String>,
}

impl Open {
    /// Each payout's kind and amount paid, in order.
    pub fn kinds_paid(&self) -> Vec<(Option<String>, u64)> {
        (self.payouts.iter())
            .map(|p| (p.kind.clone(), p.minor))
            .collect()
    }

    /// The game a `game_start` line opens (its seed read later).
    pub fn begun(event: &Event, spec: crate::game::Spec) -> Result<Open, &'static str> {
        let Event::GameStart {
            game,
            balls,
            stages,
            prize,
            last_call,
            commitment,
            rules,
        } = event
        else {
            return Err("not a game's start");
        };
        let patterns = stages
            .iter()
            .map(|s| Pattern::parse(s, spec))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| "a game of a pattern this game does not have")?;
        if patterns.is_empty() {
            return Err("a game with no pattern");
        }
        Ok(Open {
            game: *game,
            balls: *balls,
            stages: stages.clone(),
            patterns,
            stage: 0,
            prize: prize.clone(),
            last_call: *last_call,
            commitment: commitment.clone(),
            seed: String::new(),
            calls: Vec::new(),
            room: None,
            ever_called: false,
            order: Vec::new(),
            rules: rules.clone(),
            payouts: Vec::new(),
            announcement: None,
        })
    }

    /// The first `called` calls, as claims are judged.
    pub fn calls_at(&self, called: usize) -> Calls {
        let n = called.min(self.calls.len());
        self.rules.judged(self.balls, &self.calls[..n])
    }

    /// The calls shown, in order.
    pub fn shown(&self) -> &[u8] {
        &self.calls
    }

    /// How many calls are shown.
    pub fn called(&self) -> usize {
        self.calls.len()
    }

    /// The room seed as mixed in ("" for none).
    pub fn room(&self) -> &str {
        self.room.as_ref().and_then(|r| r.as_deref()).unwrap_or("")
    }

    /// Draws the order again from the seed and the room's seed.
    pub fn reorder(&mut self) {
        if !self.seed.is_empty() {
            let balls = usize::from(self.balls);
            self.order = Calls::of_hall(self.balls, &self.seed, self.room(), balls)
                .order()
                .to_vec();
        }
    }

    /// A call read back.
    pub fn called_ball(&mut self, ball: u8) {
        self.calls.push(ball);
        self.ever_called = true;
        self.announcement = None;
    }

    /// Claims wait for a bonanza game's precalls.
    pub fn claimable(&self) -> Result<(), HallError> {
        match self.rules.precalls.checked_sub(self.called()) {
            Some(left) if left > 0 => Err(HallError::Precalls {
                game: self.game,
                left,
            }),
            _ => Ok(()),
        }
    }

    /// The stages a claim is judged against: the one being played, or,
    /// with prizes open at once, `named` or every prize not yet won.
    pub fn candidates(&self, named: Option<&str>) -> Result<Vec<usize>, HallError> {
        if let Some(name) = named {
            let k = self.stages.iter().position(|s| s == name).ok_or_else(|| {
                HallError::NoSuchPrize {
                    name: name.to_string(),
                    open: self.open_prizes().join(", "),
                }
            })?;
            if self.rules.concurrent && self.won(k).is_some() {
                return Err(HallError::PrizeWon(name.to_string()));
            }
            if !self.rules.concurrent && k != self.stage {
                return Err(HallError::NoSuchPrize {
                    name: name.to_string(),
                    open: self.stages[self.stage].clone(),
                });
            }
            return Ok(vec![k]);
        }
        if !self.rules.concurrent {
            return Ok(vec![self.stage]);
        }
        Ok((0..self.stages.len())
            .filter(|&k| self.won(k).is_none())
            .collect())
    }

    /// The prizes still to be won.
    pub fn open_prizes(&self) -> Vec<String> {
        (0..self.stages.len())
            .filter(|&k| self.won(k).is_none() && (self.rules.concurrent || k >= self.stage))
            .map(|k| self.stages[k].clone())
            .collect()
    }

    /// Stage (or prize) `k`'s payout, once it is won.
    pub fn paid(&self, k: usize) -> Option<&PayoutShown> {
        self.payouts.iter().find(|p| p.stage == self.stages[k])
    }

    /// The call stage (or prize) `k` was won at, once it is.
    pub fn won(&self, k: usize) -> Option<usize> {
        self.paid(k).map(|p| p.call)
    }

    /// The wild digit, once the first ball is out.
    pub fn wild(&self) -> Option<u8> {
        self.rules.wild_digit(self.shown())
    }
}
