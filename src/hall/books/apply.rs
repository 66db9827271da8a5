//! [`Books::apply`]: one event of the log, applied. The live hall applies
//! each event it logs, the resume each line it reads back, `hall verify`
//! each line it checks: one function, so the three cannot disagree. It
//! decides nothing: each payload is booked as it stands, or refused as
//! one that cannot follow ([`Mismatch`]).

use super::super::event as ev;
use super::super::judge::Cards;
use super::super::open::{Open, RoomState};
use super::super::payout::shown_of;
use super::super::queue::{Stand, Waiting};
use super::super::state::{ClaimSeen, Revealed};
use super::super::Event;
use super::Books;
use super::{Mismatch, Needs};

/// The closing of players' claims still waiting when a game ends.
pub(in crate::hall) const ENDED: &str = "the game ended before the caller came to this claim";

/// A decided claim's standing.
pub(in crate::hall) fn stand(accepted: bool) -> Stand {
    if accepted {
        Stand::Accepted
    } else {
        Stand::Rejected
    }
}

impl Books {
    /// Applies `event`, or says why it cannot follow what came before (a
    /// hand-edited log whose chain holds). `cards` give the games'
    /// patterns and the faces players' claims name.
    pub fn apply(&mut self, event: &Event, cards: &Cards) -> Result<(), Mismatch> {
        if !matches!(event, Event::Session(_)) {
            self.unpaid = None;
        }
        let sold = event.sale_line();
        let applied = self.apply_event(event, cards);
        self.last_sale = sold;
        applied
    }

    /// [`Books::apply`], by event.
    fn apply_event(&mut self, event: &Event, cards: &Cards) -> Result<(), Mismatch> {
        match event {
            Event::Wild(_) => Ok(()),
            Event::Session(e) => self.apply_session(e),
            Event::Attendance(e) => self.apply_attendance(e),
            Event::Sale(_)
            | Event::SaleReturn(_)
            | Event::SaleVoid(_)
            | Event::CashFloat(_)
            | Event::CashCount(_) => self.apply_sale(event),
            Event::Pack(e) => {
                self.sales.book_pack(e);
                Ok(())
            }
            Event::GameStart(e) => self.apply_start(e, cards),
            Event::Call(e) => self.apply_call(e),
            Event::Payout(e) => self.apply_payout(e),
            Event::NearPayout(e) => self.apply_near(e),
            Event::Void(e) => self.apply_void(e),
            Event::RoomSeed(e) => {
                let open = self
                    .open
                    .as_mut()
                    .ok_or(Mismatch::NoGame(Needs::RoomSeed))?;
                open.room = RoomState::logged(&e.room_seed);
                open.reorder();
                Ok(())
            }
            Event::Recall(e) => self.apply_recall(e),
            Event::Stage(e) => {
                let open = self.open.as_mut().ok_or(Mismatch::NoGame(Needs::Stage))?;
                open.stage = (open.stages.iter())
                    .position(|s| *s == e.stage)
                    .ok_or(Mismatch::UnknownStage)?;
                Ok(())
            }
            Event::GameEnd(e) => self.apply_end(e),
            Event::GameVoid(e) => {
                let open = self.open.take().ok_or(Mismatch::EndWithNoGame)?;
                self.ended = None;
                let paid = open.kinds_paid();
                self.end_money(&open.rules, e.game, &paid, open.balls, e.keeps_pot);
                self.revealed = None;
                self.queue.close(ENDED);
                Ok(())
            }
            Event::Claim(e) => self.apply_claim(e),
            Event::Queued(e) => self.apply_queued(e, cards),
            Event::PayoutReversed(e) => self.apply_reversal(e),
        }
    }

    /// A game's start: the open game, its money checked.
    fn apply_start(&mut self, e: &ev::GameStart, cards: &Cards) -> Result<(), Mismatch> {
        if self.open.is_some() {
            return Err(Mismatch::StartWhileOpen);
        }
        let spec = cards.files[0].header().spec;
        self.apply_start_money(&e.rules);
        self.open = Some(Open::begun(e, spec)?);
        (self.ended, self.near_paid) = (None, 0);
        self.games = e.game;
        if let Some(k) = e.rules.planned {
            self.played.insert(k);
        }
        self.claims.clear();
        self.queue.close(ENDED);
        Ok(())
    }

    /// A call: the next of the open game, a number of the game.
    fn apply_call(&mut self, e: &ev::Call) -> Result<(), Mismatch> {
        let open = self.open.as_mut().ok_or(Mismatch::NoGame(Needs::Call))?;
        if e.call != open.called() + 1 || e.call > usize::from(open.balls) {
            return Err(Mismatch::CallOutOfOrder);
        }
        if e.ball == 0 || e.ball > open.balls {
            return Err(Mismatch::BallOutside);
        }
        open.called_ball(e.ball);
        Ok(())
    }

    /// The last call taken back, and the claims waiting on it closed.
    fn apply_recall(&mut self, e: &ev::Recall) -> Result<(), Mismatch> {
        let open = self.open.as_mut().ok_or(Mismatch::NoGame(Needs::Recall))?;
        if e.call == 0 || e.call != open.called() {
            return Err(Mismatch::RecallNotLast);
        }
        open.calls.pop();
        open.announcement = Some(format!("ball {} recalled", e.ball));
        self.queue.close_from(e.call);
        Ok(())
    }

    /// A game's end: its jackpot settled, its seed shown beside its
    /// commitment.
    fn apply_end(&mut self, e: &ev::GameEnd) -> Result<(), Mismatch> {
        let open = self.open.take().ok_or(Mismatch::EndWithNoGame)?;
        self.end_money(&open.rules, e.game, &open.kinds_paid(), open.balls, false);
        self.ended = Some(super::reverse::Ended::of(&open, self.near_paid));
        self.revealed = Some(Revealed {
            game: e.game,
            seed: e.seed.clone().into(),
            room_seed: open.room.mixed().map(str::to_string),
            commitment: open.commitment.hex().to_string(),
        });
        self.queue.close(ENDED);
        Ok(())
    }

    /// The game's last payout voided: its amount out of the night's sum,
    /// its prize (a stage: the stage played) open again, the room told.
    fn apply_void(&mut self, e: &ev::Void) -> Result<(), Mismatch> {
        let open = self.open.as_mut().ok_or(Mismatch::NoGame(Needs::Void))?;
        let last = (open.payouts.last())
            .filter(|p| p.stage == e.stage && p.call == e.call)
            .ok_or(Mismatch::VoidNotLast)?;
        self.paid = self.paid.saturating_sub(last.minor);
        open.payouts.pop();
        if !open.rules.concurrent {
            open.stage = (open.stages.iter())
                .position(|s| *s == e.stage)
                .unwrap_or(open.stage);
        }
        open.announcement = Some(format!(
            "the payout of {} at call {} was voided: {}",
            e.stage, e.call, e.reason
        ));
        Ok(())
    }

    /// A claim: listed, and a queued one decided; an accepted win whose
    /// prize is not paid yet noted, as its payout line must follow (one
    /// append), or the resume pays it.
    fn apply_claim(&mut self, e: &ev::Claim) -> Result<(), Mismatch> {
        let open = self.open.as_ref().ok_or(Mismatch::NoGame(Needs::Claim))?;
        let k = (open.stages.iter().position(|s| *s == e.stage)).ok_or(Mismatch::ClaimOfNoStage)?;
        if e.call > open.called() {
            return Err(Mismatch::CallNotShown(Needs::Claim));
        }
        if e.accepted && e.win && open.won(k).is_none() {
            self.unpaid = Some((k, e.call, e.card.clone()));
        }
        self.claims.push(ClaimSeen {
            card: e.card.clone(),
            win: e.win,
            reason: e.reason.clone(),
            call: e.call,
        });
        if let Some(id) = e.queued {
            self.queue.decide(id, stand(e.accepted), e.reason.clone());
        }
        Ok(())
    }

    /// A player's claim joining the queue (its face is drawn when the
    /// console asks, as the seed may not be read yet).
    fn apply_queued(&mut self, e: &ev::Queued, cards: &Cards) -> Result<(), Mismatch> {
        let open = self.open.as_ref().ok_or(Mismatch::NoGame(Needs::Queued))?;
        if e.call > open.called() {
            return Err(Mismatch::CallNotShown(Needs::Queued));
        }
        let at = cards.find(&e.card).ok();
        self.queue.push(Waiting {
            id: e.id,
            card: e.card.clone(),
            label: at.map(|(f, n)| cards.label(f, n)),
            stage: e.stage.clone(),
            call: e.call,
            win: e.win,
            reason: e.reason.clone(),
            face: None,
            split: None,
            pack: e.pack,
            at: at.unwrap_or((usize::MAX, 0)),
        });
        Ok(())
    }

    /// A payout: the prize won, its faces paid, the night's sum.
    fn apply_payout(&mut self, e: &ev::Payout) -> Result<(), Mismatch> {
        let paid = shown_of(e);
        let open = self.open.as_mut().ok_or(Mismatch::NoGame(Needs::Payout))?;
        if !open.stages.contains(&paid.stage) {
            return Err(Mismatch::PayoutOfNoStage);
        }
        if e.call > open.called() {
            return Err(Mismatch::CallNotShown(Needs::Payout));
        }
        open.payouts.push(paid);
        // Amounts are checked when a game starts; a forged log's are not,
        // and must not wrap the night's sum.
        self.paid = self.paid.saturating_add(sum(&e.shares));
        Ok(())
    }

    /// A consolation by closeness: after its prize's payout (the game's
    /// last stage), the night's sum.
    fn apply_near(&mut self, e: &ev::NearPayout) -> Result<(), Mismatch> {
        let open = (self.open.as_ref()).ok_or(Mismatch::NoGame(Needs::Consolation))?;
        let last = open.stages.len() - 1;
        if open.rules.near.is_none() || open.stages[last] != e.stage {
            return Err(Mismatch::NoConsolation);
        }
        if open.won(last) != Some(e.call) {
            return Err(Mismatch::ConsolationFirst);
        }
        self.paid = self.paid.saturating_add(sum(&e.shares));
        self.near_paid = sum(&e.shares);
        Ok(())
    }
}

/// Shares summed without wrapping (a forged log's may be anything).
fn sum(shares: &[u64]) -> u64 {
    shares.iter().fold(0u64, |a, &b| a.saturating_add(b))
}
