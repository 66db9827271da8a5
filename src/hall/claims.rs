//! Claims, as the shell carries them out: judged and decided by the books
//! ([`super::books`]), logged in one append, and what the console and the
//! phones read back (the queue, a claim's standing, a face).

use super::books::{ClaimAsked, Command};
use super::queue::{Status, Waiting};
use super::state::{FaceShown, Grid, Verdict, WinnerShown};
use super::{Event, Hall, HallError};
use crate::hall::event as ev;
use std::net::IpAddr;

impl Hall {
    /// Judges a claim on `card` (for the prize `named`, else the stage
    /// played or, with prizes open at once, every prize still open), or
    /// on the waiting claim `queued` (at the call and stage it arrived
    /// at). `accept` a win: its prize is paid as the game's rule of sharing
    /// says, and the game moves on. With `queued`, not accepting rejects it.
    pub fn claim(
        &mut self,
        card: Option<&str>,
        accept: bool,
        queued: Option<u64>,
        named: Option<&str>,
    ) -> Result<Verdict, HallError> {
        let asked = ClaimAsked {
            card: card.map(String::from),
            accept,
            queued,
            named: named.map(String::from),
        };
        let (verdict, events) = self.books.claim(&self.cards, &asked)?;
        self.record_events(events)?;
        if let (true, Some(payout)) = (verdict.accepted, &verdict.payout) {
            self.winner = Some(WinnerShown {
                game: self
                    .books
                    .open
                    .as_ref()
                    .map_or(self.books.games, |o| o.game),
                stage: verdict.stage.clone(),
                call: verdict.call,
                label: verdict
                    .label
                    .clone()
                    .unwrap_or_else(|| verdict.card.clone()),
                prize: payout.text.clone(),
                shared: payout.winners.len(),
                face: verdict.face.clone(),
                near: verdict.near.clone(),
            });
        }
        Ok(verdict)
    }

    /// A player's claim on `card` from `client`: checked (a sold face of
    /// the hall's, an open game, within the caps), judged now, logged, and
    /// queued for the caller. Returns its place.
    pub fn bingo(&mut self, card: &str, client: Option<IpAddr>) -> Result<Status, HallError> {
        let command = Command::Bingo {
            card: card.to_string(),
            client,
        };
        let events = self.execute(command)?;
        let Some(Event::Queued(ev::Queued { id, .. })) = events.first() else {
            unreachable!("a claim's event is its place in the queue")
        };
        let id = *id;
        // What the log does not hold: who sent it (for the caps) and its
        // face as judged.
        let face = self.books.queue.get(id).and_then(|w| self.face_of(w));
        if let Some(w) = self.books.queue.get_mut(id) {
            w.face = face;
            w.client = client;
        }
        Ok(self.books.queue.status(id).expect("just queued"))
    }

    /// Rejects every waiting claim that was not a win when it arrived (a
    /// flood cleared in one action), logged in one write; returns how many.
    pub fn reject_not_wins(&mut self) -> Result<usize, HallError> {
        Ok(self.execute(Command::RejectNotWins)?.len())
    }

    /// The payout an accepted win's line lacks (a crash of an older hall
    /// between the two lines), paid and logged; returns what the console
    /// says of it.
    pub(super) fn complete_payout(&mut self) -> Result<Option<String>, HallError> {
        let (events, said) = self.books.complete_payout(&self.cards)?;
        self.record_events(events)?;
        Ok(said)
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
        for w in list.iter_mut().filter(|w| w.face.is_none()) {
            w.face = self.face_of(w);
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
        let spec = self.cards.files[f].header().spec;
        // A face sold tonight for a later game is the player's: it plays
        // in its games.
        if !self.cards.sold(f, n) && !self.books.sold_tonight(f, n) {
            return Err(self.books.not_sold(&self.cards, f, n));
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
