//! `bingomint hall verify`: a night's log checked against its card files.

use super::open_cards;
use crate::cmd::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::verify;
use std::path::PathBuf;

/// `hall verify`.
pub fn run(log: &std::path::Path, cards: &[PathBuf]) -> Result<Outcome> {
    let text =
        std::fs::read_to_string(log).with_context(|| format!("cannot read '{}'", log.display()))?;
    let (files, _) = open_cards(cards)?;
    let mut cards = Cards::new(files, None);
    match verify(&text, &mut cards) {
        Ok(s) => {
            use bingomint::text::count_of;
            let seeded = s.calls - s.blower_calls;
            let (calls, claims) = (count_of(seeded, "call"), count_of(s.claims, "claim"));
            let payouts = count_of(s.payouts, "payout");
            outln!(
                "OK: {}: {} chained, {} ended, {calls} {} their revealed seeds, {claims} judged the same again, {payouts} found again",
                log.display(),
                count_of(s.lines, "line"),
                count_of(s.games, "game"),
                if seeded == 1 { "matches" } else { "match" }
            );
            if s.blower > 0 {
                outln!(
                    "note: {} of balls from a blower ({}): no seed to check their calls against (each ball is a number of the game, none called twice)",
                    count_of(s.blower, "game"),
                    count_of(s.blower_calls, "call")
                );
            }
            for g in &s.voided {
                outln!("note: game {g} ended unrevealed (its seed was lost): its calls cannot be checked");
            }
            if let Some(g) = s.open {
                outln!("note: game {g} is still open; its calls can be checked once it ends and its seed is out");
            }
            Ok(Outcome::Success)
        }
        Err(f) => {
            outln!("FAILED: {} line {}: {}", log.display(), f.line, f.what);
            Ok(Outcome::Negative)
        }
    }
}
