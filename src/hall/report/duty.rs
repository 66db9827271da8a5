//! The figures a UK bingo duty return needs for an accounting period
//! (`hall report --period FROM..TO --form uk-duty`): the stakes (the
//! sessions' receipts: paper and electronic sold, less refunds and voids),
//! the prizes paid (voided and taken-back payouts out), the bingo promotion
//! profits (stakes less prizes; a loss is carried, not taxed) and the duty
//! at the rate, a row per session beside them. Figures to copy onto the
//! return; the return itself is filed with HMRC.

use super::html::{esc, head, tr, STYLE};
use super::period::Period;
use crate::hall::money::show;

/// Bingo duty's rate, in basis points (10 %).
pub const RATE_BP: u64 = 1000;

impl Period {
    /// Stakes, prizes, profits (or the loss, negative) and duty, minor units.
    pub fn duty(&self) -> (u64, u64, i128, u64) {
        let (stakes, prizes) = (self.total.receipts, self.total.paid);
        let profits = i128::from(stakes) - i128::from(prizes);
        let duty = u64::try_from(profits.max(0)).unwrap_or(0) * RATE_BP / 10_000;
        (stakes, prizes, profits, duty)
    }

    /// The duty figures as a page to print.
    pub fn duty_html(&self) -> String {
        let c = self.currency.as_str();
        let (stakes, prizes, profits, duty) = self.duty();
        let profit_words = match u64::try_from(profits) {
            Ok(p) => show(p, c),
            Err(_) => format!(
                "a loss of {} (carried to the next period; no duty)",
                show(u64::try_from(-profits).unwrap_or(0), c)
            ),
        };
        let mut h = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Bingo duty {f} to {t}</title>\n<style>{STYLE}</style></head><body>\n<h1>Bingo duty: accounting period {f} to {t}</h1>\n<p>From {n}, each log verified. Figures for the bingo duty return; file the return itself with HMRC.{z}</p>\n",
            z = self.zone_words(),
            f = esc(&self.from),
            t = esc(&self.to),
            n = esc(&crate::text::count_of(self.sessions.len() as u64, "session")),
        );
        h += &head(&["Figure", "Amount"]);
        for (what, amount) in [
            (
                "Stakes (receipts: sold less refunds and voids)",
                show(stakes, c),
            ),
            (
                "Prizes paid (voided and taken back left out)",
                show(prizes, c),
            ),
            ("Bingo promotion profits (stakes less prizes)", profit_words),
            ("Duty at 10% of the profits", show(duty, c)),
        ] {
            h += &tr(&[what, &amount]);
        }
        h += "</table>\n<h2>Sessions</h2>\n";
        h += &head(&["Date", "Session", "Log", "Stakes", "Prizes"]);
        for s in &self.sessions {
            h += &tr(&[
                &s.date,
                &s.title,
                &s.log,
                &show(s.receipts, c),
                &show(s.paid, c),
            ]);
        }
        h += "</table>\n";
        h + &self.left_out() + "</body></html>\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hall::report::period::SessionRow;

    fn period(receipts: u64, paid: u64) -> Period {
        Period {
            from: "2026-10-01".into(),
            to: "2026-12-31".into(),
            currency: "£".into(),
            threshold: 20_000,
            sessions: Vec::new(),
            outside: Vec::new(),
            total: SessionRow {
                receipts,
                paid,
                ..SessionRow::default()
            },
            zones: Vec::new(),
            liability: Vec::new(),
        }
    }

    #[test]
    fn profits_are_stakes_less_prizes_and_a_loss_pays_no_duty() {
        assert_eq!(period(6_600, 2_000).duty(), (6_600, 2_000, 4_600, 460));
        // 10% rounded down to the penny.
        assert_eq!(period(1_009, 0).duty().3, 100);
        let loss = period(500, 2_000);
        assert_eq!(loss.duty(), (500, 2_000, -1_500, 0));
        assert!(loss
            .duty_html()
            .contains("a loss of £15.00 (carried to the next period; no duty)"));
    }
}
