//! The hall as one night runs it: a shell over its books, its log, the
//! open game's seed file and its cards, opened (or resumed) from the log.

use super::books::{Answer, Books, Command, Decision, Draw};
use super::event::{self as ev, Event, FileEntry, NightEntry};
use super::judge::Cards;
use super::log::{self, Log};
use super::night::Night;
use super::replay::{replay, Step};
use super::secret::{read_secret, secret_path, SecretError};
use super::state::{self, Daub};
use super::{commitment, random_hex, rules, sales, HallError};
use crate::play::calls::Calls;
use std::path::Path;

/// The hall: a shell over its books ([`super::books`]: the night's state and
/// rules), its log, the open game's seed file and its cards.
pub struct Hall {
    pub cards: Cards,
    /// The house rule for marking numbers on players' phones.
    pub daub: Daub,
    /// The jurisdiction's daubing rule named (`--daub ontario`), in words.
    pub daub_rule: Option<&'static str>,
    /// Who the night is for: the pages' words.
    pub audience: state::Audience,
    pub(in crate::hall) log: Log,
    pub(in crate::hall) books: Books,
    /// What the caller should know since the hall started (a repaired log).
    pub(in crate::hall) notice: Option<String>,
    /// Balls from a blower, keyed in by the caller (else the hall's own).
    pub(in crate::hall) blower: bool,
    /// The night's programme.
    pub(in crate::hall) night: Option<Night>,
    /// The splits the queue shows, as of the log's line.
    pub(in crate::hall) splits: (u64, Vec<(u64, String)>),
    /// The last win accepted, until the next call or game.
    pub(in crate::hall) winner: Option<state::WinnerShown>,
    /// The changes posted to the tracker.
    pub(in crate::hall) tracked: u64,
    /// What the tracker was last posted: the game, its calls, its open
    /// prizes (a change that leaves them, such as a claim turned down,
    /// posts nothing).
    pub(in crate::hall) tracked_at: Option<(u64, Calls, Vec<usize>)>,
    /// The progressive jackpots' ledger, when the night plays one.
    pub(in crate::hall) ledger: Option<sales::ledger::Ledger>,
    /// The paper stock book, when the night keeps one (`--stock`).
    pub(in crate::hall) stock: Option<super::stock::Stock>,
    /// Who sent each player's claim still waiting (the client a cap
    /// counts): the shell's to know, not the log's.
    pub(in crate::hall) senders: std::collections::HashMap<u64, std::net::IpAddr>,
    /// Each waiting claim's face, marked at the call it arrived at, once
    /// drawn for the console.
    pub(in crate::hall) faces: std::collections::HashMap<u64, Option<state::Grid>>,
    /// When each electronic pack's transaction was logged (its line's
    /// time), by its number: for receipts.
    pub(in crate::hall) pack_times: std::collections::HashMap<u64, String>,
}

/// How the hall opens: the session's card files and sold faces, a lost
/// seed's fate, the night's programme, where the balls come from.
pub struct Opening {
    pub files: Vec<FileEntry>,
    pub sold: Option<String>,
    pub lost: LostSeed,
    pub night: Option<(Night, NightEntry)>,
    pub blower: bool,
    /// A night file other than the log's may go on where it agrees with
    /// every game the log played (`--night-changed keep-log`).
    pub night_changed: bool,
    /// The jackpot ledger (`--jackpots`).
    pub ledger: Option<std::path::PathBuf>,
    /// A ledger that does not exist yet may be begun although nights in
    /// the log's folder played its jackpots (`--new-ledger`).
    pub new_ledger: bool,
    /// The paper stock book (`--stock`).
    pub stock: Option<std::path::PathBuf>,
}

/// What to do with an open game whose seed file is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostSeed {
    /// Refuse to start ([`HallError::SeedLost`]).
    Refuse,
    /// End the game unrevealed ([`Event::GameVoid`]) and go on.
    Void,
}

/// What the log says of its night: the night file's SHA-256 at its last
/// session, and each programme game it started, as started.
#[derive(Default)]
struct LoggedNight {
    sha256: Option<String>,
    played: std::collections::BTreeMap<usize, (Vec<String>, bool, rules::Rules)>,
}

impl LoggedNight {
    fn read(&mut self, step: Step) {
        if let Event::Session(ev::Session {
            night: Some(entry), ..
        }) = step.event()
        {
            self.sha256 = Some(entry.sha256.clone());
        }
        let Some(start) = step.started() else { return };
        if let Some(k) = start.rules.planned {
            let rules = rules::Rules {
                blower: false,
                ..start.rules.clone()
            };
            (self.played).insert(k, (start.stages.clone(), start.last_call, rules));
        }
    }

    /// Refuses a night file other than the log's (its SHA-256 differs),
    /// naming the played games it changed; with `keep_log`, goes on when
    /// it changed no played game.
    fn check(&self, entry: &NightEntry, night: &Night, keep_log: bool) -> Result<(), HallError> {
        let Some(logged) = self.sha256.as_ref().filter(|s| **s != entry.sha256) else {
            return Ok(());
        };
        let differs: Vec<String> = (self.played.iter())
            .filter(|(k, (stages, last_call, rules))| {
                night.games.get(*k - 1).is_none_or(|plan| {
                    plan.stages != *stages
                        || plan.last_call != *last_call
                        || plan.rules.as_planned() != rules.as_planned()
                })
            })
            .map(|(k, (_, _, rules))| {
                format!("game {k} ({:?})", rules.name.as_deref().unwrap_or(""))
            })
            .collect();
        if keep_log && differs.is_empty() {
            return Ok(());
        }
        Err(HallError::NightChanged {
            path: entry.path.clone(),
            logged: logged.clone(),
            differs,
        })
    }
}

impl Hall {
    /// A hall over `cards` and `log`, its books empty (the log's lines are
    /// applied next).
    fn new(
        cards: Cards,
        log: Log,
        notice: Option<String>,
        blower: bool,
        night: Option<Night>,
    ) -> Hall {
        Hall {
            cards,
            daub: Daub::default(),
            daub_rule: None,
            audience: (night.as_ref()).map_or_else(Default::default, |n| n.audience),
            log,
            books: Books::default(),
            notice,
            blower,
            night,
            splits: (0, Vec::new()),
            winner: None,
            tracked: 0,
            tracked_at: None,
            ledger: None,
            stock: None,
            senders: Default::default(),
            faces: Default::default(),
            pack_times: Default::default(),
        }
    }

    /// Opens the hall on `cards` with the log at `log_path` (created, or
    /// read back: an open game resumes from the seed kept beside it).
    pub fn open(cards: Cards, log_path: &Path, opening: Opening) -> Result<Hall, HallError> {
        let Opening {
            files,
            sold,
            lost,
            night,
            blower,
            night_changed,
            ledger,
            new_ledger,
            stock,
        } = opening;
        let (night, night_entry) = night.unzip();
        let opened = Log::open(log_path).map_err(|e| match e {
            log::LogError::Bad { .. } => {
                let path = log_path.display().to_string();
                HallError::BadLog { path, source: e }
            }
            e => HallError::LogOpen(e),
        })?;
        let note = dropped_note(opened.dropped);
        let notice = [note.clone(), cards.shared_notice()].into_iter().flatten();
        let notice = notice.reduce(|a, b| format!("{a}; {b}"));
        let mut hall = Hall::new(cards, opened.log, notice, blower, night);
        let (products, progressives) = match &hall.night {
            Some(n) => (n.products.clone(), n.progressives.clone()),
            None => Default::default(),
        };
        let jackpots = hall.open_ledger(ledger.as_deref(), &progressives, new_ledger)?;
        let mut logged = LoggedNight::default();
        for step in replay(&opened.lines) {
            logged.read(step);
            hall.resume(step.line)?;
        }
        hall.follow_products(&products)?;
        if let (Some(entry), Some(night)) = (&night_entry, &hall.night) {
            logged.check(entry, night, night_changed)?;
        }
        hall.no_jackpot_in_play(&progressives)?;
        hall.open_stock(stock.as_deref())?;
        let void = hall.resume_seed(lost)?;
        let id = opened.lines.is_empty().then(random_hex).transpose()?;
        let currency = hall.currency();
        let zone = hall.night.as_ref().and_then(|n| n.zone.clone());
        let electronic = hall.night.as_ref().and_then(|n| n.electronic.clone());
        hall.execute(Command::Session(Box::new(ev::Session {
            files,
            sold,
            note,
            night: night_entry,
            id,
            products,
            jackpots,
            currency,
            selling: sales::SELLING,
            zone,
            electronic,
        })))?;
        hall.mend(void)?;
        Ok(hall)
    }

    /// What a crash left half done, finished once the session's line is
    /// logged: a game's end not yet in the ledger, a game whose seed was
    /// lost (`void`, the reason) ended unrevealed, an accepted win's
    /// payout.
    fn mend(&mut self, void: Option<String>) -> Result<(), HallError> {
        self.settle_jackpots()?;
        if let Some(reason) = void {
            let game = self.books.open.as_ref().map_or(0, |o| o.game);
            self.execute(Command::Abandon { reason })?;
            self.notice = Some(format!(
                "game {game} was ended unrevealed: its seed was lost, so its calls cannot be checked"
            ));
        } else if let Answer::Completed(Some(paid)) = self.execute(Command::CompletePayout)? {
            self.notice = Some(paid);
        }
        Ok(())
    }

    /// Reads the open game's seed back, checked before anything is
    /// written; with `lost` Void, a lost seed gives the reason the game
    /// ends unrevealed.
    fn resume_seed(&mut self, lost: LostSeed) -> Result<Option<String>, HallError> {
        let Some(open) = self.books.open.as_ref().filter(|o| !o.rules.blower) else {
            return Ok(None);
        };
        let game = open.game;
        let path = secret_path(self.log.path());
        let shown = path.display().to_string();
        match read_secret(&path) {
            Ok(seed) if commitment(&seed) == open.commitment.hex() => {
                self.books.know_seed(seed);
                Ok(None)
            }
            Ok(_) => Err(HallError::WrongSeed { path: shown, game }),
            Err(SecretError::Unsafe(why)) => Err(HallError::UnsafeSeed { path: shown, why }),
            Err(SecretError::Lost(e)) if lost == LostSeed::Void => {
                Ok(Some(format!("its seed file '{shown}' was lost ({e})")))
            }
            Err(SecretError::Lost(source)) => Err(HallError::SeedLost {
                game,
                path: shown,
                source,
            }),
        }
    }

    /// A line read back from the log: checked as the hall would have
    /// written it here, then applied.
    fn resume(&mut self, line: &log::Line<Event>) -> Result<(), HallError> {
        let replay = |what| HallError::Replay {
            line: line.seq,
            what,
        };
        self.books.check(&line.event, &self.cards).map_err(replay)?;
        self.apply(line)
    }

    /// A line of the log applied to the books.
    pub(in crate::hall) fn apply(
        &mut self,
        line: &log::Line<crate::hall::Event>,
    ) -> Result<(), HallError> {
        if let Event::Pack(p) = &line.event {
            self.pack_times.insert(p.txn, line.time.clone());
        }
        (self.books.apply(&line.event, &self.cards)).map_err(|what| HallError::Replay {
            line: line.seq,
            what,
        })
    }

    /// Carries out `command`, the one door every change of the night
    /// goes through: the books decide (or refuse); a game's start writes
    /// its ledger line and its seed file first; the events are logged in
    /// one write and one fsync and applied; what follows them (the seed
    /// file gone, the ledger settled, the judge's faces, the tracker, the
    /// winner shown) is brought up to date; the answer is returned.
    pub(in crate::hall) fn execute(&mut self, command: Command) -> Result<Answer, HallError> {
        let draw = match &command {
            Command::Start { draw, .. } => Some(draw.clone()),
            _ => None,
        };
        let back = self.stock_why(&command);
        let Decision { events, answer } = self.books.decide(&self.cards, command)?;
        self.stock_allows(&events)?;
        if let Some(draw) = &draw {
            // The ledger first: no other night offers a pot in play here.
            self.play_jackpot(&events)?;
            if let Draw::Seed(seed) = draw {
                self.keep_seed(seed)?;
            }
        }
        self.record_events(events)?;
        if let Some(draw) = draw {
            self.follow_sold()?;
            if let Draw::Seed(seed) = draw {
                self.books.know_seed(seed);
            }
        }
        if let Answer::Judged(verdict) = &answer {
            self.show_winner(verdict);
        }
        // The log first, then the stock book: a crash between the two is
        // mended when the hall opens this log again.
        if let Some(why) = back {
            self.follow_stock(&why)?;
        }
        Ok(answer)
    }

    /// Logs `events` in one write and one fsync, then applies each; a
    /// game's end among them reveals its seed, so the seed file goes, and
    /// settles its progressive jackpot in the ledger; the tracker follows.
    pub(in crate::hall) fn record_events(&mut self, events: Vec<Event>) -> Result<(), HallError> {
        if events.is_empty() {
            return Ok(());
        }
        let moves = |e: &Event| {
            matches!(
                e,
                Event::Call(_) | Event::Recall(_) | Event::GameStart(_) | Event::Void(_)
            )
        };
        if events.iter().any(moves) {
            self.winner = None;
        }
        if let Some(r) = events.iter().find_map(|e| match e {
            Event::PayoutReversed(r) => Some(r),
            _ => None,
        }) {
            // The winner shown goes, and the caller reads what was undone.
            self.winner = None;
            let currency = self.currency();
            self.notice = Some(format!(
                "game {}: the payout of {} at call {} was taken back ({} no longer paid): {}",
                r.game,
                r.stage,
                r.call,
                super::money::show(r.amount, &currency),
                r.reason
            ));
        }
        let ends =
            (events.iter()).any(|e| matches!(e, Event::GameEnd(end) if end.seed.seed().is_some()));
        let over = (events.iter()).any(|e| matches!(e, Event::GameEnd(_) | Event::GameVoid(_)));
        for line in self.log.append_all(events)? {
            self.apply(&line)?;
        }
        self.track();
        if ends {
            let _ = std::fs::remove_file(secret_path(self.log.path()));
        }
        if over {
            // The log first, then the ledger: a crash between the two is
            // mended when the hall opens this log again.
            self.settle_jackpots()?;
        }
        Ok(())
    }

    /// Brings the tracker to the open game's calls and open prizes, when
    /// they changed.
    pub(in crate::hall) fn track(&mut self) {
        let Some(tracker) = self.cards.tracker.as_ref() else {
            return;
        };
        let (at, prizes) = match self.books.open.as_ref() {
            None => (None, Vec::new()),
            Some(o) => {
                let prizes: Vec<_> = (0..o.stages.len())
                    .filter(|&k| o.won(k).is_none() && (o.rules.concurrent || k == o.stage))
                    .map(|k| (k, o.patterns[k].clone()))
                    .collect();
                let open = prizes.iter().map(|(k, _)| *k).collect();
                (Some((o.game, o.calls_at(o.called()), open)), prizes)
            }
        };
        if self.tracked > 0 && at == self.tracked_at {
            return;
        }
        self.tracked += 1;
        let calls = at.as_ref().map(|(_, calls, _)| calls.clone());
        tracker.post(self.tracked, calls, prizes);
        self.tracked_at = at;
    }

    /// The game's numbers: every file's, which must be one game.
    pub fn balls(&self) -> u8 {
        self.cards.files[0].header().spec.balls()
    }

    /// What the caller should know since the hall started, if anything.
    /// The night file's currency ("" with no night file).
    pub fn currency(&self) -> String {
        (self.night.as_ref()).map_or(String::new(), |n| n.currency.clone())
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
}

/// What the hall repaired on opening a log whose last `dropped` bytes
/// were an unfinished line, said once in the session's line.
fn dropped_note(dropped: usize) -> Option<String> {
    (dropped > 0).then(|| {
        format!(
            "the log's last line was unfinished ({dropped} bytes, a write cut short); it was dropped: it had never been shown"
        )
    })
}
