//! A batch of boards to its output: warnings for the boards that had a
//! constraint give way, then every board rendered in `format`, in order.
//! Batches render in parallel while a writer thread writes the previous
//! batch, so rendering and the output's own cost overlap.

use super::board::Size;
use super::engine::Engine;
use super::list::BoardList;
use super::render::Renderer;
use super::BoardSeed;
use crate::cardfile::writer::{write_text, WriteError};
use crate::export::Format;
use crate::pipeline::{MintError, Progress, Stats};
use rayon::prelude::*;
use std::io::{self, Write};
use std::path::Path;

/// A batch to make and where it goes.
pub struct Batch<'a> {
    pub engine: &'a Engine,
    pub seed: &'a BoardSeed,
    pub count: u64,
    pub format: Format,
    pub renderer: &'a Renderer<'a>,
    /// The output file; standard output when None.
    pub out: Option<&'a Path>,
    /// Replace `out` if it exists.
    pub force: bool,
}

/// Why a batch was not written.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Mint(#[from] MintError),
    #[error(transparent)]
    Output(#[from] WriteError),
    #[error("cannot write {target}")]
    Write {
        target: String,
        #[source]
        source: io::Error,
    },
}

/// Makes the boards of `batch` ([`super::mint`]), tells `warn` about those
/// that relaxed a constraint ([`warnings`]), and writes them all
/// ([`write_all`]), on the current rayon pool. Returns what minting did and
/// how many boards relaxed a constraint.
pub fn make(
    batch: &Batch,
    progress: &dyn Progress,
    warn: &mut dyn FnMut(String),
) -> Result<(Stats, u64), BatchError> {
    let (boards, stats) = super::mint(batch.engine, batch.seed, batch.count, progress)?;
    progress.phase("writing");
    let first = batch.seed.board.unwrap_or(1);
    let (lines, relaxed) = warnings(&boards, first, batch.renderer);
    lines.into_iter().for_each(&mut *warn);
    let target = match batch.out {
        Some(path) => format!("'{}'", path.display()),
        None => "to standard output".to_string(),
    };
    write_text(batch.out, batch.force, |out| {
        write_all(&boards, first, batch.format, batch.renderer, out)
            .map_err(|source| BatchError::Write { target, source })
    })?;
    Ok((stats, relaxed))
}

/// Boards rendered per batch before writing, in parts of `RENDER_PART`.
const RENDER_BATCH: usize = 4_096;
const RENDER_PART: usize = 256;

/// Relaxed boards described one by one before the count.
pub const WARNINGS_SHOWN: usize = 5;

/// The line a run ends with (None when there is nothing worth saying: one
/// board printed to standard output): how many boards, how fast, the seed,
/// duplicates redrawn and boards relaxed, or the one board's seed string.
pub fn summary(
    batch: &Batch,
    set_name: &str,
    stats: &Stats,
    relaxed: u64,
    secs: f64,
) -> Option<String> {
    let size = batch.engine.size();
    let to = batch
        .out
        .map(|p| format!(" -> {}", p.display()))
        .unwrap_or_default();
    if batch.count > 1 {
        Some(format!(
            "{} boards {size} from '{set_name}' in {secs:.2} s ({:.0} boards/s), seed {}, \
             {} redrawn as duplicates, {relaxed} with relaxed constraints{to}",
            stats.cards,
            stats.cards as f64 / secs.max(1e-9),
            batch.seed.base,
            stats.redrawn,
        ))
    } else {
        let seed = batch.seed;
        batch.out.map(|_| {
            format!(
                "board {size} from '{set_name}', seed {}{to}",
                seed.of_board(seed.board.unwrap_or(1), seed.attempt)
            )
        })
    }
}

/// Whether a run can make `count` boards of `size` in `format`.
pub fn check_request(format: Format, size: Size, count: u64) -> Result<(), RequestError> {
    if count == 0 {
        return Err(RequestError::NoBoards);
    }
    if count > crate::pipeline::MAX_CARDS {
        return Err(RequestError::TooMany {
            count,
            most: crate::pipeline::MAX_CARDS,
        });
    }
    if format == Format::Bingosync {
        if size != (Size { rows: 5, cols: 5 }) {
            return Err(RequestError::BingosyncSize(size));
        }
        if count != 1 {
            return Err(RequestError::BingosyncCount);
        }
    }
    Ok(())
}

/// A batch that cannot be made as asked ([`check_request`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("no boards asked for")]
    NoBoards,
    #[error("{count} boards: at most {most} boards per run")]
    TooMany { count: u64, most: u64 },
    /// BingoSync boards are 5x5 (the size asked).
    #[error("BingoSync boards are 5x5 (got {0})")]
    BingosyncSize(Size),
    /// A BingoSync file holds one board.
    #[error("a BingoSync file holds one board")]
    BingosyncCount,
}

/// The warnings for `boards` (board `first` first): each constraint that
/// gave way on the first [`WARNINGS_SHOWN`] relaxed boards, then a count of
/// all of them. Returns the lines and how many boards relaxed a constraint.
pub fn warnings(boards: &BoardList, first: u64, renderer: &Renderer) -> (Vec<String>, u64) {
    let relaxed: Vec<usize> = (0..boards.len())
        .into_par_iter()
        .filter(|&i| !boards.get(i).relaxed.is_empty())
        .collect();
    let mut lines = Vec::new();
    for &i in relaxed.iter().take(WARNINGS_SHOWN) {
        let number = first + i as u64;
        let board = boards.get(i);
        for r in board.relaxed {
            lines.push(format!(
                "warning: board {number} ({}): {}",
                renderer.seed_of(number, board.attempt),
                renderer.describe(board, r)
            ));
        }
    }
    if relaxed.len() > WARNINGS_SHOWN {
        lines.push(format!(
            "warning: {} of {} boards needed a constraint to give way (first {WARNINGS_SHOWN} shown); \
             each lists it under \"relaxed\"",
            relaxed.len(),
            boards.len()
        ));
    }
    (lines, relaxed.len() as u64)
}

/// Renders every board (board `first` first) into `out` in `format`.
pub fn write_all<W: Write + Send + ?Sized>(
    boards: &BoardList,
    first: u64,
    format: Format,
    renderer: &Renderer,
    out: &mut W,
) -> io::Result<()> {
    match format {
        Format::Json => out.write_all(b"[\n")?,
        Format::Csv => out.write_all(renderer.csv_header().as_bytes())?,
        _ => {}
    }
    std::thread::scope(|scope| -> io::Result<()> {
        let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<(usize, Vec<String>)>(1);
        let (empty_tx, empty_rx) = std::sync::mpsc::channel::<Vec<String>>();
        for _ in 0..2 {
            empty_tx
                .send(vec![String::new(); RENDER_BATCH / RENDER_PART])
                .expect("the receiver is alive");
        }
        let out = &mut *out;
        let writer = scope.spawn(move || -> io::Result<()> {
            for (parts, texts) in full_rx {
                for text in &texts[..parts] {
                    out.write_all(text.as_bytes())?;
                }
                let _ = empty_tx.send(texts);
            }
            Ok(())
        });
        for at in (0..boards.len()).step_by(RENDER_BATCH) {
            let Ok(mut texts) = empty_rx.recv() else {
                break; // the writer failed; its error is reported below
            };
            let end = (at + RENDER_BATCH).min(boards.len());
            render_batch(boards, at..end, first, format, renderer, &mut texts);
            if full_tx
                .send(((end - at).div_ceil(RENDER_PART), texts))
                .is_err()
            {
                break;
            }
        }
        drop(full_tx);
        writer.join().expect("the writer thread does not panic")
    })?;
    if format == Format::Json {
        out.write_all(b"]\n")?;
    }
    Ok(())
}

/// Renders boards `batch` (0-based indices) of `boards` into `texts`, a
/// part of [`RENDER_PART`] boards per buffer.
fn render_batch(
    boards: &BoardList,
    batch: std::ops::Range<usize>,
    first: u64,
    format: Format,
    renderer: &Renderer,
    texts: &mut [String],
) {
    let count = boards.len();
    texts
        .par_iter_mut()
        .enumerate()
        .take(batch.len().div_ceil(RENDER_PART))
        .for_each(|(j, text)| {
            text.clear();
            let from = batch.start + j * RENDER_PART;
            for index in from..(from + RENDER_PART).min(batch.end) {
                let board = boards.get(index);
                let number = first + index as u64;
                match format {
                    Format::Jsonl => {
                        renderer.json(number, board, text);
                        text.push('\n');
                    }
                    Format::Json => {
                        renderer.json(number, board, text);
                        text.push_str(if index + 1 == count { "\n" } else { ",\n" });
                    }
                    Format::Csv => renderer.csv(number, board, text),
                    Format::Bingosync => text.push_str(&renderer.bingosync(board)),
                    Format::Text | Format::Txt => {
                        if index > 0 {
                            text.push('\n');
                        }
                        renderer.text(number, board, text);
                    }
                }
            }
        });
}
