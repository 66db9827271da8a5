//! The record as CSV: a row per game's start and end, call, recall, claim
//! and payout share.

use super::{GameRecord, PayoutRecord, Record};

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
    if let Some(m) = &r.money {
        for cells in money_rows(m).into_iter().chain(pack_rows(m)) {
            w.write_record(
                cells
                    .iter()
                    .map(|c| crate::text::spreadsheet_safe(c).into_owned()),
            )?;
        }
    }
    for cells in linked_rows(&r.linked) {
        w.write_record(
            cells
                .iter()
                .map(|c| crate::text::spreadsheet_safe(c).into_owned()),
        )?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of text is text"))
}

/// The linked games the night sold for, as rows of the same columns: a
/// `linked` row each (this venue's takings, the network's and the prize in
/// its detail), and a `linked payout` row for each face paid here.
fn linked_rows(games: &[super::LinkedRecord]) -> Vec<[String; 13]> {
    let mut out = Vec::new();
    for g in games {
        let mut row = |event: &str, card: String, amount: u64, detail: String| {
            let mut cells: [String; 13] = Default::default();
            (cells[1], cells[3], cells[7]) =
                (format!("linked game {}", g.game), event.into(), card);
            (cells[11], cells[12]) = (g.show(amount), detail);
            out.push(cells);
        };
        row(
            "linked",
            String::new(),
            g.takings,
            format!(
                "{} at venue {}: {} faces sold here; the network's takings {}, prize {}; {}",
                g.play,
                g.venue,
                g.faces,
                g.show(g.network),
                g.prize.map_or("not fixed".into(), |p| g.show(p)),
                g.outcome
            ),
        );
        for (face, amount) in &g.payouts {
            row(
                "linked payout",
                face.to_string(),
                *amount,
                g.outcome.clone(),
            );
        }
    }
    out
}

/// The session's money as rows of the same columns (no game): each sale,
/// its return and void, each product's receipts, the totals, each
/// progressive jackpot's movement.
fn money_rows(m: &super::money::Money) -> Vec<[String; 13]> {
    let row = |event: &str, card: String, stage: &str, amount: u64, detail: String| {
        money_row(m, event, card, stage, amount, detail)
    };
    let mut out = set_rows(m);
    for p in &m.products {
        out.push(row(
            "receipts",
            String::new(),
            &p.name,
            p.net,
            format!(
                "{} · {} sold · gross {} · refunds {} · voided {}",
                p.kind_words(),
                p.units,
                m.show(p.gross),
                m.show(p.refunds),
                m.show(p.void_amount)
            ),
        ));
    }
    let attendance = m
        .attendance
        .map_or("attendance not keyed".into(), |a| format!("attendance {a}"));
    out.push(row(
        "receipts",
        String::new(),
        "total",
        m.net,
        format!(
            "paper {} · electronic {} · {attendance}",
            m.show(m.paper),
            m.show(m.electronic)
        ),
    ));
    out.push(row(
        "prizes",
        String::new(),
        "total",
        m.paid,
        format!(
            "{} of {} or more: {} · {} under: {} · {} of receipts",
            m.over.prizes,
            m.show(m.threshold),
            m.show(m.over.amount),
            m.under.prizes,
            m.show(m.under.amount),
            m.payout_share.as_deref().unwrap_or("none")
        ),
    ));
    for d in &m.cash {
        let counted = match (d.counted, d.over, d.deposit) {
            (Some(c), Some(over), Some(deposit)) => format!(
                "counted {}{} · {} · deposit {}",
                m.show(c),
                super::html::by_denomination(d, &m.currency),
                m.over_words(over),
                m.show(deposit)
            ),
            _ => "not counted".into(),
        };
        let detail = format!(
            "float {} · takings {} · expected {} · {counted}",
            m.show(d.float),
            m.show(d.takings),
            m.show(d.expected)
        );
        out.push(row(
            "cash",
            d.drawer.clone(),
            "drawer",
            d.counted.unwrap_or(0),
            detail,
        ));
    }
    for j in &m.jackpots {
        out.push(row("jackpot", String::new(), &j.name, j.paid, format!("game {} · carried in {} · from sales {} · offered {} within {} · {} · carried out {} within {}", j.game, m.show(j.pot_in), m.show(j.added), m.show(j.offered), j.within, if j.won { "won" } else { "not won" }, m.show(j.pot_out), j.within_out)));
    }
    out
}

/// Each electronic pack's transaction, in order.
fn pack_rows(m: &super::money::Money) -> Vec<[String; 13]> {
    let row = |event: &str, card: String, stage: &str, amount: u64, detail: String| {
        money_row(m, event, card, stage, amount, detail)
    };
    let mut out = Vec::new();
    for p in &m.electronic_sales {
        let l = &p.line;
        out.push(row(
            "electronic",
            format!("{}..{}", l.first, l.last),
            l.action.word(),
            l.amount,
            format!(
                "transaction {} · {} · pack {} · {}{}",
                l.txn,
                p.time,
                l.pack,
                l.product,
                l.device
                    .as_ref()
                    .map_or(String::new(), |d| format!(" · device {d}"))
            ),
        ));
    }
    out
}

/// A row of the session's money.
fn money_row(
    m: &super::money::Money,
    event: &str,
    card: String,
    stage: &str,
    amount: u64,
    detail: String,
) -> [String; 13] {
    let mut cells: [String; 13] = Default::default();
    cells[1] = "session".into();
    cells[2] = m.date.clone();
    cells[3] = event.into();
    cells[7] = card;
    cells[8] = stage.into();
    cells[11] = m.show(amount);
    cells[12] = detail;
    cells
}

/// Each sale's row, and its return's and void's.
fn set_rows(m: &super::money::Money) -> Vec<[String; 13]> {
    let row = |event: &str, card: String, stage: &str, amount: u64, detail: String| {
        money_row(m, event, card, stage, amount, detail)
    };
    let mut out = Vec::new();
    for s in &m.sets {
        let range = format!("{}..{}", s.sale.first, s.sale.last);
        let colour = s.colour.as_deref().unwrap_or(s.kind);
        let late = match s.sale.games.is_empty() {
            true => String::new(),
            false => {
                let games: Vec<String> = s.sale.games.iter().map(usize::to_string).collect();
                format!(" · late: games {}", games.join(", "))
            }
        };
        out.push(row(
            "sale",
            range,
            &s.sale.product,
            s.sale.amount,
            format!(
                "sale {} · {} · {colour}{late}",
                s.sale.sale,
                crate::text::count_of(s.units, "unit")
            ),
        ));
        for r in &s.sale.returned {
            out.push(row(
                "return",
                r.clone(),
                &s.sale.product,
                0,
                format!("of sale {}", s.sale.sale),
            ));
        }
        if let Some(why) = &s.sale.void {
            out.push(row(
                "void",
                range_of(s),
                &s.sale.product,
                0,
                format!("sale {}: {why}", s.sale.sale),
            ));
        }
    }
    out
}

fn range_of(s: &super::money::SetRecord) -> String {
    format!("{}..{}", s.sale.first, s.sale.last)
}

/// A claim's row: its verdict, or that it was closed unanswered.
fn claim_row(c: &super::ClaimRecord) -> Row<'_> {
    Row {
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
    }
}

/// A payout's rows: a share of each winner, at the game's end.
fn share_rows<'a>(p: &'a PayoutRecord, ended: &'a str) -> impl Iterator<Item = Row<'a>> {
    let row = move |card: &'a str, amount: &'a str| Row {
        time: ended,
        event: "payout",
        call: p.call.to_string(),
        card,
        stage: &p.stage,
        amount,
        detail: match &p.voided {
            Some(why) => format!("{} voided {why}", p.kind.as_deref().unwrap_or("")),
            None => p.kind.clone().unwrap_or_default(),
        },
        ..Row::default()
    };
    // A consolation nobody took: one row that says so, with no amount.
    let nobody = p.winners.is_empty().then(|| row("", ""));
    (p.winners.iter().enumerate())
        .map(move |(k, who)| row(who, p.shares.get(k).map_or("", String::as_str)))
        .chain(nobody)
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
    out.extend(g.claims.iter().map(claim_row));
    out.extend(g.payouts.iter().flat_map(|p| share_rows(p, ended)));
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
