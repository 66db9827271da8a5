//! [`Books::apply`]: one event of the log, applied. The live hall applies
//! each event it logs, the resume each line it reads back, `hall verify`
//! each line it checks: one function, so the three cannot disagree.

use super::super::judge::Cards;
use super::super::open::Open;
use super::super::payout::shown_of;
use super::super::queue::{Stand, Waiting};
use super::super::state::{ClaimSeen, Revealed};
use super::super::Event;
use super::Books;

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
    pub fn apply(&mut self, event: &Event, cards: &Cards) -> Result<(), &'static str> {
        if !matches!(event, Event::Session { .. }) {
            self.unpaid = None;
        }
        match event {
            Event::Wild { .. } => {}
            Event::Session { .. }
            | Event::Sale { .. }
            | Event::SaleReturn { .. }
            | Event::SaleVoid { .. }
            | Event::Attendance { .. }
            | Event::JackpotOpen { .. }
            | Event::JackpotNight { .. }
            | Event::JackpotPlay { .. } => self.apply_money(event, cards)?,
            Event::GameStart { .. } => self.apply_start(event, cards)?,
            Event::Call { call, ball, .. } => {
                let open = self.open.as_mut().ok_or("a call with no game open")?;
                if *call != open.called() + 1 || *call > usize::from(open.balls) {
                    return Err("a call out of order, or past the game's numbers");
                }
                if *ball == 0 || *ball > open.balls {
                    return Err("a call of a ball that is not a number of the game");
                }
                open.called_ball(*ball);
            }
            Event::Payout { .. } => self.apply_payout(event)?,
            Event::NearPayout { .. } => self.apply_near(event)?,
            Event::Void {
                stage,
                call,
                reason,
                ..
            } => self.apply_void(stage, *call, reason)?,
            Event::RoomSeed { room_seed, .. } => {
                let open = self.open.as_mut().ok_or("a room seed with no game open")?;
                open.room = Some(room_seed.clone());
                open.reorder();
            }
            Event::Recall { call, ball, .. } => {
                let open = self.open.as_mut().ok_or("a recall with no game open")?;
                if *call == 0 || *call != open.called() {
                    return Err("a recall of a call that is not the last");
                }
                open.calls.pop();
                open.announcement = Some(format!("ball {ball} recalled"));
                // Claims waiting on the ball taken back are closed.
                self.queue.close_from(*call);
            }
            Event::Stage { stage, .. } => {
                let open = self.open.as_mut().ok_or("a stage with no game open")?;
                open.stage = (open.stages.iter())
                    .position(|s| s == stage)
                    .ok_or("a stage that is not one of the game's")?;
            }
            Event::GameEnd { game, seed } => {
                let open = self.open.take().ok_or("no game is open")?;
                self.end_money(&open.rules, *game, &open.kinds_paid(), open.balls, false);
                self.revealed = Some(Revealed {
                    game: *game,
                    seed: seed.clone(),
                    room_seed: open.room.flatten(),
                    commitment: open.commitment,
                });
                self.queue.close(ENDED);
            }
            Event::GameVoid {
                game, keeps_pot, ..
            } => {
                let open = self.open.take().ok_or("no game is open")?;
                let paid = open.kinds_paid();
                self.end_money(&open.rules, *game, &paid, open.balls, *keeps_pot);
                self.revealed = None;
                self.queue.close(ENDED);
            }
            Event::Claim { .. } => self.apply_claim(event)?,
            Event::Queued { .. } => self.apply_queued(event, cards)?,
        }
        Ok(())
    }

    /// A game's start: the open game, its money checked.
    fn apply_start(&mut self, event: &Event, cards: &Cards) -> Result<(), &'static str> {
        let Event::GameStart {
            game, rules, balls, ..
        } = event
        else {
            return Ok(());
        };
        if self.open.is_some() {
            return Err("a game starts while another is open");
        }
        let spec = cards.files[0].header().spec;
        self.apply_start_money(rules, *balls)?;
        self.open = Some(Open::begun(event, spec)?);
        self.games = *game;
        if let Some(k) = rules.planned {
            self.played.insert(k);
        }
        self.claims.clear();
        self.queue.close(ENDED);
        Ok(())
    }

    /// The game's last payout voided: its amount out of the night's sum,
    /// its prize (a stage: the stage played) open again, the room told.
    fn apply_void(&mut self, stage: &str, call: usize, reason: &str) -> Result<(), &'static str> {
        let open = self.open.as_mut().ok_or("a void with no game open")?;
        let last = (open.payouts.last())
            .filter(|p| p.stage == stage && p.call == call)
            .ok_or("a void of a payout that is not the game's last")?;
        self.paid = self.paid.saturating_sub(last.minor);
        open.payouts.pop();
        if !open.rules.concurrent {
            open.stage = (open.stages.iter())
                .position(|s| s == stage)
                .unwrap_or(open.stage);
        }
        open.announcement = Some(format!(
            "the payout of {stage} at call {call} was voided: {reason}"
        ));
        Ok(())
    }

    /// A claim: listed, and a queued one decided; an accepted win whose
    /// prize is not paid yet noted, as its payout line must follow (one
    /// append), or the resume pays it.
    fn apply_claim(&mut self, event: &Event) -> Result<(), &'static str> {
        let Event::Claim {
            card,
            stage,
            win,
            reason,
            call,
            accepted,
            queued,
            ..
        } = event
        else {
            return Ok(());
        };
        let open = self.open.as_ref().ok_or("a claim with no game open")?;
        let k = (open.stages.iter().position(|s| s == stage))
            .ok_or("a claim of no stage of the game")?;
        if *call > open.called() {
            return Err("a claim at a call not shown");
        }
        if *accepted && *win && open.won(k).is_none() {
            self.unpaid = Some((k, *call, card.clone()));
        }
        self.claims.push(ClaimSeen {
            card: card.clone(),
            win: *win,
            reason: reason.clone(),
            call: *call,
        });
        if let Some(id) = queued {
            self.queue.decide(*id, stand(*accepted), reason.clone());
        }
        Ok(())
    }

    /// A player's claim joining the queue (its face is drawn when the
    /// console asks, as the seed may not be read yet).
    fn apply_queued(&mut self, event: &Event, cards: &Cards) -> Result<(), &'static str> {
        let Event::Queued {
            id,
            card,
            stage,
            call,
            win,
            reason,
            ..
        } = event
        else {
            return Ok(());
        };
        let open = self
            .open
            .as_ref()
            .ok_or("a queued claim with no game open")?;
        if *call > open.called() {
            return Err("a queued claim at a call not shown");
        }
        let at = cards.find(card).ok();
        self.queue.push(Waiting {
            id: *id,
            card: card.clone(),
            label: at.map(|(f, n)| cards.label(f, n)),
            stage: stage.clone(),
            call: *call,
            win: *win,
            reason: reason.clone(),
            face: None,
            split: None,
            at: at.unwrap_or((usize::MAX, 0)),
            client: None,
        });
        Ok(())
    }

    /// A payout: the prize won, its faces paid, the night's sum.
    fn apply_payout(&mut self, event: &Event) -> Result<(), &'static str> {
        let Some(paid) = shown_of(event) else {
            return Ok(());
        };
        let Event::Payout { shares, call, .. } = event else {
            unreachable!("shown_of answers only for a payout")
        };
        let open = self.open.as_mut().ok_or("a payout with no game open")?;
        if !open.stages.contains(&paid.stage) {
            return Err("a payout of no stage of the game");
        }
        if *call > open.called() {
            return Err("a payout at a call not shown");
        }
        open.payouts.push(paid);
        // Amounts are checked when a game starts; a forged log's are not,
        // and must not wrap the night's sum.
        let sum = shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
        self.paid = self.paid.saturating_add(sum);
        Ok(())
    }

    /// A consolation by closeness: after its prize's payout (the game's
    /// last stage), the night's sum.
    fn apply_near(&mut self, event: &Event) -> Result<(), &'static str> {
        let Event::NearPayout {
            stage,
            call,
            shares,
            ..
        } = event
        else {
            return Ok(());
        };
        let open = self
            .open
            .as_ref()
            .ok_or("a consolation with no game open")?;
        let last = open.stages.len() - 1;
        if open.rules.near.is_none() || open.stages[last] != *stage {
            return Err("a consolation of a game or stage that has none");
        }
        if open.won(last) != Some(*call) {
            return Err("a consolation before its prize was paid");
        }
        let sum = shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
        self.paid = self.paid.saturating_add(sum);
        Ok(())
    }
}
