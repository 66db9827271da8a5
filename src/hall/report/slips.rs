//! Winner slips: a page per prize paid, for the winner to sign and the
//! books to keep. Each names the night, the game, the prize, the call it
//! was won at and the ball; then each winner's face as printed (the
//! numbers called by then marked, the last ball ringed) with the share
//! paid; then lines to sign. Every value is escaped: a log holds what
//! clients sent.

use super::html::esc;
use super::{GameRecord, PayoutRecord, Record};
use crate::hall::judge::Cards;
use crate::hall::state::Grid;

/// Winners drawn on one slip; the rest are counted (the log lists them).
pub const DRAWN: usize = 12;

const STYLE: &str = "body{font-family:sans-serif;margin:2em}\
.slip{break-after:page;border:2px solid #000;padding:1.2em;max-width:40em;margin:0 auto 2em}\
.slip h1{font-size:1.6em;margin:0 0 .2em}.slip h2{font-size:1.2em;margin:.2em 0 .8em}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{font-weight:bold}\
.winner{margin:1em 0;break-inside:avoid}table.face{border-collapse:collapse;margin:.4em 0}\
table.face td{border:1px solid #000;width:2.4em;height:2.1em;text-align:center;font-weight:bold}\
td.marked{background:#ffe94d}td.blank{background:repeating-linear-gradient(45deg,#fff 0 4px,#ccc 4px 6px)}\
td.last{outline:3px solid #c00;outline-offset:-4px}\
.sign{display:grid;grid-template-columns:1fr 1fr 1fr;gap:2em;margin-top:2.5em}\
.sign div{border-top:1px solid #000;padding-top:.3em;font-size:.9em}";

/// A slip for every prize paid and not voided in `r`, as a page to print;
/// faces are read from `cards`. None when the night paid no prize.
pub fn slips(r: &Record, cards: &Cards) -> Option<String> {
    let title = r.title.clone().unwrap_or_else(|| "Bingo".into());
    let mut body = String::new();
    for g in &r.games {
        for p in (g.payouts.iter()).filter(|p| p.voided.is_none() && !p.winners.is_empty()) {
            body += &slip(&title, g, p, cards);
        }
    }
    if body.is_empty() {
        return None;
    }
    Some(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Winner slips: {t}</title>\n<style>{STYLE}</style></head><body>\n{body}</body></html>\n",
        t = esc(&title)
    ))
}

/// The calls of `g` standing when payout `p` was made (a recalled ball is
/// not among them: a payout's calls are recalled only after it is voided).
fn calls_at(g: &GameRecord, p: &PayoutRecord) -> Vec<u8> {
    let standing = g.calls.iter().filter(|c| c.recalled.is_none());
    standing.take(p.call).map(|c| c.ball).collect()
}

/// One payout's slip.
fn slip(title: &str, g: &GameRecord, p: &PayoutRecord, cards: &Cards) -> String {
    let calls = calls_at(g, p);
    let last = calls.last().copied();
    let game = match &g.name {
        Some(name) => format!("Game {}: {name}", g.game),
        None => format!("Game {}", g.game),
    };
    let prize = match &p.kind {
        Some(kind) => format!("{} ({kind})", p.stage),
        None => p.stage.clone(),
    };
    let mut facts = vec![
        ("Prize", prize),
        ("Won at", format!("call {}", p.call)),
        ("Last ball", last.map_or(String::new(), |b| b.to_string())),
        (
            "Paid",
            (p.amount.clone())
                .or_else(|| (!g.prize.is_empty()).then(|| g.prize.clone()))
                .unwrap_or_else(|| "no prize was set".into()),
        ),
        ("Winners", p.winners.len().to_string()),
    ];
    if let Some(paper) = &g.paper {
        facts.insert(0, ("Paper", paper.clone()));
    }
    let dl: String = (facts.iter())
        .map(|(k, v)| format!("<dt>{k}</dt><dd>{}</dd>", esc(v)))
        .collect();
    let mut h = format!(
        "<section class=\"slip\"><h1>Winner slip: {}</h1><h2>{}</h2><dl>{dl}</dl>\n",
        esc(title),
        esc(&game)
    );
    for (i, winner) in p.winners.iter().enumerate().take(DRAWN) {
        let share = p.shares.get(i).map_or("", String::as_str);
        h += &format!(
            "<div class=\"winner\"><b>{}</b>: {}\n",
            esc(winner),
            esc(share)
        );
        h += &face(cards, winner, &calls, last);
        h += "</div>\n";
    }
    if p.winners.len() > DRAWN {
        h += &format!(
            "<p>and {} more winners, each named with the share paid in the log and the record.</p>\n",
            p.winners.len() - DRAWN
        );
    }
    h + "<div class=\"sign\"><div>Winner</div><div>Caller</div><div>Checked by</div></div></section>\n"
}

/// The face named `label`, drawn as printed: the numbers of `calls`
/// marked, `last` ringed; empty when no file of the night holds it.
fn face(cards: &Cards, label: &str, calls: &[u8], last: Option<u8>) -> String {
    let Some((f, n)) = cards.by_label(label) else {
        return String::new();
    };
    let Ok(face) = cards.face(f, n) else {
        return String::new();
    };
    let spec = cards.spec(f);
    let shape = crate::hall::view::card_shape(spec);
    let grid = Grid::of(&face, |x| calls.contains(&x)).lit(0, last);
    let mut h = String::from("<table class=\"face\">");
    for row in 0..grid.rows {
        h += "<tr>";
        for col in 0..grid.cols {
            let i = row * grid.cols + col;
            let n = grid.cells[i];
            let (class, text) = match n {
                0 if shape.free == Some(i) => ("marked", shape.free_text.clone()),
                0 => ("blank", String::new()),
                n => {
                    let text = match spec.items() {
                        Some(deck) => deck.label(n).to_string(),
                        None => n.to_string(),
                    };
                    let class = match (grid.marked[i], grid.last == Some(i)) {
                        (true, true) => "marked last",
                        (true, false) => "marked",
                        _ => "",
                    };
                    (class, text)
                }
            };
            h += &format!("<td class=\"{class}\">{}</td>", esc(&text));
        }
        h += "</tr>";
    }
    h + "</table>\n"
}
