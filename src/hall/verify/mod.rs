//! `hall verify`: a log checked after the night. The chain of hashes, each
//! ended game's revealed seed against its commitment, every call against
//! the order that seed gives, every recall, and every claim judged again
//! on the card files. The first bad line is named.

use super::judge::Cards;
use super::log::read;
use super::{commitment, Event};
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;

/// The first thing wrong, and its line.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    pub line: u64,
    pub what: String,
}

/// What a sound log held.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub lines: u64,
    pub games: u64,
    pub calls: u64,
    pub claims: u64,
    /// A game not ended (its calls cannot be checked before its seed is out).
    pub open: Option<u64>,
    /// Games ended unrevealed, their seeds lost: their calls cannot be
    /// checked.
    pub voided: Vec<u64>,
}

struct Game {
    balls: u8,
    stages: Vec<String>,
    last_call: bool,
    commitment: String,
    /// (line, call, ball) of every call made, and the calls shown now.
    calls: Vec<(u64, usize, u8)>,
    shown: Vec<u8>,
    /// (line, card, stage, calls shown, logged verdict).
    claims: Vec<(u64, String, String, usize, bool)>,
    /// Players' claims waiting: id → (card, stage, call).
    queued: std::collections::HashMap<u64, (String, String, usize)>,
    /// The room seed's line, once logged: (line, the seed or none).
    room: Option<(u64, Option<String>)>,
}

/// The open game, or a finding that `what` came with none.
fn open<'a>(
    game: &'a mut Option<(u64, Game)>,
    at: u64,
    what: &str,
) -> Result<&'a mut Game, Finding> {
    match game {
        Some((_, g)) => Ok(g),
        None => Err(Finding {
            line: at,
            what: format!("{what} with no game open"),
        }),
    }
}

impl Game {
    fn call(&mut self, at: u64, call: usize, ball: u8) -> Result<(), Finding> {
        if call != self.shown.len() + 1 {
            return Err(finding(
                at,
                format!("call {call} comes after {} calls shown", self.shown.len()),
            ));
        }
        self.calls.push((at, call, ball));
        self.shown.push(ball);
        Ok(())
    }

    fn recall(&mut self, at: u64, call: usize, ball: u8) -> Result<(), Finding> {
        if self.shown.last() != Some(&ball) || call != self.shown.len() {
            return Err(finding(
                at,
                format!("recall of call {call} ({ball}), which is not the last call shown"),
            ));
        }
        self.shown.pop();
        Ok(())
    }

    /// A claim at the console (judged at the calls shown), or a queued
    /// one decided (judged at the call it arrived at).
    fn claim(&mut self, at: u64, claim: Claimed, queued: Option<u64>) -> Result<(), Finding> {
        let Claimed {
            card,
            stage,
            call,
            win,
        } = claim;
        match queued {
            Some(id) => {
                let waiting = self.queued.remove(&id);
                if waiting.as_ref() != Some(&(card.to_string(), stage.to_string(), call)) {
                    return Err(finding(at, format!("a decision on claim {id} ({card:?} for {stage} at call {call}), which is not a claim waiting in the queue")));
                }
            }
            None => self.at_now(at, stage, call)?,
        }
        self.claims
            .push((at, card.to_string(), stage.to_string(), call, win));
        Ok(())
    }

    /// The game a `game_start` line opens.
    fn begun(event: &Event) -> Game {
        let Event::GameStart {
            balls,
            stages,
            last_call,
            commitment,
            ..
        } = event
        else {
            unreachable!("called on a game's start")
        };
        Game {
            balls: *balls,
            stages: stages.clone(),
            last_call: *last_call,
            commitment: commitment.clone(),
            calls: vec![],
            shown: vec![],
            claims: vec![],
            queued: Default::default(),
            room: None,
        }
    }

    /// The room's seed: once, before the first call.
    fn room(&mut self, at: u64, room_seed: &Option<String>) -> Result<(), Finding> {
        if self.room.is_some() || !self.calls.is_empty() {
            return Err(finding(
                at,
                "a room seed after the first call, or a second one".into(),
            ));
        }
        self.room = Some((at, room_seed.clone()));
        Ok(())
    }

    /// A player's claim joining the queue.
    fn queue(&mut self, at: u64, id: u64, claim: Claimed) -> Result<(), Finding> {
        self.at_now(at, claim.stage, claim.call)?;
        let entry = (claim.card.to_string(), claim.stage.to_string(), claim.call);
        if self.queued.insert(id, entry).is_some() {
            return Err(finding(at, format!("claim {id} is queued twice")));
        }
        self.claims.push((
            at,
            claim.card.to_string(),
            claim.stage.to_string(),
            claim.call,
            claim.win,
        ));
        Ok(())
    }

    /// A claim must be for a stage of the game, at the calls shown.
    fn at_now(&self, at: u64, stage: &str, call: usize) -> Result<(), Finding> {
        if call != self.shown.len() || !self.stages.iter().any(|s| s == stage) {
            return Err(finding(
                at,
                format!("a claim at call {call} for {stage}, which this game was not at"),
            ));
        }
        Ok(())
    }
}

/// A claim as a log line gives it.
struct Claimed<'a> {
    card: &'a str,
    stage: &'a str,
    call: usize,
    win: bool,
}

impl<'a> Claimed<'a> {
    /// The claim a `claim` or `queued` line gives.
    fn of(event: &'a Event) -> Claimed<'a> {
        match event {
            Event::Claim {
                card,
                stage,
                call,
                win,
                ..
            }
            | Event::Queued {
                card,
                stage,
                call,
                win,
                ..
            } => Claimed {
                card,
                stage,
                call: *call,
                win: *win,
            },
            _ => unreachable!("called on a claim's line"),
        }
    }
}

fn finding(line: u64, what: String) -> Finding {
    Finding { line, what }
}

/// Checks the log `text` against `cards` (the session's card files).
pub fn verify(text: &str, cards: &mut Cards) -> Result<Summary, Finding> {
    let (lines, _) = read(text).map_err(|e| match e {
        super::log::LogError::Bad { line, why } => Finding { line, what: why },
        e => Finding {
            line: 0,
            what: e.to_string(),
        },
    })?;
    let mut summary = Summary {
        lines: lines.len() as u64,
        ..Summary::default()
    };
    let mut game: Option<(u64, Game)> = None;
    for line in &lines {
        step(line, &mut game, cards, &mut summary)?;
    }
    summary.open = game.map(|(g, _)| g);
    Ok(summary)
}

/// One line of the log, checked against what came before it.
fn step(
    line: &super::log::Line,
    game: &mut Option<(u64, Game)>,
    cards: &mut Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    let at = line.seq;
    let bad = |what: String| Finding { line: at, what };
    match &line.event {
        Event::Session { files, sold, .. } => session(files, sold.as_deref(), cards, at)?,
        Event::GameStart { game: g, .. } => {
            if game.is_some() {
                return Err(bad("a game starts while another is open".into()));
            }
            *game = Some((*g, Game::begun(&line.event)));
        }
        Event::Call { call, ball, .. } => open(game, at, "a call")?.call(at, *call, *ball)?,
        Event::RoomSeed { room_seed, .. } => open(game, at, "a room seed")?.room(at, room_seed)?,
        Event::Recall { call, ball, .. } => open(game, at, "a recall")?.recall(at, *call, *ball)?,
        Event::Claim { queued, .. } => {
            let claim = Claimed::of(&line.event);
            open(game, at, "a claim")?.claim(at, claim, *queued)?
        }
        Event::Queued { id, .. } => {
            let claim = Claimed::of(&line.event);
            open(game, at, "a queued claim")?.queue(at, *id, claim)?
        }
        Event::Stage { .. } => {}
        Event::GameEnd { game: ended, seed } => {
            let (g_no, g) = game
                .take()
                .ok_or_else(|| bad("a game ends that never started".into()))?;
            if g_no != *ended {
                return Err(bad(format!("game {ended} ends, but game {g_no} was open")));
            }
            check_game(&g, seed, at, cards, summary)?;
            summary.games += 1;
        }
        Event::GameVoid { game: ended, .. } => {
            let (g_no, _) = game
                .take()
                .ok_or_else(|| bad("a game is voided that never started".into()))?;
            if g_no != *ended {
                return Err(bad(format!(
                    "game {ended} is voided, but game {g_no} was open"
                )));
            }
            summary.voided.push(g_no);
        }
    }
    Ok(())
}

/// A session's files must be among `--cards`; its sold faces hold for
/// the claims after it.
fn session(
    files: &[super::FileEntry],
    sold: Option<&str>,
    cards: &mut Cards,
    at: u64,
) -> Result<(), Finding> {
    for f in files {
        if !cards.files.iter().any(|c| c.short_id() == f.id) {
            return Err(finding(
                at,
                format!(
                    "the session used the card file {} (id {}), which was not given",
                    f.path, f.id
                ),
            ));
        }
    }
    cards.sold = sold
        .map(parse_sold)
        .transpose()
        .map_err(|e| finding(at, format!("its sold faces: {e}")))?;
    Ok(())
}

fn check_game(
    g: &Game,
    seed: &str,
    at: u64,
    cards: &Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    if commitment(seed) != g.commitment {
        return Err(Finding {
            line: at,
            what: format!(
                "the revealed seed's SHA-256 is not the commitment {}",
                g.commitment
            ),
        });
    }
    let live = crate::play::live::is_live(seed);
    let room = match &g.room {
        Some((_, room)) => room.as_deref().unwrap_or(""),
        // A live game logs its room seed (or that it has none) before the
        // first call; an older one has none.
        None if live && !g.calls.is_empty() => {
            return Err(Finding {
                line: g.calls[0].0,
                what: "the first call came with no room seed line before it".into(),
            })
        }
        None => "",
    };
    if let (false, Some((line, _))) = (live, &g.room) {
        return Err(Finding {
            line: *line,
            what: "a room seed for a game whose seed is of the older form".into(),
        });
    }
    let order = Calls::of_hall(g.balls, seed, room, usize::from(g.balls));
    for &(line, call, ball) in &g.calls {
        let due = order.order()[call - 1];
        if ball != due {
            return Err(Finding {
                line,
                what: format!("call {call} was {ball}, but the committed order gives {due}"),
            });
        }
        summary.calls += 1;
    }
    let spec = cards.files[0].header().spec;
    for (line, card, stage, call, win) in &g.claims {
        let pattern = Pattern::parse(stage, spec).map_err(|e| Finding {
            line: *line,
            what: e.to_string(),
        })?;
        let judged = cards.judge(
            card,
            &pattern,
            &Calls::of_hall(g.balls, seed, room, *call),
            g.last_call,
        );
        if judged.win != *win {
            let said = if *win { "a win" } else { "no win" };
            return Err(Finding {
                line: *line,
                what: format!(
                    "the claim {card:?} was logged as {said}, but judged again: {}",
                    judged.reason
                ),
            });
        }
        summary.claims += 1;
    }
    Ok(())
}

/// Sold faces that cannot be read, or are not the file's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoldError {
    #[error("{0:?} is not a face number or a range like 1..5000")]
    NotANumber(String),
    #[error("{0:?} is an empty range: faces start at 1 and a range runs low..high")]
    Empty(String),
    #[error("name the faces sold, such as 1..5000,7001..9000")]
    Nothing,
    #[error("{start}..{end} is not within the faces of '{path}', numbered {first}..{last}")]
    Outside {
        start: u64,
        end: u64,
        path: String,
        first: u64,
        last: u64,
    },
}

/// `ranges` when every one is within a file's faces `faces` (the file at
/// `path`); else which is not.
pub fn sold_within(
    ranges: Vec<std::ops::RangeInclusive<u64>>,
    faces: std::ops::RangeInclusive<u64>,
    path: &str,
) -> Result<Vec<std::ops::RangeInclusive<u64>>, SoldError> {
    match ranges
        .iter()
        .find(|r| !faces.contains(r.start()) || !faces.contains(r.end()))
    {
        Some(r) => Err(SoldError::Outside {
            start: *r.start(),
            end: *r.end(),
            path: path.to_string(),
            first: *faces.start(),
            last: *faces.end(),
        }),
        None => Ok(ranges),
    }
}

/// Sold faces: ranges `A..B` or single faces, separated by commas.
pub fn parse_sold(text: &str) -> Result<Vec<std::ops::RangeInclusive<u64>>, SoldError> {
    let mut ranges = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| SoldError::NotANumber(part.to_string()))
        };
        let range = match part.split_once("..") {
            Some((a, b)) => number(a)?..=number(b)?,
            None => number(part)?..=number(part)?,
        };
        if range.is_empty() || *range.start() == 0 {
            return Err(SoldError::Empty(part.to_string()));
        }
        ranges.push(range);
    }
    if ranges.is_empty() {
        return Err(SoldError::Nothing);
    }
    Ok(ranges)
}
