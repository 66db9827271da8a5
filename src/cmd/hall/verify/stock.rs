//! `hall verify --stock`: the nights' sales held to the paper stock book.

use crate::cmd::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::Summary;
use bingomint::text::count_of;
use std::path::Path;

/// The nights `found` checked against the paper stock book: each night's
/// faces sold are those the book holds issued to it.
pub fn against_stock(book: &Path, cards: &Cards, found: &[(String, Summary)]) -> Result<Outcome> {
    use bingomint::hall::stock::{check, Faces, NightSold, StockNight};
    let text = std::fs::read_to_string(book)
        .with_context(|| format!("--stock: cannot read '{}'", book.display()))?;
    let id = cards.files[0].short_id();
    let nights: Vec<NightSold> = (found.iter())
        .filter(|(_, s)| !s.sales.list.is_empty())
        .map(|(log, s)| NightSold {
            night: StockNight {
                night: s.night.as_deref().unwrap_or(""),
                title: "",
                log,
                cards: &id,
                path: cards.files[0].path(),
            },
            sold: Faces::of(s.sales.list.iter().flat_map(|x| x.held())),
        })
        .collect();
    match check(&text, &nights) {
        Ok(standing) => {
            let lines = text.lines().count() as u64;
            outln!(
                "OK: {}: {} chained, {} sold as the stock book issued {}",
                book.display(),
                count_of(lines, "line"),
                count_of(nights.len() as u64, "night"),
                if nights.len() == 1 { "it" } else { "them" }
            );
            for p in &standing.papers {
                outln!(
                    "  '{}': {} received, {} sold, {} destroyed, {} on hand",
                    p.path,
                    p.all_received().count(),
                    p.all_sold().count(),
                    p.all_destroyed().count(),
                    p.on_hand().count()
                );
            }
            Ok(Outcome::Success)
        }
        Err((line, why)) => {
            outln!("FAILED: {} line {line}: {why}", book.display());
            Ok(Outcome::Negative)
        }
    }
}
