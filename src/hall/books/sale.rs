//! The session's money in the books: sales by serial range, returns and
//! voids ([`crate::hall::sales::Sales`] holds the rules), the faces each
//! game plays, prizes fixed from sales and progressive jackpots offered
//! when a game starts, and each jackpot's outcome when it ends.

use super::super::event::{self as ev, PayoutKind};
use super::super::judge::Cards;
use super::super::rules::{Jackpot, Plan, Rules};
use super::super::sales::jackpot::Outcome;
use super::super::sales::Floor;
use super::super::{Event, Refusal};
use super::{Books, Mismatch};

impl Books {
    /// Where the night stands for a sale.
    pub(super) fn floor<'a>(&'a self, cards: &'a Cards) -> Floor<'a> {
        Floor {
            faces: cards.files[0].header().face_range(),
            serials: cards.files[0].header().serials(),
            played: &self.played,
            any_game: self.games > 0,
        }
    }

    /// Why face `n` of file `f` does not play the open game: not sold
    /// tonight, or sold for other games of the programme (named).
    pub(in crate::hall) fn not_sold(&self, cards: &Cards, f: usize, n: u64) -> Refusal {
        let noun = cards.files[f].header().spec.face_noun();
        match self.sales.games_of(n).filter(|_| f == 0) {
            Some(games) if !games.is_empty() => Refusal::SoldForOther {
                noun,
                face: n,
                games: (games.iter().map(usize::to_string))
                    .collect::<Vec<_>>()
                    .join(", "),
            },
            _ => Refusal::NotSold { noun, face: n },
        }
    }

    /// Whether face `n` of file `f` is held by a sale tonight, for any of
    /// its games: a phone may hold it.
    pub(in crate::hall) fn sold_tonight(&self, f: usize, n: u64) -> bool {
        f == 0 && self.sales.games_of(n).is_some()
    }

    /// Why a sale's line is not the one the hall would have written, in
    /// words (None: it is, or it is no sale's line): `hall verify` names
    /// it so.
    pub fn sale_finding(&self, event: &Event, cards: &Cards) -> Option<String> {
        if let Event::Pack(line) = event {
            return self.sales.pack_finding(line, self.last_sale.as_ref());
        }
        let m = event.sale_line()?.as_move();
        let cash = matches!(event, Event::CashFloat(_) | Event::CashCount(_));
        match self.sales.event(&m, &self.floor(cards)).map(Event::from) {
            Err(e) if cash => Some(format!("a cash line the hall would have refused: {e}")),
            Err(e) => Some(format!("a sale the hall would have refused: {e}")),
            Ok(made) if made != *event && cash => Some(format!(
                "a cash line whose figures are not the books': the float and the sales taken give {}",
                serde_json::to_string(&made).unwrap_or_default()
            )),
            Ok(Event::Sale(made)) if matches!(event, Event::Sale(e) if e.games != made.games) => {
                Some(format!(
                    "a sale whose games are not those its product still had to play when it was made: the programme then gives {}",
                    if made.games.is_empty() {
                        "the product's own games (it was no late sale)".to_string()
                    } else {
                        format!(
                            "late: games {}",
                            (made.games.iter().map(usize::to_string))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                ))
            }
            Ok(made) if made != *event => Some(format!(
                "a sale whose number, units or amount are not the hall's: the products' prices give {}",
                serde_json::to_string(&made).unwrap_or_default()
            )),
            Ok(_) => None,
        }
    }

    /// The head count keyed.
    pub(super) fn apply_attendance(&mut self, e: &ev::Attendance) -> Result<(), Mismatch> {
        if e.count > super::MAX_ATTENDANCE {
            return Err(Mismatch::Attendance);
        }
        self.attendance = Some(e.count);
        Ok(())
    }

    /// A sale's line booked.
    pub(super) fn apply_sale(&mut self, event: &Event) -> Result<(), Mismatch> {
        if let Some(line) = event.sale_line() {
            self.sales.book(&line);
        }
        Ok(())
    }

    /// A session's line: the night's id, products and jackpots, from the
    /// first session that gives them.
    pub(super) fn apply_session(&mut self, e: &ev::Session) -> Result<(), Mismatch> {
        if self.night_id.is_none() {
            self.night_id.clone_from(&e.id);
        }
        if self.sales.products != e.products {
            if !self.sales.list.is_empty() {
                return Err(Mismatch::ProductsChanged);
            }
            let bad = |p: &super::super::sales::Product| {
                p.faces == 0 || p.price > super::super::money::MAX_MINOR || p.name.is_empty()
            };
            if e.products.iter().any(bad) {
                return Err(Mismatch::BadProduct);
            }
            self.sales.products.clone_from(&e.products);
        }
        if let Some(n) = &e.night {
            self.sales.programme = n.games;
        }
        if self.sales.electronic != e.electronic {
            if !self.sales.packs.list.is_empty() {
                return Err(Mismatch::ProductsChanged);
            }
            self.sales.electronic.clone_from(&e.electronic);
        }
        self.sales.rules = e.selling;
        if self.pots.is_empty() {
            self.pots.clone_from(&e.jackpots);
        }
        Ok(())
    }

    /// The money of a game about to start: its prizes from sales fixed,
    /// its progressive jackpot offered from the pot carried in (the
    /// must-go date judged on `today`, `YYYY-MM-DD`).
    pub(super) fn fix_money(&self, plan: &mut Plan, today: &str, balls: u8) -> Result<(), Refusal> {
        let sales = self.sales.game_sales(plan.rules.planned);
        plan.rules.fix_cuts(sales);
        let Some(p) = plan.rules.progressive.clone() else {
            return Ok(());
        };
        let pot = (self.pots.iter().find(|q| q.rules.name == p.name))
            .ok_or_else(|| Refusal::NoLedger(p.name.clone()))?;
        if let Some(o) = self.outcomes.iter().find(|o| o.name == p.name) {
            return Err(Refusal::Rules(format!(
                "the progressive jackpot {:?} was played tonight already (game {})",
                p.name, o.game
            )));
        }
        let (mut progress, offered, within) = pot.offer(sales, pot.rules.must_go_on(today), balls);
        progress.day = today.to_string();
        plan.rules.sales = Some(sales);
        let consolation = plan.rules.jackpot.map_or(0, |j| j.consolation);
        plan.rules.progressive = Some(progress);
        plan.rules.jackpot = Some(Jackpot {
            within,
            prize: offered,
            consolation,
        });
        Ok(())
    }

    /// A game's start, as its money goes: the faces it plays.
    pub(super) fn apply_start_money(&mut self, rules: &Rules) {
        if self.sales.active() {
            self.game_sold = Some(self.sales.sold_for(rules.planned));
            self.sold_changed = true;
        }
    }

    /// Whether a line read back is one the hall would have written here:
    /// a sale, return or void as the products and the floor make it; a
    /// game's prizes from sales its share of them, and its progressive
    /// jackpot offered from the pot carried in. [`Books::apply`] decides
    /// nothing; a log read back (the resume, `hall verify`) is checked by
    /// this first.
    pub fn check(&self, event: &Event, cards: &Cards) -> Result<(), Mismatch> {
        match event {
            Event::Sale(_) | Event::SaleReturn(_) | Event::SaleVoid(_) => {
                match self.sale_finding(event, cards) {
                    Some(_) => Err(Mismatch::Sale),
                    None => Ok(()),
                }
            }
            Event::GameStart(e) => self.start_money(&e.rules, e.balls),
            Event::Pack(_) => match self.sale_finding(event, cards) {
                Some(_) => Err(Mismatch::Pack),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// A game's prizes from sales and its progressive jackpot, against the
    /// books.
    fn start_money(&self, rules: &Rules, balls: u8) -> Result<(), Mismatch> {
        let sales = self.sales.game_sales(rules.planned);
        let mut fixed = rules.clone();
        fixed.fix_cuts(sales);
        if fixed.amounts != rules.amounts || (!rules.cuts.is_empty() && rules.sales != Some(sales))
        {
            return Err(Mismatch::PrizeFromSales);
        }
        let Some(p) = &rules.progressive else {
            return Ok(());
        };
        let pot =
            (self.pots.iter().find(|q| q.rules.name == p.name)).ok_or(Mismatch::JackpotNotHeld)?;
        if self.outcomes.iter().any(|o| o.name == p.name) {
            return Err(Mismatch::JackpotTwice);
        }
        let (mut progress, offered, within) = pot.offer(sales, p.must_go, balls);
        progress.day.clone_from(&p.day);
        let j = rules.jackpot.ok_or(Mismatch::JackpotWithout)?;
        if progress != *p || (j.prize, j.within) != (offered, within) {
            return Err(Mismatch::JackpotOffer);
        }
        Ok(())
    }

    /// A game's end, as its progressive jackpot goes: won within its calls,
    /// carried, or (`void`: the game voided) left as it stood.
    pub(super) fn end_money(
        &mut self,
        rules: &Rules,
        game: u64,
        paid: &[(Option<PayoutKind>, u64)],
        balls: u8,
        void: bool,
    ) {
        let (Some(p), Some(j)) = (&rules.progressive, rules.jackpot) else {
            return;
        };
        let jackpot: Vec<u64> = (paid.iter())
            .filter(|(kind, _)| *kind == Some(PayoutKind::Jackpot))
            .map(|(_, minor)| *minor)
            .collect();
        let outcome = Outcome {
            name: p.name.clone(),
            game,
            offered: j.prize,
            within: j.within,
            won: !jackpot.is_empty(),
            paid: jackpot.iter().sum(),
            void,
        };
        if let Some(pot) = self.pots.iter_mut().find(|q| q.rules.name == p.name) {
            *pot = pot.next(&outcome, balls);
        }
        self.outcomes.push(outcome);
    }

    /// The faces the game just started plays, once, when the night sells
    /// by serial range: the shell hands them to the judge and the tracker.
    pub fn take_sold(&mut self) -> Option<Vec<std::ops::RangeInclusive<u64>>> {
        if !std::mem::take(&mut self.sold_changed) {
            return None;
        }
        self.game_sold.clone()
    }
}
