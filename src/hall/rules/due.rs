//! What a prize pays at a call: its amount and, in a jackpot game's last
//! stage, whether it is the jackpot or the consolation ([`super::Rules::due`]).

use serde::{Deserialize, Serialize};

/// What a prize paid: its amount and, in a jackpot game's last stage,
/// whether it was the jackpot or the consolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub amount: u64,
    pub kind: Option<PayoutKind>,
}

/// What a jackpot game's last prize paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PayoutKind {
    /// The jackpot, won within its calls.
    Jackpot,
    /// The consolation, won past them.
    Consolation,
}

impl PayoutKind {
    /// The word the log and the reports use.
    pub fn word(self) -> &'static str {
        match self {
            PayoutKind::Jackpot => "jackpot",
            PayoutKind::Consolation => "consolation",
        }
    }
}

impl std::fmt::Display for PayoutKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}
