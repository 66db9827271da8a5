//! A game's course, as the shell carries it out: the seed drawn and kept
//! beside the log, the books' decision logged and applied, the seed file
//! removed once the seed is revealed. The rules are [`super::books`]'.

use super::books::{Answer, Command, Draw};
use super::refusal::Refusal;
use super::rules::Plan;
use super::secret::{secret_path, write_secret, SecretError};
use super::shell::Hall;
use super::{event as ev, fresh_seed, HallError};

impl Hall {
    /// Starts a game of `plan`, checked first; with `--balls blower`, its
    /// balls come from the blower. A bonanza game of the hall's own calls
    /// makes its precalls at once.
    pub fn start(&mut self, mut plan: Plan) -> Result<(), HallError> {
        // A game asked for outside the programme is paid in its currency.
        if let (true, Some(night)) = (plan.rules.currency.is_empty(), &self.night) {
            plan.rules.currency = night.currency.clone();
        }
        let draw = if self.blower {
            Draw::Blower
        } else {
            Draw::Seed(fresh_seed()?)
        };
        let command = Command::Start {
            plan: Box::new(plan),
            draw,
            today: super::log::today(),
        };
        self.execute(command).map(drop)
    }

    /// Keeps the new game's seed beside the log, readable by the hall's
    /// user only, before its start is logged.
    pub(super) fn keep_seed(&self, seed: &str) -> Result<(), HallError> {
        let path = secret_path(self.log.path());
        write_secret(&path, seed).map_err(|e| match e {
            SecretError::Unsafe(why) => HallError::UnsafeSeed {
                path: path.display().to_string(),
                why,
            },
            SecretError::Lost(e) => HallError::Log(e),
        })
    }

    /// The programme's game `number` (from 1), or its next game.
    pub fn planned(&self, number: Option<usize>) -> Result<Plan, HallError> {
        let night = self.night.as_ref().ok_or(Refusal::NoNight)?;
        let number = match number {
            Some(k) => k,
            None => self.next_planned().ok_or(Refusal::NightOver)?,
        };
        night
            .games
            .get(number.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| {
                HallError::from(Refusal::NoSuchGame {
                    number,
                    games: night.games.len(),
                })
            })
    }

    /// The programme's first game not played yet.
    pub fn next_planned(&self) -> Option<usize> {
        let night = self.night.as_ref()?;
        (1..=night.games.len()).find(|k| !self.books.played.contains(k))
    }

    /// Mixes the room's seed into the open game's order: after the
    /// commitment, before the first ball, once.
    pub fn room_seed(&mut self, text: &str) -> Result<(), HallError> {
        self.execute(Command::RoomSeed(text.to_string())).map(drop)
    }

    /// The next call: the hall's next ball, or `ball` from the blower.
    pub fn call(&mut self, ball: Option<u8>) -> Result<u8, HallError> {
        match self.execute(Command::Call(ball))? {
            Answer::Called(ball) => Ok(ball),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }

    /// Takes back the last call (a live call; a bonanza's precalls stand
    /// once the game is under way).
    pub fn recall(&mut self) -> Result<u8, HallError> {
        match self.execute(Command::Recall)? {
            Answer::Recalled(ball) => Ok(ball),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }

    /// Voids the open game's last payout (of `stage`, if named) for
    /// `reason`: its prize is open again, and its calls may be recalled.
    pub fn void(&mut self, stage: Option<&str>, reason: &str) -> Result<(), HallError> {
        let command = Command::Void {
            stage: stage.map(String::from),
            reason: reason.to_string(),
        };
        self.execute(command).map(drop)
    }

    /// Ends the open game and reveals its seed (none for a blower's game).
    pub fn end(&mut self) -> Result<ev::RevealedSeed, HallError> {
        match self.execute(Command::End)? {
            Answer::Ended(seed) => Ok(seed),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }
}
