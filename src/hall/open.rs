//! The open game, as the log's lines build it: its patterns and rules, the
//! calls made, the prizes won and paid.

use super::event::Mismatch;
use super::event::{self as ev, Commitment, PayoutKind};
use super::refusal::Refusal;
use super::rules::Rules;
use super::state::PayoutShown;
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
    pub commitment: Commitment,
    /// The hall's seed, once read from the seed file (never for a
    /// blower's game).
    pub seed: Option<String>,
    /// The calls shown, in order, as the log's lines give them.
    pub calls: Vec<u8>,
    /// The room's seed: not given yet, given, or logged as none.
    pub room: RoomState,
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
    pub fn kinds_paid(&self) -> Vec<(Option<PayoutKind>, u64)> {
        (self.payouts.iter()).map(|p| (p.kind, p.minor)).collect()
    }

    /// The game a `game_start` line opens (its seed read later).
    pub fn begun(e: &ev::GameStart, spec: crate::game::Spec) -> Result<Open, Mismatch> {
        let ev::GameStart {
            game,
            balls,
            stages,
            prize,
            last_call,
            commitment,
            rules,
        } = e;
        let patterns = stages
            .iter()
            .map(|s| Pattern::parse(s, spec))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| Mismatch::UnknownPattern)?;
        if patterns.is_empty() {
            return Err(Mismatch::NoPattern);
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
            seed: None,
            calls: Vec::new(),
            room: RoomState::NotGiven,
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

    /// The seed the game's end reveals: none for a blower's game; the
    /// hall's, which must be known.
    pub fn revealed_seed(&self) -> Result<ev::RevealedSeed, Refusal> {
        match (&self.seed, self.rules.blower) {
            (_, true) => Ok(ev::RevealedSeed::Blower),
            (Some(seed), false) => Ok(ev::RevealedSeed::Seed(seed.clone())),
            (None, false) => Err(Refusal::NoSeed(self.game)),
        }
    }

    /// Draws the order again from the seed and the room's seed.
    pub fn reorder(&mut self) {
        if let Some(seed) = &self.seed {
            let balls = usize::from(self.balls);
            let room = self.room.mixed().unwrap_or("");
            self.order = Calls::of_hall(self.balls, seed, room, balls)
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
    pub fn claimable(&self) -> Result<(), Refusal> {
        match self.rules.precalls.checked_sub(self.called()) {
            Some(left) if left > 0 => Err(Refusal::Precalls {
                game: self.game,
                left,
            }),
            _ => Ok(()),
        }
    }

    /// The stages a claim is judged against: the one being played, or,
    /// with prizes open at once, `named` or every prize not yet won.
    pub fn candidates(&self, named: Option<&str>) -> Result<Vec<usize>, Refusal> {
        if let Some(name) = named {
            let k =
                self.stages
                    .iter()
                    .position(|s| s == name)
                    .ok_or_else(|| Refusal::NoSuchPrize {
                        name: name.to_string(),
                        open: self.open_prizes().join(", "),
                    })?;
            if self.rules.concurrent && self.won(k).is_some() {
                return Err(Refusal::PrizeWon(name.to_string()));
            }
            if !self.rules.concurrent && k != self.stage {
                return Err(Refusal::NoSuchPrize {
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

/// The open game's room seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomState {
    /// None given yet: one may still be, before the first call.
    NotGiven,
    /// The first call came without one (logged so): the order rests on
    /// the hall's seed alone.
    Unmixed,
    /// Mixed into the order.
    Mixed(String),
}

impl RoomState {
    /// The state a `room_seed` line leaves.
    pub fn logged(room_seed: &Option<String>) -> RoomState {
        match room_seed {
            Some(text) => RoomState::Mixed(text.clone()),
            None => RoomState::Unmixed,
        }
    }

    /// The room's seed mixed in, if one was.
    pub fn mixed(&self) -> Option<&str> {
        match self {
            RoomState::Mixed(text) => Some(text),
            _ => None,
        }
    }

    /// Whether the room's seed was settled (given, or logged as none).
    pub fn settled(&self) -> bool {
        *self != RoomState::NotGiven
    }
}
