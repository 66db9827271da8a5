//! A consolation by closeness: its rule, the distance a night file or a
//! request gives, and its check.

use super::{bad, RuleError};
use serde::{Deserialize, Serialize};

/// A consolation by closeness: when the game's last stage is won, `prize`
/// is shared by every sold face `to_go` numbers from it (None: the
/// nearest faces that do not hold it, the most marked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Near {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_go: Option<u8>,
    pub prize: u64,
}

/// The farthest a consolation by closeness may reach.
pub const NEAR_MOST: u8 = 5;

/// `to_go` as a night file or a request gives it: a count, or a word.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ToGo {
    Count(i64),
    Word(String),
    /// Anything else (`1.5`, `true`), refused naming the field's values.
    Other(toml::Value),
}

impl ToGo {
    /// The distance paid (None: the nearest), or why not, for the field
    /// `consolation.to_go`.
    pub fn distance(&self) -> Result<Option<u8>, String> {
        match self {
            ToGo::Count(k) if (1..=i64::from(NEAR_MOST)).contains(k) => Ok(Some(*k as u8)),
            ToGo::Word(w) if w == "nearest" => Ok(None),
            ToGo::Count(k) => Err(format!(
                "{k} is not a distance paid: give 1 to {NEAR_MOST}, or \"nearest\""
            )),
            ToGo::Word(w) => Err(format!(
                "{w:?}: give how many numbers from the prize a face is paid (1 to {NEAR_MOST}), or \"nearest\" for the most marked faces"
            )),
            ToGo::Other(v) => {
                let v = match v {
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    other => other.type_str().to_string(),
                };
                Err(format!(
                    "{v} is not a distance paid: give a whole number 1 to {NEAR_MOST}, or \"nearest\""
                ))
            }
        }
    }
}

impl Near {
    /// Refuses a consolation that cannot be paid: in a game of prizes
    /// open at once (no last prize), or farther than [`NEAR_MOST`].
    pub(super) fn check(&self, concurrent: bool) -> Result<(), RuleError> {
        if concurrent {
            return Err(bad("consolation: a game of prizes open at once has no last prize to be near; give the consolation to a game of one pattern or of stages".into()));
        }
        match self.to_go {
            Some(k) if k == 0 || k > NEAR_MOST => Err(bad(format!(
                "consolation.to_go: {k} is not a distance paid: give 1 to {NEAR_MOST}, or \"nearest\""
            ))),
            _ => Ok(()),
        }
    }

    /// `1 to go`, or `nearest`.
    pub fn words(&self) -> String {
        match self.to_go {
            Some(k) => format!("{k} to go"),
            None => "nearest".into(),
        }
    }
}
