//! A game's course: started (from the night's programme or as asked),
//! the room's seed, calls (drawn by the hall, or keyed in from a blower),
//! a bonanza's precalls, the wild digit, recalls, the end.

use super::event::Source;
use super::open::Open;
use super::rules::Plan;
use super::secret::{secret_path, write_secret, SecretError};
use super::{commitment, fresh_seed, Event, Hall, HallError};

/// A game in a currency with its prize in words and no amounts (a game
/// asked for at the console) is paid the amount the words are (`5.00`,
/// `£5.00`), or refused: words could not be paid, and nothing would say so.
fn money_prize(plan: &mut Plan) -> Result<(), HallError> {
    let r = &plan.rules;
    if r.currency.is_empty()
        || !r.amounts.is_empty()
        || r.jackpot.is_some()
        || plan.prize.is_empty()
    {
        return Ok(());
    }
    let words = plan.prize.trim().to_string();
    let bare = words.strip_prefix(r.currency.as_str()).unwrap_or(&words);
    match super::money::parse_amount(bare) {
        Ok(a) if plan.stages.len() == 1 => {
            plan.rules.amounts = vec![a];
            plan.prize.clear();
            Ok(())
        }
        Ok(_) => Err(HallError::Rules(format!(
            "prize: {words:?} is one amount for {} stages: give each stage its amount (in a night file, prize = [\"10.00\", …])",
            plan.stages.len()
        ))),
        Err(_) => Err(HallError::Rules(format!(
            "prize: {words:?} is not an amount, and this night pays in {0}: type the amount alone (5.00 or {0}5.00), or leave it empty for a game without a money prize",
            r.currency
        ))),
    }
}

impl Hall {
    /// Starts a game of `plan`, checked first; with `--balls blower`, its
    /// balls come from the blower. A bonanza game of the hall's own calls
    /// makes its precalls at once.
    pub fn start(&mut self, mut plan: Plan) -> Result<(), HallError> {
        if let Some(open) = &self.open {
            return Err(HallError::StillOpen(open.game));
        }
        let spec = self.cards.files[0].header().spec;
        plan.rules.blower = self.blower;
        // A game asked for outside the programme is paid in its currency.
        if let (true, Some(night)) = (plan.rules.currency.is_empty(), &self.night) {
            plan.rules.currency = night.currency.clone();
        }
        money_prize(&mut plan)?;
        plan.check(spec)
            .map_err(|e| HallError::Rules(e.to_string()))?;
        let seed = if self.blower {
            String::new()
        } else {
            let seed = fresh_seed()?;
            let path = secret_path(self.log.path());
            write_secret(&path, &seed).map_err(|e| match e {
                SecretError::Unsafe(why) => HallError::UnsafeSeed {
                    path: path.display().to_string(),
                    why,
                },
                SecretError::Lost(e) => HallError::Log(e),
            })?;
            seed
        };
        let game = self.games + 1;
        let commitment = if seed.is_empty() {
            String::new()
        } else {
            commitment(&seed)
        };
        let balls = self.balls();
        let prize = plan.prize_text();
        self.record(Event::GameStart {
            game,
            balls,
            stages: plan.stages,
            prize,
            last_call: plan.last_call,
            commitment,
            rules: plan.rules,
        })?;
        let open = self.open.as_mut().expect("just started");
        open.seed = seed;
        open.reorder();
        if !self.blower {
            for _ in 0..self.the_open()?.rules.precalls {
                self.call(None)?;
            }
        }
        Ok(())
    }

    /// The programme's game `number` (from 1), or its next game.
    pub fn planned(&self, number: Option<usize>) -> Result<Plan, HallError> {
        let night = self.night.as_ref().ok_or(HallError::NoNight)?;
        let number = match number {
            Some(k) => k,
            None => self.next_planned().ok_or(HallError::NightOver)?,
        };
        night
            .games
            .get(number.wrapping_sub(1))
            .cloned()
            .ok_or(HallError::NoSuchGame {
                number,
                games: night.games.len(),
            })
    }

    /// The programme's first game not played yet.
    pub fn next_planned(&self) -> Option<usize> {
        let night = self.night.as_ref()?;
        (1..=night.games.len()).find(|k| !self.played.contains(k))
    }

    /// Mixes the room's seed into the open game's order: after the
    /// commitment, before the first ball, once.
    pub fn room_seed(&mut self, text: &str) -> Result<(), HallError> {
        let open = self.the_open()?;
        // What the board shows is what is mixed in: invisible characters,
        // look-alike letters and doubled spaces would let the house grind
        // the order while the room reads its own word.
        let text = crate::shown::room_seed(text)?;
        if text.is_empty() {
            return Err(HallError::EmptyRoomSeed);
        }
        if open.rules.blower {
            return Err(HallError::Blower(open.game));
        }
        if !crate::play::live::is_live(&open.seed) {
            return Err(HallError::RoomSeedOld(open.game));
        }
        if open.ever_called {
            return Err(HallError::RoomSeedLate(open.game));
        }
        if open.room.is_some() {
            return Err(HallError::RoomSeedGiven(open.game));
        }
        let game = open.game;
        self.record(Event::RoomSeed {
            game,
            room_seed: Some(text),
        })
    }

    pub(super) fn the_open(&self) -> Result<&Open, HallError> {
        self.open.as_ref().ok_or(HallError::NoGame)
    }

    /// The next call: the hall's next ball, or `ball` from the blower.
    pub fn call(&mut self, ball: Option<u8>) -> Result<u8, HallError> {
        let open = self.the_open()?;
        if open.called == usize::from(open.balls) {
            return Err(HallError::AllCalled(open.balls));
        }
        let (game, call) = (open.game, open.called + 1);
        let (ball, source) = match (open.rules.blower, ball) {
            (false, Some(_)) => return Err(HallError::NotBlower(game)),
            (true, None) => return Err(HallError::BallNeeded(game)),
            (true, Some(b)) if b == 0 || b > open.balls => {
                return Err(HallError::BallOutside {
                    ball: b,
                    balls: open.balls,
                })
            }
            (true, Some(b)) => {
                if let Some(at) = open.shown().iter().position(|&x| x == b) {
                    return Err(HallError::BallCalled {
                        ball: b,
                        call: at + 1,
                    });
                }
                (b, Source::Blower)
            }
            (false, None) => {
                // The first ball without the room's seed: the log says so.
                if open.room.is_none() && crate::play::live::is_live(&open.seed) {
                    self.record(Event::RoomSeed {
                        game,
                        room_seed: None,
                    })?;
                }
                let open = self.the_open()?;
                (open.order[open.called], Source::Rng)
            }
        };
        self.record(Event::Call {
            game,
            call,
            ball,
            source,
        })?;
        if call == 1 && self.the_open()?.rules.wild {
            self.record(Event::Wild {
                game,
                digit: ball % 10,
            })?;
        }
        Ok(ball)
    }

    /// Takes back the last call (a live call; a bonanza's precalls stand
    /// once the game is under way).
    pub fn recall(&mut self) -> Result<u8, HallError> {
        let open = self.the_open()?;
        let Some(&ball) = open.shown().last() else {
            return Err(HallError::NoCallToTakeBack);
        };
        let (game, call) = (open.game, open.called);
        if call <= open.rules.precalls && !open.rules.blower {
            return Err(HallError::NoCallToTakeBack);
        }
        // A prize paid at this call (or later) stands on this ball.
        if let Some(paid) = open.payouts.iter().find(|p| p.call >= call) {
            return Err(HallError::RecallPaid {
                call,
                stage: paid.stage.clone(),
                paid_at: paid.call,
            });
        }
        self.record(Event::Recall { game, call, ball })?;
        Ok(ball)
    }

    /// Ends the open game and reveals its seed ("" for a blower's game).
    pub fn end(&mut self) -> Result<String, HallError> {
        let open = self.the_open()?;
        let (game, seed) = (open.game, open.seed.clone());
        self.record(Event::GameEnd {
            game,
            seed: seed.clone(),
        })?;
        if !seed.is_empty() {
            let _ = std::fs::remove_file(secret_path(self.log.path()));
        }
        Ok(seed)
    }
}
