//! The shell's side of the session's money: a sale, return or void logged
//! as the books decide it, the faces each game plays handed to the judge
//! and the tracker when it starts, and each progressive jackpot's night
//! written to the ledger once its game has ended in the log.

use super::books::Command;
use super::sales::jackpot::{Pot, Progressive};
use super::sales::ledger::Ledger;
use super::sales::Move;
use super::{track, Event, Hall, HallError};

impl Hall {
    /// Opens the jackpot ledger at `path` when the night plays
    /// `progressives` (refused without one), beginning those it does not
    /// hold: the pots as they stand, for the session's line.
    pub(super) fn open_ledger(
        &mut self,
        path: Option<&std::path::Path>,
        progressives: &[Progressive],
    ) -> Result<Vec<Pot>, HallError> {
        let Some(first) = progressives.first() else {
            return Ok(Vec::new());
        };
        let path = path.ok_or_else(|| HallError::NoLedger(first.name.clone()))?;
        let failed = |source| HallError::Ledger {
            path: path.display().to_string(),
            source,
        };
        let mut ledger = Ledger::open(path, self.balls()).map_err(failed)?;
        ledger.begin(progressives).map_err(failed)?;
        let pots = (progressives.iter())
            .filter_map(|p| ledger.standing.pots.iter().find(|q| q.rules.name == p.name))
            .cloned()
            .collect();
        self.ledger = Some(ledger);
        Ok(pots)
    }

    /// A sale, return or void of paper, logged: its line.
    pub fn sell(&mut self, m: Move) -> Result<Event, HallError> {
        let mut events = self.execute(Command::Sell(m))?;
        Ok(events.pop().expect("a sale's event"))
    }

    /// The head count, logged.
    pub fn attendance(&mut self, count: u64) -> Result<(), HallError> {
        self.execute(Command::Attendance(count)).map(drop)
    }

    /// The night's books (sales, jackpots), for its pages.
    pub fn books(&self) -> &super::books::Books {
        &self.books
    }

    /// After the log is read back: on a night of `products`, the faces
    /// the open (or last) game plays, none before the first (products
    /// other than those its sales were made under are refused); then the
    /// tracker, built on the sold faces.
    pub(super) fn follow_products(
        &mut self,
        products: &[super::sales::Product],
    ) -> Result<(), HallError> {
        if !products.is_empty() {
            if !self.books.sales.list.is_empty() && self.books.sales.products != products {
                return Err(HallError::ProductsChanged);
            }
            self.cards.sold = Some(self.books.take_sold().unwrap_or_default());
        }
        self.cards.tracker = track::Tracker::build(&self.cards.files, self.cards.sold.as_deref())?
            .map(track::Follower::start);
        self.track();
        Ok(())
    }

    /// Hands the faces the game just started plays to the judge and the
    /// tracker (rebuilt when they changed), on a night that sells by
    /// serial range.
    pub(super) fn follow_sold(&mut self) -> Result<(), HallError> {
        let Some(sold) = self.books.take_sold() else {
            return Ok(());
        };
        if self.cards.sold.as_ref() == Some(&sold) && self.cards.tracker.is_some() {
            return Ok(());
        }
        self.cards.sold = Some(sold);
        self.cards.tracker = None;
        self.cards.tracker = track::Tracker::build(&self.cards.files, self.cards.sold.as_deref())?
            .map(track::Follower::start);
        self.tracked_at = None;
        self.tracked = 0;
        self.track();
        Ok(())
    }

    /// Writes each progressive jackpot's game ended tonight to the
    /// ledger, unless it holds it already (a crash between the two).
    pub(super) fn settle_jackpots(&mut self) -> Result<(), HallError> {
        let (Some(ledger), Some(night)) = (self.ledger.as_mut(), self.books.night_id()) else {
            return Ok(());
        };
        let title = self.night.as_ref().map_or("", |n| n.title.as_str());
        for outcome in self.books.outcomes() {
            ledger
                .record(night, title, outcome)
                .map_err(|source| HallError::Ledger {
                    path: ledger.path().display().to_string(),
                    source,
                })?;
        }
        Ok(())
    }
}
