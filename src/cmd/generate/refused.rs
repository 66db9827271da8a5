//! A plan the library refused, told in generate's flags.

use super::args::Args;
use anyhow::anyhow;
use bingomint::pipeline::file::PlanError;

impl Args {
    /// A plan the library refused, in the flags' words.
    pub(super) fn refused(&self, e: PlanError) -> anyhow::Error {
        match e {
            PlanError::V3Game(_) => anyhow!(
                "--format v3 holds 75-ball cards only; use --format native with --game {}",
                self.game
            ),
            PlanError::Memory { least } => anyhow!(
                "--memory must be at least {} MiB (a run needs that much for one wave of cards)",
                least >> 20
            ),
            PlanError::NoCards => anyhow!("--count must be at least 1"),
            PlanError::TooMany { most } => anyhow!("--count must be at most {most}"),
            PlanError::FirstFace { most } => {
                anyhow!("--first-serial must be from 1 to {most}")
            }
            PlanError::V3FirstFace => anyhow!(
                "--first-serial {}: the v3 layout numbers its cards from 1; use --format native",
                self.first_serial
            ),
            PlanError::V3TooMany { most } => anyhow!(
                "--format v3 holds at most {most} cards (its count is a 32-bit integer); \
                 use --format native"
            ),
        }
    }
}
