//! Simulated games: how many calls a pattern takes to fall with a given set
//! of faces in play, and how often the prize is shared.
//!
//! Game `g` calls the numbers in the uniform order of stream `g` of the
//! calls seed (derived from the master seed, apart from the card streams),
//! so a run is reproducible for any thread count. Each face's completion
//! call comes from the positions of its numbers in the order (see
//! [`Pattern::earliest`]); no game is marked call by call.

use super::calls::{Calls, Positions, NEVER};
use super::pattern::{earliest_way, Pattern};
use crate::dedup::KeySet;
use crate::game::{Face, Spec, Text, Visit};
use crate::pipeline::{mint_records, MintError, Progress};
use crate::seed::simulate_calls_seed;
use rayon::prelude::*;
use serde::Serialize;

/// Games per parallel task (and per progress report).
const GAMES_PER_TASK: u64 = 256;

/// The faces of `records` fresh, unique records of `spec` drawn from `seed`
/// (the cards a `generate` with that seed would make), in order.
pub fn fresh_faces(spec: Spec, records: u64, seed: u64) -> Result<Vec<Face>, MintError> {
    spec.visit(Fresh { records, seed })
}

struct Fresh {
    records: u64,
    seed: u64,
}

impl Visit for Fresh {
    type Out = Result<Vec<Face>, MintError>;

    fn visit<G: Text>(self, game: &G) -> Self::Out {
        let spec = game.spec();
        let size = spec.record_size();
        let mut bytes = vec![0u8; self.records as usize * size];
        let set = KeySet::with_capacity(self.records as usize * spec.keys_per_card());
        mint_records(game, self.seed, &mut bytes, &set, &|_| {})?;
        Ok(bytes
            .chunks_exact(size)
            .flat_map(|record| {
                let card = game.decode(record).expect("a fresh record is valid");
                (0..spec.faces())
                    .map(move |t| game.face(&card, t))
                    .collect::<Vec<_>>()
            })
            .collect())
    }
}

/// One game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The call at which the first face completed (NEVER: none did).
    pub first: u8,
    /// How many faces completed at that call.
    pub winners: u32,
}

/// Plays `games` games of `balls` numbers against `faces` and returns each
/// game's outcome, in game order.
pub fn play(
    faces: &[Face],
    pattern: &Pattern,
    balls: u8,
    games: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Vec<Game> {
    let calls_seed = simulate_calls_seed(seed);
    let compiled = Compiled::new(faces, pattern);
    let tasks = games.div_ceil(GAMES_PER_TASK);
    (0..tasks)
        .into_par_iter()
        .flat_map_iter(|task| {
            let range = task * GAMES_PER_TASK..((task + 1) * GAMES_PER_TASK).min(games);
            let out: Vec<Game> = range
                .map(|g| {
                    let calls = Calls::shuffled(balls, calls_seed, g, usize::from(balls));
                    match &compiled {
                        Some(compiled) => compiled.game(calls.positions()),
                        None => one_game(faces, pattern, calls.positions()),
                    }
                })
                .collect();
            progress.advance(out.len() as u64);
            out
        })
        .collect()
}

/// The first completion call among `faces` and how many share it.
fn one_game(faces: &[Face], pattern: &Pattern, positions: &Positions) -> Game {
    let mut tally = Tally::new();
    for face in faces {
        let (call, _) = pattern.earliest(face, positions, tally.bound());
        tally.add(call);
    }
    tally.game()
}

/// The earliest completion call so far and how many faces share it.
struct Tally {
    first: u8,
    winners: u32,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            first: NEVER,
            winners: 0,
        }
    }

    /// Completions at or after this call cannot matter.
    #[inline]
    fn bound(&self) -> u8 {
        self.first.saturating_add(1)
    }

    #[inline]
    fn add(&mut self, call: u8) {
        if call < self.first {
            self.first = call;
            self.winners = 1;
        } else if call == self.first && call != NEVER {
            self.winners += 1;
        }
    }

    fn game(&self) -> Game {
        Game {
            first: self.first,
            winners: self.winners,
        }
    }
}

/// A pattern of fixed ways laid out for the inner loop: every face's cells
/// in one flat array, and the ways as masks. For each face a game first
/// marks, in one pass over the cells, which were called before the best
/// completion so far; only a way all of whose cells were (rare once a first
/// winner is known) has its completion call worked out.
struct Compiled {
    /// Every face's cells, row-major, face after face (0: blank or free).
    cells: Vec<u8>,
    /// Cells a face has.
    stride: usize,
    /// The ways' masks over a face's cells.
    ways: Vec<u32>,
}

impl Compiled {
    fn new(faces: &[Face], pattern: &Pattern) -> Option<Compiled> {
        let ways = pattern.ways()?.iter().map(|w| w.mask).collect();
        let stride = faces
            .first()
            .map_or(0, |f| usize::from(f.rows) * usize::from(f.cols));
        let mut cells = Vec::with_capacity(stride * faces.len());
        for face in faces {
            cells.extend_from_slice(face.numbers());
        }
        Some(Compiled {
            cells,
            stride,
            ways,
        })
    }

    fn game(&self, positions: &Positions) -> Game {
        let mut tally = Tally::new();
        for face in self.cells.chunks_exact(self.stride) {
            let (best, _) = earliest_way(face, self.ways.iter().copied(), positions, tally.bound());
            tally.add(best);
        }
        tally.game()
    }
}

/// What a run of games says, for people (`simulate`) and programs (`--json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub pattern: String,
    pub faces: u64,
    pub games: u64,
    pub seed: u64,
    /// Calls until the first win.
    pub mean: f64,
    pub sd: f64,
    pub min: u8,
    pub median: u8,
    pub max: u8,
    /// (percent, calls): by that many calls, that share of games had a winner.
    pub percentiles: Vec<(u8, u8)>,
    /// Faces completing at the first winning call, on average.
    pub mean_winners: f64,
    /// Share of games whose first win was shared by two or more faces.
    pub shared: f64,
    /// Games whose first win came at each call: (call, games).
    pub first_win: Vec<(u8, u64)>,
    /// Games by how many faces shared the first win: (faces, games).
    pub winners: Vec<(u32, u64)>,
    /// Games no face won (only when the pattern cannot be completed).
    pub unwon: u64,
    /// The chance of a win within a number of calls, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<Within>,
}

/// The share of games won within `calls` calls (a jackpot's question),
/// with its 95 % Wilson score interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Within {
    pub calls: u8,
    /// Games won by that call.
    pub games: u64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Summary {
    /// The share of games won within `calls` calls, with its 95 % interval.
    pub fn within(&self, calls: u8) -> Within {
        let won: u64 = self
            .first_win
            .iter()
            .filter(|&&(c, _)| c <= calls)
            .map(|&(_, k)| k)
            .sum();
        let (low, high) = wilson(won, self.games, 1.959_963_984_540_054);
        Within {
            calls,
            games: won,
            share: won as f64 / self.games as f64,
            low,
            high,
        }
    }
}

/// The Wilson score interval of `k` successes in `n` trials at `z`.
fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Sums up `games` (from [`play`]).
pub fn summarise(pattern: &str, faces: u64, seed: u64, games: &[Game]) -> Summary {
    let mut by_call = [0u64; 256];
    let mut by_winners = std::collections::BTreeMap::new();
    for g in games {
        by_call[usize::from(g.first)] += 1;
        if g.first != NEVER {
            *by_winners.entry(g.winners).or_insert(0u64) += 1;
        }
    }
    let unwon = by_call[usize::from(NEVER)];
    let won = games.len() as u64 - unwon;
    let first_win: Vec<(u8, u64)> = (1..NEVER)
        .filter(|&c| by_call[usize::from(c)] > 0)
        .map(|c| (c, by_call[usize::from(c)]))
        .collect();
    let n = won.max(1) as f64;
    let mean = first_win
        .iter()
        .map(|&(c, k)| f64::from(c) * k as f64)
        .sum::<f64>()
        / n;
    let var = first_win
        .iter()
        .map(|&(c, k)| (f64::from(c) - mean).powi(2) * k as f64)
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    // The smallest call by which at least `p` of the won games were won.
    let quantile = |p: f64| {
        let need = (p * won as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(c, k) in &first_win {
            seen += k;
            if seen >= need {
                return c;
            }
        }
        0
    };
    let winners: Vec<(u32, u64)> = by_winners.into_iter().collect();
    let total_winners: u64 = winners.iter().map(|&(w, k)| u64::from(w) * k).sum();
    let shared: u64 = winners
        .iter()
        .filter(|&&(w, _)| w > 1)
        .map(|&(_, k)| k)
        .sum();
    Summary {
        pattern: pattern.to_string(),
        faces,
        games: games.len() as u64,
        seed,
        mean,
        sd: var.sqrt(),
        min: first_win.first().map_or(0, |&(c, _)| c),
        median: quantile(0.5),
        max: first_win.last().map_or(0, |&(c, _)| c),
        percentiles: [5, 10, 25, 50, 75, 90, 95]
            .iter()
            .map(|&p| (p, quantile(f64::from(p) / 100.0)))
            .collect(),
        mean_winners: total_winners as f64 / n,
        shared: shared as f64 / n,
        first_win,
        winners,
        unwon,
        within: None,
    }
}

/// The distribution of calls to the first win as an SVG histogram.
pub fn svg(summary: &Summary) -> String {
    let (w, h) = (720.0, 400.0);
    let (left, right, top, bottom) = (60.0, 20.0, 40.0, 50.0);
    let max_games = summary.first_win.iter().map(|&(_, k)| k).max().unwrap_or(1) as f64;
    let (lo, hi) = (
        f64::from(summary.min.saturating_sub(1)),
        f64::from(summary.max) + 1.0,
    );
    let x = |c: f64| left + (c - lo) / (hi - lo).max(1.0) * (w - left - right);
    let y = |k: f64| h - bottom - k / max_games * (h - top - bottom);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Calls to the first \
         {} win: {} faces, {} games (mean {:.2}, median {})</text>\n",
        w / 2.0,
        xml(&summary.pattern),
        summary.faces,
        summary.games,
        summary.mean,
        summary.median
    );
    let bar = (x(1.0) - x(0.0)).max(1.0);
    for &(c, k) in &summary.first_win {
        let (x0, y0) = (x(f64::from(c) - 0.5), y(k as f64));
        s.push_str(&format!(
            "<rect x=\"{x0:.2}\" y=\"{y0:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#444\"/>\n",
            bar * 0.9,
            h - bottom - y0
        ));
    }
    // Axes, with ticks every 5 or 10 calls and at quarters of the height.
    s.push_str(&format!(
        "<path d=\"M{left} {top} V{} H{}\" stroke=\"black\" fill=\"none\"/>\n",
        h - bottom,
        w - right
    ));
    let step = if hi - lo > 40.0 { 10 } else { 5 };
    let mut c = (lo as u32).div_ceil(step) * step;
    while f64::from(c) <= hi {
        let xc = x(f64::from(c));
        s.push_str(&format!(
            "<path d=\"M{xc:.2} {} v5\" stroke=\"black\"/><text x=\"{xc:.2}\" y=\"{}\" \
             text-anchor=\"middle\">{c}</text>\n",
            h - bottom,
            h - bottom + 18.0
        ));
        c += step;
    }
    for q in 0..=4 {
        let k = max_games * f64::from(q) / 4.0;
        let share = k / summary.games.max(1) as f64 * 100.0;
        s.push_str(&format!(
            "<text x=\"{}\" y=\"{:.2}\" text-anchor=\"end\">{share:.1}%</text>\n",
            left - 6.0,
            y(k) + 4.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">calls</text>\n\
         <text x=\"14\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {})\">\
         share of games</text>\n</svg>\n",
        (left + w - right) / 2.0,
        h - 10.0,
        (top + h - bottom) / 2.0,
        (top + h - bottom) / 2.0
    ));
    s
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    /// Wilson's interval against values worked by hand from its formula:
    /// 81 of 263 at 95 % is 0.2553 to 0.3662; 0 of 10 is 0 to 0.2775.
    #[test]
    fn wilson_interval_of_a_known_case() {
        let (lo, hi) = super::wilson(81, 263, 1.959_963_984_540_054);
        assert!(
            (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = super::wilson(0, 10, 1.959_963_984_540_054);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-4, "{hi}");
    }

    use super::*;

    fn card() -> Face {
        let mut face = Face::new(5, 5);
        for c in 0..5 {
            for r in 0..5 {
                face.cells[5 * r + c] = if (r, c) == (2, 2) {
                    0
                } else {
                    (15 * c + r + 1) as u8
                };
            }
        }
        face
    }

    #[test]
    fn runs_are_reproducible_for_any_thread_count() {
        let faces = vec![card(); 3];
        let line = Pattern::parse("line", Spec::named("75").unwrap()).unwrap();
        let run = |threads| {
            crate::pipeline::in_pool(Some(threads), || play(&faces, &line, 75, 3000, 9, &|_| {}))
                .unwrap()
        };
        assert_eq!(run(1), run(3));
        // Three copies of one card always share the win.
        assert!(run(2).iter().all(|g| g.winners == 3 && g.first >= 4));
    }

    /// Call-by-call marking, the plain way: the first call after which
    /// some way of some face is all marked, and how many faces then are.
    fn reference(faces: &[Face], pattern: &Pattern, order: &[u8]) -> Game {
        let mut marked = [false; 256];
        marked[0] = true;
        for (i, &n) in order.iter().enumerate() {
            marked[usize::from(n)] = true;
            let winners = faces
                .iter()
                .filter(|face| {
                    let ways = pattern.ways().map_or(1, |w| w.len());
                    (0..ways).any(|w| {
                        let mask = pattern.way_cells(face, w);
                        (0..27)
                            .filter(|&c| mask & (1 << c) != 0)
                            .all(|c| marked[usize::from(face.cells[c])])
                    })
                })
                .count();
            if winners > 0 {
                return Game {
                    first: (i + 1) as u8,
                    winners: winners as u32,
                };
            }
        }
        Game {
            first: NEVER,
            winners: 0,
        }
    }

    #[test]
    fn games_agree_with_marking_call_by_call() {
        for game in Spec::GAMES {
            let spec = Spec::named(game).unwrap();
            let balls = spec.balls();
            let faces = fresh_faces(spec, 40, 3).unwrap();
            for builtin in spec.facts().patterns {
                let name = builtin.name;
                let pattern = Pattern::parse(name, spec).unwrap();
                if pattern.ways().is_none() {
                    continue;
                }
                let games = play(&faces, &pattern, balls, 300, 5, &|_| {});
                let compiled = Compiled::new(&faces, &pattern).unwrap();
                for (g, game) in games.iter().enumerate() {
                    let calls = Calls::shuffled(balls, simulate_calls_seed(5), g as u64, 90);
                    let expected = reference(&faces, &pattern, calls.order());
                    assert_eq!(*game, expected, "{name} game {g}");
                    assert_eq!(one_game(&faces, &pattern, calls.positions()), expected);
                    assert_eq!(compiled.game(calls.positions()), expected);
                }
            }
        }
    }

    #[test]
    fn summary_figures() {
        let games = [
            Game {
                first: 10,
                winners: 1,
            },
            Game {
                first: 12,
                winners: 2,
            },
            Game {
                first: 12,
                winners: 1,
            },
            Game {
                first: 20,
                winners: 1,
            },
        ];
        let s = summarise("line", 5, 1, &games);
        assert_eq!(s.mean, 13.5);
        assert_eq!((s.min, s.median, s.max), (10, 12, 20));
        assert_eq!(s.first_win, vec![(10, 1), (12, 2), (20, 1)]);
        assert_eq!(s.winners, vec![(1, 3), (2, 1)]);
        assert_eq!(s.shared, 0.25);
        assert_eq!(s.mean_winners, 1.25);
        assert!(svg(&s).starts_with("<svg"));
    }
}
