//! Claims, as the shell carries them out: judged and decided by the books
//! ([`super::books`]), logged in one append, and what the console and the
//! phones read back (the queue, a claim's standing, a face).

use super::books::{Answer, ClaimAsked, Command};
use super::queue::{client_of, Status, Waiting};
use super::shell::Hall;
use super::state::{FaceShown, Grid, Verdict, WinnerShown};
use super::HallError;
use std::net::IpAddr;

impl Hall {
    /// Judges a claim on `card` (for the prize `named`, else the stage
    /// played or, with prizes open at once, every prize still open), or
    /// on the waiting claim `queued` (at the call and stage it arrived
    /// at). `accept` a win: its prize is paid as the game's rule of sharing
    /// says, and the game moves on. With `queued`, not accepting rejects it.
    pub fn claim(&mut self, asked: ClaimAsked) -> Result<Verdict, HallError> {
        match self.execute(Command::Claim(asked))? {
            Answer::Judged(verdict) => Ok(*verdict),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }

    /// Shows an accepted win to the room, until the next call or game.
    pub(super) fn show_winner(&mut self, verdict: &Verdict) {
        let (true, Some(payout)) = (verdict.accepted, &verdict.payout) else {
            return;
        };
        self.winner = Some(WinnerShown {
            game: (self.books.open.as_ref()).map_or(self.books.games, |o| o.game),
            stage: verdict.stage.clone(),
            call: verdict.call,
            label: (verdict.label.clone()).unwrap_or_else(|| verdict.card.clone()),
            prize: payout.text.clone(),
            shared: payout.winners.len(),
            face: verdict.face.clone(),
            near: verdict.near.clone(),
        });
    }

    /// A player's claim on `card` from `client`: checked (a sold face of
    /// the hall's, an open game, within the caps), judged now, logged, and
    /// queued for the caller. Returns its place.
    pub fn bingo(
        &mut self,
        card: &str,
        client: Option<IpAddr>,
        device: Option<&str>,
    ) -> Result<Status, HallError> {
        // Who sent each claim is the shell's (the log does not hold it):
        // the claims still waiting from this client.
        let queue = &self.books.queue;
        self.senders.retain(|id, _| queue.get(*id).is_some());
        let client = client.map(client_of);
        let client_waiting = match client {
            Some(c) => self.senders.values().filter(|s| **s == c).count(),
            None => 0,
        };
        let command = Command::Bingo {
            card: card.to_string(),
            client_waiting,
            device: device.map(String::from),
        };
        let id = match self.execute(command)? {
            Answer::Queued(id) => id,
            other => return Err(HallError::Internal(format!("{other:?}"))),
        };
        if let Some(c) = client {
            self.senders.insert(id, c);
        }
        // Its face as judged, drawn once now (the console reads the queue
        // often).
        let face = self.books.queue.get(id).and_then(|w| self.face_of(w));
        self.faces.insert(id, face);
        (self.books.queue.status(id)).ok_or_else(|| HallError::Internal(format!("claim {id}")))
    }

    /// Rejects every waiting claim that was not a win when it arrived (a
    /// flood cleared in one action), logged in one write; returns how many.
    pub fn reject_not_wins(&mut self) -> Result<usize, HallError> {
        match self.execute(Command::RejectNotWins)? {
            Answer::Rejected(n) => Ok(n),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
    }

    /// A waiting claim's face, marked at the call it arrived at.
    fn face_of(&self, w: &Waiting) -> Option<Grid> {
        let open = self.books.open.as_ref()?;
        let stage = open.stages.iter().position(|s| *s == w.stage)?;
        let calls = open.calls_at(w.call);
        self.cards
            .judge(&w.card, &open.patterns[stage], &calls, open.last_call)
            .face
    }

    /// The claims waiting for the caller, in arrival order, each with its
    /// face marked at the call it arrived at; the first waiting win of
    /// each prize not paid yet with the split Accept would pay (found
    /// again only when the log has moved on: all holders is a scan).
    pub fn waiting(&mut self) -> Vec<Waiting> {
        let mut list: Vec<Waiting> = self.books.queue.waiting().iter().cloned().collect();
        let ids: std::collections::HashSet<u64> = list.iter().map(|w| w.id).collect();
        self.faces.retain(|id, _| ids.contains(id));
        for w in list.iter_mut() {
            if !self.faces.contains_key(&w.id) {
                let face = self.face_of(w);
                self.faces.insert(w.id, face);
            }
            w.face = self.faces[&w.id].clone();
        }
        let seq = self.log.seq();
        if self.splits.0 != seq || seq == 0 {
            let mut seen = Vec::new();
            let mut splits = Vec::new();
            for w in list.iter().filter(|w| w.win) {
                if !seen.contains(&&w.stage) {
                    seen.push(&w.stage);
                    if let Some(text) = self.books.split(&self.cards, w.id) {
                        splits.push((w.id, text));
                    }
                }
            }
            self.splits = (seq, splits);
        }
        for (id, text) in &self.splits.1 {
            if let Some(w) = list.iter_mut().find(|w| w.id == *id) {
                w.split = Some(text.clone());
            }
        }
        list
    }

    /// Where the player's claim `id` stands.
    pub fn status(&self, id: u64) -> Option<Status> {
        self.books.queue.status(id)
    }

    /// The face `card` names, as a phone adds it: a sold face of the
    /// hall's files.
    pub fn face(&self, card: &str) -> Result<FaceShown, HallError> {
        let (f, n) = self.cards.find(card.trim())?;
        if let Some((pack, _)) = self.books.sales().pack_of(n).filter(|_| f == 0) {
            let face = super::sales::SaleError::PackFace {
                face: n,
                pack: pack.sale,
            };
            return Err(super::Refusal::Sale(face).into());
        }
        self.face_at(f, n)
    }

    /// Face `n` of file `f`, sold tonight, as a phone adds it.
    pub(in crate::hall) fn face_at(&self, f: usize, n: u64) -> Result<FaceShown, HallError> {
        let spec = self.cards.files[f].header().spec;
        // A face sold tonight for a later game is the player's: it plays
        // in its games.
        if !self.cards.sold(f, n) && !self.books.sold_tonight(f, n) {
            return Err(self.books.not_sold(&self.cards, f, n).into());
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
