//! The record as a page a manager prints. Every value is escaped: a log
//! holds what clients sent.

use super::{GameRecord, Record};

/// Text safe inside HTML.
pub(super) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table row of escaped cells.
pub(super) fn tr(cells: &[&str]) -> String {
    let tds: String = cells
        .iter()
        .map(|c| format!("<td>{}</td>", esc(c)))
        .collect();
    format!("<tr>{tds}</tr>\n")
}

/// A table's head.
pub(super) fn head(cells: &[&str]) -> String {
    let ths: String = cells.iter().map(|c| format!("<th>{c}</th>")).collect();
    format!("<table><tr>{ths}</tr>\n")
}

/// The night's record as HTML, read from the log at `log`.
pub fn html(r: &Record, log: &str) -> String {
    let title = r
        .title
        .clone()
        .unwrap_or_else(|| "The night's record".into());
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n",
        t = esc(&title)
    );
    h += &format!(
        "<p>Log <code>{}</code>: {} lines, verified (chain, calls, claims and payouts), {} to {}.{}</p>\n<p>Card files: ",
        esc(log), r.lines, esc(&r.first), esc(&r.last), zone_words(r.zone.as_deref())
    );
    let files: Vec<String> = (r.files.iter())
        .map(|f| {
            format!(
                "<code>{}</code> (id {}, {} {}, SHA-256 {})",
                esc(&f.path),
                esc(&f.id),
                f.count,
                esc(&f.game),
                esc(&f.sha256)
            )
        })
        .collect();
    h += &files.join("; ");
    h += "</p>\n";
    h += &head(&[
        "Game", "Name", "Paper", "Patterns", "Calls", "Winners", "Paid",
    ]);
    for g in &r.games {
        let stood = || g.payouts.iter().filter(|p| p.voided.is_none());
        let winners: usize = stood().map(|p| p.winners.len()).sum();
        let paid: Vec<String> = stood().filter_map(|p| p.amount.clone()).collect();
        let calls = g.calls.iter().filter(|c| c.recalled.is_none()).count();
        h += &tr(&[
            &g.game.to_string(),
            g.name.as_deref().unwrap_or(""),
            g.paper.as_deref().unwrap_or(""),
            &g.stages.join(", "),
            &calls.to_string(),
            &winners.to_string(),
            &paid.join(" + "),
        ]);
    }
    h += &format!(
        "</table>\n<p class=\"total\">Paid tonight: {}</p>\n",
        esc(&r.paid_text)
    );
    if let Some(m) = &r.money {
        h += &money(m);
    }
    h += &linked(&r.linked);
    for g in &r.games {
        h += &game(g);
    }
    h + "</body></html>\n"
}

/// What a page says of its times' zone: nothing for UTC as logged.
pub(super) fn zone_words(zone: Option<&str>) -> String {
    match zone {
        Some(z) => format!(
            " Times are local to {} (with their offset from UTC).",
            esc(z)
        ),
        None => String::new(),
    }
}

/// `{first} to {last}` and their zone, ending a sentence: ` UTC.` for
/// times as logged.
pub(super) fn span_zone(zone: Option<&str>) -> String {
    match zone {
        Some(_) => format!(".{}", zone_words(zone)),
        None => " UTC.".into(),
    }
}

/// The linked games the night sold for: its part and the network's.
fn linked(games: &[super::LinkedRecord]) -> String {
    if games.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h2>Linked games</h2>\n");
    h += &head(&[
        "Game",
        "Play",
        "Venue",
        "Faces sold here",
        "Takings here",
        "Network's takings",
        "Prize",
        "Outcome",
        "Paid here",
    ]);
    for g in games {
        let paid: Vec<String> = (g.payouts.iter())
            .map(|(face, amount)| format!("face {face}: {}", g.show(*amount)))
            .collect();
        h += &tr(&[
            &g.game,
            &g.play,
            &g.venue,
            &g.faces.to_string(),
            &g.show(g.takings),
            &g.show(g.network),
            &g.prize.map_or("not fixed".into(), |p| g.show(p)),
            &g.outcome,
            &if paid.is_empty() {
                "nothing".to_string()
            } else {
                paid.join("; ")
            },
        ]);
    }
    h + "</table>\n"
}

/// A game: its facts, calls, claims and payouts.
fn game(g: &GameRecord) -> String {
    let name = g
        .name
        .as_deref()
        .map_or(String::new(), |n| format!(": {}", esc(n)));
    let mut h = format!("<section><h2>Game {}{name}</h2>\n<ul>", g.game);
    for (k, v) in facts(g) {
        h += &format!("<li><b>{k}</b> {}</li>", esc(&v));
    }
    h += "</ul>\n<h3>Calls</h3>\n";
    h += &head(&["Call", "Ball", "Time", "Source", ""]);
    for c in &g.calls {
        let recalled = c
            .recalled
            .as_ref()
            .map_or(String::new(), |t| format!("recalled at {t}"));
        h += &tr(&[
            &c.call.to_string(),
            &c.ball.to_string(),
            &c.time,
            c.source,
            &recalled,
        ]);
    }
    h += "</table>\n";
    h += &claims(g);
    h += &payouts(g);
    h + "</section>\n"
}

/// A game's claims table (nothing when none was made).
fn claims(g: &GameRecord) -> String {
    if g.claims.is_empty() {
        return String::new();
    }
    let mut h = "<h3>Claims</h3>\n".to_string();
    h += &head(&["Time", "Card", "For", "At call", "Verdict", "Reason"]);
    for c in &g.claims {
        let verdict = match (c.win, c.accepted, &c.closed) {
            (_, _, Some(_)) => "closed unanswered",
            (true, true, _) => "win, accepted",
            (true, false, _) => "win, not accepted",
            (false, _, _) => "refused",
        };
        let reason = match &c.closed {
            Some(why) => format!("{}; {why}", c.reason),
            None => c.reason.clone(),
        };
        let card = match c.queued {
            Some(q) => format!("{} (player's claim {q})", c.card),
            None => c.card.clone(),
        };
        h += &tr(&[
            &c.time,
            &card,
            &c.stage,
            &c.call.to_string(),
            verdict,
            &reason,
        ]);
    }
    h + "</table>\n"
}

/// A game's winners and payouts table (nothing when none was paid).
fn payouts(g: &GameRecord) -> String {
    if g.payouts.is_empty() {
        return String::new();
    }
    let mut h = "<h3>Winners and payouts</h3>\n".to_string();
    h += &head(&["Prize", "At call", "Amount", "Winner", "Share"]);
    for p in &g.payouts {
        let kind = p.kind.as_ref().map_or(String::new(), |k| format!("{k} "));
        let mut amount = format!("{kind}{}", p.amount.as_deref().unwrap_or("—"));
        if let Some(why) = &p.voided {
            amount = format!("{amount} (voided {why})");
        }
        if p.winners.is_empty() {
            // A consolation nobody took: said, with no winner and no share.
            h += &tr(&[&p.stage, &p.call.to_string(), &amount, "—", "—"]);
        }
        for (k, who) in p.winners.iter().enumerate() {
            let share = p.shares.get(k).map_or("—", String::as_str);
            h += &tr(&[&p.stage, &p.call.to_string(), &amount, who, share]);
        }
    }
    h + "</table>\n"
}

/// A game's facts, as (label, value).
fn facts(g: &GameRecord) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(p) = &g.paper {
        out.push(("Paper", p.clone()));
    }
    let order = if g.concurrent {
        "Prizes open at once"
    } else {
        "Patterns in order"
    };
    out.push((order, g.stages.join(", ")));
    if !g.prize.is_empty() {
        out.push(("Prize", g.prize.clone()));
    }
    out.extend(g.specials.iter().map(|s| ("Special", s.clone())));
    if let Some(d) = g.wild {
        out.push(("Wild digit", d.to_string()));
    }
    out.push(("Started", g.started.clone()));
    out.push((
        "Ended",
        g.ended.clone().unwrap_or_else(|| "still open".into()),
    ));
    match (g.balls_from, &g.seed) {
        ("blower", _) => out.push((
            "Balls",
            "drawn from a blower and keyed in by the caller: no seed, no commitment".into(),
        )),
        (_, Some(seed)) => {
            out.push(("Commitment (SHA-256 of the seed)", g.commitment.clone()));
            out.push(("Seed revealed", seed.clone()));
            out.push((
                "Room seed",
                g.room_seed.clone().unwrap_or_else(|| "none".into()),
            ));
        }
        _ => out.push(("Commitment (seed not revealed)", g.commitment.clone())),
    }
    out
}

pub(super) const STYLE: &str = "body{font:11pt/1.35 system-ui,sans-serif;margin:2em;color:#111}\
h1{font-size:18pt}h2{font-size:14pt;border-top:2px solid #333;padding-top:.6em}\
table{border-collapse:collapse;margin:.4em 0 1em}td,th{border:1px solid #999;padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#eee}td{font-variant-numeric:tabular-nums}.total{font-weight:bold;font-size:13pt}\
@media print{h2{page-break-after:avoid}}";

/// The session's money: receipts, sets issued, prizes, jackpots.
pub(super) fn money(m: &super::money::Money) -> String {
    let mut h = String::from("<h2>The session's money</h2>\n");
    if let Some(a) = m.attendance {
        h += &format!("<p>Attendance: {a}</p>\n");
    }
    h += &head(&[
        "Product", "Kind", "Price", "Issued", "Returned", "Voided", "Sold", "Gross", "Refunds",
        "Voided", "Receipts",
    ]);
    for p in &m.products {
        h += &tr(&[
            &p.name,
            &p.kind_words(),
            &m.show(p.price),
            &p.issued.to_string(),
            &p.returned.to_string(),
            &p.voided.to_string(),
            &p.units.to_string(),
            &m.show(p.gross),
            &m.show(p.refunds),
            &m.show(p.void_amount),
            &m.show(p.net),
        ]);
    }
    h += &format!(
        "</table>\n<p class=\"total\">Receipts: {} (paper {}, electronic {}); issued {}, refunded {}, voided {}.</p>\n",
        esc(&m.show(m.net)),
        esc(&m.show(m.paper)),
        esc(&m.show(m.electronic)),
        esc(&m.show(m.gross)),
        esc(&m.show(m.refunds)),
        esc(&m.show(m.voided))
    );
    h += &cash(m);
    h + &sets(m) + &electronic(m) + &prizes(m) + &jackpots(m)
}

/// Every electronic pack's transaction, in order.
fn electronic(m: &super::money::Money) -> String {
    if m.electronic_sales.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h3>Electronic sales</h3>\n");
    h += &head(&[
        "Transaction",
        "Time (UTC)",
        "What",
        "Pack",
        "Product",
        "Faces",
        "Amount",
        "Device",
    ]);
    for p in &m.electronic_sales {
        let l = &p.line;
        h += &tr(&[
            &l.txn.to_string(),
            &p.time,
            l.action.word(),
            &l.pack.to_string(),
            &l.product,
            &format!("{}..{}", l.first, l.last),
            &m.show(l.amount),
            l.device.as_deref().unwrap_or(""),
        ]);
    }
    h + "</table>\n"
}

/// The cash-up: each drawer against the books.
fn cash(m: &super::money::Money) -> String {
    if m.cash.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h3>Cash-up</h3>\n");
    h += &head(&[
        "Drawer",
        "Float",
        "Takings",
        "Expected",
        "Counted",
        "Over or short",
        "Deposit",
    ]);
    for d in &m.cash {
        let or_dash = |a: Option<u64>| a.map_or("not counted".into(), |a| m.show(a));
        h += &tr(&[
            &d.drawer,
            &m.show(d.float),
            &m.show(d.takings),
            &m.show(d.expected),
            &(or_dash(d.counted) + &by_denomination(d, &m.currency)),
            &d.over.map_or(String::new(), |o| m.over_words(o)),
            &or_dash(d.deposit),
        ]);
    }
    h + "</table>\n"
}

/// ` (4 × £20.00, 6 × £1.00)` for a drawer counted by denomination.
pub(super) fn by_denomination(d: &crate::hall::sales::DrawerShown, currency: &str) -> String {
    if d.denominations.is_empty() {
        return String::new();
    }
    let words = crate::hall::sales::denominations_words(&d.denominations, currency);
    format!(" ({words})")
}

/// The sets issued.
fn sets(m: &super::money::Money) -> String {
    let mut h = String::new();
    h += "<h3>Sets issued</h3>\n";
    h += &head(&[
        "Sale", "Product", "Colour", "Value", "First", "Last", "Units", "Returned", "Void",
        "Receipts",
    ]);
    for s in &m.sets {
        h += &tr(&[
            &s.sale.sale.to_string(),
            &s.sale.product_words(),
            s.colour.as_deref().unwrap_or(s.kind),
            &m.show(s.value),
            &s.sale.first.to_string(),
            &s.sale.last.to_string(),
            &s.units.to_string(),
            &s.sale.returned.join(", "),
            s.sale.void.as_deref().unwrap_or(""),
            &m.show(s.sale.net),
        ]);
    }
    h + "</table>\n"
}

/// The prizes paid, at or over the threshold and under.
fn prizes(m: &super::money::Money) -> String {
    let mut h = String::from("<h3>Prizes paid</h3>\n");
    h += &head(&["Game", "Name", "Prize", "Call", "Amount", "Winning cards"]);
    for p in &m.prizes {
        let prize = match &p.kind {
            Some(k) => format!("{} ({k})", p.stage),
            None => p.stage.clone(),
        };
        h += &tr(&[
            &p.game.to_string(),
            p.name.as_deref().unwrap_or(""),
            &prize,
            &p.call.to_string(),
            &m.show(p.amount),
            &p.winners.join(", "),
        ]);
    }
    h += &format!(
        "</table>\n<p class=\"total\">Prizes: {} ({} of {} or more: {}; {} under: {}); {} of receipts.</p>\n",
        esc(&m.show(m.paid)),
        m.over.prizes,
        esc(&m.show(m.threshold)),
        esc(&m.show(m.over.amount)),
        m.under.prizes,
        esc(&m.show(m.under.amount)),
        esc(m.payout_share.as_deref().unwrap_or("none"))
    );
    h
}

/// Each progressive jackpot's movement.
fn jackpots(m: &super::money::Money) -> String {
    let mut h = String::new();
    if !m.jackpots.is_empty() {
        h += "<h3>Progressive jackpots</h3>\n";
        h += &head(&[
            "Jackpot",
            "Game",
            "Carried in",
            "From sales",
            "Offered",
            "Within",
            "Won",
            "Paid",
            "Carried out",
            "Within next",
        ]);
        for j in &m.jackpots {
            h += &tr(&[
                &j.name,
                &j.game.to_string(),
                &m.show(j.pot_in),
                &m.show(j.added),
                &m.show(j.offered),
                &j.within.to_string(),
                if j.won { "yes" } else { "no" },
                &m.show(j.paid),
                &m.show(j.pot_out),
                &j.within_out.to_string(),
            ]);
        }
        h += "</table>\n";
    }
    h
}
