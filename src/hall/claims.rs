//! Claims: judged at the console, or sent from a player's phone to wait
//! in the queue ([`super::queue`]) until the caller decides. A queued
//! claim is judged at the call and stage it arrived at, so two players who
//! complete a line on the same call both win it, whichever the caller
//! reaches first.

use super::queue::{Stand, Status, Waiting};
use super::state::{FaceShown, Grid, Verdict};
use super::{Event, Hall, HallError};
use std::net::IpAddr;

/// A decided claim's standing.
pub(super) fn stand(accepted: bool) -> Stand {
    if accepted {
        Stand::Accepted
    } else {
        Stand::Rejected
    }
}

impl Hall {
    /// Judges a claim on `card`, or on the waiting claim `queued` (at the
    /// call and stage it arrived at). `accept` a win: the game moves to
    /// its next stage, or ends after the last; a win of a stage already
    /// won (a shared prize, reached later in the queue) is accepted
    /// without moving on. With `queued`, not accepting rejects it.
    pub fn claim(
        &mut self,
        card: Option<&str>,
        accept: bool,
        queued: Option<u64>,
    ) -> Result<Verdict, HallError> {
        let open = self.the_open()?;
        let (card, stage, call) = match queued {
            Some(id) => {
                let w = self.queue.get(id).ok_or(HallError::NotWaiting(id))?;
                if let Some(given) = card.map(str::trim).filter(|g| *g != w.card) {
                    return Err(HallError::OtherCard {
                        id,
                        queued: w.card.clone(),
                        given: given.to_string(),
                    });
                }
                let stage = open.stages.iter().position(|s| *s == w.stage);
                (w.card.clone(), stage.unwrap_or(open.stage), w.call)
            }
            None => match card {
                Some(card) => (card.trim().to_string(), open.stage, open.called),
                None => return Err(HallError::NoFace("name the card claimed".into())),
            },
        };
        let pattern = &open.patterns[stage];
        let calls = open.calls_at(call);
        let judged = self.cards.judge(&card, pattern, &calls, open.last_call);
        let accepted = accept && judged.win;
        // Who shares the prize: a scan of every file, so only when a win
        // is accepted (a check stays a lookup of one face).
        let also_winning = if accepted {
            self.cards
                .also_winning(pattern, &calls, open.last_call, judged.at, 100)
        } else {
            Vec::new()
        };
        let game = open.game;
        let moves_on = accepted && stage == open.stage;
        let next = open.stages.get(stage + 1).cloned();
        let stage = open.stages[stage].clone();
        self.record(Event::Claim {
            game,
            card: card.clone(),
            stage: stage.clone(),
            call,
            win: judged.win,
            reason: judged.reason.clone(),
            accepted,
            queued,
        })?;
        if moves_on {
            match next {
                Some(stage) => self.record(Event::Stage { game, stage })?,
                None => {
                    self.end()?;
                }
            }
        }
        Ok(Verdict {
            card,
            win: judged.win,
            reason: judged.reason,
            label: judged.label,
            found: judged.at.is_some(),
            face: judged.face,
            stage,
            call,
            also_winning,
            accepted,
            queued,
        })
    }

    /// A player's claim on `card` from `client`: checked (a sold face of
    /// the hall's, an open game, within the caps), judged now, logged, and
    /// queued for the caller. Returns its place.
    pub fn bingo(&mut self, card: &str, client: Option<IpAddr>) -> Result<Status, HallError> {
        let open = self.the_open()?;
        let card = card.trim();
        let (f, n) = self.cards.find(card)?;
        if !self.cards.sold(f, n) {
            let noun = self.cards.files[f].header().spec.face_noun();
            return Err(HallError::NotSold { noun, face: n });
        }
        self.queue.admits((f, n), client)?;
        let pattern = &open.patterns[open.stage];
        let judged = self
            .cards
            .judge(card, pattern, &open.calls(), open.last_call);
        let id = self.queue.last + 1;
        self.record(Event::Queued {
            game: open.game,
            id,
            card: card.to_string(),
            stage: open.stages[open.stage].clone(),
            call: open.called,
            win: judged.win,
            reason: judged.reason,
        })?;
        if let Some(w) = self.queue.get_mut(id) {
            w.face = judged.face;
            w.client = client;
        }
        Ok(self.queue.status(id).expect("just queued"))
    }

    /// A claim read back from the log: listed, and a queued one decided.
    pub(super) fn replay_claim(&mut self, event: &Event) {
        let Event::Claim {
            card,
            win,
            reason,
            call,
            accepted,
            queued,
            ..
        } = event
        else {
            return;
        };
        self.claims.push(super::state::ClaimSeen {
            card: card.clone(),
            win: *win,
            reason: reason.clone(),
            call: *call,
        });
        if let Some(id) = queued {
            self.queue.decide(*id, stand(*accepted), reason.clone());
        }
    }

    /// A queued claim read back from the log (its face is drawn when the
    /// console asks, as the seed may not be read yet).
    pub(super) fn replay_queued(&mut self, event: &Event) {
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
            return;
        };
        let at = self.cards.find(card).ok();
        self.queue.push(Waiting {
            id: *id,
            card: card.clone(),
            label: at.map(|(f, n)| self.cards.label(f, n)),
            stage: stage.clone(),
            call: *call,
            win: *win,
            reason: reason.clone(),
            face: None,
            at: at.unwrap_or((usize::MAX, 0)),
            client: None,
        });
    }

    /// The claims waiting for the caller, in arrival order, each with its
    /// face marked at the call it arrived at.
    pub fn waiting(&self) -> Vec<Waiting> {
        let mut list: Vec<Waiting> = self.queue.waiting().iter().cloned().collect();
        if let Some(open) = &self.open {
            for w in list.iter_mut().filter(|w| w.face.is_none()) {
                let Some(stage) = open.stages.iter().position(|s| *s == w.stage) else {
                    continue;
                };
                let calls = open.calls_at(w.call);
                w.face = self
                    .cards
                    .judge(&w.card, &open.patterns[stage], &calls, open.last_call)
                    .face;
            }
        }
        list
    }

    /// Where the player's claim `id` stands.
    pub fn status(&self, id: u64) -> Option<Status> {
        self.queue.status(id)
    }

    /// The face `card` names, as a phone adds it: a sold face of the
    /// hall's files.
    pub fn face(&self, card: &str) -> Result<FaceShown, HallError> {
        let (f, n) = self.cards.find(card.trim())?;
        let spec = self.cards.files[f].header().spec;
        if !self.cards.sold(f, n) {
            let noun = spec.face_noun();
            return Err(HallError::NotSold { noun, face: n });
        }
        let face = self.cards.face(f, n)?;
        let card = if f == 0 {
            n.to_string()
        } else {
            let id = self.cards.files[f].short_id();
            format!("bingomint:{id}:{}:{n}", spec.face_noun())
        };
        let grid = Grid::of(&face, |_| false);
        Ok(FaceShown {
            card,
            label: self.cards.label(f, n),
            rows: grid.rows,
            cols: grid.cols,
            cells: grid.cells,
        })
    }
}
