//! [`Books::decide`]: a command checked against every rule of the night
//! and turned into the events that carry it out, or refused. Nothing here
//! writes: the shell logs the events (one append, one fsync) and applies
//! them.

use super::super::event::{self as ev, Commitment, Source};
use super::super::judge::Cards;
use super::super::rules::Plan;
use super::super::sales::Move;
use super::super::state::Verdict;
use super::super::{commitment, Event, Refusal};
use super::{Books, ClaimAsked};

/// What the caller or a player asks of the hall.
#[derive(Clone, Debug)]
pub enum Command {
    /// A game of `plan`, its balls drawn as `draw` says.
    Start {
        plan: Box<Plan>,
        draw: Draw,
        /// The day (`YYYY-MM-DD`), for a progressive jackpot's must-go date.
        today: String,
    },
    /// A sale, return or void of paper, or an electronic pack.
    Sell(Move),
    /// Pack `pack` loaded onto the device named `device`.
    Load { pack: u64, device: String },
    /// The head count.
    Attendance(u64),
    /// The room's seed, mixed into the open game's order.
    RoomSeed(String),
    /// The next call: the hall's next ball, or the blower's.
    Call(Option<u8>),
    /// The last call taken back.
    Recall,
    /// The open game ended, its seed revealed.
    End,
    /// A claim judged at the console, or a player's decided.
    Claim(ClaimAsked),
    /// A player's claim on `card`, for the queue, from a client with
    /// `client_waiting` claims waiting already (the shell counts them: who
    /// sent a claim is not logged).
    Bingo {
        card: String,
        client_waiting: usize,
        /// The claiming device's public name, when it sent one.
        device: Option<String>,
    },
    /// Every waiting claim that was no win when it arrived, rejected.
    RejectNotWins,
    /// The open game's last payout (of `stage`, if named) taken back, for
    /// `reason`.
    Void {
        stage: Option<String>,
        reason: String,
    },
    /// The payout an accepted win's line lacks (a crash of an older hall
    /// between the two lines), paid.
    CompletePayout,
    /// The hall opened (or opened again) on this session.
    Session(Box<ev::Session>),
    /// The open game ended unrevealed, for `reason` (its seed was lost):
    /// a progressive jackpot's pot stands as it was carried in.
    Abandon { reason: String },
}

/// What a command comes to: the events to log, in one append, and the
/// answer for whoever asked.
#[derive(Debug)]
pub struct Decision {
    pub events: Vec<Event>,
    pub answer: Answer,
}

/// What a command answers, besides its events.
#[derive(Debug)]
pub enum Answer {
    /// Logged; nothing more to say.
    Logged,
    /// A sale's, return's or void's line.
    Sold(Box<Event>),
    /// The pack loaded.
    Loaded(u64),
    /// The ball called.
    Called(u8),
    /// The ball taken back.
    Recalled(u8),
    /// The game's end, and the seed it reveals.
    Ended(ev::RevealedSeed),
    /// A claim judged (and accepted, when it says so).
    Judged(Box<Verdict>),
    /// A player's claim queued under this id.
    Queued(u64),
    /// How many waiting claims were rejected.
    Rejected(usize),
    /// What the console is told of a payout completed (none: nothing was
    /// owed).
    Completed(Option<String>),
}

impl Decision {
    fn of(events: Vec<Event>, answer: Answer) -> Decision {
        Decision { events, answer }
    }

    fn logged(events: Vec<Event>) -> Decision {
        Decision::of(events, Answer::Logged)
    }

    fn with(mut self, event: Event) -> Decision {
        self.events.push(event);
        self
    }
}

/// How a game's balls are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// From a blower, keyed in by the caller.
    Blower,
    /// By the hall, from this seed (`hall2-…`, kept in the seed file).
    Seed(String),
}

impl Books {
    /// The events that carry out `command` and its answer, or why it is
    /// refused. Every change to the night is decided here, and nowhere
    /// else: the shell logs the events, applies them, and answers.
    pub fn decide(&self, cards: &Cards, command: Command) -> Result<Decision, Refusal> {
        let logged = Decision::logged;
        Ok(match command {
            Command::Start { plan, draw, today } => {
                logged(self.start(cards, *plan, &draw, &today)?)
            }
            Command::Sell(m) => {
                let line = self.sales.event(&m, &self.floor(cards))?;
                let pack = self.sales.pack_line(&line).map(Event::Pack);
                let sale = Event::from(line);
                let events = std::iter::once(sale.clone()).chain(pack).collect();
                Decision::of(events, Answer::Sold(Box::new(sale)))
            }
            Command::Load { pack, device } => {
                let line = self.sales.load(pack, &device)?;
                Decision::of(vec![Event::Pack(line)], Answer::Loaded(pack))
            }
            Command::Attendance(count) if count > super::MAX_ATTENDANCE => {
                return Err(Refusal::Attendance(count))
            }
            Command::Attendance(count) => logged(vec![Event::Attendance(ev::Attendance { count })]),
            Command::RoomSeed(text) => logged(self.room_seed(&text)?),
            Command::Call(ball) => {
                let (events, ball) = self.call(ball)?;
                Decision::of(events, Answer::Called(ball))
            }
            Command::Recall => {
                let recall = self.recall()?;
                Decision::of(vec![], Answer::Recalled(recall.ball)).with(Event::Recall(recall))
            }
            Command::End => self.end()?,
            Command::Void { stage, reason } if self.open.is_none() => {
                logged(self.reverse(stage.as_deref(), &reason)?)
            }
            Command::Void { stage, reason } => logged(self.void(stage.as_deref(), &reason)?),
            Command::Session(session) => logged(vec![Event::Session(*session)]),
            Command::Abandon { reason } => logged(vec![Event::GameVoid(ev::GameVoid {
                game: self.the_open()?.game,
                reason,
                keeps_pot: true,
            })]),
            Command::Claim(asked) => self.judged(cards, &asked)?,
            Command::Bingo {
                card,
                client_waiting,
                device,
            } => self.queued(cards, &card, client_waiting, device.as_deref())?,
            Command::RejectNotWins => {
                let events = self.reject_not_wins()?;
                let rejected = events.len();
                Decision::of(events, Answer::Rejected(rejected))
            }
            Command::CompletePayout => {
                let (events, said) = self.complete_payout(cards)?;
                Decision::of(events, Answer::Completed(said))
            }
        })
    }

    /// A claim judged at the console, or a player's decided.
    fn judged(&self, cards: &Cards, asked: &ClaimAsked) -> Result<Decision, Refusal> {
        let (verdict, events) = self.claim(cards, asked)?;
        Ok(Decision::of(events, Answer::Judged(Box::new(verdict))))
    }

    /// A player's claim, queued.
    fn queued(
        &self,
        cards: &Cards,
        card: &str,
        waiting: usize,
        device: Option<&str>,
    ) -> Result<Decision, Refusal> {
        let queued = self.bingo(cards, card, waiting, device)?;
        Ok(Decision::of(vec![], Answer::Queued(queued.id)).with(Event::Queued(queued)))
    }

    /// The open game's end, its seed revealed.
    fn end(&self) -> Result<Decision, Refusal> {
        let open = self.the_open()?;
        let seed = open.revealed_seed()?;
        let end = Event::GameEnd(ev::GameEnd {
            game: open.game,
            seed: seed.clone(),
        });
        Ok(Decision::of(vec![end], Answer::Ended(seed)))
    }

    /// A game's start: checked, and a bonanza's precalls (the hall's own
    /// calls) made with it.
    fn start(
        &self,
        cards: &Cards,
        mut plan: Plan,
        draw: &Draw,
        today: &str,
    ) -> Result<Vec<Event>, Refusal> {
        if let Some(open) = &self.open {
            return Err(Refusal::StillOpen(open.game));
        }
        let spec = cards.files[0].header().spec;
        self.fix_money(&mut plan, today, spec.balls())?;
        plan.rules.blower = *draw == Draw::Blower;
        money_prize(&mut plan)?;
        plan.check(spec)
            .map_err(|e| Refusal::Rules(e.to_string()))?;
        let game = self.games + 1;
        let balls = spec.balls();
        let mut events = vec![Event::GameStart(ev::GameStart {
            game,
            balls,
            stages: plan.stages.clone(),
            prize: plan.prize_text(),
            last_call: plan.last_call,
            commitment: match draw {
                Draw::Blower => Commitment::Blower,
                Draw::Seed(seed) => Commitment::Sha256(commitment(seed)),
            },
            rules: plan.rules.clone(),
        })];
        let precalls = plan.rules.precalls;
        if let (Draw::Seed(seed), true) = (draw, precalls > 0) {
            // The precalls come before any room seed could: the order
            // rests on the hall's seed alone, and the log says so.
            if crate::play::live::is_live(seed) {
                events.push(Event::RoomSeed(ev::RoomSeed {
                    game,
                    room_seed: None,
                }));
            }
            let all = usize::from(balls);
            let order = crate::play::calls::Calls::of_hall(balls, seed, "", all);
            for (i, &ball) in order.order()[..precalls].iter().enumerate() {
                events.push(Event::Call(ev::Call {
                    game,
                    call: i + 1,
                    ball,
                    source: Source::Rng,
                }));
                if i == 0 && plan.rules.wild {
                    events.push(Event::Wild(ev::Wild {
                        game,
                        digit: ball % 10,
                    }));
                }
            }
        }
        Ok(events)
    }

    /// Mixes the room's seed into the open game's order: after the
    /// commitment, before the first ball, once.
    fn room_seed(&self, text: &str) -> Result<Vec<Event>, Refusal> {
        let open = self.the_open()?;
        // What the board shows is what is mixed in: invisible characters,
        // look-alike letters and doubled spaces would let the house grind
        // the order while the room reads its own word.
        let text = crate::shown::room_seed(text)?;
        if text.is_empty() {
            return Err(Refusal::EmptyRoomSeed);
        }
        if open.rules.blower {
            return Err(Refusal::Blower(open.game));
        }
        if !open.seed.as_deref().is_some_and(crate::play::live::is_live) {
            return Err(Refusal::RoomSeedOld(open.game));
        }
        if open.ever_called {
            return Err(Refusal::RoomSeedLate(open.game));
        }
        if open.room.settled() {
            return Err(Refusal::RoomSeedGiven(open.game));
        }
        Ok(vec![Event::RoomSeed(ev::RoomSeed {
            game: open.game,
            room_seed: Some(text),
        })])
    }

    /// The next call: the hall's next ball, or `ball` from the blower.
    fn call(&self, ball: Option<u8>) -> Result<(Vec<Event>, u8), Refusal> {
        let open = self.the_open()?;
        if open.called() == usize::from(open.balls) {
            return Err(Refusal::AllCalled(open.balls));
        }
        let (game, call) = (open.game, open.called() + 1);
        let mut events = Vec::new();
        let (ball, source) = match (open.rules.blower, ball) {
            (false, Some(_)) => return Err(Refusal::NotBlower(game)),
            (true, None) => return Err(Refusal::BallNeeded(game)),
            (true, Some(b)) if b == 0 || b > open.balls => {
                return Err(Refusal::BallOutside {
                    ball: b,
                    balls: open.balls,
                })
            }
            (true, Some(b)) => {
                if let Some(at) = open.shown().iter().position(|&x| x == b) {
                    return Err(Refusal::BallCalled {
                        ball: b,
                        call: at + 1,
                    });
                }
                (b, Source::Blower)
            }
            (false, None) => {
                // The first ball without the room's seed: the log says so.
                let live = open.seed.as_deref().is_some_and(crate::play::live::is_live);
                if !open.room.settled() && live {
                    events.push(Event::RoomSeed(ev::RoomSeed {
                        game,
                        room_seed: None,
                    }));
                }
                // The order: the seed's, with the room's mixed in if given
                // (an unmixed room seed adds nothing: `Open::reorder`).
                let ball = *open.order.get(open.called()).ok_or(Refusal::NoSeed(game))?;
                (ball, Source::Rng)
            }
        };
        events.push(Event::Call(ev::Call {
            game,
            call,
            ball,
            source,
        }));
        if call == 1 && open.rules.wild {
            events.push(Event::Wild(ev::Wild {
                game,
                digit: ball % 10,
            }));
        }
        Ok((events, ball))
    }

    /// Takes back the last call (a live call; a bonanza's precalls stand
    /// once the game is under way), unless a prize was paid on it.
    fn recall(&self) -> Result<ev::Recall, Refusal> {
        let open = self.the_open()?;
        let Some(&ball) = open.shown().last() else {
            return Err(Refusal::NoCallToTakeBack);
        };
        let (game, call) = (open.game, open.called());
        if call <= open.rules.precalls && !open.rules.blower {
            return Err(Refusal::NoCallToTakeBack);
        }
        // A prize paid at this call (or later) stands on this ball.
        if let Some(paid) = open.payouts.iter().find(|p| p.call >= call) {
            return Err(Refusal::RecallPaid {
                call,
                stage: paid.stage.clone(),
                paid_at: paid.call,
            });
        }
        Ok(ev::Recall { game, call, ball })
    }
}

impl Books {
    /// The open game's last payout voided: a mistaken accept undone, the
    /// reason logged and shown. Only the last, so payouts are undone in
    /// the order they were made, as calls are recalled.
    fn void(&self, stage: Option<&str>, reason: &str) -> Result<Vec<Event>, Refusal> {
        let open = self.the_open()?;
        let last = open.payouts.last().ok_or(Refusal::NoPayout(open.game))?;
        if let Some(asked) = stage.filter(|s| *s != last.stage) {
            return Err(Refusal::VoidNotLast {
                last: last.stage.clone(),
                asked: asked.to_string(),
            });
        }
        let reason = crate::shown::shown(reason, crate::shown::max::PRIZE)
            .map_err(|e| Refusal::Rules(format!("reason: {e}")))?;
        if reason.is_empty() {
            return Err(Refusal::VoidReason);
        }
        Ok(vec![Event::Void(ev::Void {
            game: open.game,
            stage: last.stage.clone(),
            call: last.call,
            reason,
        })])
    }
}

/// A game in a currency with its prize in words and no amounts (a game
/// asked for at the console) is paid the amount the words are (`5.00`,
/// `£5.00`), or refused: words could not be paid, and nothing would say so.
fn money_prize(plan: &mut Plan) -> Result<(), Refusal> {
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
    match super::super::money::parse_amount(bare) {
        Ok(a) if plan.stages.len() == 1 => {
            plan.rules.amounts = vec![a];
            plan.prize.clear();
            Ok(())
        }
        Ok(_) => Err(Refusal::Rules(format!(
            "prize: {words:?} is one amount for {} stages: give each stage its amount (in a night file, prize = [\"10.00\", …])",
            plan.stages.len()
        ))),
        Err(_) => Err(Refusal::Rules(format!(
            "prize: {words:?} is not an amount, and this night pays in {0}: type the amount alone (5.00 or {0}5.00), or leave it empty for a game without a money prize",
            r.currency
        ))),
    }
}
