//! The paper stock: a book of the hall's paper kept across sessions, in a
//! file of its own chained like the log (the same lines, lock and fsync)
//! beside the jackpot ledger. Paper is received by serial range (and
//! series) from `bingomint hall stock receive`, destroyed by `stock
//! destroy`, and issued to each session as it sells: a `stock_issued` line
//! when a sale is logged, a `stock_back` line when a sale's faces come
//! back (returned or voided). A face issued to one session cannot be sold
//! in another unless the book says it came back; [`Standing::refuse`]
//! says why not.
//!
//! The log first, then the book: a session's sales are checked against
//! the book before they are logged, and the book follows the log once they
//! are. A crash between the two leaves the book behind the log, and the
//! hall brings it up to date ([`Stock::follow`]) when it opens that log
//! again.

mod book;
pub mod faces;
#[cfg(test)]
mod tests;

pub use book::{check, no_paper, NightSold, Stock, StockError, StockNight};
pub use faces::Faces;

use serde::{Deserialize, Serialize};

/// One line of a paper stock book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum StockEvent {
    /// Paper received into stock.
    StockReceived(Received),
    /// Faces sold in a session.
    StockIssued(Issued),
    /// Faces a session sold that came back (returned or voided).
    StockBack(Back),
    /// Paper on hand destroyed.
    StockDestroyed(Destroyed),
}

/// Paper received: faces of the card file `cards` (its id), by range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Received {
    pub cards: String,
    /// The card file as it was named when received.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
    pub faces: Vec<(u64, u64)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Faces sold in the session of `night` (the night's id), titled
/// `title`, its log at `log`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issued {
    pub cards: String,
    pub night: String,
    pub title: String,
    pub log: String,
    pub faces: Vec<(u64, u64)>,
}

/// Faces of `night`'s session that came back, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Back {
    pub cards: String,
    pub night: String,
    pub faces: Vec<(u64, u64)>,
    pub why: String,
}

/// Faces on hand destroyed, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Destroyed {
    pub cards: String,
    pub faces: Vec<(u64, u64)>,
    pub why: String,
}

/// A receipt of paper, as the book holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub time: String,
    pub series: Option<String>,
    pub faces: Faces,
    pub note: Option<String>,
}

/// Paper destroyed, as the book holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub time: String,
    pub faces: Faces,
    pub why: String,
}

/// One session's paper: what it holds sold now, and what was issued to it
/// and came back over the night.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub night: String,
    pub title: String,
    pub log: String,
    /// When its first faces were issued.
    pub first: String,
    /// The faces it holds sold.
    pub holds: Faces,
    /// Faces issued to it, line by line (a face sold, returned and sold
    /// again counts twice).
    pub issued: u64,
    /// Faces that came back, line by line.
    pub back: u64,
}

impl Session {
    /// `night 1a2b… ("Tuesday session", log 'tue.jsonl')`.
    pub fn words(&self) -> String {
        format!(
            "night {} ({:?}, log '{}')",
            self.night, self.title, self.log
        )
    }
}

/// One card file's paper in the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paper {
    pub cards: String,
    pub path: String,
    pub received: Vec<Receipt>,
    pub destroyed: Vec<Loss>,
    pub sessions: Vec<Session>,
}

impl Paper {
    /// Every face received.
    pub fn all_received(&self) -> Faces {
        Faces::of(self.received.iter().flat_map(|r| r.faces.ranges().to_vec()))
    }

    /// Every face destroyed.
    pub fn all_destroyed(&self) -> Faces {
        Faces::of(
            self.destroyed
                .iter()
                .flat_map(|d| d.faces.ranges().to_vec()),
        )
    }

    /// The faces sold in some session and not come back.
    pub fn all_sold(&self) -> Faces {
        Faces::of(self.sessions.iter().flat_map(|s| s.holds.ranges().to_vec()))
    }

    /// Received, not destroyed, not held by any session.
    pub fn on_hand(&self) -> Faces {
        (self.all_received())
            .minus(&self.all_destroyed())
            .minus(&self.all_sold())
    }

    pub fn session(&self, night: &str) -> Option<&Session> {
        self.sessions.iter().find(|s| s.night == night)
    }

    /// Why `faces` cannot be issued to the session of `night`: the first
    /// of them never received, destroyed, or held by another session
    /// (None: they are on hand, or `night`'s already).
    pub fn refuse(&self, night: &str, faces: &Faces) -> Option<String> {
        let mine = self
            .session(night)
            .map(|s| s.holds.clone())
            .unwrap_or_default();
        let wanted = faces.minus(&mine);
        let never = wanted.minus(&self.all_received());
        if !never.is_empty() {
            return Some(format!(
                "faces {} of '{}' were never received into the stock: receive them first (bingomint hall stock receive)",
                never.words(),
                self.path
            ));
        }
        let gone = wanted.and(&self.all_destroyed());
        if let Some(loss) = (self.destroyed.iter()).find(|d| !d.faces.and(&gone).is_empty()) {
            return Some(format!(
                "faces {} were destroyed ({}, {})",
                loss.faces.and(&gone).words(),
                loss.why,
                day(&loss.time)
            ));
        }
        let other = (self.sessions.iter())
            .filter(|s| s.night != night)
            .find(|s| !s.holds.and(&wanted).is_empty())?;
        Some(format!(
            "faces {} were sold in an earlier session, {}, and the stock does not say they came back{SELL_OTHER}",
            other.holds.and(&wanted).words(),
            other.words()
        ))
    }
}

/// The seller's advice ending a refusal of faces another session holds.
const SELL_OTHER: &str = ": sell other paper";

/// The date of a line's time (`2026-11-25`).
fn day(time: &str) -> &str {
    time.get(..10).unwrap_or(time)
}

/// The book's lines read in order: each card file's paper.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub papers: Vec<Paper>,
}

impl Standing {
    /// Reads `lines`, checking each follows from those before it.
    pub fn of(lines: &[crate::hall::log::Line<StockEvent>]) -> Result<Standing, (u64, String)> {
        let mut s = Standing::default();
        for line in lines {
            (s.step(&line.event, &line.time)).map_err(|why| (line.seq, why))?;
        }
        Ok(s)
    }

    /// Every time the book holds rewritten by `local` (a report's zone).
    pub fn localise(&mut self, local: impl Fn(&str) -> String) {
        for p in &mut self.papers {
            p.received.iter_mut().for_each(|r| r.time = local(&r.time));
            p.destroyed.iter_mut().for_each(|d| d.time = local(&d.time));
            p.sessions
                .iter_mut()
                .for_each(|s| s.first = local(&s.first));
        }
    }

    pub fn paper(&self, cards: &str) -> Option<&Paper> {
        self.papers.iter().find(|p| p.cards == cards)
    }

    fn paper_mut(&mut self, cards: &str) -> Result<&mut Paper, String> {
        (self.papers.iter_mut())
            .find(|p| p.cards == cards)
            .ok_or_else(|| format!("card file {cards} was never received into the stock"))
    }

    /// One line of the book at `time`, following from those before it:
    /// paper is received once; only paper on hand is issued or
    /// destroyed; only a session's own faces come back from it.
    pub fn step(&mut self, event: &StockEvent, time: &str) -> Result<(), String> {
        let faces = |pairs: &[(u64, u64)]| match Faces::from_pairs(pairs) {
            Some(f) if !f.is_empty() => Ok(f),
            _ => Err("its faces are no ranges low to high".to_string()),
        };
        match event {
            StockEvent::StockReceived(r) => {
                let got = faces(&r.faces)?;
                if self.paper(&r.cards).is_none() {
                    self.papers.push(Paper {
                        cards: r.cards.clone(),
                        path: r.path.clone(),
                        received: Vec::new(),
                        destroyed: Vec::new(),
                        sessions: Vec::new(),
                    });
                }
                let paper = self.paper_mut(&r.cards)?;
                let twice = got.and(&paper.all_received());
                if !twice.is_empty() {
                    return Err(format!(
                        "faces {} of '{}' are received twice",
                        twice.words(),
                        paper.path
                    ));
                }
                paper.received.push(Receipt {
                    time: time.to_string(),
                    series: r.series.clone(),
                    faces: got,
                    note: r.note.clone(),
                });
            }
            StockEvent::StockIssued(i) => {
                let got = faces(&i.faces)?;
                let paper = self.paper_mut(&i.cards)?;
                let mine = paper.session(&i.night).map(|s| s.holds.clone());
                if let Some(why) = paper.refuse(&i.night, &got) {
                    // The book's words, without the seller's advice.
                    let why = why.trim_end_matches(SELL_OTHER);
                    return Err(format!("issued to night {}: {why}", i.night));
                }
                if !got.and(&mine.unwrap_or_default()).is_empty() {
                    return Err(format!(
                        "faces {} are issued to night {} twice",
                        got.words(),
                        i.night
                    ));
                }
                let at = match paper.sessions.iter().position(|s| s.night == i.night) {
                    Some(at) => at,
                    None => {
                        paper.sessions.push(Session {
                            night: i.night.clone(),
                            title: i.title.clone(),
                            log: i.log.clone(),
                            first: time.to_string(),
                            holds: Faces::default(),
                            issued: 0,
                            back: 0,
                        });
                        paper.sessions.len() - 1
                    }
                };
                let s = &mut paper.sessions[at];
                s.holds = s.holds.union(&got);
                s.issued += got.count();
            }
            StockEvent::StockBack(b) => {
                let got = faces(&b.faces)?;
                let paper = self.paper_mut(&b.cards)?;
                let s = (paper.sessions.iter_mut())
                    .find(|s| s.night == b.night)
                    .ok_or_else(|| format!("night {} was issued no paper", b.night))?;
                let not = got.minus(&s.holds);
                if !not.is_empty() {
                    return Err(format!(
                        "faces {} come back from night {}, which does not hold them",
                        not.words(),
                        b.night
                    ));
                }
                s.holds = s.holds.minus(&got);
                s.back += got.count();
            }
            StockEvent::StockDestroyed(d) => {
                let got = faces(&d.faces)?;
                let paper = self.paper_mut(&d.cards)?;
                let off = got.minus(&paper.on_hand());
                if !off.is_empty() {
                    let why = paper.refuse("", &off).unwrap_or_default();
                    return Err(format!("destroyed faces not on hand: {why}"));
                }
                paper.destroyed.push(Loss {
                    time: time.to_string(),
                    faces: got,
                    why: d.why.clone(),
                });
            }
        }
        Ok(())
    }
}
