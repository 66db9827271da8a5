//! The night's log read back in order: one replay every reader folds
//! over (the record, its money, the WA form, the games a log revealed,
//! and the night the hall finds on opening). `hall verify` keeps its own
//! checker and does not trust this one.

use super::event::{self as ev, Event};
use super::log::Line;
use crate::play::calls::Calls;

/// One line of a log in its place: the line, and the game it belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub line: &'a Line<Event>,
    /// The last game started at or before this line (its own start line
    /// included); None before the night's first game.
    pub game: Option<&'a ev::GameStart>,
    /// That game's room seed, once given.
    pub room_seed: Option<&'a str>,
}

impl<'a> Step<'a> {
    /// The line's event.
    pub fn event(&self) -> &'a Event {
        &self.line.event
    }

    /// The game this line starts, if it starts one.
    pub fn started(&self) -> Option<&'a ev::GameStart> {
        match &self.line.event {
            Event::GameStart(start) => Some(start),
            _ => None,
        }
    }

    /// The game this line ends with its seed revealed, if it does (a game
    /// of balls from a blower reveals no seed).
    pub fn revealed(&self) -> Option<Ended> {
        let Event::GameEnd(end) = &self.line.event else {
            return None;
        };
        Some(Ended {
            balls: self.game.map_or(0, |g| g.balls),
            seed: end.seed.seed()?.to_string(),
            room_seed: self.room_seed.map(str::to_string),
        })
    }
}

/// The steps of `lines`, in order.
pub fn replay(lines: &[Line<Event>]) -> Replay<'_> {
    Replay {
        lines: lines.iter(),
        game: None,
        room_seed: None,
    }
}

/// An iterator of a log's [`Step`]s.
pub struct Replay<'a> {
    lines: std::slice::Iter<'a, Line<Event>>,
    game: Option<&'a ev::GameStart>,
    room_seed: Option<&'a str>,
}

impl<'a> Replay<'a> {
    /// Each game the log started, as started.
    pub fn starts(self) -> impl Iterator<Item = &'a ev::GameStart> {
        self.filter_map(|step| step.started())
    }
}

impl<'a> Iterator for Replay<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        let line = self.lines.next()?;
        match &line.event {
            Event::GameStart(start) => (self.game, self.room_seed) = (Some(start), None),
            Event::RoomSeed(e) => self.room_seed = e.room_seed.as_deref(),
            _ => {}
        }
        Some(Step {
            line,
            game: self.game,
            room_seed: self.room_seed,
        })
    }
}

/// A game a log revealed: its numbers, seed and room seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub balls: u8,
    pub seed: String,
    pub room_seed: Option<String>,
}

impl Ended {
    /// The game's whole order.
    pub fn calls(&self) -> Calls {
        let room = self.room_seed.as_deref().unwrap_or("");
        Calls::of_hall(self.balls, &self.seed, room, usize::from(self.balls))
    }
}

/// The games a log revealed, in log order (the chain checked first); a
/// game of balls from a blower revealed no seed and is not among them.
pub fn revealed(text: &str) -> Result<Vec<Ended>, super::log::LogError> {
    let (lines, _) = super::log::read::<Event>(text)?;
    Ok(replay(&lines).filter_map(|step| step.revealed()).collect())
}

/// The sales `lines` make, from the products of the log's last session
/// line: what a reader outside the hall (`link venue`, a venue's linked
/// report) takes from a night's log.
pub fn sales(lines: &[Line<Event>]) -> crate::hall::sales::Sales {
    let mut sales = crate::hall::sales::Sales::default();
    for line in lines {
        match &line.event {
            Event::Session(s) => {
                sales.products.clone_from(&s.products);
                if let Some(night) = &s.night {
                    sales.programme = night.games;
                }
            }
            e => {
                if let Some(l) = e.sale_line() {
                    sales.book(&l);
                }
            }
        }
    }
    sales
}
