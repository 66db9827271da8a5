//! The shell's side of the paper stock (`--stock`): the book opened with
//! the night, a sale refused when its faces are not on hand, and the book
//! brought up to the log's sales once they are logged (or when the hall
//! opens a log the book fell behind).

use super::books::Command;
use super::event::Event;
use super::sales::Move;
use super::shell::Hall;
use super::stock::{Faces, Stock, StockError, StockNight};
use super::{HallError, Refusal};
use std::path::Path;

/// Why the book follows: the faces that came back in the log's words.
const BEHIND: &str =
    "the night's log holds them unsold (the hall stopped before the stock book was written)";

impl Hall {
    /// Opens the stock book at `path` for a night that sells by serial
    /// range from the first card file, and brings it up to the log's sales.
    pub(super) fn open_stock(&mut self, path: Option<&Path>) -> Result<(), HallError> {
        let Some(path) = path else { return Ok(()) };
        let shown = path.display().to_string();
        let failed = |source| HallError::Stock {
            path: shown.clone(),
            source,
        };
        let refused = |why: String| failed(StockError::Refused(why));
        if (self.night.as_ref()).is_none_or(|n| n.products.is_empty()) {
            return Err(refused("the night sells nothing by serial range: give --night a file with [[product]]s, whose sales the stock then issues".into()));
        }
        if !path.is_file() {
            return Err(refused(format!(
                "there is no stock book here yet: receive the night's paper into it first (bingomint hall stock receive {shown} --cards {})",
                self.cards.files[0].path()
            )));
        }
        let log = self.log.path();
        if std::fs::canonicalize(path).ok() == std::fs::canonicalize(log).ok() {
            return Err(refused(
                "it is the log itself: give the stock book a file of its own".into(),
            ));
        }
        let stock = Stock::open(path).map_err(failed)?;
        let file = &self.cards.files[0];
        if stock.standing.paper(&file.short_id()).is_none() {
            let why = super::stock::no_paper(&file.short_id(), file.path());
            return Err(refused(why.replace("STOCK", &shown)));
        }
        self.stock = Some(stock);
        self.follow_stock(BEHIND)
    }

    /// Refuses `events` when they sell faces the stock does not have on
    /// hand for this night.
    pub(super) fn stock_allows(&self, events: &[Event]) -> Result<(), HallError> {
        let (Some(stock), Some(night)) = (self.stock.as_ref(), self.books.night_id()) else {
            return Ok(());
        };
        let id = self.cards.files[0].short_id();
        let Some(paper) = stock.standing.paper(&id) else {
            return Ok(());
        };
        for e in events {
            if let Event::Sale(s) = e {
                if let Some(why) = paper.refuse(night, &Faces::of([s.first..=s.last])) {
                    return Err(Refusal::Stock(why).into());
                }
            }
        }
        Ok(())
    }

    /// When the night keeps a stock and `command` is a sale, return or
    /// void: the words for faces it brings back, once it is logged
    /// ([`Hall::follow_stock`] then brings the book to the night's sales).
    pub(super) fn stock_why(&self, command: &Command) -> Option<String> {
        self.stock.as_ref()?;
        match command {
            Command::Sell(Move::Return { .. }) => Some("returned".to_string()),
            Command::Sell(Move::Void { reason, .. }) => Some(format!("voided: {reason}")),
            Command::Sell(Move::Sale { .. }) => Some(BEHIND.to_string()),
            _ => None,
        }
    }

    /// Brings the book to the faces the night's sales hold (`why` the
    /// words for those that came back).
    pub(super) fn follow_stock(&mut self, why: &str) -> Result<(), HallError> {
        let (Some(stock), Some(night)) = (self.stock.as_mut(), self.books.night_id()) else {
            return Ok(());
        };
        let sold = Faces::of(self.books.sales.list.iter().flat_map(|s| s.held()));
        let file = &self.cards.files[0];
        let id = file.short_id();
        let log = self.log.path().display().to_string();
        let title = self.night.as_ref().map_or("", |n| n.title.as_str());
        let at = StockNight {
            night,
            title,
            log: &log,
            cards: &id,
            path: file.path(),
        };
        let path = stock.path().display().to_string();
        (stock.follow(&at, &sold, why)).map_err(|source| HallError::Stock { path, source })
    }
}
