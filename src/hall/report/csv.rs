//! The record as CSV: a row per game's start and end, call, recall, claim
//! and payout share.

use super::{GameRecord, Record};

/// A row's cells after the game and its name.
#[derive(Default)]
struct Row<'a> {
    time: &'a str,
    event: &'a str,
    call: String,
    ball: String,
    source: &'a str,
    card: &'a str,
    stage: &'a str,
    win: &'a str,
    accepted: &'a str,
    amount: &'a str,
    detail: String,
}

const HEADER: [&str; 13] = [
    "game", "name", "time", "event", "call", "ball", "source", "card", "stage", "win", "accepted",
    "amount", "detail",
];

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The record as CSV (the csv crate quotes).
pub fn csv(r: &Record) -> Result<String, ::csv::Error> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for g in &r.games {
        for row in rows(g) {
            let name = g.name.as_deref().unwrap_or("");
            let cells = [
                &g.game.to_string(),
                name,
                row.time,
                row.event,
                &row.call,
                &row.ball,
                row.source,
                row.card,
                row.stage,
                row.win,
                row.accepted,
                row.amount,
                &row.detail,
            ];
            // Names, cards and details come from the night file and the
            // players' phones: none may open as a formula.
            w.write_record(
                cells
                    .map(crate::text::spreadsheet_safe)
                    .iter()
                    .map(|c| c.as_bytes()),
            )?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of text is text"))
}

/// A game's rows in order: its start, calls and recalls, claims, payout
/// shares, its end.
fn rows(g: &GameRecord) -> Vec<Row<'_>> {
    let ended = g.ended.as_deref().unwrap_or("");
    let mut out = vec![Row {
        time: &g.started,
        event: "start",
        source: g.balls_from,
        stage: "",
        card: "",
        amount: &g.prize,
        detail: format!(
            "{}; commitment {}; {}",
            g.stages.join(" "),
            g.commitment,
            g.specials.join("; ")
        ),
        ..Row::default()
    }];
    for c in &g.calls {
        let call = |time, event| Row {
            time,
            event,
            call: c.call.to_string(),
            ball: c.ball.to_string(),
            source: c.source,
            ..Row::default()
        };
        out.push(call(&c.time, "call"));
        if let Some(t) = &c.recalled {
            out.push(call(t, "recall"));
        }
    }
    for c in &g.claims {
        out.push(Row {
            time: &c.time,
            event: if c.queued.is_some() {
                "player's claim"
            } else {
                "claim"
            },
            call: c.call.to_string(),
            card: &c.card,
            stage: &c.stage,
            win: yes(c.win),
            accepted: if c.closed.is_some() {
                "unanswered"
            } else {
                yes(c.accepted)
            },
            detail: match &c.closed {
                Some(why) => format!("{}; closed: {why}", c.reason),
                None => c.reason.clone(),
            },
            ..Row::default()
        });
    }
    for p in &g.payouts {
        for (k, who) in p.winners.iter().enumerate() {
            out.push(Row {
                time: ended,
                event: "payout",
                call: p.call.to_string(),
                card: who,
                stage: &p.stage,
                amount: p.shares.get(k).map_or("", String::as_str),
                detail: match &p.voided {
                    Some(why) => format!("{} voided {why}", p.kind.as_deref().unwrap_or("")),
                    None => p.kind.clone().unwrap_or_default(),
                },
                ..Row::default()
            });
        }
    }
    let proof = match &g.seed {
        Some(seed) => format!("seed {seed}"),
        None => format!("balls from the {}", g.balls_from),
    };
    out.push(Row {
        time: ended,
        event: g.status,
        detail: proof,
        ..Row::default()
    });
    out
}
