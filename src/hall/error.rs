//! The hall's refusals, each a variant, with the HTTP status it maps to.

use super::{log, queue};

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
    #[error("call {call} cannot be taken back: {stage} was paid at call {paid_at}, on the calls up to it (void that payout first, with the reason)")]
    RecallPaid {
        call: usize,
        stage: String,
        paid_at: usize,
    },
    #[error("game {0} has no payout to void")]
    NoPayout(u64),
    #[error("only the last payout can be voided: {last} (void it first, then {asked})")]
    VoidNotLast { last: String, asked: String },
    #[error("say why the payout is voided: the reason is logged and shown to the room")]
    VoidReason,
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
    #[error("{noun} {face} was sold tonight for the programme's game {games}, not for this game: it plays in those")]
    SoldForOther {
        noun: &'static str,
        face: u64,
        games: String,
    },
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
    #[error("the room seed is empty: type what the room gave")]
    EmptyRoomSeed,
    #[error("the room seed: {0}")]
    BadRoomSeed(#[from] crate::shown::ShownError),
    #[error("game {0} has its room seed already")]
    RoomSeedGiven(u64),
    #[error("game {0} has had a call: a room seed is taken only before the first ball")]
    RoomSeedLate(u64),
    #[error("game {0} was started with a seed of the older form, which takes no room seed")]
    RoomSeedOld(u64),
    #[error("{0}")]
    Rules(String),
    #[error("the hall has no night file: name the game's pattern")]
    NoNight,
    #[error("every game of the night's programme has been played: name a pattern for another")]
    NightOver,
    #[error("the programme has no game {number}: its games are 1 to {games}")]
    NoSuchGame { number: usize, games: usize },
    #[error("game {game} is a bonanza: {left} more precalls to enter before claims")]
    Precalls { game: u64, left: usize },
    #[error("{name:?} is not a prize open in this game (open: {open})")]
    NoSuchPrize { name: String, open: String },
    #[error("{0} has been won already")]
    PrizeWon(String),
    #[error("game {0} has no prize left open")]
    NoPrizeOpen(u64),
    #[error("more than {0} sold faces win at once: check the pattern and the sold faces")]
    TooManyWinners(usize),
    #[error("game {0} draws its balls from the blower: there is no seed to mix a room seed into")]
    Blower(u64),
    #[error("game {0} draws its own calls: send no ball")]
    NotBlower(u64),
    #[error("game {0} draws its balls from the blower: send the ball drawn, {{\"ball\": 42}}")]
    BallNeeded(u64),
    #[error("ball {ball} is not a number of this game: 1 to {balls}")]
    BallOutside { ball: u8, balls: u8 },
    #[error("ball {ball} was called already (call {call})")]
    BallCalled { ball: u8, call: usize },
    #[error("game {0}'s seed is not known to the hall: its calls cannot go on")]
    NoSeed(u64),
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
    #[error(
        "the night file '{path}' is not the one this log began with (SHA-256 {logged}): {}",
        night_changed(differs)
    )]
    NightChanged {
        path: String,
        logged: String,
        differs: Vec<String>,
    },
    #[error("'{path}': {source}")]
    BadLog { path: String, source: log::LogError },
    #[error(transparent)]
    LogOpen(log::LogError),
    /// The log's events do not follow (a hand-edited log whose chain holds).
    #[error("line {line}: {what}")]
    Replay {
        line: u64,
        what: super::event::Mismatch,
    },
    #[error("cannot write the log: {0}")]
    Log(#[from] std::io::Error),
    /// A decision answered other than its command does: a fault of the
    /// hall's, reported rather than panicking the server.
    #[error("the hall answered out of turn ({0}): please report it")]
    Internal(String),
    #[error(transparent)]
    Sale(#[from] crate::hall::sales::SaleError),
    #[error("a head count of {0} is past the most taken, 1,000,000: key the people in the room")]
    Attendance(u64),
    #[error("the jackpot ledger '{path}': {source}")]
    Ledger {
        path: String,
        source: crate::hall::sales::ledger::LedgerError,
    },
    #[error("the jackpot ledger '{path}' is no ledger yet, but the night '{night}' beside the log played {name:?} from a ledger: give that ledger's path (a new one would start every pot again at its seed)")]
    LedgerMissing {
        path: String,
        night: String,
        name: String,
    },
    #[error("the jackpot ledger '{0}' is the log itself: give the ledger a file of its own")]
    LedgerIsLog(String),
    #[error("the night plays the progressive jackpot {0:?}: the hall needs the ledger that carries it from night to night (created if new)")]
    NoLedger(String),
    #[error("the night's products differ from those its sales were made under: put the night file back as it was, or start a new log")]
    ProductsChanged,
}

/// What a changed night file changed, and what to do.
fn night_changed(differs: &[String]) -> String {
    if differs.is_empty() {
        "it changed only games not played yet; put it back as it was, or go on with it".into()
    } else {
        format!(
            "{} played as the log says, and the file now says otherwise; put the file back as it was, or start a new log",
            differs.join(", ")
        )
    }
}

/// What the one who started the hall can do about a refusal, beyond what
/// its words say: the command names it in its own terms (a flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// Start the hall with a night file.
    Night,
    /// Start the hall for a blower's balls.
    Blower,
    /// Start the hall with the jackpots' ledger.
    Ledger,
    /// Begin a new ledger all the same.
    NewLedger,
    /// Go on with a night file changed only in games not played.
    KeepLog,
    /// Start a new log.
    NewLog,
}

impl HallError {
    /// What the one who started the hall can do, where the words alone
    /// do not say how.
    pub fn advice(&self) -> Option<Advice> {
        match self {
            HallError::NoNight => Some(Advice::Night),
            HallError::NotBlower(_) => Some(Advice::Blower),
            HallError::NoLedger(_) => Some(Advice::Ledger),
            HallError::LedgerMissing { .. } => Some(Advice::NewLedger),
            HallError::NightChanged { differs, .. } if differs.is_empty() => Some(Advice::KeepLog),
            HallError::NightChanged { .. } | HallError::ProductsChanged => Some(Advice::NewLog),
            _ => None,
        }
    }

    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            HallError::NoPattern
            | HallError::Pattern { .. }
            | HallError::OtherCard { .. }
            | HallError::EmptyRoomSeed
            | HallError::BadRoomSeed(_)
            | HallError::Rules(_)
            | HallError::NoSuchPrize { .. }
            | HallError::NotBlower(_)
            | HallError::BallNeeded(_)
            | HallError::VoidReason
            | HallError::Attendance(_)
            | HallError::LedgerMissing { .. }
            | HallError::LedgerIsLog(_)
            | HallError::BallOutside { .. } => 400,
            HallError::Sale(e) => e.status(),
            HallError::Ledger {
                source: crate::hall::sales::ledger::LedgerError::Refused { .. },
                ..
            } => 409,
            HallError::NoFace(_) | HallError::NoSuchGame { .. } => 404,
            HallError::Flood(_) => 429,
            HallError::Log(_)
            | HallError::Internal(_)
            | HallError::LogOpen(_)
            | HallError::BadLog { .. }
            | HallError::Ledger { .. } => 500,
            _ => 409,
        }
    }
}
