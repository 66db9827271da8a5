//! `hall --daub`: the house rule for marking numbers on players' phones.

/// `--daub`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Daub {
    Manual,
    Assist,
    Auto,
}

impl Daub {
    pub fn name(self) -> &'static str {
        match self {
            Daub::Manual => "manual",
            Daub::Assist => "assist",
            Daub::Auto => "auto",
        }
    }
}

impl From<Daub> for bingomint::hall::state::Daub {
    fn from(d: Daub) -> Self {
        match d {
            Daub::Manual => Self::Manual,
            Daub::Assist => Self::Assist,
            Daub::Auto => Self::Auto,
        }
    }
}
