//! The stock book as a file: opened and locked by the hall or the office's
//! command, written line by line; and its check against the nights' logs
//! (`hall verify --stock`).

use super::{Back, Destroyed, Faces, Issued, Received, Standing, StockEvent};
use crate::hall::log::{Log, LogError};
use std::path::Path;

/// Why a stock book cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StockError {
    #[error(transparent)]
    Log(#[from] LogError),
    #[error("line {line}: {why}")]
    Bad { line: u64, why: String },
    #[error("{0}")]
    Refused(String),
    #[error("cannot write the stock book: {0}")]
    Write(#[from] std::io::Error),
}

/// An open stock book: locked while it is open.
pub struct Stock {
    log: Log,
    pub standing: Standing,
}

impl Stock {
    /// Opens (or creates) the book at `path`.
    pub fn open(path: &Path) -> Result<Stock, StockError> {
        let opened = Log::open(path)?;
        let standing =
            Standing::of(&opened.lines).map_err(|(line, why)| StockError::Bad { line, why })?;
        Ok(Stock {
            log: opened.log,
            standing,
        })
    }

    pub fn path(&self) -> &Path {
        self.log.path()
    }

    /// Writes `event` once the book agrees it follows from its lines.
    pub fn write(&mut self, event: StockEvent) -> Result<(), StockError> {
        let mut after = self.standing.clone();
        after
            .step(&event, &crate::hall::log::now())
            .map_err(StockError::Refused)?;
        let line = self.log.append(event)?;
        // The line's own time, as a reader of the book will see it.
        self.standing
            .step(&line.event, &line.time)
            .map_err(|why| StockError::Bad {
                line: line.seq,
                why,
            })
    }

    /// Receives `faces` of the card file `cards` (its id, at `path`).
    pub fn receive(
        &mut self,
        (cards, path): (&str, &str),
        faces: &Faces,
        series: Option<String>,
        note: Option<String>,
    ) -> Result<(), StockError> {
        self.write(StockEvent::StockReceived(Received {
            cards: cards.to_string(),
            path: path.to_string(),
            series,
            faces: faces.pairs(),
            note,
        }))
    }

    /// Destroys `faces` of `cards` on hand, for `why`.
    pub fn destroy(&mut self, cards: &str, faces: &Faces, why: &str) -> Result<(), StockError> {
        self.write(StockEvent::StockDestroyed(Destroyed {
            cards: cards.to_string(),
            faces: faces.pairs(),
            why: why.to_string(),
        }))
    }

    /// Brings the session `night`'s paper to `sold`, the faces its log
    /// holds sold: the faces new to it issued, those no longer sold come
    /// back (for `why`). Refused, writing nothing, when a face new to it
    /// is not on hand.
    pub fn follow(
        &mut self,
        night: &StockNight,
        sold: &Faces,
        why: &str,
    ) -> Result<(), StockError> {
        let paper = (self.standing.paper(night.cards))
            .ok_or_else(|| StockError::Refused(no_paper(night.cards, night.path)))?;
        let holds = (paper.session(night.night))
            .map(|s| s.holds.clone())
            .unwrap_or_default();
        let new = sold.minus(&holds);
        let back = holds.minus(sold);
        if let Some(why) = paper.refuse(night.night, &new) {
            return Err(StockError::Refused(why));
        }
        if !back.is_empty() {
            self.write(StockEvent::StockBack(Back {
                cards: night.cards.to_string(),
                night: night.night.to_string(),
                faces: back.pairs(),
                why: why.to_string(),
            }))?;
        }
        if !new.is_empty() {
            self.write(StockEvent::StockIssued(Issued {
                cards: night.cards.to_string(),
                night: night.night.to_string(),
                title: night.title.to_string(),
                log: night.log.to_string(),
                faces: new.pairs(),
            }))?;
        }
        Ok(())
    }
}

/// `the stock holds no paper of card file ID ('cards.bmc')…`.
pub fn no_paper(cards: &str, path: &str) -> String {
    format!(
        "the stock holds no paper of card file {cards} ('{path}'): receive it first (bingomint hall stock receive STOCK --cards {path})"
    )
}

/// A session as the stock knows it: its night's id and title, its log,
/// and the card file it sells from (id and path).
#[derive(Clone, Copy, Debug)]
pub struct StockNight<'a> {
    pub night: &'a str,
    pub title: &'a str,
    pub log: &'a str,
    pub cards: &'a str,
    pub path: &'a str,
}

/// A night's log as `hall verify` found it: its session and the faces it
/// holds sold.
pub struct NightSold<'a> {
    pub night: StockNight<'a>,
    pub sold: Faces,
}

/// Checks the book `text` (its chain, each line following from those
/// before) against the nights' logs: each night's faces sold are those
/// the book holds issued to it. The book's standing, or the line (0: none)
/// and what is wrong.
pub fn check(text: &str, nights: &[NightSold]) -> Result<Standing, (u64, String)> {
    let (lines, _) = crate::hall::log::read::<StockEvent>(text).map_err(|e| match e {
        LogError::Bad { line, why } => (line, why),
        e => (0, e.to_string()),
    })?;
    let standing = Standing::of(&lines)?;
    for n in nights {
        let held = (standing.paper(n.night.cards))
            .and_then(|p| p.session(n.night.night))
            .map(|s| s.holds.clone())
            .unwrap_or_default();
        if held != n.sold {
            // The last line of the night's, to name.
            let line = (lines.iter().rev())
                .find(|l| match &l.event {
                    StockEvent::StockIssued(i) => i.night == n.night.night,
                    StockEvent::StockBack(b) => b.night == n.night.night,
                    _ => false,
                })
                .map_or(0, |l| l.seq);
            return Err((
                line,
                format!(
                    "'{}' holds faces {} sold, but the stock holds {} issued to its night {}",
                    n.night.log,
                    n.sold.words(),
                    held.words(),
                    n.night.night
                ),
            ));
        }
    }
    Ok(standing)
}
