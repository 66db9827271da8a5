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
    /// Judges a claim on `card` (for the prize `named`, else the stage
    /// played or, with prizes open at once, every prize still open), or
    /// on the waiting claim `queued` (at the call and stage it arrived
    /// at). `accept` a win: the prize is paid to every sold face holding
    /// it at that call ([`Event::Payout`]), and the game moves to its next
    /// stage, or ends after the last prize. A win of a prize paid already
    /// (a shared prize, reached later in the queue) is accepted when the
    /// payout included its face. With `queued`, not accepting rejects it.
    pub fn claim(
        &mut self,
        card: Option<&str>,
        accept: bool,
        queued: Option<u64>,
        named: Option<&str>,
    ) -> Result<Verdict, HallError> {
        let (card, stages, call) = self.target(card, queued, named)?;
        let (k, mut judged) = self.judge_first(&card, &stages, call)?;
        let open = self.the_open()?;
        let won_at = open.won(k);
        let paid_here = judged
            .label
            .as_ref()
            .is_some_and(|l| open.paid(k).is_some_and(|p| p.winners.contains(l)));
        if let (true, Some(at), false) = (judged.win, won_at, paid_here) {
            judged.reason = format!(
                "{}; but {} was won at call {at}, and this face was not among its winners",
                judged.reason, open.stages[k]
            );
        }
        let accepted = accept && judged.win && (won_at.is_none() || paid_here);
        // A win at the console, before it is accepted: who would share it.
        let payout = match (judged.win, won_at, judged.at, queued) {
            (true, None, Some(face), _) if accepted => Some(self.payout(k, call, face)?),
            (true, None, Some(face), None) => Some(self.payout(k, call, face)?),
            _ => None,
        };
        let sharers = match &payout {
            Some(Event::Payout { winners, .. }) => winners[1..].to_vec(),
            _ => Vec::new(),
        };
        let payout = payout.filter(|_| accepted);
        let open = self.the_open()?;
        let game = open.game;
        let stage = open.stages[k].clone();
        // The claim, its payout and the game's move on are one append and
        // one fsync: a crash keeps all of them or none (and a log cut
        // between them, by an older hall, is completed on resume).
        let mut events = vec![Event::Claim {
            game,
            card: card.clone(),
            stage: stage.clone(),
            call,
            win: judged.win,
            reason: judged.reason.clone(),
            accepted,
            queued,
        }];
        // The payout this claim makes, if it makes one.
        let shown = payout.as_ref().and_then(super::payout::shown_of);
        if let Some(event) = payout {
            events.push(event);
            events.extend(self.move_on(k)?);
        }
        self.record_events(events)?;
        Ok(Verdict {
            card,
            win: judged.win,
            reason: judged.reason,
            label: judged.label,
            found: judged.at.is_some(),
            face: judged.face,
            stage,
            call,
            also_winning: sharers,
            accepted,
            queued,
            payout: shown.filter(|_| accepted),
        })
    }

    /// What a claim is judged on: the face, the stages, the call (a queued
    /// claim's, as it arrived).
    fn target(
        &self,
        card: Option<&str>,
        queued: Option<u64>,
        named: Option<&str>,
    ) -> Result<(String, Vec<usize>, usize), HallError> {
        let open = self.the_open()?;
        open.claimable()?;
        match (queued, card) {
            (Some(id), card) => {
                let w = self.queue.get(id).ok_or(HallError::NotWaiting(id))?;
                if let Some(given) = card.map(str::trim).filter(|g| *g != w.card) {
                    return Err(HallError::OtherCard {
                        id,
                        queued: w.card.clone(),
                        given: given.to_string(),
                    });
                }
                let stage = open.stages.iter().position(|s| *s == w.stage);
                Ok((w.card.clone(), vec![stage.unwrap_or(open.stage)], w.call))
            }
            (None, Some(card)) => Ok((
                card.trim().to_string(),
                open.candidates(named)?,
                open.called,
            )),
            (None, None) => Err(HallError::NoFace("name the card claimed".into())),
        }
    }

    /// What follows stage `k`'s payout: the next stage (stages in order,
    /// when `k` is the stage played), or the end after the last stage or
    /// when every prize open at once is won.
    fn move_on(&self, k: usize) -> Result<Option<Event>, HallError> {
        let open = self.the_open()?;
        let game = open.game;
        let all_won = (0..open.stages.len()).all(|j| j == k || open.won(j).is_some());
        let end = || Event::GameEnd {
            game,
            seed: open.seed.clone(),
        };
        Ok(match open.stages.get(k + 1) {
            _ if open.rules.concurrent => all_won.then(end),
            _ if k != open.stage => None,
            Some(stage) => Some(Event::Stage {
                game,
                stage: stage.clone(),
            }),
            None => Some(end()),
        })
    }

    /// Logs `events` at once; a game's end among them reveals its seed, so
    /// the seed file goes.
    fn record_events(&mut self, events: Vec<Event>) -> Result<(), HallError> {
        let ends = events
            .iter()
            .any(|e| matches!(e, Event::GameEnd { seed, .. } if !seed.is_empty()));
        self.record_all(events)?;
        if ends {
            let _ = std::fs::remove_file(super::secret::secret_path(self.log.path()));
        }
        Ok(())
    }

    /// A payout the log holds an accepted claim for but not the payout
    /// line (a crash between the two lines of an older hall): paid now,
    /// logged, and said on the console. Returns what it says.
    pub(super) fn complete_payout(&mut self) -> Result<Option<String>, HallError> {
        let Some((k, call, card)) = self.unpaid.take() else {
            return Ok(None);
        };
        let (_, judged) = self.judge_first(&card, &[k], call)?;
        let Some(face) = judged.at.filter(|_| judged.win) else {
            return Ok(None);
        };
        let mut events = vec![self.payout(k, call, face)?];
        events.extend(self.move_on(k)?);
        let stage = self.the_open()?.stages[k].clone();
        self.record_events(events)?;
        Ok(Some(format!(
            "the win of {stage} by {card:?} at call {call} was accepted, but the hall stopped before its payout was written: it is paid now"
        )))
    }

    /// `card` judged at `call` against each of `stages` in turn: the first
    /// it wins, else the first (with prizes open at once, the reason names
    /// the prize).
    fn judge_first(
        &self,
        card: &str,
        stages: &[usize],
        call: usize,
    ) -> Result<(usize, super::judge::Judged), HallError> {
        let open = self.the_open()?;
        let calls = open.calls_at(call);
        let mut first = None;
        for &k in stages {
            let judged = self
                .cards
                .judge(card, &open.patterns[k], &calls, open.last_call);
            if judged.win || judged.at.is_none() {
                return Ok((k, judged));
            }
            first.get_or_insert((k, judged));
        }
        let (k, mut judged) = first.ok_or(HallError::NoPrizeOpen(open.game))?;
        if open.rules.concurrent && stages.len() > 1 {
            judged.reason = format!(
                "no open prize is won; {}: {}",
                open.stages[k], judged.reason
            );
        }
        Ok((k, judged))
    }

    /// A player's claim on `card` from `client`: checked (a sold face of
    /// the hall's, an open game, within the caps), judged now, logged, and
    /// queued for the caller. Returns its place.
    pub fn bingo(&mut self, card: &str, client: Option<IpAddr>) -> Result<Status, HallError> {
        let open = self.the_open()?;
        open.claimable()?;
        let card = card.trim();
        let (f, n) = self.cards.find(card)?;
        if !self.cards.sold(f, n) {
            let noun = self.cards.files[f].header().spec.face_noun();
            return Err(HallError::NotSold { noun, face: n });
        }
        let candidates = open.candidates(None)?;
        let (k, judged) = self.judge_first(card, &candidates, open.called)?;
        self.queue.admits((f, n), client, judged.win)?;
        let open = self.the_open()?;
        let id = self.queue.last + 1;
        self.record(Event::Queued {
            game: open.game,
            id,
            card: card.to_string(),
            stage: open.stages[k].clone(),
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

    /// Rejects every waiting claim that was not a win when it arrived (a
    /// flood cleared in one action), logged in one write; returns how many.
    pub fn reject_not_wins(&mut self) -> Result<usize, HallError> {
        let open = self.the_open()?;
        let game = open.game;
        let events: Vec<Event> = (self.queue.waiting().iter())
            .filter(|w| !w.win)
            .map(|w| Event::Claim {
                game,
                card: w.card.clone(),
                stage: w.stage.clone(),
                call: w.call,
                win: false,
                reason: w.reason.clone(),
                accepted: false,
                queued: Some(w.id),
            })
            .collect();
        let n = events.len();
        if n > 0 {
            self.record_all(events)?;
        }
        Ok(n)
    }

    /// A claim read back from the log: listed, and a queued one decided;
    /// an accepted win whose prize is not paid yet noted, as its payout
    /// line must follow (one append), or the resume pays it.
    pub(super) fn replay_claim(&mut self, event: &Event) -> Result<(), &'static str> {
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
        if *accepted && *win {
            let open = self.open.as_ref().ok_or("a claim with no game open")?;
            let k = (open.stages.iter().position(|s| s == stage))
                .ok_or("a claim of no stage of the game")?;
            if open.won(k).is_none() {
                self.unpaid = Some((k, *call, card.clone()));
            }
        }
        self.claims.push(super::state::ClaimSeen {
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
