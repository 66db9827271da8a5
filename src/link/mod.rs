//! Linked venues: one game played across halls. A *control* runs the game
//! (the commitment, the sealed order or the calls, the prize, judging every
//! claim); each *venue* sells its allotted faces and claims.
//!
//! - [`message`]: what each side says;
//! - [`record`]: the control's records, signed (Ed25519) and hash-chained,
//!   so a venue trusts the chain and never the broker;
//! - [`national`]: the rules (allotments, sales, the sealed order, claims,
//!   the prize, the winners), decided here once;
//! - [`files`]: the network file and the venue file;
//! - [`control`] and [`venue`]: the two sides as they run;
//! - [`verify`]: a control's log read back against the stock, the books
//!   and the venues' logs;
//! - [`bus`]: NATS JetStream, which carries the messages;
//! - [`books`]: PostgreSQL, the network's book of record.
//!
//! Progress lines go to [`say`], which the command points at standard
//! error ([`set_notes`]); by default they go nowhere.

pub mod books;
pub mod bus;
pub mod control;
pub mod files;
pub mod hall;
pub mod message;
pub mod national;
pub mod record;
pub mod venue;
pub mod verify;

use message::Payout;
use std::sync::OnceLock;

/// The software's version, which every venue must share with the control.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a linked game's side could not do.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(transparent)]
    Bus(#[from] bus::BusError),
    #[error(transparent)]
    Books(#[from] books::BooksError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A file, a flag's value or the game itself refused, in words.
    #[error("{0}")]
    Game(String),
}

/// A [`LinkError::Game`] from a format string.
macro_rules! game {
    ($($t:tt)*) => { $crate::link::LinkError::Game(format!($($t)*)) };
}
pub(crate) use game;

/// A progress line, to wherever [`set_notes`] pointed.
macro_rules! note {
    ($($t:tt)*) => { $crate::link::say(&format!($($t)*)) };
}
pub(crate) use note;

static NOTES: OnceLock<fn(&str)> = OnceLock::new();

/// Sends progress lines to `to` (once a process).
pub fn set_notes(to: fn(&str)) {
    let _ = NOTES.set(to);
}

/// A progress line.
pub fn say(text: &str) {
    if let Some(to) = NOTES.get() {
        to(text);
    }
}

/// How a side's part in a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Settled at `call`: the payouts (a venue's: its own), in the game's
    /// currency.
    Settled {
        call: u8,
        payouts: Vec<Payout>,
        currency: String,
    },
    /// Ended with nothing paid.
    Unwon,
    /// A venue stopped: the chain broke, or the control refused it.
    Stopped(String),
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    t.map_or(0, |d| d.as_millis() as u64)
}
