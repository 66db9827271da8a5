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
//! Here: the hall's rules; [`state`], what it answers, typed; [`claims`]
//! and [`queue`], claims from the console and from players' phones; [`api`],
//! its API and pages (served by `bingomint hall`); [`judge`] and
//! [`verify`], claims and logs judged; [`log`] and [`secret`], the log and
//! an open game's seed.

pub mod api;
mod claims;
mod error;
mod event;
pub mod judge;
pub mod log;
pub mod queue;
pub mod secret;
pub mod state;
pub mod verify;

use crate::play::calls::Calls;
use crate::play::pattern::Pattern;
use judge::Cards;
use log::{Line, Log};
use queue::Queue;
pub use secret::secret_path;
use secret::{read_secret, write_secret, SecretError};
use state::{ClaimSeen, Daub, Drawn, FileState, GameState, Revealed, State};
use std::path::Path;

pub use error::HallError;
pub use event::{revealed, Ended, Event, FileEntry};

/// The open game.
struct Open {
    game: u64,
    balls: u8,
    stages: Vec<String>,
    /// The stages' patterns, parsed once.
    patterns: Vec<Pattern>,
    stage: usize,
    prize: String,
    last_call: bool,
    commitment: String,
    seed: String,
    called: usize,
    /// The room's seed, once given (or logged as none).
    room: Option<Option<String>>,
    /// Whether any ball was called (a recall does not undo it).
    ever_called: bool,
    /// The whole order, once the seed is known.
    order: Vec<u8>,
}

impl Open {
    /// The game a `game_start` line opens (its seed read later).
    fn begun(event: &Event, spec: crate::game::Spec) -> Result<Open, &'static str> {
        let Event::GameStart {
            game,
            balls,
            stages,
            prize,
            last_call,
            commitment,
        } = event
        else {
            return Err("not a game's start");
        };
        let patterns = stages
            .iter()
            .map(|s| Pattern::parse(s, spec))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| "a game of a pattern this game does not have")?;
        if patterns.is_empty() {
            return Err("a game with no pattern");
        }
        Ok(Open {
            game: *game,
            balls: *balls,
            stages: stages.clone(),
            patterns,
            stage: 0,
            prize: prize.clone(),
            last_call: *last_call,
            commitment: commitment.clone(),
            seed: String::new(),
            called: 0,
            room: None,
            ever_called: false,
            order: Vec::new(),
        })
    }

    fn calls(&self) -> Calls {
        self.calls_at(self.called)
    }

    fn calls_at(&self, called: usize) -> Calls {
        let n = called.min(self.order.len());
        Calls::from_order(self.balls, self.order[..n].to_vec())
    }

    /// The room seed as mixed in ("" for none).
    fn room(&self) -> &str {
        self.room.as_ref().and_then(|r| r.as_deref()).unwrap_or("")
    }

    /// Draws the order again from the seed and the room's seed.
    fn reorder(&mut self) {
        if !self.seed.is_empty() {
            let balls = usize::from(self.balls);
            self.order = Calls::of_hall(self.balls, &self.seed, self.room(), balls)
                .order()
                .to_vec();
        }
    }
}

/// The hall: its cards, its log, the open game.
pub struct Hall {
    pub cards: Cards,
    /// The house rule for marking numbers on players' phones.
    pub daub: Daub,
    log: Log,
    open: Option<Open>,
    games: u64,
    revealed: Option<Revealed>,
    claims: Vec<ClaimSeen>,
    queue: Queue,
    /// What the caller should know since the hall started (a repaired log).
    notice: Option<String>,
}

/// What to do with an open game whose seed file is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostSeed {
    /// Refuse to start ([`HallError::SeedLost`]).
    Refuse,
    /// End the game unrevealed ([`Event::GameVoid`]) and go on.
    Void,
}

/// The commitment to a seed: SHA-256 of its text, lowercase hex.
pub fn commitment(seed: &str) -> String {
    log::hash(seed)
}

/// The closing of players' claims still waiting when a game ends.
const ENDED: &str = "the game ended before the caller came to this claim";

impl Hall {
    /// Opens the hall on `cards` with the log at `log_path` (created, or
    /// read back: an open game resumes from the seed kept beside it).
    pub fn open(
        cards: Cards,
        log_path: &Path,
        files: Vec<FileEntry>,
        sold: Option<String>,
        lost: LostSeed,
    ) -> Result<Hall, HallError> {
        let opened = Log::open(log_path).map_err(|e| match e {
            log::LogError::Bad { .. } => HallError::BadLog {
                path: log_path.display().to_string(),
                source: e,
            },
            e => HallError::LogOpen(e),
        })?;
        let note = (opened.dropped > 0).then(|| {
            format!(
                "the log's last line was unfinished ({} bytes, a write cut short); it was dropped: it had never been shown",
                opened.dropped
            )
        });
        let mut hall = Hall {
            cards,
            daub: Daub::default(),
            log: opened.log,
            open: None,
            games: 0,
            revealed: None,
            claims: Vec::new(),
            queue: Queue::default(),
            notice: note.clone(),
        };
        for line in &opened.lines {
            hall.replay(line)?;
        }
        let void = hall.resume_seed(lost)?;
        hall.log.append(Event::Session { files, sold, note })?;
        if let Some(event) = void {
            let game = hall.open.as_ref().map_or(0, |o| o.game);
            hall.record(event)?;
            hall.notice = Some(format!(
                "game {game} was ended unrevealed: its seed was lost, so its calls cannot be checked"
            ));
        }
        Ok(hall)
    }

    /// Reads the open game's seed back, checked before anything is
    /// written; with `lost` Void, a lost seed gives the event that ends
    /// the game unrevealed.
    fn resume_seed(&mut self, lost: LostSeed) -> Result<Option<Event>, HallError> {
        let Some(open) = &mut self.open else {
            return Ok(None);
        };
        let game = open.game;
        let path = secret_path(self.log.path());
        let shown = path.display().to_string();
        match read_secret(&path) {
            Ok(seed) if commitment(&seed) == open.commitment => {
                open.seed = seed;
                open.reorder();
                Ok(None)
            }
            Ok(_) => Err(HallError::WrongSeed { path: shown, game }),
            Err(SecretError::Unsafe(why)) => Err(HallError::UnsafeSeed { path: shown, why }),
            Err(SecretError::Lost(e)) if lost == LostSeed::Void => Ok(Some(Event::GameVoid {
                game,
                reason: format!("its seed file '{shown}' was lost ({e})"),
            })),
            Err(SecretError::Lost(source)) => Err(HallError::SeedLost {
                game,
                path: shown,
                source,
            }),
        }
    }

    fn replay(&mut self, line: &Line) -> Result<(), HallError> {
        let bad = |what| HallError::Replay {
            line: line.seq,
            what,
        };
        match &line.event {
            Event::GameStart { game, .. } => {
                let spec = self.cards.files[0].header().spec;
                self.open = Some(Open::begun(&line.event, spec).map_err(bad)?);
                self.games = *game;
                self.claims.clear();
                self.queue.close(ENDED);
            }
            Event::Call { call, .. } => {
                let open = self.open.as_mut().ok_or(bad("a call with no game open"))?;
                open.called = *call;
                open.ever_called = true;
            }
            Event::RoomSeed { room_seed, .. } => {
                let open = self
                    .open
                    .as_mut()
                    .ok_or(bad("a room seed with no game open"))?;
                open.room = Some(room_seed.clone());
                open.reorder();
            }
            Event::Recall { call, .. } => {
                self.open
                    .as_mut()
                    .ok_or(bad("a recall with no game open"))?
                    .called = call - 1
            }
            Event::Stage { stage, .. } => {
                let open = self.open.as_mut().ok_or(bad("a stage with no game open"))?;
                open.stage = open
                    .stages
                    .iter()
                    .position(|s| s == stage)
                    .unwrap_or(open.stage);
            }
            Event::GameEnd { game, seed } => {
                let open = self.open.take().ok_or(bad("no game is open"))?;
                self.revealed = Some(Revealed {
                    game: *game,
                    seed: seed.clone(),
                    room_seed: open.room.flatten(),
                    commitment: open.commitment,
                });
                self.queue.close(ENDED);
            }
            Event::GameVoid { .. } => {
                self.open.take().ok_or(bad("no game is open"))?;
                self.revealed = None;
                self.queue.close(ENDED);
            }
            Event::Claim { .. } => self.replay_claim(&line.event),
            Event::Queued { .. } => self.replay_queued(&line.event),
            Event::Session { .. } => {}
        }
        Ok(())
    }

    fn record(&mut self, event: Event) -> Result<(), HallError> {
        let line = self.log.append(event)?;
        self.replay(&line)
    }

    /// The game's numbers: every file's, which must be one game.
    pub fn balls(&self) -> u8 {
        self.cards.files[0].header().spec.balls()
    }

    /// Starts a game of `stages` (patterns in order), checked first.
    pub fn start(
        &mut self,
        stages: Vec<String>,
        prize: String,
        last_call: bool,
    ) -> Result<(), HallError> {
        if let Some(open) = &self.open {
            return Err(HallError::StillOpen(open.game));
        }
        let spec = self.cards.files[0].header().spec;
        if stages.is_empty() {
            return Err(HallError::NoPattern);
        }
        for s in &stages {
            Pattern::parse(s, spec).map_err(|why| HallError::Pattern {
                name: s.clone(),
                why,
            })?;
        }
        let seed = fresh_seed()?;
        let path = secret_path(self.log.path());
        write_secret(&path, &seed).map_err(|e| match e {
            SecretError::Unsafe(why) => HallError::UnsafeSeed {
                path: path.display().to_string(),
                why,
            },
            SecretError::Lost(e) => HallError::Log(e),
        })?;
        let game = self.games + 1;
        let commitment = commitment(&seed);
        let balls = self.balls();
        self.record(Event::GameStart {
            game,
            balls,
            stages,
            prize,
            last_call,
            commitment,
        })?;
        let open = self.open.as_mut().expect("just started");
        open.seed = seed;
        open.reorder();
        Ok(())
    }

    /// Mixes the room's seed into the open game's order: after the
    /// commitment, before the first ball, once.
    pub fn room_seed(&mut self, text: &str) -> Result<(), HallError> {
        let open = self.the_open()?;
        let text = text.trim();
        if text.is_empty() {
            return Err(HallError::BadRoomSeed(
                "it is empty; type what the room gave",
            ));
        }
        if text.chars().count() > 200 {
            return Err(HallError::BadRoomSeed("it is over 200 characters"));
        }
        if text.chars().any(char::is_control) {
            return Err(HallError::BadRoomSeed("it holds a control character"));
        }
        if !crate::play::live::is_live(&open.seed) {
            return Err(HallError::RoomSeedOld(open.game));
        }
        if open.ever_called {
            return Err(HallError::RoomSeedLate(open.game));
        }
        if open.room.is_some() {
            return Err(HallError::RoomSeedGiven(open.game));
        }
        let game = open.game;
        self.record(Event::RoomSeed {
            game,
            room_seed: Some(text.to_string()),
        })
    }

    fn the_open(&self) -> Result<&Open, HallError> {
        self.open.as_ref().ok_or(HallError::NoGame)
    }

    /// The next call.
    pub fn call(&mut self) -> Result<u8, HallError> {
        let open = self.the_open()?;
        if open.called == usize::from(open.balls) {
            return Err(HallError::AllCalled(open.balls));
        }
        // The first ball without the room's seed: the log says so.
        if open.room.is_none() && crate::play::live::is_live(&open.seed) {
            let game = open.game;
            self.record(Event::RoomSeed {
                game,
                room_seed: None,
            })?;
        }
        let open = self.the_open()?;
        let ball = open.order[open.called];
        let (game, call) = (open.game, open.called + 1);
        self.record(Event::Call { game, call, ball })?;
        Ok(ball)
    }

    /// Takes back the last call.
    pub fn recall(&mut self) -> Result<u8, HallError> {
        let open = self.the_open()?;
        let Some(&ball) = open.calls().order().last() else {
            return Err(HallError::NoCallToTakeBack);
        };
        let (game, call) = (open.game, open.called);
        self.record(Event::Recall { game, call, ball })?;
        Ok(ball)
    }

    /// Ends the open game and reveals its seed.
    pub fn end(&mut self) -> Result<String, HallError> {
        let open = self.the_open()?;
        let (game, seed) = (open.game, open.seed.clone());
        self.record(Event::GameEnd {
            game,
            seed: seed.clone(),
        })?;
        let _ = std::fs::remove_file(secret_path(self.log.path()));
        Ok(seed)
    }

    /// What the pages show.
    pub fn state(&self) -> State {
        let spec = self.cards.files[0].header().spec;
        let game = self.open.as_ref().map(|o| GameState {
            game: o.game,
            balls: o.balls,
            stages: o.stages.clone(),
            stage: o.stages[o.stage].clone(),
            prize: o.prize.clone(),
            last_call: o.last_call,
            commitment: o.commitment.clone(),
            room_seed: o.room.clone().flatten(),
            calls: o.calls().order().to_vec(),
            drawn: drawn(&o.patterns[o.stage], spec),
        });
        let files = self
            .cards
            .files
            .iter()
            .map(|f| FileState {
                id: f.short_id(),
                count: f.header().count,
                path: f.path().to_string(),
            })
            .collect();
        State {
            game,
            revealed: self.revealed.clone(),
            files,
            balls: spec.balls(),
            letters: spec.facts().letters,
            game_name: spec.short_name(),
            patterns: spec.facts().patterns.iter().map(|p| p.name).collect(),
            claims: self.claims.iter().rev().take(10).cloned().collect(),
            notice: self.notice.clone(),
            daub: self.daub,
        }
    }

    /// What the caller should know since the hall started, if anything.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
}

/// A new game's seed: `hall2-` and 256 bits of the operating system's
/// entropy in hex. Its order is [`crate::play::live::order`] of it and the
/// room's seed.
pub fn fresh_seed() -> std::io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(format!(
        "{}{}",
        crate::play::live::PREFIX,
        crate::text::hex(&bytes)
    ))
}

/// 128 bits of the operating system's entropy, in hex: the console's key.
pub fn random_hex() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(crate::text::hex(&bytes))
}

/// A pattern as the board draws it: its first way's cells (rows × cols,
/// row-major) and how many ways it has; None for a pattern with no fixed
/// cells (90-ball lines count numbers, not cells).
fn drawn(pattern: &Pattern, spec: crate::game::Spec) -> Option<Drawn> {
    let ways = pattern.ways()?;
    let facts = spec.facts();
    let cells = facts.rows * facts.cols;
    Some(Drawn {
        rows: facts.rows,
        cols: facts.cols,
        cells: (0..cells).map(|i| ways[0].mask >> i & 1 == 1).collect(),
        way: ways[0].name.to_string(),
        ways: ways.len(),
    })
}
