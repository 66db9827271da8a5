//! The session's money: what is sold ([`Product`]), the sales made by
//! serial range, returned and voided ([`Sales`]), the faces each game
//! plays (what was issued and not returned), a game's share of the
//! receipts, and prizes that are a share of them ([`Cut`]). Progressive
//! jackpots carried from night to night are [`jackpot`]'s; their ledger,
//! [`ledger`]'s.
//!
//! One rule for a game's sales: a product that plays `n` of the night's
//! games gives each of them `1/n` of its net sales (issued less returned
//! and voided), rounded down to the minor unit. A game outside the
//! programme has no sales of its own.

mod cash;
mod cut;
mod error;
pub mod jackpot;
pub mod ledger;
pub mod line;
pub mod packs;
pub mod parse;
pub mod shown;
mod units;

pub use cash::{denominations_sum, denominations_words, Drawer, DrawerShown};
pub use cut::{Cut, Percent};
pub use error::SaleError;

use super::money;
use line::SaleLine;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// What the hall sells: a book, a strip, a single face or an electronic
/// face, by the unit of `faces` consecutive faces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub name: String,
    /// A unit's price, in minor units.
    pub price: u64,
    /// Faces a unit.
    pub faces: u64,
    /// The programme's games it plays, by number from 1 (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<String>,
    /// Played on a device, not on paper.
    #[serde(default, skip_serializing_if = "is_false")]
    pub electronic: bool,
    /// The linked game it plays (`bingomint link`), by the network's id:
    /// it plays none of the night's own games, and its sales are the
    /// venue's part of the linked game's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linked: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Product {
    /// Whether it plays the programme's game `planned` (None: a game
    /// outside the programme, which only products of every game play).
    pub fn plays(&self, planned: Option<usize>) -> bool {
        self.linked.is_none()
            && (self.games.is_empty() || planned.is_some_and(|k| self.games.contains(&k)))
    }

    /// How many games it plays, of a programme of `programme`.
    pub fn games_played(&self, programme: usize) -> usize {
        if self.linked.is_some() {
            1
        } else if self.games.is_empty() {
            programme.max(1)
        } else {
            self.games.len()
        }
    }

    /// `paper` or `electronic`.
    pub fn kind(&self) -> &'static str {
        if self.electronic {
            "electronic"
        } else {
            "paper"
        }
    }
}

/// One sale: a serial range of a product issued to the floor, what of it
/// came back, and a void.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sale {
    pub id: u64,
    /// The product's place in [`Sales::products`].
    pub product: usize,
    pub first: u64,
    pub last: u64,
    pub amount: u64,
    /// Ranges returned unsold, and their refunds' sum.
    pub returned: Vec<RangeInclusive<u64>>,
    pub refunded: u64,
    pub void: Option<String>,
    /// A late sale's games (empty: its product's).
    pub games: Vec<usize>,
    /// The cash drawer that took it.
    pub drawer: Option<String>,
}

impl Sale {
    /// The faces it still sells (none once voided).
    pub fn held(&self) -> Vec<RangeInclusive<u64>> {
        if self.void.is_some() {
            return Vec::new();
        }
        let mut out = vec![self.first..=self.last];
        for r in &self.returned {
            out = out.into_iter().flat_map(|h| minus(&h, r)).collect();
        }
        out
    }

    /// What it took, less refunds (nothing once voided).
    pub fn net(&self) -> u64 {
        match self.void {
            Some(_) => 0,
            None => self.amount - self.refunded,
        }
    }
}

/// `a` without `b`: none, one or two ranges.
fn minus(a: &RangeInclusive<u64>, b: &RangeInclusive<u64>) -> Vec<RangeInclusive<u64>> {
    let mut out = Vec::new();
    if b.start() > a.start() {
        out.push(*a.start()..=(*a.end()).min(b.start() - 1));
    }
    if b.end() < a.end() {
        out.push((*a.start()).max(b.end() + 1)..=*a.end());
    }
    out.retain(|r| !r.is_empty());
    out
}

/// Ranges in order merged where they touch.
fn merged(ranges: Vec<RangeInclusive<u64>>) -> Vec<RangeInclusive<u64>> {
    let mut out: Vec<RangeInclusive<u64>> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(l) if *r.start() <= l.end() + 1 => *l = *l.start()..=(*l.end()).max(*r.end()),
            _ => out.push(r),
        }
    }
    out
}

fn overlap(a: &RangeInclusive<u64>, b: &RangeInclusive<u64>) -> bool {
    a.start() <= b.end() && b.start() <= a.end()
}

/// The rules of selling this build keeps, written on each session's line:
/// 1, a sale covers whole units on the card file's own boundaries; 2, a
/// product may be sold late, after its first games started, for the games
/// still to come. A log whose session says less (an older build's) is
/// held to the rules it was written under.
pub const SELLING: u8 = 2;

/// The night's products and every sale made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sales {
    pub products: Vec<Product>,
    /// The programme's games (for products of every game).
    pub programme: usize,
    pub list: Vec<Sale>,
    /// The session's rules of selling (its line's `selling`).
    pub rules: u8,
    /// The cash drawers given a float, in order.
    pub drawers: Vec<cash::Drawer>,
    /// The rules of electronic play (the night file's `[electronic]`).
    pub electronic: Option<packs::Electronic>,
    /// The electronic packs issued, and their transactions.
    pub packs: packs::Packs,
}

/// A sale, return or void as the log states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Sale {
        product: String,
        first: u64,
        last: u64,
        /// The cash drawer (or seller) taking it, if the session has drawers.
        drawer: Option<String>,
    },
    /// A drawer's float, at the session's start.
    Float {
        drawer: String,
        amount: u64,
    },
    /// A drawer's cash counted at the end: in all, and by denomination
    /// when so counted ((value, how many); `counted` is then their sum).
    Count {
        drawer: String,
        counted: u64,
        denominations: Vec<(u64, u64)>,
    },
    Return {
        product: String,
        first: u64,
        last: u64,
    },
    Void {
        sale: u64,
        reason: String,
    },
    /// An electronic product's next pack, from the faces kept for
    /// electronic play.
    Pack {
        product: String,
        drawer: Option<String>,
    },
}

/// Where the night stands when a sale is asked: the card file's faces
/// (and an import's serials, whose gaps are no paper), the programme's
/// games started, whether any game started.
pub struct Floor<'a> {
    pub faces: RangeInclusive<u64>,
    pub serials: Option<&'a crate::cardfile::serials::Serials>,
    pub played: &'a std::collections::BTreeSet<usize>,
    pub any_game: bool,
}

impl Sales {
    /// Whether the night sells by serial range.
    pub fn active(&self) -> bool {
        !self.products.is_empty()
    }

    fn product(&self, name: &str) -> Result<usize, SaleError> {
        if !self.active() {
            return Err(SaleError::NoProducts);
        }
        self.products
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                let names: Vec<String> = self
                    .products
                    .iter()
                    .map(|p| format!("{:?}", p.name))
                    .collect();
                SaleError::NoProduct(name.to_string(), names.join(", "))
            })
    }

    /// Refuses a move on product `p` once one of its games started.
    fn not_started(&self, p: usize, floor: &Floor) -> Result<(), SaleError> {
        let product = &self.products[p];
        let started = if product.linked.is_some() {
            // The link closes its sales; the night's games do not.
            None
        } else if product.games.is_empty() {
            floor.any_game.then(|| "1".to_string())
        } else {
            (product.games.iter())
                .find(|k| floor.played.contains(k))
                .map(|k| k.to_string())
        };
        match started {
            Some(game) => Err(SaleError::Started {
                product: product.name.clone(),
                game,
            }),
            None => Ok(()),
        }
    }

    /// Whether sale `s` plays the programme's game `planned`.
    fn sale_plays(&self, s: &Sale, planned: Option<usize>) -> bool {
        match s.games.is_empty() {
            true => self.products[s.product].plays(planned),
            false => planned.is_some_and(|k| s.games.contains(&k)),
        }
    }

    /// The games a sale of product `p` made now plays: none named (its
    /// product's own) before any of them started; once some started, and
    /// when the session sells late (rules 2), the programme's games it
    /// plays still to come, or a refusal when none is left.
    fn sale_games(&self, p: usize, floor: &Floor) -> Result<Vec<usize>, SaleError> {
        let started = match self.not_started(p, floor) {
            Ok(()) => return Ok(Vec::new()),
            Err(e) => e,
        };
        let product = &self.products[p];
        if self.rules < 2 || self.programme == 0 {
            return Err(started);
        }
        let plays: Vec<usize> = match product.games.is_empty() {
            true => (1..=self.programme).collect(),
            false => product.games.clone(),
        };
        let to_come: Vec<usize> = plays
            .into_iter()
            .filter(|k| !floor.played.contains(k))
            .collect();
        if to_come.is_empty() {
            return Err(SaleError::AllStarted {
                product: product.name.clone(),
            });
        }
        Ok(to_come)
    }

    /// Refuses a return or void of sale `s` once one of its games started.
    fn sale_not_started(&self, s: &Sale, floor: &Floor) -> Result<(), SaleError> {
        match s.games.iter().find(|k| floor.played.contains(k)) {
            Some(k) => Err(SaleError::Started {
                product: self.products[s.product].name.clone(),
                game: k.to_string(),
            }),
            None if s.games.is_empty() => self.not_started(s.product, floor),
            None => Ok(()),
        }
    }

    /// The amount of `units` of product `p`.
    fn price(&self, p: usize, units: u64) -> Result<u64, SaleError> {
        (self.products[p].price)
            .checked_mul(units)
            .filter(|&a| a <= money::MAX_MINOR)
            .ok_or(SaleError::TooLarge)
    }

    /// The event a move makes, checked against every rule of selling: the
    /// one check, for the live hall and for `hall verify` alike.
    pub fn event(&self, m: &Move, floor: &Floor) -> Result<SaleLine, SaleError> {
        match m {
            Move::Sale {
                product,
                first,
                last,
                drawer,
            } => self.sale(product, *first..=*last, drawer.as_deref(), floor),
            Move::Float { drawer, amount } => self.float(drawer, *amount),
            Move::Count {
                drawer,
                counted,
                denominations,
            } => self.count(drawer, *counted, denominations),
            Move::Return {
                product,
                first,
                last,
            } => self.sale_return(product, *first..=*last, floor),
            Move::Void { sale, reason } => self.void(*sale, reason, floor),
            Move::Pack { product, drawer } => {
                let p = self.product(product)?;
                if !self.sold_as_packs(p) {
                    return Err(SaleError::NotPacks(product.clone()));
                }
                let (first, last) = self.next_pack(p, *floor.faces.start())?;
                self.sale(product, first..=last, drawer.as_deref(), floor)
            }
        }
    }

    /// A sale of `asked`, faces none sold yet.
    fn sale(
        &self,
        product: &str,
        asked: RangeInclusive<u64>,
        drawer: Option<&str>,
        floor: &Floor,
    ) -> Result<SaleLine, SaleError> {
        let drawer = self.taking(drawer)?;
        let (first, last) = (*asked.start(), *asked.end());
        let p = self.product(product)?;
        let units = self.units(p, first, last, floor)?;
        let games = self.sale_games(p, floor)?;
        self.on_boundaries(p, first, last, floor)?;
        self.electronic_sale(p, first, last, *floor.faces.start())?;
        for sale in &self.list {
            if let Some(h) = sale.held().into_iter().find(|h| overlap(h, &asked)) {
                return Err(SaleError::SoldTwice {
                    first,
                    last,
                    sale: sale.id,
                    held: format!("{}..{}", h.start(), h.end()),
                });
            }
        }
        Ok(SaleLine::Sale(line::Sale {
            sale: self.list.len() as u64 + 1,
            product: product.to_string(),
            first,
            last,
            units,
            amount: self.price(p, units)?,
            games,
            drawer,
        }))
    }

    /// A return of `asked`: faces of one sale still out, whole units as
    /// that sale made them.
    fn sale_return(
        &self,
        product: &str,
        asked: RangeInclusive<u64>,
        floor: &Floor,
    ) -> Result<SaleLine, SaleError> {
        let (first, last) = (*asked.start(), *asked.end());
        let p = self.product(product)?;
        if self.sold_as_packs(p) {
            return Err(SaleError::PackReturn(product.to_string()));
        }
        let units = self.units(p, first, last, floor)?;
        let sale = (self.list.iter())
            .filter(|s| s.product == p)
            .find(|s| (s.held().iter()).any(|h| h.contains(&first) && h.contains(&last)))
            .ok_or_else(|| SaleError::NotIssued {
                first,
                last,
                product: product.to_string(),
            })?;
        self.sale_not_started(sale, floor)?;
        let faces = self.products[p].faces;
        if (first - sale.first) % faces != 0 {
            let lo = first - (first - sale.first) % faces;
            return Err(SaleError::SplitsUnits {
                first,
                last,
                sale: sale.id,
                held: format!("{}..{}", sale.first, sale.last),
                faces,
                lo,
                hi: lo + (last - lo + 1).div_ceil(faces) * faces - 1,
            });
        }
        Ok(SaleLine::Return(line::SaleReturn {
            sale: sale.id,
            product: product.to_string(),
            first,
            last,
            units,
            amount: self.price(p, units)?,
        }))
    }

    /// Sale `sale` voided, for `reason`.
    fn void(&self, sale: u64, reason: &str, floor: &Floor) -> Result<SaleLine, SaleError> {
        let s = (self.list.iter().find(|s| s.id == sale)).ok_or(SaleError::NoSale(sale))?;
        if s.void.is_some() {
            return Err(SaleError::Voided(sale));
        }
        self.sale_not_started(s, floor)?;
        let reason = crate::shown::shown(reason, crate::shown::max::PRIZE)
            .map_err(|_| SaleError::NoReason)?;
        if reason.is_empty() {
            return Err(SaleError::NoReason);
        }
        Ok(SaleLine::Void(line::SaleVoid {
            sale,
            reason,
            amount: s.net(),
        }))
    }

    /// Books a line [`Sales::event`] made (checked before).
    pub fn book(&mut self, line: &SaleLine) {
        match line {
            SaleLine::Sale(line::Sale {
                product,
                first,
                last,
                amount,
                games,
                drawer,
                ..
            }) => {
                let p = self.products.iter().position(|x| x.name == *product);
                self.list.push(Sale {
                    id: self.list.len() as u64 + 1,
                    product: p.unwrap_or(0),
                    first: *first,
                    last: *last,
                    amount: *amount,
                    returned: Vec::new(),
                    refunded: 0,
                    void: None,
                    games: games.clone(),
                    drawer: drawer.clone(),
                });
            }
            SaleLine::Return(line::SaleReturn {
                sale,
                first,
                last,
                amount,
                ..
            }) => {
                if let Some(s) = self.list.iter_mut().find(|s| s.id == *sale) {
                    s.returned.push(*first..=*last);
                    s.refunded += amount;
                }
            }
            SaleLine::Float(f) => self.book_float(f),
            SaleLine::Count(c) => self.book_count(c),
            SaleLine::Void(line::SaleVoid { sale, reason, .. }) => {
                if let Some(s) = self.list.iter_mut().find(|s| s.id == *sale) {
                    s.void = Some(reason.clone());
                }
            }
        }
    }

    /// The faces the game `planned` plays (of the first card file),
    /// merged and in order.
    pub fn sold_for(&self, planned: Option<usize>) -> Vec<RangeInclusive<u64>> {
        let mut ranges: Vec<RangeInclusive<u64>> = (self.list.iter())
            .filter(|s| self.sale_plays(s, planned))
            .flat_map(Sale::held)
            .collect();
        ranges.sort_by_key(|r| *r.start());
        merged(ranges)
    }

    /// The programme's games face `n` (of the first card file) plays,
    /// when a sale holds it tonight (empty: every game).
    pub fn games_of(&self, n: u64) -> Option<Vec<usize>> {
        let sale = (self.list.iter())
            .filter(|s| self.products[s.product].linked.is_none())
            .find(|s| s.held().iter().any(|h| h.contains(&n)))?;
        Some(match sale.games.is_empty() {
            true => self.products[sale.product].games.clone(),
            false => sale.games.clone(),
        })
    }

    /// The faces product `p` holds sold (merged, in order) and its net
    /// sales: a linked game's part at this venue.
    pub fn held_by(&self, p: usize) -> (Vec<RangeInclusive<u64>>, u64) {
        let mut ranges: Vec<RangeInclusive<u64>> = (self.list.iter())
            .filter(|s| s.product == p)
            .flat_map(Sale::held)
            .collect();
        ranges.sort_by_key(|r| *r.start());
        (merged(ranges), self.net(p))
    }

    /// Net sales of product `p`.
    pub fn net(&self, p: usize) -> u64 {
        (self.list.iter().filter(|s| s.product == p))
            .map(Sale::net)
            .sum()
    }

    /// The game `planned`'s sales: each product that plays it gives it
    /// `1/n` of its net sales, `n` the games it plays (rounded down).
    pub fn game_sales(&self, planned: Option<usize>) -> u64 {
        let Some(k) = planned else { return 0 };
        // Sales made before the product's games started: its share, as ever.
        let own = |i: usize| -> u64 {
            (self.list.iter())
                .filter(|s| s.product == i && s.games.is_empty())
                .map(Sale::net)
                .sum()
        };
        let before: u64 = (self.products.iter().enumerate())
            .filter(|(_, p)| p.plays(Some(k)))
            .map(|(i, p)| own(i) / p.games_played(self.programme) as u64)
            .sum();
        // A late sale gives each game still to come when it was made its
        // `1/n`, rounded down: never a game that had started.
        let late: u64 = (self.list.iter())
            .filter(|s| s.games.contains(&k))
            .map(|s| s.net() / s.games.len() as u64)
            .sum();
        before + late
    }
}

#[cfg(test)]
mod tests;
