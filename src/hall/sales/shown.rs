//! The session's money as the console and the report show it: each
//! product's units and receipts, each sale's serial range and what came
//! back, the totals by paper and electronic. One sum, here, for both.

use super::{Sale, Sales};
use serde::Serialize;

/// A product's sales.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ProductSold {
    pub name: String,
    pub kind: &'static str,
    pub price: u64,
    pub faces: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper: Option<String>,
    /// The linked game it plays, if it plays one (`bingomint link`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked: Option<String>,
    /// Sold as electronic packs, from the faces kept for electronic play.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub packs: bool,
    pub issued: u64,
    pub returned: u64,
    pub voided: u64,
    /// Units sold: issued less returned and voided.
    pub units: u64,
    pub gross: u64,
    pub refunds: u64,
    pub void_amount: u64,
    pub net: u64,
}

impl ProductSold {
    /// `paper`, `electronic`, or `paper for linked game national-1`.
    pub fn kind_words(&self) -> String {
        match &self.linked {
            Some(game) => format!("{} for linked game {game}", self.kind),
            None => self.kind.to_string(),
        }
    }
}

/// A sale as shown.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SaleShown {
    pub sale: u64,
    pub product: String,
    pub first: u64,
    pub last: u64,
    pub amount: u64,
    /// `first..last` of each range returned.
    pub returned: Vec<String>,
    pub refunded: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub void: Option<String>,
    pub net: u64,
    /// A late sale's games (the programme's still to come when it was made).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<usize>,
}

impl SaleShown {
    /// `Session book`, or for a late sale `Session book (late: games 2, 3)`.
    pub fn product_words(&self) -> String {
        if self.games.is_empty() {
            return self.product.clone();
        }
        let games: Vec<String> = self.games.iter().map(usize::to_string).collect();
        format!("{} (late: games {})", self.product, games.join(", "))
    }
}

/// The session's sales.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct SalesShown {
    pub products: Vec<ProductSold>,
    pub sales: Vec<SaleShown>,
    /// Issued (gross), refunded, voided, and net receipts.
    pub gross: u64,
    pub refunds: u64,
    pub voided: u64,
    pub net: u64,
    pub paper: u64,
    pub electronic: u64,
    /// Faces sold (issued, not returned, not voided).
    pub faces: u64,
    /// The cash drawers: float, takings, count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawers: Vec<super::DrawerShown>,
}

fn faces_of(ranges: &[std::ops::RangeInclusive<u64>]) -> u64 {
    ranges.iter().map(|r| r.end() - r.start() + 1).sum()
}

impl Sales {
    /// The sales as shown, summed.
    pub fn shown(&self) -> SalesShown {
        let mut out = SalesShown::default();
        for (i, p) in self.products.iter().enumerate() {
            let of: Vec<&Sale> = self.list.iter().filter(|s| s.product == i).collect();
            let units = |faces: u64| faces / p.faces;
            let issued = of.iter().map(|s| units(s.last - s.first + 1)).sum();
            let returned = (of.iter().filter(|s| s.void.is_none()))
                .map(|s| units(faces_of(&s.returned)))
                .sum();
            let voided: Vec<&&Sale> = of.iter().filter(|s| s.void.is_some()).collect();
            let sold = ProductSold {
                name: p.name.clone(),
                kind: p.kind(),
                price: p.price,
                faces: p.faces,
                paper: p.paper.clone(),
                linked: p.linked.clone(),
                packs: self.sold_as_packs(i),
                issued,
                returned,
                voided: voided
                    .iter()
                    .map(|s| units(faces_of(&s.held_before_void())))
                    .sum(),
                units: of.iter().map(|s| units(faces_of(&s.held()))).sum(),
                gross: of.iter().map(|s| s.amount).sum(),
                refunds: of.iter().map(|s| s.refunded).sum(),
                void_amount: voided.iter().map(|s| s.amount - s.refunded).sum(),
                net: of.iter().map(|s| s.net()).sum(),
            };
            out.gross += sold.gross;
            out.refunds += sold.refunds;
            out.voided += sold.void_amount;
            out.net += sold.net;
            out.faces += sold.units * p.faces;
            if p.electronic {
                out.electronic += sold.net;
            } else {
                out.paper += sold.net;
            }
            out.products.push(sold);
        }
        out.sales = (self.list.iter())
            .map(|s| SaleShown {
                sale: s.id,
                product: self
                    .products
                    .get(s.product)
                    .map_or_else(String::new, |p| p.name.clone()),
                first: s.first,
                last: s.last,
                amount: s.amount,
                returned: (s.returned.iter())
                    .map(|r| format!("{}..{}", r.start(), r.end()))
                    .collect(),
                refunded: s.refunded,
                void: s.void.clone(),
                net: s.net(),
                games: s.games.clone(),
            })
            .collect();
        out.drawers = self.cash_up();
        out
    }
}

impl Sale {
    /// What it held when it was voided (its faces less those returned).
    fn held_before_void(&self) -> Vec<std::ops::RangeInclusive<u64>> {
        Sale {
            void: None,
            ..self.clone()
        }
        .held()
    }
}
