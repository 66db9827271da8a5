//! `bingomint boards`: objective boards (game bingo) from a Lockout schema v3
//! goal set: one for a race, or a million unique ones.
//!
//! The plan: read and validate the set → compile it for the size → mint the
//! boards through the pipeline (own stream per board, exact keys, duplicates
//! redrawn) into memory → render in parallel, in order, to the output.

use super::{check_memory, progress_bar, with_threads, Outcome};
use anyhow::{anyhow, ensure, Context, Result};
use bingomint::boards::engine::{Board, Engine, Gave, Size, Weighting};
use bingomint::boards::render::{cell_width_for, constraint_text, Format, Renderer};
use bingomint::boards::set::{summary, ObjectiveSet};
use bingomint::boards::{draw_board, record_board, record_relaxed, BoardSeed, Boards};
use bingomint::cardfile::writer::{refuse_existing, TempOutput};
use bingomint::dedup::KeySet;
use bingomint::game::Game;
use bingomint::pipeline::{mint_own_streams, own_stream, Stats, MAX_CARDS};
use bingomint::seed::Seed;
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Generate objective boards (game bingo) from a Lockout schema v3 goal set.
///
/// Every board honours the set's limits: individual limits (repeats take
/// distinct range values), board category limits, line category limits on
/// every row, column and (square boards) diagonal, no objective twice in a
/// line, forced positions. When a board cannot meet them, bounded
/// backtracking runs first; only then does a constraint give way, in a fixed
/// order (line categories, board categories, repeats in a line, individual
/// limits), reported on stderr and in the board's "relaxed" list.
///
/// Each board is printed with a seed string (SEED:v1:N) that draws it again
/// alone; a batch of --count boards holds no two equal boards (same
/// objectives with the same values in the same cells) and is identical for
/// any --threads.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint boards --set smo.json --size 5x5 --seed MV2XRO
  bingomint boards --set smo.json --size 7x5 --count 100000 --seed s1 --format jsonl --out boards.jsonl
  bingomint boards --set smo.json --size 5x5 --seed MV2XRO --format bingosync --out card.json
  bingomint boards --set smo.json --seed MV2XRO:v1:17        # board 17 of that batch, again
  bingomint boards --set smo.json --check --size 7x7")]
pub struct Args {
    /// The goal set: Lockout schema v3 JSON.
    #[arg(long, value_name = "FILE")]
    set: PathBuf,

    /// Board size: rows x columns, 3–10 each (5x5, 7x5, …).
    #[arg(long, default_value = "5x5", value_parser = clap::builder::ValueParser::new(parse_size))]
    size: Size,

    /// Number of unique boards.
    #[arg(short = 'n', long, default_value_t = 1)]
    count: u64,

    /// Seed: any text or number (players share it), or a board's own seed
    /// string SEED:v1:N to draw board N again. Without it a seed is taken
    /// from the operating system and printed.
    #[arg(long)]
    seed: Option<String>,

    /// Output format: text (grid), json (array), jsonl (a board per line),
    /// bingosync (BingoSync's custom board, 5x5, one board), csv (a row per
    /// board).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,

    /// Worker threads [default: every core].
    #[arg(long)]
    threads: Option<usize>,

    /// No progress bar or summary (warnings still go to stderr).
    #[arg(short, long)]
    quiet: bool,

    /// Validate the set (every problem at once) and report whether its limits
    /// can be met at --size, from a sample of boards; writes no boards.
    #[arg(long)]
    check: bool,

    /// How "weighting" acts: lockout (the chance, in %, that an objective
    /// joins a board's pool, as Lockout does) or proportional (each pick in
    /// proportion to weighting).
    #[arg(long, value_enum, default_value = "lockout")]
    weighting: Weighting,
}

/// Columns of the terminal on standard output: `$COLUMNS`, else the
/// terminal's own size.
fn terminal_width() -> Option<usize> {
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return Some(n);
    }
    // SAFETY: TIOCGWINSZ fills a winsize struct for the descriptor.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

fn parse_size(text: &str) -> Result<Size, String> {
    text.parse()
}

/// Sample boards `--check` draws, and their seed.
const CHECK_SAMPLE: u64 = 10_000;
const CHECK_SEED: u64 = 0x0c4e_c4ed;
/// Kinds of relaxation `--check` lists.
const CHECK_ROWS: usize = 12;

/// Boards rendered per batch before writing, in parts of `RENDER_PART`.
const RENDER_BATCH: usize = 16_384;
const RENDER_PART: usize = 256;

/// Relaxed boards described on stderr before the summary line.
const WARNINGS_SHOWN: usize = 5;

/// Runs `boards`.
pub fn run(args: Args) -> Result<Outcome> {
    let set = ObjectiveSet::from_file(&args.set)?;
    let set_name = args.set.display().to_string();
    if args.check {
        return check(&args, &set, &set_name);
    }
    let engine = Engine::new(&set, args.size, args.weighting)
        .map_err(|e| anyhow!("--set '{set_name}': {e}"))?;
    ensure!(args.count >= 1, "--count must be at least 1");
    ensure!(
        args.count <= MAX_CARDS,
        "--count {}: at most {MAX_CARDS} boards per run",
        args.count
    );
    if args.format == Format::Bingosync {
        ensure!(
            args.size == Size { rows: 5, cols: 5 },
            "--format bingosync needs --size 5x5: BingoSync boards are 5x5 (got {}); use json or jsonl for other sizes",
            args.size
        );
        ensure!(
            args.count == 1,
            "--format bingosync writes one board; leave out --count (use jsonl for batches)"
        );
    }
    if let Some(out) = &args.out {
        refuse_existing(out, args.force)?;
    }
    let seed = match &args.seed {
        Some(text) => BoardSeed::parse(text).map_err(|e| anyhow!(e))?,
        None => {
            let value = Seed::from_entropy()
                .context("cannot read a random seed")?
                .value;
            if !args.quiet {
                eprintln!("bingomint: seed {value} (pass --seed {value} to draw the same boards)");
            }
            BoardSeed::parse(&value.to_string()).map_err(|e| anyhow!(e))?
        }
    };
    if seed.board.is_some() {
        ensure!(
            args.count == 1,
            "--seed {}: this seed string names one board; leave out --count, or pass --seed {} for a batch",
            args.seed.as_deref().unwrap_or_default(),
            seed.base
        );
    }
    let terminal = (args.out.is_none() && std::io::stdout().is_terminal())
        .then(terminal_width)
        .flatten();
    let renderer = Renderer::new(&set, &engine, &seed)
        .with_cell_width(cell_width_for(terminal, args.size.cols));
    let started = Instant::now();
    let job = Job {
        args: &args,
        engine: &engine,
        renderer: &renderer,
        seed: &seed,
    };
    let (stats, relaxed_boards) = with_threads(args.threads, || job.run())??;
    let secs = started.elapsed().as_secs_f64();
    let to = args
        .out
        .as_ref()
        .map(|p| format!(" → {}", p.display()))
        .unwrap_or_default();
    if args.count > 1 && !args.quiet {
        eprintln!(
            "bingomint: {} boards {} from '{set_name}' in {secs:.2} s ({:.0} boards/s), seed {}, \
             {} redrawn as duplicates, {relaxed_boards} with relaxed constraints{to}",
            stats.cards,
            args.size,
            stats.cards as f64 / secs.max(1e-9),
            seed.base,
            stats.redrawn,
        );
    } else if args.out.is_some() && !args.quiet {
        let number = seed.board.unwrap_or(1);
        eprintln!(
            "bingomint: board {} from '{set_name}', seed {}{to}",
            args.size,
            seed.of_board(number, seed.attempt)
        );
    }
    Ok(Outcome::Success)
}

struct Job<'a> {
    args: &'a Args,
    engine: &'a Engine,
    renderer: &'a Renderer<'a>,
    seed: &'a BoardSeed,
}

impl Job<'_> {
    /// Mints and writes the boards; returns the stats and how many boards
    /// had a constraint give way.
    fn run(&self) -> Result<(Stats, u64)> {
        let cells = self.engine.size().cells();
        match cells {
            0..=16 => self.run_keyed::<16>(),
            17..=25 => self.run_keyed::<25>(),
            26..=36 => self.run_keyed::<36>(),
            37..=49 => self.run_keyed::<49>(),
            50..=64 => self.run_keyed::<64>(),
            _ => self.run_keyed::<100>(),
        }
    }

    fn run_keyed<const N: usize>(&self) -> Result<(Stats, u64)> {
        let game = Boards::<N> {
            engine: self.engine,
        };
        let size = game.record_size();
        let count = self.args.count as usize;
        let first = self.seed.board.unwrap_or(1);
        let mut records = vec![0u8; count * size];
        let stats = if let Some(number) = self.seed.board {
            // One named board: exactly the draw its seed string names.
            let mut rng = own_stream(self.seed.value, number, self.seed.attempt);
            let board = draw_board(self.engine, &mut rng, self.seed.attempt);
            game.encode(&board, &mut records);
            Stats {
                cards: 1,
                redrawn: 0,
                draws: 1,
            }
        } else {
            check_memory::<[u16; N]>(count, &format!("--count {count}"))?;
            let set = KeySet::with_capacity(count);
            let progress = if count >= 100_000 {
                progress_bar(count as u64, "board", self.args.quiet)
            } else {
                ProgressBar::hidden()
            };
            let stats =
                mint_own_streams(&game, self.seed.value, first, &mut records, &set, &progress)?;
            progress.finish_and_clear();
            stats
        };
        let relaxed = self.write(size, &records, first)?;
        Ok((stats, relaxed))
    }

    /// The board in `record` (number `number`), with its relaxed list.
    fn board(&self, record: &[u8], number: u64) -> Board {
        let mut board = record_board(record);
        if record_relaxed(record) > 0 {
            let mut rng = own_stream(self.seed.value, number, board.attempt);
            let again = draw_board(self.engine, &mut rng, board.attempt);
            debug_assert_eq!(again.cells, board.cells);
            board.relaxed = again.relaxed;
        }
        board
    }

    /// Warns about relaxed boards and writes every board of `records`
    /// (`size` bytes each); returns how many boards relaxed a constraint.
    fn write(&self, size: usize, records: &[u8], first: u64) -> Result<u64> {
        let relaxed: Vec<usize> = records
            .par_chunks_exact(size)
            .enumerate()
            .filter(|(_, r)| record_relaxed(r) > 0)
            .map(|(i, _)| i)
            .collect();
        for &i in relaxed.iter().take(WARNINGS_SHOWN) {
            let number = first + i as u64;
            let board = self.board(&records[i * size..(i + 1) * size], number);
            for r in &board.relaxed {
                eprintln!(
                    "bingomint: warning: board {number} ({}): {}",
                    self.seed.of_board(number, board.attempt),
                    self.renderer.describe(&board, r)
                );
            }
        }
        if relaxed.len() > WARNINGS_SHOWN {
            eprintln!(
                "bingomint: warning: {} of {} boards needed a constraint to give way (first {WARNINGS_SHOWN} shown); \
                 each lists it under \"relaxed\"",
                relaxed.len(),
                records.len() / size
            );
        }
        match &self.args.out {
            None => {
                let out = BufWriter::with_capacity(1 << 20, std::io::stdout());
                self.render_all(size, records, first, out)?.flush()?;
            }
            Some(path) => {
                let (temp, handle) = TempOutput::new(path, self.args.force)?;
                let cannot = || format!("cannot write '{}'", path.display());
                let out = BufWriter::with_capacity(1 << 20, &handle);
                let mut out = self
                    .render_all(size, records, first, out)
                    .with_context(cannot)?;
                out.flush().with_context(cannot)?;
                drop(out);
                temp.publish(&handle)?;
            }
        }
        Ok(relaxed.len() as u64)
    }

    /// Renders every board into `out`: batches render in parallel while a
    /// writer thread writes the previous batch, so rendering and the
    /// output's own cost overlap.
    fn render_all<W: Write + Send>(
        &self,
        size: usize,
        records: &[u8],
        first: u64,
        mut out: W,
    ) -> Result<W> {
        let format = self.args.format;
        match format {
            Format::Json => out.write_all(b"[\n")?,
            Format::Csv => out.write_all(self.renderer.csv_header().as_bytes())?,
            _ => {}
        }
        let mut out = std::thread::scope(|scope| -> Result<W> {
            let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<(usize, Vec<String>)>(1);
            let (empty_tx, empty_rx) = std::sync::mpsc::channel::<Vec<String>>();
            for _ in 0..2 {
                empty_tx
                    .send(vec![String::new(); RENDER_BATCH / RENDER_PART])
                    .expect("the receiver is alive");
            }
            let writer = scope.spawn(move || -> std::io::Result<W> {
                for (parts, texts) in full_rx {
                    for text in &texts[..parts] {
                        out.write_all(text.as_bytes())?;
                    }
                    let _ = empty_tx.send(texts);
                }
                Ok(out)
            });
            for (b, batch) in records.chunks(RENDER_BATCH * size).enumerate() {
                let Ok(mut texts) = empty_rx.recv() else {
                    break; // the writer failed; its error is reported below
                };
                self.render_batch(b, batch, size, first, records.len() / size, &mut texts);
                let parts = batch.len().div_ceil(RENDER_PART * size);
                if full_tx.send((parts, texts)).is_err() {
                    break;
                }
            }
            drop(full_tx);
            Ok(writer.join().expect("the writer thread does not panic")?)
        })?;
        if format == Format::Json {
            out.write_all(b"]\n")?;
        }
        Ok(out)
    }

    /// Renders batch `b` of the records into `texts`, a part per buffer.
    fn render_batch(
        &self,
        b: usize,
        batch: &[u8],
        size: usize,
        first: u64,
        count: usize,
        texts: &mut [String],
    ) {
        let format = self.args.format;
        texts
            .par_iter_mut()
            .zip(batch.par_chunks(RENDER_PART * size))
            .enumerate()
            .for_each(|(j, (text, part))| {
                text.clear();
                for (i, record) in part.chunks_exact(size).enumerate() {
                    let index = b * RENDER_BATCH + j * RENDER_PART + i;
                    let number = first + index as u64;
                    let board = self.board(record, number);
                    match format {
                        Format::Jsonl => {
                            self.renderer.json(number, &board, text);
                            text.push('\n');
                        }
                        Format::Json => {
                            self.renderer.json(number, &board, text);
                            text.push_str(if index + 1 == count { "\n" } else { ",\n" });
                        }
                        Format::Csv => self.renderer.csv(number, &board, text),
                        Format::Bingosync => text.push_str(&self.renderer.bingosync(&board)),
                        Format::Text => {
                            if index > 0 {
                                text.push('\n');
                            }
                            self.renderer.text(number, &board, text);
                        }
                    }
                }
            });
    }
}

/// `--check`: the set is valid (or `from_file` already failed with every
/// problem); say what it holds and whether its limits can be met at --size.
fn check(args: &Args, set: &ObjectiveSet, set_name: &str) -> Result<Outcome> {
    println!("'{set_name}': valid Lockout schema v3 set");
    println!("  {}", summary(set));
    let size = args.size;
    for (k, o) in set.objectives.iter().enumerate() {
        for pos in &o.forced {
            if pos.cell(size.rows, size.cols).is_none() {
                println!(
                    "  note: objectives[{k}] {:?} is forced into {pos}, which a {size} board does not have; ignored at this size",
                    o.goal
                );
            }
        }
    }
    let engine = Engine::new(set, size, args.weighting)
        .map_err(|e| anyhow!("--set '{set_name}' cannot make {size} boards: {e}"))?;
    let room: usize = set
        .objectives
        .iter()
        .filter(|o| !o.disabled)
        .map(|o| o.individual_limit as usize)
        .sum();
    if room < size.cells() {
        println!(
            "  note: the individual limits allow {room} cells in all, a {size} board has {}: \
             every board exceeds some individual_limit",
            size.cells()
        );
    }
    type Tally = (u64, BTreeMap<String, u64>);
    let (relaxed, tally): Tally = with_threads(args.threads, || {
        (1..=CHECK_SAMPLE)
            .into_par_iter()
            .map(|n| {
                let mut rng = own_stream(CHECK_SEED, n, 0);
                let board = draw_board(&engine, &mut rng, 0);
                let mut kinds: Vec<Gave> = board.relaxed.iter().map(|r| r.gave).collect();
                kinds.sort_unstable();
                kinds.dedup();
                kinds
            })
            .fold(Tally::default, |(mut boards, mut map), kinds| {
                boards += u64::from(!kinds.is_empty());
                for gave in kinds {
                    *map.entry(constraint_text(set, &engine, gave)).or_default() += 1;
                }
                (boards, map)
            })
            .reduce(Tally::default, |(n, mut a), (m, b)| {
                for (k, v) in b {
                    *a.entry(k).or_default() += v;
                }
                (n + m, a)
            })
    })?;
    if relaxed == 0 {
        println!("  {size}: all {CHECK_SAMPLE} sample boards met every limit without relaxing any");
    } else {
        println!(
            "  {size}: {relaxed} of {CHECK_SAMPLE} sample boards needed a constraint to give way (after backtracking):"
        );
        let mut rows: Vec<(String, u64)> = tally.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (what, n) in rows.iter().take(CHECK_ROWS) {
            println!("    {n:>6} boards: {what}");
        }
        if rows.len() > CHECK_ROWS {
            println!("    … and {} rarer ones", rows.len() - CHECK_ROWS);
        }
    }
    Ok(Outcome::Success)
}
