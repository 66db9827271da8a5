//! The prizes a US hall reports to the IRS: each winner's share at or over
//! the threshold (Form W-2G: $1,200 or more from bingo, not reduced by the
//! wager), with the game, the prize, when and at what call it was won and
//! the winning card, and lines for what the form asks of the winner. A
//! voided or taken-back payout is no prize; a consolation nobody took is
//! none either.

use super::html::{esc, head, tr, STYLE};
use super::Record;

/// The list as a page to print; None when no winner's share reached
/// `threshold` (minor units).
pub fn w2g(r: &Record, threshold: u64, log: &str) -> Option<String> {
    let mut rows = String::new();
    let mut count = 0;
    for g in &r.games {
        for p in g.payouts.iter().filter(|p| p.voided.is_none()) {
            for (who, &share) in p.winners.iter().zip(&p.share_minor) {
                if share < threshold {
                    continue;
                }
                count += 1;
                rows += &tr(&[
                    &g.game.to_string(),
                    g.name.as_deref().unwrap_or(""),
                    &p.stage,
                    &p.time,
                    &p.call.to_string(),
                    who,
                    &crate::hall::money::show(share, &p.currency),
                    "",
                    "",
                    "",
                    "",
                ]);
            }
        }
    }
    if count == 0 {
        return None;
    }
    let title = r.title.clone().unwrap_or_else(|| "Bingo session".into());
    let currency = r.currency.as_str();
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>W-2G prizes: {t}</title>\n<style>{STYLE}table{{width:100%}}td:nth-child(n+8){{height:2.4em}}</style></head><body>\n<h1>Prizes for Form W-2G</h1>\n<p>{t}. From the log <code>{l}</code>, verified; {f} to {e}{z} Each winner's share of {th} or more ({n}).</p>\n",
        t = esc(&title),
        l = esc(log),
        f = esc(&r.first),
        e = esc(&r.last),
        z = super::html::span_zone(r.zone.as_deref()),
        th = esc(&crate::hall::money::show(threshold, currency)),
        n = if count == 1 { "1 share".to_string() } else { format!("{count} shares") },
    );
    h += &head(&[
        "Game",
        "Name",
        "Prize",
        if r.zone.is_some() {
            "Won (local)"
        } else {
            "Won (UTC)"
        },
        "At call",
        "Winning card",
        "Share",
        "Winner (name, address)",
        "TIN",
        "ID",
        "Signature",
    ]);
    h += &rows;
    Some(h + "</table>\n<p>Fill one Form W-2G for each row; keep this page with the session's records.</p>\n</body></html>\n")
}
