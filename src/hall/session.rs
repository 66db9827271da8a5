//! The shell's side of the session's money: a sale, return or void logged
//! as the books decide it, the faces each game plays handed to the judge
//! and the tracker when it starts, and each progressive jackpot's night
//! written to the ledger once its game has ended in the log.

use super::books::{Answer, Command};
use super::refusal::Refusal;
use super::sales::jackpot::{Pot, Progressive};
use super::sales::ledger::{Ledger, LedgerError};
use super::sales::Move;
use super::shell::Hall;
use super::{track, Event, HallError};
use crate::hall::event as ev;
use std::path::{Path, PathBuf};

impl Hall {
    /// Opens the jackpot ledger at `path` when the night plays
    /// `progressives` (refused without one), beginning those it does not
    /// hold: the pots as they stand, for the session's line.
    pub(super) fn open_ledger(
        &mut self,
        path: Option<&Path>,
        progressives: &[Progressive],
        new_ledger: bool,
    ) -> Result<Vec<Pot>, HallError> {
        let Some(first) = progressives.first() else {
            return Ok(Vec::new());
        };
        let path = path.ok_or_else(|| Refusal::NoLedger(first.name.clone()))?;
        let failed = |source| HallError::Ledger {
            path: path.display().to_string(),
            source,
        };
        let log = self.log.path();
        if std::fs::canonicalize(path).ok() == std::fs::canonicalize(log).ok() {
            return Err(HallError::LedgerIsLog(path.display().to_string()));
        }
        if !path.exists() {
            let names: Vec<&str> = progressives.iter().map(|p| p.name.as_str()).collect();
            if let (false, Some((night, name))) = (new_ledger, carried(log, &names)) {
                return Err(HallError::LedgerMissing {
                    path: path.display().to_string(),
                    night: night.display().to_string(),
                    name,
                });
            }
            let begun = format!(
                "a new jackpot ledger '{}' was begun: {} start{} at {} seed{}",
                path.display(),
                names
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if names.len() == 1 { "s" } else { "" },
                if names.len() == 1 { "its" } else { "their" },
                if names.len() == 1 { "" } else { "s" },
            );
            self.notice = Some(match self.notice.take() {
                Some(n) => format!("{n}; {begun}"),
                None => begun,
            });
        }
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
        match self.execute(Command::Sell(m))? {
            Answer::Sold(line) => Ok(*line),
            other => Err(HallError::Internal(format!("{other:?}"))),
        }
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

    /// Refuses to open a night while another night has one of its
    /// progressive jackpots in play, its outcome not in the ledger (a
    /// hall cut short between its log and its ledger): that night's
    /// outcome is written first, by opening the hall on its log.
    pub(super) fn no_jackpot_in_play(&self, progressives: &[Progressive]) -> Result<(), HallError> {
        let Some(ledger) = self.ledger.as_ref() else {
            return Ok(());
        };
        let night = self.books.night_id().unwrap_or("");
        for p in progressives {
            if let Some(other) = ledger.standing.in_play(&p.name, night) {
                return Err(self.ledger_error(LedgerError::Refused {
                    name: p.name.clone(),
                    why: format!(
                        "{} has it in play and its outcome is not in the ledger (that hall was cut short): open the hall on that log first, which writes its outcome, then this night",
                        other.words()
                    ),
                }));
            }
        }
        Ok(())
    }

    /// Writes to the ledger that the game `events` start plays its
    /// progressive jackpot (if it does), before its start is logged.
    pub(super) fn play_jackpot(&mut self, events: &[Event]) -> Result<(), HallError> {
        let Some((game, name)) = events.iter().find_map(|e| match e {
            Event::GameStart(ev::GameStart { game, rules, .. }) => {
                rules.progressive.as_ref().map(|p| (*game, p.name.clone()))
            }
            _ => None,
        }) else {
            return Ok(());
        };
        let opened = (self.books.pots.iter().find(|p| p.rules.name == name))
            .cloned()
            .ok_or_else(|| Refusal::NoLedger(name.clone()))?;
        let night = self.books.night_id().unwrap_or("").to_string();
        let title = self
            .night
            .as_ref()
            .map_or("", |n| n.title.as_str())
            .to_string();
        let log = self.log.path().display().to_string();
        let Some(ledger) = self.ledger.as_mut() else {
            return Err(Refusal::NoLedger(name).into());
        };
        let played = ledger.play(&night, &title, &log, game, &opened);
        played.map_err(|e| self.ledger_error(e))
    }

    fn ledger_error(&self, source: LedgerError) -> HallError {
        HallError::Ledger {
            path: (self.ledger.as_ref()).map_or(String::new(), |l| l.path().display().to_string()),
            source,
        }
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

/// A night in the folder of `log` (another log) whose hall opened on a
/// ledger carrying one of the jackpots `names`, and that jackpot: its
/// first line read, nothing more (a card file's first bytes are no line).
fn carried(log: &Path, names: &[&str]) -> Option<(PathBuf, String)> {
    use std::io::{BufRead, Read};
    let dir = log.parent().filter(|d| !d.as_os_str().is_empty());
    let entries = std::fs::read_dir(dir.unwrap_or(Path::new("."))).ok()?;
    for entry in entries.flatten() {
        let path = entry.path();
        if Some(entry.file_name().as_os_str()) == log.file_name()
            || !entry.file_type().is_ok_and(|t| t.is_file())
        {
            continue;
        }
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        let mut first = Vec::new();
        let mut head = std::io::BufReader::new(file.take(1 << 20));
        if head.read_until(b'\n', &mut first).is_err() || !first.starts_with(b"{") {
            continue;
        }
        let Ok(line) = serde_json::from_slice::<serde_json::Value>(&first) else {
            continue;
        };
        let pots = line["jackpots"].as_array().into_iter().flatten();
        let named = pots.filter_map(|p| p["rules"]["name"].as_str());
        if let Some(name) = named.into_iter().find(|n| names.contains(n)) {
            return Some((path, name.to_string()));
        }
    }
    None
}
