//! Why an event cannot follow what came before it in the log (a
//! hand-edited log whose chain holds, or a line of another night): what
//! [`super::Books::apply`] answers, each said as `hall verify` names it.

/// What an event needs open and finds closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Call,
    RoomSeed,
    Recall,
    Stage,
    Void,
    Claim,
    Queued,
    Payout,
    Consolation,
}

impl Needs {
    fn noun(self) -> &'static str {
        match self {
            Needs::Call => "a call",
            Needs::RoomSeed => "a room seed",
            Needs::Recall => "a recall",
            Needs::Stage => "a stage",
            Needs::Void => "a void",
            Needs::Claim => "a claim",
            Needs::Queued => "a queued claim",
            Needs::Payout => "a payout",
            Needs::Consolation => "a consolation",
        }
    }
}

impl std::fmt::Display for Needs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.noun())
    }
}

/// Why an event does not follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("{0} with no game open")]
    NoGame(Needs),
    #[error("no game is open")]
    EndWithNoGame,
    #[error("a game starts while another is open")]
    StartWhileOpen,
    #[error("a game of a pattern this game does not have")]
    UnknownPattern,
    #[error("a game with no pattern")]
    NoPattern,
    #[error("a call out of order, or past the game's numbers")]
    CallOutOfOrder,
    #[error("a call of a ball that is not a number of the game")]
    BallOutside,
    #[error("a recall of a call that is not the last")]
    RecallNotLast,
    #[error("a stage that is not one of the game's")]
    UnknownStage,
    #[error("a void of a payout that is not the game's last")]
    VoidNotLast,
    #[error(
        "a payout taken back that is not the last ended game's last payout, or not its amount"
    )]
    ReversalNotLast,
    #[error("a claim of no stage of the game")]
    ClaimOfNoStage,
    #[error("{0} at a call not shown")]
    CallNotShown(Needs),
    #[error("a payout of no stage of the game")]
    PayoutOfNoStage,
    #[error("a consolation of a game or stage that has none")]
    NoConsolation,
    #[error("a consolation before its prize was paid")]
    ConsolationFirst,
    #[error("a head count past the most a hall seats")]
    Attendance,
    #[error("a sale, return or void the hall would not have made so")]
    Sale,
    #[error("an electronic pack's transaction the hall would not have made so")]
    Pack,
    #[error("the products changed after sales were made")]
    ProductsChanged,
    #[error("a product of no faces, no name, or a price past the largest amount")]
    BadProduct,
    #[error("a prize from sales that is not its share of the game's sales")]
    PrizeFromSales,
    #[error("a progressive jackpot the ledger did not hold when the night opened")]
    JackpotNotHeld,
    #[error("a progressive jackpot played twice in a night")]
    JackpotTwice,
    #[error("a progressive jackpot with no jackpot")]
    JackpotWithout,
    #[error("a progressive jackpot offered other than the pot carried in and its rules give")]
    JackpotOffer,
}
