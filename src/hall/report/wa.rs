//! The session's record laid out as Washington's bingo daily record
//! (WAC 230-10-335), item by item, with the sets issued as its per-set
//! records ask (WAC 230-10-390): a worked example of a regulator's form
//! filled from a verified log. The threshold of items 3 and 4 ("a prize
//! greater than two hundred dollars") is the report's `--threshold`.

use super::super::replay::replay;
use super::html::{esc, head, tr, STYLE};
use super::money::Money;
use super::{Line, Record};
use crate::hall::event as ev;

/// The daily record as a page to print; None when the log holds no
/// session's money (nothing sold by serial range).
pub fn wa_daily(lines: &[Line<crate::hall::Event>], r: &Record, log: &str) -> Option<String> {
    let m = r.money.as_ref()?;
    let title = r.title.clone().unwrap_or_else(|| "Bingo session".into());
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Daily record: {t}</title>\n<style>{STYLE}</style></head><body>\n<h1>Bingo daily record (WAC 230-10-335)</h1>\n<p>{t}, session of {d}. From the log <code>{l}</code>, verified; {f} to {e}{z}</p>\n",
        t = esc(&title),
        d = esc(&m.date),
        l = esc(log),
        f = esc(&r.first),
        e = esc(&r.last),
        z = super::html::span_zone(r.zone.as_deref())
    );
    h += "<h2>(1) Schedule of games and prizes</h2>\n";
    h += &head(&["Game", "Name", "Pattern", "Prizes offered", "Specials"]);
    for g in &r.games {
        h += &tr(&[
            &g.game.to_string(),
            g.name.as_deref().unwrap_or(""),
            &g.stages.join(", "),
            &g.prize,
            &g.specials.join("; "),
        ]);
    }
    h += "</table>\n<h2>(2) Attendance</h2>\n";
    h += &match m.attendance {
        Some(a) => format!("<p>{a} people participating.</p>\n"),
        None => "<p>Not keyed at the console (POST /api/attendance).</p>\n".into(),
    };
    h += &over(lines, r, m);
    h += "</table>\n<h2>(5) Gross gambling receipts for each type of sale</h2>\n";
    h += &receipts(m);
    h += "<h2>(6) Prizes paid, game by game</h2>\n";
    h += &head(&["(a) Game", "Name", "Prize", "(b) Amount"]);
    for p in &m.prizes {
        h += &tr(&[
            &p.game.to_string(),
            p.name.as_deref().unwrap_or(""),
            &p.stage,
            &m.show(p.amount),
        ]);
    }
    h += &format!(
        "</table>\n<p class=\"total\">Prizes paid: {}; {} of receipts.</p>\n",
        esc(&m.show(m.paid)),
        esc(m.payout_share.as_deref().unwrap_or("none"))
    );
    h += &sets(m);
    h += "</table>\n<p>Manager: ____________________ &nbsp; Worker on duty: ____________________</p>\n</body></html>\n";
    Some(h)
}

/// Items 3 and 4: the calls of each game offering a prize over the
/// threshold, and the winning cards of each prize over it.
fn over(lines: &[Line<crate::hall::Event>], r: &Record, m: &Money) -> String {
    let mut h = String::new();
    h += &format!(
        "<h2>(3) Numbers called, in sequence, in each game offering a prize over {}</h2>\n",
        esc(&m.show(m.threshold))
    );
    let offers = offered(lines);
    for g in &r.games {
        let most = offers
            .iter()
            .find(|(k, _)| *k == g.game)
            .map_or(0, |(_, a)| *a);
        if most <= m.threshold {
            continue;
        }
        let calls: Vec<String> = (g.calls.iter())
            .filter(|c| c.recalled.is_none())
            .map(|c| c.ball.to_string())
            .collect();
        h += &format!(
            "<p>Game {} ({}, up to {}): {}</p>\n",
            g.game,
            esc(g.name.as_deref().unwrap_or("")),
            esc(&m.show(most)),
            esc(&calls.join(" "))
        );
    }
    h += &format!(
        "<h2>(4) Winning card numbers of each prize over {}</h2>\n",
        esc(&m.show(m.threshold))
    );
    h += &head(&["Game", "Prize", "Amount", "Winning cards"]);
    for p in m.prizes.iter().filter(|p| p.amount > m.threshold) {
        h += &tr(&[
            &p.game.to_string(),
            &p.stage,
            &m.show(p.amount),
            &p.winners.join(", "),
        ]);
    }
    h
}

/// The per-set records: each sale's serial range, colour, value,
/// returned and voided.
fn sets(m: &Money) -> String {
    let mut h = String::new();
    h += "<h2>Sets of paper (WAC 230-10-390)</h2>\n";
    h += &head(&[
        "Serial (sale)",
        "Colour",
        "Value",
        "First issued",
        "Last issued",
        "Returned",
        "Voided",
    ]);
    for s in &m.sets {
        h += &tr(&[
            &s.sale.sale.to_string(),
            s.colour.as_deref().unwrap_or(s.kind),
            &m.show(s.value),
            &s.sale.first.to_string(),
            &s.sale.last.to_string(),
            &s.sale.returned.join(", "),
            s.sale.void.as_deref().unwrap_or(""),
        ]);
    }
    h
}

/// Each type of sale's receipts, and the session's.
fn receipts(m: &Money) -> String {
    let mut h = head(&[
        "Type of sale",
        "Paper or electronic",
        "Units sold",
        "Receipts",
    ]);
    for p in &m.products {
        h += &tr(&[&p.name, p.kind, &p.units.to_string(), &m.show(p.net)]);
    }
    h + &format!(
        "</table>\n<p class=\"total\">Gross gambling receipts: {} (paper {}, electronic {}).</p>\n",
        esc(&m.show(m.net)),
        esc(&m.show(m.paper)),
        esc(&m.show(m.electronic))
    )
}

/// Each game's largest prize offered, as it started.
fn offered(lines: &[Line<crate::hall::Event>]) -> Vec<(u64, u64)> {
    (replay(lines).starts())
        .map(|ev::GameStart { game, rules, .. }| {
            let most = (rules.amounts.iter().copied())
                .chain(rules.jackpot.map(|j| j.prize.max(j.consolation)))
                .chain(rules.near.map(|n| n.prize))
                .max()
                .unwrap_or(0);
            (*game, most)
        })
        .collect()
}
