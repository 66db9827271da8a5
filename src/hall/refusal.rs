//! The hall's refusals: a command the night's rules do not allow, decided
//! from the books alone (no file is read or written to refuse it). What
//! can go wrong with the files is [`super::HallError`]'s.

/// A command refused, and why, in words the caller and the players read.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
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
    #[error("no game is open, and game {0} (the last ended) has no payout left to take back")]
    NothingToReverse(u64),
    #[error("game {game} played progressive jackpot {name:?}, which the ledger carried on when the game ended: its payouts are not taken back here (settle it outside the hall, and note it)")]
    ReverseJackpot { game: u64, name: String },
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
    Flood(#[from] Flood),
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
    #[error(transparent)]
    Sale(#[from] crate::hall::sales::SaleError),
    #[error("a head count of {0} is past the most taken, 1,000,000: key the people in the room")]
    Attendance(u64),
    #[error("the night plays the progressive jackpot {0:?}: the hall needs the ledger that carries it from night to night (created if new)")]
    NoLedger(String),
    #[error("the paper stock: {0}")]
    Stock(String),
}

/// Why a claim cannot join the queue now: the limit it is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Flood {
    #[error("this face already has {0} claims waiting for the caller; wait for the verdict")]
    Face(usize),
    #[error("this phone already has {0} claims waiting for the caller; wait for the verdicts")]
    Client(usize),
    #[error("{0} claims are waiting for the caller; try again in a moment")]
    Full(usize),
}
