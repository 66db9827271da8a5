//! What can go wrong in the hall: a command refused ([`Refusal`]), or the
//! files (the log, the seed files, the ledger) misread or unwritable.

use super::log;
use super::refusal::Refusal;

/// A command refused, or the hall's files failing it.
#[derive(Debug, thiserror::Error)]
pub enum HallError {
    #[error(transparent)]
    Refused(#[from] Refusal),
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
    #[error("the paper stock '{path}': {source}")]
    Stock {
        path: String,
        source: crate::hall::stock::StockError,
    },
    #[error("the jackpot ledger '{0}' is the log itself: give the ledger a file of its own")]
    LedgerIsLog(String),
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
            HallError::Refused(Refusal::NoNight) => Some(Advice::Night),
            HallError::Refused(Refusal::NotBlower(_)) => Some(Advice::Blower),
            HallError::Refused(Refusal::NoLedger(_)) => Some(Advice::Ledger),
            HallError::LedgerMissing { .. } => Some(Advice::NewLedger),
            HallError::NightChanged { differs, .. } if differs.is_empty() => Some(Advice::KeepLog),
            HallError::NightChanged { .. } | HallError::ProductsChanged => Some(Advice::NewLog),
            _ => None,
        }
    }
}
