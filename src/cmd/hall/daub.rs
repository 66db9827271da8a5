//! `hall --daub`: the house rule for marking numbers on players' phones,
//! by mode or by a jurisdiction's name (the presets are the library's,
//! [`bingomint::hall::state::DAUB_PRESETS`]).

use bingomint::hall::state::{self, DAUB_PRESETS};

/// `--daub`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Daub {
    /// Players tap their numbers; Catch up marks what was called.
    Manual,
    /// Called numbers glow; players tap them.
    Assist,
    /// Numbers are marked as they are called.
    Auto,
    /// UK halls: manual (players mark their own).
    Uk,
    /// Ontario: manual, every ball acknowledged on the device.
    Ontario,
    /// OLG eBingo: auto (the device daubs).
    #[value(name = "olg-ebingo")]
    OlgEbingo,
}

impl Daub {
    pub fn name(self) -> &'static str {
        match self {
            Daub::Manual => "manual",
            Daub::Assist => "assist",
            Daub::Auto => "auto",
            Daub::Uk => "uk",
            Daub::Ontario => "ontario",
            Daub::OlgEbingo => "olg-ebingo",
        }
    }

    /// The jurisdiction's rule, when the flag names one.
    pub fn preset(self) -> Option<&'static state::DaubPreset> {
        DAUB_PRESETS.iter().find(|p| p.name == self.name())
    }

    /// The mode it daubs in.
    pub fn mode(self) -> state::Daub {
        match (self, self.preset()) {
            (_, Some(p)) => p.daub,
            (Daub::Assist, None) => state::Daub::Assist,
            (Daub::Auto, None) => state::Daub::Auto,
            _ => state::Daub::Manual,
        }
    }

    /// `manual`, or `manual (ontario)`.
    pub fn words(self) -> String {
        let mode = serde_json::to_value(self.mode()).ok();
        let mode = mode.as_ref().and_then(|v| v.as_str()).unwrap_or("manual");
        match self.preset() {
            Some(p) => format!("{mode} ({})", p.name),
            None => mode.to_string(),
        }
    }
}
