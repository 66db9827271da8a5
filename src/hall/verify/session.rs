//! A session's line checked (its card files given, its sold faces), and a
//! progressive jackpot's must-go date against the day its game started.

use super::{finding, parse_sold, Finding};
use crate::hall::judge::Cards;
use crate::hall::Event;

/// A session's line: its files and sold faces; on a night that sells by
/// serial range, each game's faces come from its start (a resume in the
/// middle of a game keeps them).
pub(super) fn session(event: &Event, cards: &mut Cards, at: u64) -> Result<(), Finding> {
    let Event::Session {
        files,
        sold,
        products,
        ..
    } = event
    else {
        return Ok(());
    };
    let before = cards.sold.take();
    self::files(files, sold.as_deref(), cards, at)?;
    if !products.is_empty() {
        cards.sold = Some(before.unwrap_or_default());
    }
    Ok(())
}

/// A progressive jackpot's must-go date judged on the day its game
/// started, as the line's time gives it.
pub(super) fn must_go(
    line: &crate::hall::log::Line,
    books: &crate::hall::books::Books,
) -> Result<(), Finding> {
    let Event::GameStart { rules, .. } = &line.event else {
        return Ok(());
    };
    let Some(p) = &rules.progressive else {
        return Ok(());
    };
    // The hall's local day, within a day of the line's UTC date (no zone
    // is further); an older line's, the UTC date.
    let utc = line.time.get(..10).unwrap_or("");
    let day = if p.day.is_empty() {
        utc
    } else {
        p.day.as_str()
    };
    if !crate::hall::sales::parse::is_date(day) || !within_a_day(day, utc) {
        return Err(finding(
            line.seq,
            format!("the progressive jackpot {:?} was judged on {day:?}, not the hall's day of a line at {}", p.name, line.time),
        ));
    }
    match books.pots().iter().find(|q| q.rules.name == p.name) {
        Some(pot) if pot.rules.must_go_on(day) != p.must_go => Err(finding(
            line.seq,
            format!(
                "the progressive jackpot {:?} {} on {day}, but its must-go date is {}",
                p.name,
                if p.must_go {
                    "had to go"
                } else {
                    "did not have to go"
                },
                pot.rules.must_go.as_deref().unwrap_or("none")
            ),
        )),
        _ => Ok(()),
    }
}

/// A session's files must be among `--cards`; its sold faces hold for
/// the claims after it.
fn files(
    files: &[crate::hall::FileEntry],
    sold: Option<&str>,
    cards: &mut Cards,
    at: u64,
) -> Result<(), Finding> {
    for f in files {
        if !cards.files.iter().any(|c| c.short_id() == f.id) {
            return Err(finding(
                at,
                format!(
                    "the session used the card file {} (id {}), which was not given",
                    f.path, f.id
                ),
            ));
        }
    }
    let first = cards.files[0].header();
    cards.sold = sold
        .map(|text| parse_sold(text, first))
        .transpose()
        .map_err(|e| finding(at, format!("its sold faces: {e}")))?;
    Ok(())
}

/// Whether the dates `a` and `b` (`YYYY-MM-DD`) are at most a day apart.
fn within_a_day(a: &str, b: &str) -> bool {
    let days = |d: &str| -> Option<i64> {
        let (y, m, dd) = (
            d.get(..4)?.parse().ok()?,
            d.get(5..7)?.parse().ok()?,
            d.get(8..10)?.parse().ok()?,
        );
        Some(crate::cardfile::date::days_from_civil(y, m, dd))
    };
    matches!((days(a), days(b)), (Some(x), Some(y)) if (x - y).abs() <= 1)
}
