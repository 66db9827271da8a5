//! The bodies of the API's sales and cash routes, read strictly: a sale,
//! return or void of paper, an electronic product's next pack, a drawer's
//! float or count.

use super::super::rules::FieldError;
use super::super::sales::Move;
use super::reply::ApiError;
use super::routes::{money, read};
use super::Command;
use crate::shown::max;
use serde::Deserialize;

/// A serial range of a product, sold or returned.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaleBody {
    product: String,
    /// The range, for paper; none for an electronic product's next pack.
    first: Option<u64>,
    last: Option<u64>,
    /// The cash drawer (or seller) taking a sale.
    drawer: Option<String>,
}

/// `POST /api/cash/float` and `/api/cash/count`: a drawer and an amount;
/// a count may give the notes and coins instead (or as well),
/// `[["20.00", 4], ["1.00", 6]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CashBody {
    drawer: String,
    amount: Option<String>,
    denominations: Option<Vec<(String, u64)>>,
}

/// A cash body as a float or a count.
fn cash_move(float: bool, body: CashBody) -> Result<Move, ApiError> {
    let CashBody {
        drawer,
        amount,
        denominations,
    } = body;
    let field = |f: &str, why: &str| ApiError::Field(FieldError::of(f, why.to_string()));
    let amount = amount
        .map(|a| money("amount", &a).map_err(ApiError::Field))
        .transpose()?;
    if float {
        return match (amount, denominations) {
            (Some(amount), None) => Ok(Move::Float { drawer, amount }),
            (_, Some(_)) => Err(field(
                "denominations",
                "a float is given as an amount: {\"drawer\": \"Door\", \"amount\": \"50.00\"}",
            )),
            (None, None) => Err(field("amount", "give the float, such as \"50.00\"")),
        };
    }
    let denominations = (denominations.unwrap_or_default().into_iter())
        .map(|(v, n)| money("denominations", &v).map(|v| (v, n)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ApiError::Field)?;
    let counted = match (amount, denominations.is_empty()) {
        (Some(a), _) => a,
        (None, false) => crate::hall::sales::denominations_sum(&denominations)
            .map_err(|e| field("denominations", &e.to_string()))?,
        (None, true) => {
            return Err(field(
                "amount",
                "give the cash counted, such as \"104.00\", or its notes and coins as \"denominations\": [[\"20.00\", 4], [\"1.00\", 6]]",
            ))
        }
    };
    Ok(Move::Count {
        drawer,
        counted,
        denominations,
    })
}

/// A sale voided, and why.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaleVoidBody {
    sale: u64,
    reason: String,
}

/// A sale, return or void as its body says.
pub(super) fn sale_command(path: &str, body: &[u8]) -> Result<Command, ApiError> {
    if path.ends_with("/void") {
        let SaleVoidBody { sale, reason } = read(body)?;
        return Ok(Command::Sell(Move::Void { sale, reason }));
    }
    let SaleBody {
        product,
        first,
        last,
        drawer,
    } = read(body)?;
    if product.len() > max::NAME * 4 {
        return Err(ApiError::Body(
            "field product: name a product of the night".into(),
        ));
    }
    let (first, last) = match (first, last, path.ends_with("/return")) {
        (Some(first), Some(last), _) => (first, last),
        (None, None, false) => return Ok(Command::Sell(Move::Pack { product, drawer })),
        _ => {
            return Err(ApiError::Body(
                "give the range sold or returned, first and last ({\"first\": 1, \"last\": 60}), or for an electronic pack neither".into(),
            ))
        }
    };
    Ok(Command::Sell(if path.ends_with("/return") {
        Move::Return {
            product,
            first,
            last,
        }
    } else {
        Move::Sale {
            product,
            first,
            last,
            drawer,
        }
    }))
}

/// `POST /api/cash/float` (`float`) or `/api/cash/count`: its body read.
pub(super) fn cash_command(float: bool, body: &[u8]) -> Result<Command, ApiError> {
    Ok(Command::Sell(cash_move(float, read(body)?)?))
}
