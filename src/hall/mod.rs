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
//! Here: the hall's state and rules; [`api`], its API and pages (served
//! by `bingomint hall`); [`judge`] and [`verify`], claims and logs judged;
//! [`log`] and [`secret`], the log and an open game's seed.

pub mod api;
pub mod judge;
pub mod log;
pub mod secret;
pub mod verify;

use crate::play::calls::Calls;
use crate::play::pattern::Pattern;
use crate::seed::Seed;
use judge::Cards;
use log::{Line, Log};
pub use secret::secret_path;
use secret::{read_secret, write_secret, SecretError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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

/// A refusal, with the HTTP status it maps to.
#[derive(Debug, thiserror::Error)]
pub enum HallError {
    /// The request does not fit the game's state (409).
    #[error("{0}")]
    Conflict(String),
    /// The request itself is wrong (400).
    #[error("{0}")]
    Bad(String),
    /// The log could not be written: nothing changed (500).
    #[error("cannot write the log: {0}")]
    Log(#[from] std::io::Error),
}

/// The open game.
struct Open {
    game: u64,
    balls: u8,
    stages: Vec<String>,
    stage: usize,
    prize: String,
    last_call: bool,
    commitment: String,
    seed: String,
    called: usize,
}

impl Open {
    fn calls(&self) -> Calls {
        Calls::seeded(self.balls, Seed::parse(&self.seed).value, self.called)
    }
}

/// The hall: its cards, its log, the open game.
pub struct Hall {
    pub cards: Cards,
    log: Log,
    open: Option<Open>,
    games: u64,
    revealed: Option<(u64, String, String)>,
    claims: Vec<Value>,
    /// What the caller should know since the hall started (a repaired log).
    notice: Option<String>,
}

/// What to do with an open game whose seed file is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostSeed {
    /// Refuse to start, saying how to go on.
    Refuse,
    /// End the game unrevealed ([`Event::GameVoid`]) and go on.
    Void,
}

/// The commitment to a seed: SHA-256 of its text, lowercase hex.
pub fn commitment(seed: &str) -> String {
    log::hash(seed)
}

impl Hall {
    /// Opens the hall on `cards` with the log at `log` (created, or read
    /// back: an open game resumes from the seed kept beside it).
    pub fn open(
        cards: Cards,
        log_path: &std::path::Path,
        files: Vec<FileEntry>,
        sold: Option<String>,
        lost: LostSeed,
    ) -> Result<Hall, String> {
        let opened = Log::open(log_path).map_err(|e| match e {
            log::LogError::Bad { .. } => format!(
                "'{}': {e}; `bingomint hall verify` names what is wrong",
                log_path.display()
            ),
            e => e.to_string(),
        })?;
        let note = (opened.dropped > 0).then(|| {
            format!(
                "the log's last line was unfinished ({} bytes, a write cut short); it was dropped: it had never been shown",
                opened.dropped
            )
        });
        let mut hall = Hall {
            cards,
            log: opened.log,
            open: None,
            games: 0,
            revealed: None,
            claims: Vec::new(),
            notice: note.clone(),
        };
        for line in &opened.lines {
            hall.replay(line)?;
        }
        // The open game's seed, checked before anything is written.
        let mut void = None;
        if let Some(open) = &hall.open {
            let (game, commitment) = (open.game, open.commitment.clone());
            let path = secret_path(hall.log.path());
            match read_secret(&path) {
                Ok(seed) if self::commitment(&seed) == commitment => {
                    hall.open.as_mut().expect("open").seed = seed;
                }
                Ok(_) => {
                    return Err(format!(
                        "'{}' does not hold the seed game {game} committed to",
                        path.display()
                    ))
                }
                Err(SecretError::Unsafe(why)) => {
                    return Err(format!("'{}': {why}", path.display()))
                }
                Err(SecretError::Lost(e)) if lost == LostSeed::Void => {
                    let reason = format!("its seed file '{}' was lost ({e})", path.display());
                    void = Some(Event::GameVoid { game, reason });
                }
                Err(SecretError::Lost(e)) => {
                    return Err(format!(
                        "game {game} is open in the log, but its seed file '{}' cannot be read ({e}), so its calls cannot go on; \
                         start the hall with --void-lost-game to end game {game} unrevealed (logged as such: its calls can never be checked against its commitment)",
                        path.display()
                    ))
                }
            }
        }
        hall.log
            .append(Event::Session { files, sold, note })
            .map_err(|e| format!("cannot write the log: {e}"))?;
        if let Some(event) = void {
            let game = hall.open.as_ref().map_or(0, |o| o.game);
            hall.record(event).map_err(|e| e.to_string())?;
            hall.notice = Some(format!(
                "game {game} was ended unrevealed: its seed was lost, so its calls cannot be checked"
            ));
        }
        Ok(hall)
    }

    fn replay(&mut self, line: &Line) -> Result<(), String> {
        match &line.event {
            Event::GameStart {
                game,
                balls,
                stages,
                prize,
                last_call,
                commitment,
            } => {
                self.games = *game;
                self.open = Some(Open {
                    game: *game,
                    balls: *balls,
                    stages: stages.clone(),
                    stage: 0,
                    prize: prize.clone(),
                    last_call: *last_call,
                    commitment: commitment.clone(),
                    seed: String::new(),
                    called: 0,
                });
                self.claims.clear();
            }
            Event::Call { call, .. } => self.open_mut()?.called = *call,
            Event::Recall { call, .. } => self.open_mut()?.called = call - 1,
            Event::Stage { stage, .. } => {
                let open = self.open_mut()?;
                open.stage = open
                    .stages
                    .iter()
                    .position(|s| s == stage)
                    .unwrap_or(open.stage);
            }
            Event::GameEnd { game, seed } => {
                let open = self
                    .open
                    .take()
                    .ok_or(format!("line {}: no game is open", line.seq))?;
                self.revealed = Some((*game, seed.clone(), open.commitment));
            }
            Event::GameVoid { .. } => {
                self.open
                    .take()
                    .ok_or(format!("line {}: no game is open", line.seq))?;
                self.revealed = None;
            }
            Event::Claim {
                card,
                win,
                reason,
                call,
                ..
            } => self
                .claims
                .push(json!({"card": card, "win": win, "reason": reason, "call": call})),
            Event::Session { .. } => {}
        }
        Ok(())
    }

    fn open_mut(&mut self) -> Result<&mut Open, String> {
        self.open
            .as_mut()
            .ok_or_else(|| "the log has a call with no game open".to_string())
    }

    fn record(&mut self, event: Event) -> Result<(), HallError> {
        let line = self.log.append(event)?;
        self.replay(&line).map_err(HallError::Conflict)
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
            return Err(HallError::Conflict(format!(
                "game {} is still open: end it first",
                open.game
            )));
        }
        let spec = self.cards.files[0].header().spec;
        if stages.is_empty() {
            return Err(HallError::Bad("name a pattern".into()));
        }
        for s in &stages {
            Pattern::parse(s, spec).map_err(|e| HallError::Bad(format!("pattern {s:?}: {e}")))?;
        }
        let seed = fresh_seed()?;
        write_secret(&secret_path(self.log.path()), &seed).map_err(|e| match e {
            SecretError::Unsafe(why) => HallError::Conflict(format!(
                "'{}': {why}",
                secret_path(self.log.path()).display()
            )),
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
        self.open.as_mut().expect("just started").seed = seed;
        Ok(())
    }

    fn the_open(&self) -> Result<&Open, HallError> {
        self.open
            .as_ref()
            .ok_or_else(|| HallError::Conflict("no game is open: start one".into()))
    }

    /// The next call.
    pub fn call(&mut self) -> Result<u8, HallError> {
        let open = self.the_open()?;
        if open.called == usize::from(open.balls) {
            return Err(HallError::Conflict(format!(
                "all {} numbers are called",
                open.balls
            )));
        }
        let calls = Calls::seeded(open.balls, Seed::parse(&open.seed).value, open.called + 1);
        let ball = *calls.order().last().expect("one call at least");
        let (game, call) = (open.game, open.called + 1);
        self.record(Event::Call { game, call, ball })?;
        Ok(ball)
    }

    /// Takes back the last call.
    pub fn recall(&mut self) -> Result<u8, HallError> {
        let open = self.the_open()?;
        let Some(&ball) = open.calls().order().last() else {
            return Err(HallError::Conflict("there is no call to take back".into()));
        };
        let (game, call) = (open.game, open.called);
        self.record(Event::Recall { game, call, ball })?;
        Ok(ball)
    }

    /// Judges a claim; `accept` a win moves to the next stage, or ends the
    /// game after the last. Returns the verdict as the API shows it.
    pub fn claim(&mut self, card: &str, accept: bool) -> Result<Value, HallError> {
        let open = self.the_open()?;
        let spec = self.cards.files[0].header().spec;
        let stage = open.stages[open.stage].clone();
        let pattern = Pattern::parse(&stage, spec).map_err(|e| HallError::Bad(e.to_string()))?;
        let calls = open.calls();
        let judged = self.cards.judge(card, &pattern, &calls, open.last_call);
        let accepted = accept && judged.win;
        // Who shares the prize: a scan of every file, so only when a win
        // is accepted (a check stays a lookup of one face).
        let also = if accepted {
            self.cards
                .also_winning(&pattern, &calls, open.last_call, judged.at, 100)
        } else {
            Vec::new()
        };
        let (game, call) = (open.game, open.called);
        let (next, last) = (
            open.stages.get(open.stage + 1).cloned(),
            open.stage + 1 == open.stages.len(),
        );
        let card = card.trim().to_string();
        self.record(Event::Claim {
            game,
            card: card.clone(),
            stage: stage.clone(),
            call,
            win: judged.win,
            reason: judged.reason.clone(),
            accepted,
        })?;
        if accepted {
            match next {
                Some(stage) => self.record(Event::Stage { game, stage })?,
                None if last => {
                    self.end()?;
                }
                None => {}
            }
        }
        Ok(json!({
            "card": card, "win": judged.win, "reason": judged.reason, "label": judged.label, "found": judged.at.is_some(),
            "face": judged.face, "stage": stage, "call": call, "also_winning": also, "accepted": accepted,
        }))
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
    pub fn state(&self) -> Value {
        let spec = self.cards.files[0].header().spec;
        let game = self.open.as_ref().map(|o| {
            json!({
                "game": o.game, "balls": o.balls, "stages": o.stages, "stage": o.stages[o.stage],
                "prize": o.prize, "last_call": o.last_call, "commitment": o.commitment,
                "calls": o.calls().order(),
                "drawn": drawn(&o.stages[o.stage], spec),
            })
        });
        let revealed = self
            .revealed
            .as_ref()
            .map(|(g, s, c)| json!({"game": g, "seed": s, "commitment": c}));
        let files: Vec<Value> = self
            .cards
            .files
            .iter()
            .map(|f| json!({"id": f.short_id(), "count": f.header().count, "path": f.path()}))
            .collect();
        json!({
            "game": game, "revealed": revealed, "files": files, "balls": spec.balls(),
            "letters": spec.facts().letters, "game_name": spec.short_name(),
            "patterns": spec.facts().patterns.iter().map(|p| p.name).collect::<Vec<_>>(),
            "claims": self.claims.iter().rev().take(10).collect::<Vec<_>>(),
            "notice": self.notice,
        })
    }
}

/// A new game's seed: `hall-` and 128 bits of the operating system's
/// entropy in hex. Its order is `Calls::seeded(balls, Seed::parse(seed))`.
pub fn fresh_seed() -> std::io::Result<String> {
    Ok(format!("hall-{}", random_hex()?))
}

/// 128 bits of the operating system's entropy, in hex: a seed's or a key's.
pub fn random_hex() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(crate::text::hex(&bytes))
}

/// The seeds a log revealed, with each game's numbers, in log order (the
/// chain checked first).
pub fn revealed(text: &str) -> Result<Vec<(u8, String)>, log::LogError> {
    let (lines, _) = log::read(text)?;
    let mut balls = 0;
    let mut out = Vec::new();
    for line in lines {
        match line.event {
            Event::GameStart { balls: b, .. } => balls = b,
            Event::GameEnd { seed, .. } => out.push((balls, seed)),
            _ => {}
        }
    }
    Ok(out)
}

/// A pattern as the board draws it: its first way's cells (rows × cols,
/// row-major) and how many ways it has; None for a pattern with no fixed
/// cells (90-ball lines count numbers, not cells).
fn drawn(stage: &str, spec: crate::game::Spec) -> Option<Value> {
    let pattern = Pattern::parse(stage, spec).ok()?;
    let ways = pattern.ways()?;
    let facts = spec.facts();
    let cells = facts.rows * facts.cols;
    let mask: Vec<bool> = (0..cells).map(|i| ways[0].mask >> i & 1 == 1).collect();
    Some(
        json!({"rows": facts.rows, "cols": facts.cols, "cells": mask, "way": ways[0].name, "ways": ways.len()}),
    )
}
