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
use serde::{Deserialize, Serialize};
use state::{ClaimSeen, Daub, Drawn, FileState, GameState, Revealed, State};
use std::path::Path;

/// One event of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The hall started (or started again) with these card files.
    Session {
        files: Vec<FileEntry>,
        sold: Option<String>,
        /// What the hall repaired on opening the log (an unfinished last
        /// line dropped), said once here.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// A game: its stages (patterns, in order), prize and commitment.
    GameStart {
        game: u64,
        balls: u8,
        stages: Vec<String>,
        prize: String,
        last_call: bool,
        commitment: String,
    },
    /// The room's seed, mixed into the order (given after the commitment
    /// and before the first call); None: the first call came without one,
    /// and the order rests on the hall's seed alone.
    RoomSeed {
        game: u64,
        room_seed: Option<String>,
    },
    /// Call number `call` (from 1) of the game.
    Call { game: u64, call: usize, ball: u8 },
    /// The last call taken back (a mistaken call): `call` is no longer shown.
    Recall { game: u64, call: usize, ball: u8 },
    /// A claim and its verdict, at `call` calls, for `stage`.
    Claim {
        game: u64,
        card: String,
        stage: String,
        call: usize,
        win: bool,
        reason: String,
        accepted: bool,
        /// The player's claim (from the queue) this decided: judged at the
        /// `call` and `stage` it arrived at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        queued: Option<u64>,
    },
    /// A player's claim joined the queue, judged on arrival.
    Queued {
        game: u64,
        id: u64,
        card: String,
        stage: String,
        call: usize,
        win: bool,
        reason: String,
    },
    /// An accepted win moved the game on to `stage`.
    Stage { game: u64, stage: String },
    /// The game ended: its seed revealed.
    GameEnd { game: u64, seed: String },
    /// The game ended unrevealed: its seed was lost (the seed file gone),
    /// so its calls can never be checked against the commitment.
    GameVoid { game: u64, reason: String },
}

/// A card file as the session's first line records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub id: String,
    pub sha256: String,
    pub count: u64,
    pub game: String,
}

/// A refusal of the hall. [`HallError::status`] is the HTTP status it
/// maps to.
#[derive(Debug, thiserror::Error)]
pub enum HallError {
    #[error("no game is open: start one")]
    NoGame,
    #[error("game {0} is still open: end it first")]
    StillOpen(u64),
    #[error("all {0} numbers are called")]
    AllCalled(u8),
    #[error("there is no call to take back")]
    NoCallToTakeBack,
    #[error("name a pattern")]
    NoPattern,
    #[error("pattern {name:?}: {why}")]
    Pattern {
        name: String,
        why: crate::play::pattern::PatternError,
    },
    /// The reference names no face of the hall's files (the reason in words).
    #[error("{0}")]
    NoFace(String),
    #[error("{noun} {face} was not sold tonight")]
    NotSold { noun: &'static str, face: u64 },
    #[error("{0}")]
    Flood(#[from] queue::Flood),
    #[error("no claim {0} is waiting in the queue (decided already, or never made)")]
    NotWaiting(u64),
    #[error("claim {id} was made on {queued:?}, not {given:?}")]
    OtherCard {
        id: u64,
        queued: String,
        given: String,
    },
    #[error("the room seed: {0}")]
    BadRoomSeed(&'static str),
    #[error("game {0} has its room seed already")]
    RoomSeedGiven(u64),
    #[error("game {0} has had a call: a room seed is taken only before the first ball")]
    RoomSeedLate(u64),
    #[error("game {0} was started with a seed of the older form, which takes no room seed")]
    RoomSeedOld(u64),
    #[error("'{path}': {why}")]
    UnsafeSeed { path: String, why: String },
    #[error("'{path}' does not hold the seed game {game} committed to")]
    WrongSeed { path: String, game: u64 },
    /// The open game's seed file cannot be read: its calls cannot go on.
    #[error("game {game} is open in the log, but its seed file '{path}' cannot be read ({source}), so its calls cannot go on")]
    SeedLost {
        game: u64,
        path: String,
        source: std::io::Error,
    },
    #[error("'{path}': {source}")]
    BadLog { path: String, source: log::LogError },
    #[error(transparent)]
    LogOpen(log::LogError),
    /// The log's events do not follow (a hand-edited log whose chain holds).
    #[error("line {line}: {what}")]
    Replay { line: u64, what: &'static str },
    #[error("cannot write the log: {0}")]
    Log(#[from] std::io::Error),
}

impl HallError {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            HallError::NoPattern
            | HallError::Pattern { .. }
            | HallError::OtherCard { .. }
            | HallError::BadRoomSeed(_) => 400,
            HallError::NoFace(_) => 404,
            HallError::Flood(_) => 429,
            HallError::Log(_) | HallError::LogOpen(_) | HallError::BadLog { .. } => 500,
            _ => 409,
        }
    }
}

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
            Event::GameStart {
                game,
                balls,
                stages,
                prize,
                last_call,
                commitment,
            } => {
                let spec = self.cards.files[0].header().spec;
                let patterns = stages
                    .iter()
                    .map(|s| Pattern::parse(s, spec))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| bad("a game of a pattern this game does not have"))?;
                if patterns.is_empty() {
                    return Err(bad("a game with no pattern"));
                }
                self.games = *game;
                self.open = Some(Open {
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
                });
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
            Event::Claim {
                card,
                win,
                reason,
                call,
                accepted,
                queued,
                ..
            } => {
                self.claims.push(ClaimSeen {
                    card: card.clone(),
                    win: *win,
                    reason: reason.clone(),
                    call: *call,
                });
                if let Some(id) = queued {
                    self.queue
                        .decide(*id, claims::stand(*accepted), reason.clone());
                }
            }
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

/// The games a log revealed, in log order (the chain checked first).
pub fn revealed(text: &str) -> Result<Vec<Ended>, log::LogError> {
    let (lines, _) = log::read(text)?;
    let (mut balls, mut room_seed) = (0, None);
    let mut out = Vec::new();
    for line in lines {
        match line.event {
            Event::GameStart { balls: b, .. } => (balls, room_seed) = (b, None),
            Event::RoomSeed { room_seed: r, .. } => room_seed = r,
            Event::GameEnd { seed, .. } => out.push(Ended {
                balls,
                seed,
                room_seed: room_seed.take(),
            }),
            _ => {}
        }
    }
    Ok(out)
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
