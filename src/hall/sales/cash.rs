//! The session's cash-up: each drawer (or seller) given a float at the
//! start, the sales it took named, its cash counted at the end against the
//! books (its float and the net takings of its sales: sold, less refunds
//! and voids), over or short, and the deposit (the count less the float
//! kept for the next session). One rule here, for the hall and for `hall
//! verify` alike.

use super::line::{CashCount, CashFloat, SaleLine};
use super::{money, SaleError, Sales};
use serde::Serialize;

/// A drawer as the books hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawer {
    pub name: String,
    pub float: u64,
    /// Its count, once made.
    pub count: Option<CashCount>,
}

/// A drawer as the reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DrawerShown {
    pub drawer: String,
    pub float: u64,
    /// The net takings of the sales it took.
    pub takings: u64,
    pub expected: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deposit: Option<u64>,
    /// The count by denomination, when it was so counted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub denominations: Vec<(u64, u64)>,
}

/// The most denominations a count lists.
pub const MOST_DENOMINATIONS: usize = 40;

/// What `denominations` ((value, how many)) come to: each value a
/// positive amount given once, in at most [`MOST_DENOMINATIONS`], the sum
/// within the largest amount taken.
pub fn denominations_sum(denominations: &[(u64, u64)]) -> Result<u64, SaleError> {
    let bad = |why: String| Err(SaleError::Denominations(why));
    if denominations.len() > MOST_DENOMINATIONS {
        return bad(format!(
            "at most {MOST_DENOMINATIONS} notes and coins a count"
        ));
    }
    let mut sum: u64 = 0;
    for (k, &(value, count)) in denominations.iter().enumerate() {
        if value == 0 {
            return bad("a note or coin of no value: give each its value, such as 20.00".into());
        }
        if denominations[..k].iter().any(|&(v, _)| v == value) {
            return bad(format!(
                "{} is given twice: give each value once, with how many",
                money::show(value, "")
            ));
        }
        let part = value.checked_mul(count).filter(|p| *p <= money::MAX_MINOR);
        sum = match part.and_then(|p| sum.checked_add(p)) {
            Some(s) if s <= money::MAX_MINOR => s,
            _ => return Err(SaleError::TooLarge),
        };
    }
    Ok(sum)
}

/// `4 × £20.00, 6 × £1.00`.
pub fn denominations_words(denominations: &[(u64, u64)], currency: &str) -> String {
    (denominations.iter())
        .map(|&(v, n)| format!("{n} × {}", money::show(v, currency)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The longest drawer name.
const NAME: usize = 40;

impl Sales {
    /// A drawer's name as given, checked as text the pages show.
    fn drawer_name(name: &str) -> Result<String, SaleError> {
        let name = crate::shown::shown(name, NAME).map_err(|_| SaleError::DrawerName)?;
        if name.is_empty() {
            return Err(SaleError::DrawerName);
        }
        Ok(name)
    }

    /// The drawer a sale names, which has its float and is not counted
    /// yet (None: the sale names none).
    pub(super) fn taking(&self, drawer: Option<&str>) -> Result<Option<String>, SaleError> {
        let Some(name) = drawer else { return Ok(None) };
        let name = Self::drawer_name(name)?;
        match self.drawers.iter().find(|d| d.name == name) {
            None => Err(SaleError::NoDrawer(name)),
            Some(d) if d.count.is_some() => Err(SaleError::Counted(name)),
            Some(_) => Ok(Some(name)),
        }
    }

    /// Drawer `drawer` given its float `amount`: once.
    pub(super) fn float(&self, drawer: &str, amount: u64) -> Result<SaleLine, SaleError> {
        let drawer = Self::drawer_name(drawer)?;
        if let Some(d) = self.drawers.iter().find(|d| d.name == drawer) {
            return Err(SaleError::Floated(drawer, money::show(d.float, "")));
        }
        if amount > money::MAX_MINOR {
            return Err(SaleError::TooLarge);
        }
        Ok(SaleLine::Float(CashFloat { drawer, amount }))
    }

    /// The net takings of the sales drawer `name` took.
    pub fn takings(&self, name: &str) -> u64 {
        (self.list.iter())
            .filter(|s| s.drawer.as_deref() == Some(name))
            .map(super::Sale::net)
            .sum()
    }

    /// Drawer `drawer` counted at `counted` (by `denominations`, when
    /// given, whose sum it is): once, against the books.
    pub(super) fn count(
        &self,
        drawer: &str,
        counted: u64,
        denominations: &[(u64, u64)],
    ) -> Result<SaleLine, SaleError> {
        let drawer = Self::drawer_name(drawer)?;
        let d = (self.drawers.iter())
            .find(|d| d.name == drawer)
            .ok_or_else(|| SaleError::NoDrawer(drawer.clone()))?;
        if d.count.is_some() {
            return Err(SaleError::Counted(drawer));
        }
        if counted > money::MAX_MINOR {
            return Err(SaleError::TooLarge);
        }
        if !denominations.is_empty() {
            let sum = denominations_sum(denominations)?;
            if sum != counted {
                return Err(SaleError::Denominations(format!(
                    "they come to {}, not the {} counted",
                    money::show(sum, ""),
                    money::show(counted, "")
                )));
            }
        }
        let expected = d.float.saturating_add(self.takings(&drawer));
        Ok(SaleLine::Count(CashCount {
            over: counted as i64 - expected as i64,
            deposit: counted.saturating_sub(d.float),
            drawer,
            counted,
            denominations: denominations.to_vec(),
            expected,
        }))
    }

    /// Books a float [`Sales::float`] made.
    pub(super) fn book_float(&mut self, f: &CashFloat) {
        self.drawers.push(Drawer {
            name: f.drawer.clone(),
            float: f.amount,
            count: None,
        });
    }

    /// Books a count [`Sales::count`] made.
    pub(super) fn book_count(&mut self, c: &CashCount) {
        if let Some(d) = self.drawers.iter_mut().find(|d| d.name == c.drawer) {
            d.count = Some(c.clone());
        }
    }

    /// Every drawer as the reports show it.
    pub fn cash_up(&self) -> Vec<DrawerShown> {
        (self.drawers.iter())
            .map(|d| {
                let takings = self.takings(&d.name);
                DrawerShown {
                    drawer: d.name.clone(),
                    float: d.float,
                    takings,
                    expected: d.float.saturating_add(takings),
                    counted: d.count.as_ref().map(|c| c.counted),
                    over: d.count.as_ref().map(|c| c.over),
                    deposit: d.count.as_ref().map(|c| c.deposit),
                    denominations: (d.count.as_ref())
                        .map_or(Vec::new(), |c| c.denominations.clone()),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
