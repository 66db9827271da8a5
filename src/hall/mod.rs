//! The live bingo night: games called from the operating system's entropy
//! behind a published commitment, claims judged by any number printed on a
//! card, and a hash-chained log that survives a crash ([`log`]).
//!
//! Commitment. Each game's seed is the text `hall-` followed by 32 hex
//! digits (128 bits from the operating system). Before the first call the
//! hall publishes `SHA-256(seed text)` (lowercase hex of the UTF-8 bytes);
//! the game's whole order is `Calls::seeded(balls, Seed::parse(text))`, the
//! order `bingomint calls --game G --seed TEXT` prints. When the game ends
//! the seed is revealed, so anyone can check the calls were fixed before the
//! first ball. Until then the seed lives beside the log (`LOG.seed`,
//! readable by the hall's user only), so a restarted hall continues it.
//!
//! Here: the hall's rules; [`state`], what it answers, typed; `claims`
//! and [`queue`], claims from the console and from players' phones; [`api`],
//! its API and pages (served by `bingomint hall`); [`judge`] and
//! [`verify`], claims and logs judged; [`log`] and [`secret`], the log and
//! an open game's seed.

pub mod api;
pub mod books;
mod claims;
mod error;
pub mod event;
mod game;
pub mod join;
pub mod judge;
pub mod log;
pub mod money;
pub mod near;
pub mod night;
mod open;
pub mod packs;
pub mod paper;
mod payout;
pub mod queue;
pub mod refusal;
pub mod replay;
pub mod report;
pub mod rules;
pub mod sales;
pub mod secret;
mod session;
pub mod shell;
pub mod sold;
pub mod state;
pub mod stock;
mod stocked;
pub mod track;
pub mod verify;
mod view;
pub mod zone;

pub use error::{Advice, HallError};
pub use event::{Event, FileEntry, LedgerEvent, NightEntry, Source};
pub use refusal::Refusal;
pub use replay::{revealed, Ended};
pub use secret::{commitment, fresh_seed, random_hex, secret_path};
