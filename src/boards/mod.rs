//! Objective boards for game bingo (speedrun "lockout" bingo), as values
//! from the engine to the output:
//!
//! - [`set`]: a Lockout schema v3 set, read and validated;
//! - [`board`]: what a board is (size, lines, cells, what gave way);
//! - [`engine`]: a set compiled for one size, and the constrained draw
//!   ([`scratch`]: its per-thread working memory);
//! - [`check`]: every limit recounted from a board's cells alone, and the
//!   `--check` sample;
//! - [`mint`] (here): a batch of unique boards through the shared pipeline
//!   ([`crate::pipeline::mint_own_streams`]): exact keys (the sequence of
//!   (objective, value) cells) in the sharded key set, duplicates redrawn by
//!   index, identical output for any thread count. Each board has streams of
//!   its own, so its seed string ([`BoardSeed`]) draws it again alone;
//! - [`list`]: a batch of boards kept compactly, as values;
//! - [`render`]: one board as text, JSON, CSV or a BingoSync board;
//!   [`output`]: a batch rendered in parallel and written in order.

pub mod board;
pub mod check;
pub mod engine;
pub mod list;
pub mod output;
pub mod render;
pub mod scratch;
pub mod set;

use crate::dedup::{KeySet, Keyed};
use crate::pipeline::{mint_own_streams, MintError, Progress, Stats, MAX_CARDS};
use crate::seed::own_stream;
use crate::seed::{Rng, Seed};
use board::Board;
use engine::Engine;
use list::BoardList;
use scratch::Scratch;
use std::cell::RefCell;

/// Version of the board algorithm (pool, fill order, backtracking,
/// relaxation, streams). Part of every board's seed string; bumped whenever
/// the same seed would give a different board.
pub const BOARD_ALGORITHM: u32 = 1;

/// A seed as users share it: `MV2XRO` (a batch from board 1), or
/// `MV2XRO:v1:17` (board 17 of that batch), or `MV2XRO:v1:17.2` (board 17's
/// second redraw, which a batch uses when the first draw repeated an earlier
/// board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSeed {
    /// The seed text as typed (a number or any text).
    pub base: String,
    /// The 64-bit seed it stands for ([`Seed::parse`]).
    pub value: u64,
    /// The board number, when the string names one board.
    pub board: Option<u64>,
    /// The attempt of that board (0 for a first draw).
    pub attempt: u32,
}

/// A board seed string that cannot be used (the text shows it; the
/// command names the option).
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("{text}: '{board}' is not a board number (BOARD or BOARD.ATTEMPT)")]
    NotABoard { text: String, board: String },
    #[error(
        "{text}: the seed names board algorithm v{version}, but this bingomint draws \
         v{BOARD_ALGORITHM}; the board can be drawn again only by a release with v{version}"
    )]
    OtherAlgorithm { text: String, version: u32 },
    #[error("{0}: boards are numbered from 1")]
    BoardZero(String),
    /// A string naming one board was given for a batch; `base` names the
    /// run without the board.
    #[error("{text}: this seed string names one board")]
    OneBoard { text: String, base: String },
    #[error("cannot read a random seed")]
    Entropy(#[source] std::io::Error),
}

impl BoardSeed {
    /// Parses a seed string; a string that names a board must name
    /// [`BOARD_ALGORITHM`].
    pub fn parse(text: &str) -> Result<BoardSeed, SeedError> {
        if let Some((rest, board)) = text.rsplit_once(':') {
            if let Some((base, version)) = rest.rsplit_once(':') {
                if let Some(version) = version
                    .strip_prefix('v')
                    .and_then(|v| v.parse::<u32>().ok())
                {
                    let (number, attempt) = match board.split_once('.') {
                        Some((n, a)) => (n, a.parse::<u32>().ok()),
                        None => (board, Some(0)),
                    };
                    let (Ok(number), Some(attempt)) = (number.parse::<u64>(), attempt) else {
                        return Err(SeedError::NotABoard {
                            text: crate::text::clip(text, 60).into_owned(),
                            board: board.to_string(),
                        });
                    };
                    if version != BOARD_ALGORITHM {
                        return Err(SeedError::OtherAlgorithm {
                            text: crate::text::clip(text, 60).into_owned(),
                            version,
                        });
                    }
                    if number == 0 {
                        return Err(SeedError::BoardZero(
                            crate::text::clip(text, 60).into_owned(),
                        ));
                    }
                    return Ok(BoardSeed {
                        value: Seed::parse(base).value,
                        base: base.to_string(),
                        board: Some(number),
                        attempt,
                    });
                }
            }
        }
        Ok(BoardSeed {
            value: Seed::parse(text).value,
            base: text.to_string(),
            board: None,
            attempt: 0,
        })
    }

    /// The seed of a run of `count` boards: `given` (a seed string naming
    /// one board only when `count` is 1), or, when none is given, a fresh
    /// one from the operating system (the second value then says which).
    pub fn for_run(given: Option<&str>, count: u64) -> Result<(BoardSeed, Option<u64>), SeedError> {
        let (seed, fresh) = match given {
            Some(text) => (BoardSeed::parse(text)?, None),
            None => {
                let value = Seed::from_entropy().map_err(SeedError::Entropy)?.value;
                (BoardSeed::parse(&value.to_string())?, Some(value))
            }
        };
        if seed.board.is_some() && count != 1 {
            return Err(SeedError::OneBoard {
                text: given.unwrap_or_default().to_string(),
                base: seed.base,
            });
        }
        Ok((seed, fresh))
    }

    /// What every board's seed string starts with: `BASE:v1:`.
    pub fn prefix(&self) -> String {
        format!("{}:v{BOARD_ALGORITHM}:", self.base)
    }

    /// The string that draws board `number` (attempt `attempt`) again.
    pub fn of_board(&self, number: u64, attempt: u32) -> String {
        let mut text = self.prefix();
        push_board(&mut text, number, attempt);
        text
    }
}

/// Appends what follows [`BoardSeed::prefix`] in board `number`'s seed
/// string: `N`, or `N.A` for its redraw `A`.
pub fn push_board(out: &mut String, number: u64, attempt: u32) {
    push_decimal(out, number);
    if attempt > 0 {
        out.push('.');
        push_decimal(out, u64::from(attempt));
    }
}

/// Appends `n` in decimal.
pub(super) fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Draws attempt `attempt` of a board with this thread's scratch memory.
pub fn draw_board(engine: &Engine, rng: &mut Rng, attempt: u32) -> Board {
    SCRATCH.with(|s| engine.draw(rng, attempt, &mut s.borrow_mut()))
}

/// Board `number`, attempt `attempt`, of seed `seed`: exactly the draw its
/// seed string names.
pub fn draw_numbered(engine: &Engine, seed: u64, number: u64, attempt: u32) -> Board {
    draw_board(engine, &mut own_stream(seed, number, attempt), attempt)
}

/// The exact keys of boards with at most `N` cells: the cells in a
/// `[u16; N]`, unused ones `u16::MAX`. [`mint`] picks the smallest N of 16,
/// 25, 36, 49, 64 and 100 that fits.
pub struct BoardKeys<const N: usize>;

impl<const N: usize> Keyed for BoardKeys<N> {
    type Card = Board;
    type Key = [u16; N];
    type Keys = [[u16; N]; 1];

    fn keys(&self, board: &Board) -> [[u16; N]; 1] {
        let mut key = [u16::MAX; N];
        key[..board.cells.len()].copy_from_slice(&board.cells);
        [key]
    }

    fn keys_per_card(&self) -> usize {
        1
    }
}

/// Boards 1, 2, … of `seed`, `count` of them, all different; or, when
/// `seed` names one board, that board alone.
pub fn mint(
    engine: &Engine,
    seed: &BoardSeed,
    count: u64,
    progress: &dyn Progress,
) -> Result<(BoardList, Stats), MintError> {
    if let Some(number) = seed.board {
        let mut list = BoardList::new(1, engine.size().cells());
        let board = draw_numbered(engine, seed.value, number, seed.attempt);
        crate::pipeline::Store::put(&mut list, 0, board);
        let stats = Stats {
            cards: 1,
            redrawn: 0,
            draws: 1,
        };
        return Ok((list, stats));
    }
    match engine.size().cells() {
        0..=16 => mint_keyed(&BoardKeys::<16>, engine, seed.value, count, progress),
        17..=25 => mint_keyed(&BoardKeys::<25>, engine, seed.value, count, progress),
        26..=36 => mint_keyed(&BoardKeys::<36>, engine, seed.value, count, progress),
        37..=49 => mint_keyed(&BoardKeys::<49>, engine, seed.value, count, progress),
        50..=64 => mint_keyed(&BoardKeys::<64>, engine, seed.value, count, progress),
        _ => mint_keyed(&BoardKeys::<100>, engine, seed.value, count, progress),
    }
}

fn mint_keyed<const N: usize>(
    keys: &BoardKeys<N>,
    engine: &Engine,
    seed: u64,
    count: u64,
    progress: &dyn Progress,
) -> Result<(BoardList, Stats), MintError> {
    if count > MAX_CARDS {
        return Err(MintError::TooMany);
    }
    let count = count as usize;
    crate::dedup::check_memory(KeySet::<[u16; N]>::bytes_for(count)).map_err(|memory| {
        MintError::Memory {
            cards: count as u64,
            memory,
        }
    })?;
    let set = KeySet::with_capacity(count);
    let mut boards = BoardList::new(count, engine.size().cells());
    let stats = mint_own_streams(keys, 1, &mut boards, &set, progress, |n, attempt| {
        draw_numbered(engine, seed, n, attempt)
    })?;
    Ok((boards, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_display_writes_them() {
        for n in [0, 7, 10, 99, 1_000_000, u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn seed_strings_round_trip() {
        let s = BoardSeed::parse("MV2XRO").unwrap();
        assert_eq!((s.board, s.attempt), (None, 0));
        assert_eq!(s.of_board(17, 0), "MV2XRO:v1:17");
        assert_eq!(s.of_board(17, 2), "MV2XRO:v1:17.2");
        let b = BoardSeed::parse("MV2XRO:v1:17.2").unwrap();
        assert_eq!((b.value, b.board, b.attempt), (s.value, Some(17), 2));
        let colon = BoardSeed::parse("a:b:v1:3").unwrap();
        assert_eq!(colon.base, "a:b");
        // Seeds that only look a little like board strings are plain text.
        assert_eq!(BoardSeed::parse("race:final").unwrap().board, None);
        assert_eq!(BoardSeed::parse("42").unwrap().value, 42);
        assert!(BoardSeed::parse("x:v9:1")
            .unwrap_err()
            .to_string()
            .contains("v9"));
        assert!(BoardSeed::parse("x:v1:0")
            .unwrap_err()
            .to_string()
            .contains("from 1"));
        assert!(BoardSeed::parse("x:v1:abc").is_err());
    }
}
