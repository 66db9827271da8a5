//! HTTP at the edge: the status of each answer of the hall's API, chosen
//! here from what the library answered (what a route did, or why it was
//! refused), and the answer's JSON with the refusal's advice in flags.

use bingomint::hall::api::{ApiError, Done, Reply};
use bingomint::hall::sales::ledger::LedgerError;
use bingomint::hall::sales::SaleError;
use bingomint::hall::stock::StockError;
use bingomint::hall::{HallError, Refusal};

/// The status and JSON body of what the API answered.
pub fn respond(answered: Result<(Done, Reply), ApiError>) -> (u16, String) {
    match answered {
        Ok((done, reply)) => (done_status(done, &reply), reply.json()),
        Err(e) => (api_status(&e), e.reply(Some(super::open::advice)).json()),
    }
}

/// A route's success: 201 for something made, 202 for a claim queued; a
/// claim whose reference names no face is 404 (the claim was logged, the
/// reason is the `error`).
fn done_status(done: Done, reply: &Reply) -> u16 {
    match (done, reply) {
        (_, Reply::Verdict { error: Some(_), .. }) => 404,
        (Done::Answered, _) => 200,
        (Done::Made, _) => 201,
        (Done::Queued, _) => 202,
    }
}

/// A refusal of the API's own (the request), or the hall's.
fn api_status(e: &ApiError) -> u16 {
    match e {
        ApiError::NotJson => 415,
        ApiError::NeedsKey | ApiError::NeedsToken => 401,
        ApiError::NoRoute(_)
        | ApiError::BadClaimNumber(_)
        | ApiError::NoNight
        | ApiError::NoClaim(_)
        | ApiError::NoPackCode => 404,
        ApiError::NoMethod { .. } => 405,
        ApiError::Body(_) | ApiError::Field(_) => 400,
        ApiError::Hall(e) => hall_status(e),
    }
}

/// A refusal, or the hall's files failing it: what the caller can mend
/// is 4xx, what the hall cannot write or read back is 500.
fn hall_status(e: &HallError) -> u16 {
    match e {
        HallError::Refused(r) => refusal_status(r),
        HallError::LedgerMissing { .. } | HallError::LedgerIsLog(_) => 400,
        HallError::Ledger {
            source: LedgerError::Refused { .. },
            ..
        } => 409,
        HallError::Stock {
            source: StockError::Refused(_),
            ..
        } => 409,
        HallError::Log(_)
        | HallError::Internal(_)
        | HallError::LogOpen(_)
        | HallError::BadLog { .. }
        | HallError::Ledger { .. }
        | HallError::Stock { .. } => 500,
        HallError::UnsafeSeed { .. }
        | HallError::WrongSeed { .. }
        | HallError::SeedLost { .. }
        | HallError::NightChanged { .. }
        | HallError::Replay { .. }
        | HallError::ProductsChanged => 409,
    }
}

/// A command refused: 400 for a request that cannot be read as asked,
/// 404 for something that is not there, 429 for a queue at its limit,
/// else 409 (a conflict with the night as it stands).
fn refusal_status(r: &Refusal) -> u16 {
    match r {
        Refusal::NoPattern
        | Refusal::Pattern { .. }
        | Refusal::OtherCard { .. }
        | Refusal::EmptyRoomSeed
        | Refusal::BadRoomSeed(_)
        | Refusal::Rules(_)
        | Refusal::NoSuchPrize { .. }
        | Refusal::NotBlower(_)
        | Refusal::BallNeeded(_)
        | Refusal::VoidReason
        | Refusal::Attendance(_)
        | Refusal::BallOutside { .. } => 400,
        Refusal::Sale(e) => sale_status(e),
        Refusal::NoFace(_) | Refusal::NoSuchGame { .. } => 404,
        Refusal::Flood(_) => 429,
        _ => 409,
    }
}

/// A sale refused: a conflict with what was sold or played, something
/// not there, or a request that cannot be read as a sale.
fn sale_status(e: &SaleError) -> u16 {
    match e {
        SaleError::SoldTwice { .. }
        | SaleError::SplitsUnits { .. }
        | SaleError::Started { .. }
        | SaleError::AllStarted { .. }
        | SaleError::NoDrawer(_)
        | SaleError::Floated(..)
        | SaleError::Counted(_)
        | SaleError::NotIssued { .. }
        | SaleError::Voided(_)
        | SaleError::NotNextPack { .. }
        | SaleError::PacksGone { .. }
        | SaleError::PackVoided(_)
        | SaleError::Loaded { .. }
        | SaleError::DeviceCap { .. }
        | SaleError::PackFace { .. }
        | SaleError::OtherDevice { .. } => 409,
        SaleError::NoSale(_) | SaleError::NoProduct(..) | SaleError::NoPack(_) => 404,
        _ => 400,
    }
}
