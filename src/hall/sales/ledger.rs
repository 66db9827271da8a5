//! The jackpot ledger: progressive jackpots carried from night to night,
//! in a file of its own chained like the log (the same lines, the same
//! lock, the same fsync): a `jackpot_open` line when a jackpot begins (its
//! rules), and a `jackpot_night` line for each night's game of it (the
//! night's id, what was offered, won or not, and where the pot stands
//! after, by [`Pot::next`]). The hall reads the pots from it when it
//! opens and writes a night's line once the game has ended in the log; a
//! line the log holds and the ledger lacks (a crash between the two) is
//! written when the hall opens that log again.

use super::jackpot::{Outcome, Pot, Progressive};
use crate::hall::log::{Line, Log, LogError};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One line of a progressive jackpots' ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LedgerEvent {
    /// A progressive jackpot begun.
    JackpotOpen(JackpotOpen),
    /// A night's game of a jackpot ended, and where its pot stands.
    JackpotNight(JackpotNight),
    /// A night's game of a jackpot about to start.
    JackpotPlay(JackpotPlay),
}

/// A progressive jackpot begun.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotOpen {
    pub rules: Progressive,
}

/// A night's game of the jackpot, `night` the night's id, and where the
/// pot stands after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotNight {
    pub night: String,
    pub title: String,
    pub outcome: Outcome,
    pub pot: u64,
    pub within: usize,
}

/// A night's game of the jackpot about to start (written before the
/// game's start is logged), so no other night offers the pot until this
/// one's outcome is in the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotPlay {
    pub night: String,
    pub title: String,
    pub name: String,
    pub game: u64,
    /// The night's log, as the hall was given it: where to open the hall
    /// to settle a play cut short.
    pub log: String,
}

/// Why a ledger cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error(transparent)]
    Log(#[from] LogError),
    #[error("line {line}: {why}")]
    Bad { line: u64, why: String },
    #[error("the ledger's rules for {name:?} differ from the night file's ({field}): a jackpot's rules are kept from night to night; change the night file back, or start a jackpot of a new name")]
    Changed { name: String, field: &'static str },
    #[error("the progressive jackpot {name:?} cannot be played: {why}")]
    Refused { name: String, why: String },
    #[error("cannot write the ledger: {0}")]
    Write(#[from] std::io::Error),
}

/// The ledger's lines read in order: the pots as they stand, each
/// night's game recorded (night id, game), and the games in play (begun
/// and not yet recorded).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub pots: Vec<Pot>,
    pub nights: Vec<(String, u64)>,
    /// Each night's jackpots recorded (night id, jackpot): a jackpot is
    /// played once a night.
    pub played: Vec<(String, String)>,
    pub playing: Vec<Playing>,
}

/// A night's game of a jackpot begun, its outcome not yet in the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playing {
    pub name: String,
    pub night: String,
    pub title: String,
    pub game: u64,
    pub log: String,
}

impl Playing {
    /// `night 1a2b… ("Tuesday session", game 3, log 'tue.log')`.
    pub fn words(&self) -> String {
        format!(
            "night {} ({:?}, game {}, log '{}')",
            self.night, self.title, self.game, self.log
        )
    }
}

impl Standing {
    /// Reads `lines`, checking each follows from those before it: a
    /// night's pot after is the rules' next of what it offered; a night
    /// is recorded once.
    pub fn of(lines: &[Line<LedgerEvent>], balls: u8) -> Result<Standing, (u64, String)> {
        let mut s = Standing::default();
        for line in lines {
            s.step(&line.event, balls).map_err(|why| (line.seq, why))?;
        }
        Ok(s)
    }

    /// The pot of `name` as it stands.
    pub fn pot(&self, name: &str) -> Option<&Pot> {
        self.pots.iter().find(|p| p.rules.name == name)
    }

    /// One line of the ledger, following from those before it.
    pub fn step(&mut self, event: &LedgerEvent, balls: u8) -> Result<(), String> {
        match event {
            LedgerEvent::JackpotOpen(JackpotOpen { rules }) => {
                if self.pot(&rules.name).is_some() {
                    return Err(format!("{:?} begins twice", rules.name));
                }
                self.pots.push(rules.fresh());
                Ok(())
            }
            LedgerEvent::JackpotNight(JackpotNight {
                night,
                outcome,
                pot,
                within,
                ..
            }) => self.night(night, outcome, (*pot, *within), balls),
            LedgerEvent::JackpotPlay(JackpotPlay {
                night,
                title,
                name,
                game,
                log,
            }) => self.play(Playing {
                name: name.clone(),
                night: night.clone(),
                title: title.clone(),
                game: *game,
                log: log.clone(),
            }),
        }
    }

    /// A night's game of a jackpot recorded, the pot `after` (pot, calls)
    /// as the rules carry it.
    fn night(
        &mut self,
        night: &str,
        outcome: &Outcome,
        after: (u64, usize),
        balls: u8,
    ) -> Result<(), String> {
        let name = &outcome.name;
        let at = (self.pots.iter().position(|p| p.rules.name == *name))
            .ok_or_else(|| format!("{name:?} was never begun"))?;
        if self.nights.contains(&(night.to_string(), outcome.game)) {
            return Err(format!(
                "night {night} game {} is recorded twice",
                outcome.game
            ));
        }
        if let Some(other) = self.in_play(name, night) {
            return Err(format!(
                "night {night} recorded {name:?} while {} had it in play",
                other.words()
            ));
        }
        if let Some(why) = self.pots[at].impossible(outcome, balls) {
            return Err(format!(
                "night {night} game {} of {name:?}: {why}",
                outcome.game
            ));
        }
        let next = self.pots[at].next(outcome, balls);
        if (next.pot, next.within) != after {
            return Err(format!(
                "the pot after is {} within {} calls, but the rules carry {} within {}",
                after.0, after.1, next.pot, next.within
            ));
        }
        self.pots[at] = next;
        self.playing
            .retain(|p| !(p.name == *name && p.night == night));
        self.nights.push((night.to_string(), outcome.game));
        self.played.push((night.to_string(), name.clone()));
        Ok(())
    }

    /// A night's game of a jackpot begun.
    fn play(&mut self, p: Playing) -> Result<(), String> {
        let (night, name, game) = (&p.night, &p.name, p.game);
        if self.pot(name).is_none() {
            return Err(format!("{name:?} was never begun"));
        }
        if self.nights.contains(&(night.clone(), game))
            || self.played.contains(&(night.clone(), name.clone()))
        {
            return Err(format!(
                "night {night} plays {name:?} in game {game} after its game of it was recorded"
            ));
        }
        if let Some(other) = self.in_play(name, night) {
            return Err(format!(
                "night {night} played {name:?} while {} had it in play",
                other.words()
            ));
        }
        // A play of this night's that never reached its log (a crash
        // between the two) gives way to this one.
        self.playing
            .retain(|q| !(q.name == *name && q.night == *night));
        self.playing.push(p);
        Ok(())
    }

    /// Another night's game of jackpot `name` in play, its outcome not in
    /// the ledger.
    pub fn in_play(&self, name: &str, night: &str) -> Option<&Playing> {
        (self.playing.iter()).find(|p| p.name == name && p.night != night)
    }
}

/// A night's log as `hall verify` found it, for the ledger's check.
pub struct NightSeen<'a> {
    /// The log's path, as named to the user.
    pub log: String,
    pub id: Option<&'a str>,
    /// The pots its first session read from the ledger.
    pub opened: &'a [Pot],
    pub outcomes: &'a [Outcome],
}

/// What a ledger's check found: lines, nights checked against their logs,
/// and nights whose logs were not given.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Checked {
    pub lines: u64,
    pub matched: u64,
    pub unmatched: Vec<String>,
    pub pots: Vec<Pot>,
}

/// Checks the ledger `text` (its chain, each pot carried by the rules)
/// against the nights' logs: each night opened on the pot the ledger
/// stood at, and each outcome the ledger holds is the log's, and every
/// progressive game a log played is in the ledger.
pub fn check(text: &str, balls: u8, nights: &[NightSeen]) -> Result<Checked, (u64, String)> {
    let (lines, _) = crate::hall::log::read(text).map_err(|e| match e {
        LogError::Bad { line, why } => (line, why),
        e => (0, e.to_string()),
    })?;
    let mut s = Standing::default();
    let mut out = Checked {
        lines: lines.len() as u64,
        ..Checked::default()
    };
    for line in &lines {
        let bad = |why: String| (line.seq, why);
        if let LedgerEvent::JackpotNight(JackpotNight { night, outcome, .. }) = &line.event {
            match nights.iter().find(|n| n.id == Some(night.as_str())) {
                Some(n) => {
                    night_agrees(&s, n, outcome).map_err(bad)?;
                    out.matched += 1;
                }
                None => out.unmatched.push(night.clone()),
            }
        }
        s.step(&line.event, balls).map_err(bad)?;
    }
    for n in nights {
        for o in n.outcomes {
            let night = n.id.unwrap_or("");
            if !s.nights.contains(&(night.to_string(), o.game)) {
                return Err((0, format!(
                    "{}: game {} of the progressive {:?} ({}) is not in the ledger: open the hall on that log with this ledger to write it",
                    n.log,
                    o.game,
                    o.name,
                    outcome_words(Some(o))
                )));
            }
        }
    }
    out.pots = s.pots;
    Ok(out)
}

/// Whether night `n`'s log agrees with the ledger's line of its
/// `outcome`: the night opened on the pot the ledger stood at (`s`), and
/// the log holds the same outcome.
fn night_agrees(s: &Standing, n: &NightSeen, outcome: &Outcome) -> Result<(), String> {
    let stood = s.pot(&outcome.name).cloned();
    let opened = n.opened.iter().find(|p| p.rules.name == outcome.name);
    if stood.as_ref() != opened {
        return Err(format!(
            "{}: the night opened on {:?} {}, but the ledger stood at {}",
            n.log,
            outcome.name,
            opened.map_or("with no pot".into(), pot_words),
            stood.as_ref().map_or("no pot".into(), pot_words)
        ));
    }
    let logged = (n.outcomes.iter()).find(|o| o.name == outcome.name && o.game == outcome.game);
    if logged != Some(outcome) {
        return Err(format!(
            "{}: game {} of {:?} is, in the ledger, {}; in the log, {}",
            n.log,
            outcome.game,
            outcome.name,
            outcome_words(Some(outcome)),
            outcome_words(logged)
        ));
    }
    Ok(())
}

fn pot_words(p: &Pot) -> String {
    format!("a pot of {} within {} calls", p.pot, p.within)
}

fn outcome_words(o: Option<&Outcome>) -> String {
    match o {
        None => "not played".into(),
        Some(o) => format!(
            "{} offered within {} calls, {}",
            o.offered,
            o.within,
            if o.won {
                format!("won, {} paid", o.paid)
            } else {
                "not won".into()
            }
        ),
    }
}

/// An open ledger: locked while the hall runs.
pub struct Ledger {
    log: Log,
    pub standing: Standing,
    balls: u8,
}

impl Ledger {
    /// Opens (or creates) the ledger at `path` for a game of `balls`.
    pub fn open(path: &Path, balls: u8) -> Result<Ledger, LedgerError> {
        let opened = Log::open(path)?;
        let standing = Standing::of(&opened.lines, balls)
            .map_err(|(line, why)| LedgerError::Bad { line, why })?;
        Ok(Ledger {
            log: opened.log,
            standing,
            balls,
        })
    }

    /// Begins the night file's jackpots the ledger does not hold yet;
    /// refuses one whose rules the ledger holds otherwise.
    pub fn begin(&mut self, progressives: &[Progressive]) -> Result<(), LedgerError> {
        let mut new = Vec::new();
        for p in progressives {
            match self.standing.pots.iter().find(|q| q.rules.name == p.name) {
                Some(q) if q.rules != *p => {
                    return Err(LedgerError::Changed {
                        name: p.name.clone(),
                        field: differs(&q.rules, p),
                    })
                }
                Some(_) => {}
                None => new.push(LedgerEvent::JackpotOpen(JackpotOpen { rules: p.clone() })),
            }
        }
        if !new.is_empty() {
            for line in self.log.append_all(new)? {
                if let LedgerEvent::JackpotOpen(JackpotOpen { rules }) = line.event {
                    self.standing.pots.push(rules.fresh());
                }
            }
        }
        Ok(())
    }

    /// Writes that game `game` of the night `night` (titled `title`, its
    /// log at `log`) begins to play jackpot `name` from the pot `opened`
    /// (the pot the night opened on), before the game's start is logged.
    /// Refused when another night has it in play, when the ledger holds
    /// this game already, or when the pot moved since the night opened:
    /// the log is then a copy, or not the ledger's latest night.
    pub fn play(
        &mut self,
        night: &str,
        title: &str,
        log: &str,
        game: u64,
        opened: &Pot,
    ) -> Result<(), LedgerError> {
        let name = &opened.rules.name;
        let refuse = |why: String| LedgerError::Refused {
            name: name.clone(),
            why,
        };
        if let Some(other) = self.standing.in_play(name, night) {
            return Err(refuse(format!("{} has it in play, its outcome not written: open the hall on that log first, which writes it", other.words())));
        }
        let recorded = (self.standing.played.iter()).any(|(n, j)| n == night && j == name);
        if recorded || self.standing.nights.contains(&(night.to_string(), game)) {
            return Err(refuse(format!("the ledger holds night {night}'s game of it already: this log is a copy of that night's, made before the game was played; play on the night's own log")));
        }
        let stands = self.standing.pot(name);
        if stands != Some(opened) {
            return Err(refuse(format!(
                "the night opened on {}, but the ledger now stands at {}: another night played it since this one opened; this log is not the ledger's latest night",
                pot_words(opened),
                stands.map_or("no pot".into(), pot_words)
            )));
        }
        let line = LedgerEvent::JackpotPlay(JackpotPlay {
            night: night.to_string(),
            title: title.to_string(),
            name: name.clone(),
            game,
            log: log.to_string(),
        });
        self.log.append(line.clone())?;
        self.standing
            .step(&line, self.balls)
            .map_err(|why| LedgerError::Bad {
                line: self.log.seq(),
                why,
            })
    }

    /// Writes `outcome` of the night `night` (titled `title`), unless the
    /// ledger holds it already.
    pub fn record(
        &mut self,
        night: &str,
        title: &str,
        outcome: &Outcome,
    ) -> Result<bool, LedgerError> {
        if self
            .standing
            .nights
            .contains(&(night.to_string(), outcome.game))
        {
            return Ok(false);
        }
        let at = (self
            .standing
            .pots
            .iter()
            .position(|p| p.rules.name == outcome.name))
        .ok_or_else(|| LedgerError::Bad {
            line: self.log.seq(),
            why: format!("{:?} is not in the ledger", outcome.name),
        })?;
        let next = self.standing.pots[at].next(outcome, self.balls);
        let line = LedgerEvent::JackpotNight(JackpotNight {
            night: night.to_string(),
            title: title.to_string(),
            outcome: outcome.clone(),
            pot: next.pot,
            within: next.within,
        });
        let mut after = self.standing.clone();
        after
            .step(&line, self.balls)
            .map_err(|why| LedgerError::Bad {
                line: self.log.seq() + 1,
                why,
            })?;
        self.log.append(line)?;
        self.standing = after;
        Ok(true)
    }

    pub fn path(&self) -> &Path {
        self.log.path()
    }
}

/// The first field in which two jackpots' rules differ.
fn differs(a: &Progressive, b: &Progressive) -> &'static str {
    if a.seed != b.seed {
        "seed"
    } else if a.increment != b.increment {
        "increment"
    } else if a.share != b.share {
        "share"
    } else if a.within != b.within {
        "within"
    } else if a.add_calls != b.add_calls {
        "add_calls"
    } else if a.ceiling != b.ceiling {
        "ceiling"
    } else {
        "must_go"
    }
}
