//! Objective boards for game bingo (speedrun "lockout" bingo): a Lockout
//! schema v3 set in ([`set`]), boards that honour its limits out
//! ([`engine`]), rendered as text, JSON, CSV or a BingoSync board
//! ([`render`]).
//!
//! Boards go through the same pipeline as cards
//! ([`crate::pipeline::mint_own_streams`]): exact keys (the sequence of
//! (objective, value) cells) in the sharded key set, duplicates redrawn by
//! index, identical output for any thread count. Each board has streams of its
//! own, so its seed string ([`BoardSeed`]) draws it again alone.

pub mod engine;
pub mod render;
pub mod set;

use crate::game::{Game, RuleViolation};
use crate::seed::{Rng, Seed};
use engine::{Board, Engine, Scratch};
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

impl BoardSeed {
    /// Parses a seed string; a string that names a board must name
    /// [`BOARD_ALGORITHM`].
    pub fn parse(text: &str) -> Result<BoardSeed, String> {
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
                        return Err(format!(
                            "--seed {text}: '{board}' is not a board number (BOARD or BOARD.ATTEMPT)"
                        ));
                    };
                    if version != BOARD_ALGORITHM {
                        return Err(format!(
                            "--seed {text}: the seed names board algorithm v{version}, but this \
                             bingomint draws v{BOARD_ALGORITHM}; the board can be drawn again \
                             only by a release with v{version}"
                        ));
                    }
                    if number == 0 {
                        return Err(format!("--seed {text}: boards are numbered from 1"));
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

    /// The string that draws board `number` (attempt `attempt`) again.
    pub fn of_board(&self, number: u64, attempt: u32) -> String {
        if attempt == 0 {
            format!("{}:v{BOARD_ALGORITHM}:{number}", self.base)
        } else {
            format!("{}:v{BOARD_ALGORITHM}:{number}.{attempt}", self.base)
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Draws attempt `attempt` of a board with this thread's scratch memory.
pub fn draw_board(engine: &Engine, rng: &mut Rng, attempt: u32) -> Board {
    SCRATCH.with(|s| engine.draw(rng, attempt, &mut s.borrow_mut()))
}

/// Bytes before the cells in a board record: attempt (u16 LE), how many
/// constraints gave way (u8, saturating), a zero byte.
pub const RECORD_PREFIX: usize = 4;

/// Boards of one size as a [`Game`], with an exact key of `N` cells (`N` at
/// least the board's cells; unused cells are `u16::MAX`). The CLI picks the
/// smallest N of 16, 25, 36, 49, 64 and 100 that fits.
pub struct Boards<'a, const N: usize> {
    pub engine: &'a Engine,
}

impl<const N: usize> Game for Boards<'_, N> {
    type Card = Board;
    type Key = [u16; N];
    type Keys = [[u16; N]; 1];

    fn record_size(&self) -> usize {
        RECORD_PREFIX + 2 * self.engine.size().cells()
    }

    fn draw(&self, rng: &mut Rng) -> Board {
        draw_board(self.engine, rng, 0)
    }

    fn draw_attempt(&self, rng: &mut Rng, attempt: u32) -> Board {
        draw_board(self.engine, rng, attempt)
    }

    fn keys(&self, board: &Board) -> [[u16; N]; 1] {
        let mut key = [u16::MAX; N];
        key[..board.cells.len()].copy_from_slice(&board.cells);
        [key]
    }

    fn keys_per_card(&self) -> usize {
        1
    }

    fn encode(&self, board: &Board, record: &mut [u8]) {
        record[..2].copy_from_slice(&(board.attempt as u16).to_le_bytes());
        record[2] = board.relaxed.len().min(255) as u8;
        record[3] = 0;
        for (out, &cell) in record[RECORD_PREFIX..]
            .chunks_exact_mut(2)
            .zip(&board.cells)
        {
            out.copy_from_slice(&cell.to_le_bytes());
        }
    }

    /// Reads the cells and the attempt back; the `relaxed` list is not in the
    /// record (draw the board again from its seed to get it).
    fn decode(&self, record: &[u8]) -> Result<Board, RuleViolation> {
        let board = record_board(record);
        self.engine
            .violations(&board.cells)
            .map_err(RuleViolation)?;
        Ok(board)
    }
}

/// The board in a record this run wrote, without re-checking it (see
/// [`Game::decode`] for the checked read).
pub fn record_board(record: &[u8]) -> Board {
    Board {
        attempt: u32::from(u16::from_le_bytes([record[0], record[1]])),
        cells: record[RECORD_PREFIX..]
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect(),
        relaxed: Vec::new(),
    }
}

/// How many constraints gave way on the board in `record`.
pub fn record_relaxed(record: &[u8]) -> u8 {
    record[2]
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(BoardSeed::parse("x:v9:1").unwrap_err().contains("v9"));
        assert!(BoardSeed::parse("x:v1:0").unwrap_err().contains("from 1"));
        assert!(BoardSeed::parse("x:v1:abc").is_err());
    }
}
