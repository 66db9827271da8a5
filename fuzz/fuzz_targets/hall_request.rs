//! The hall's request handling that is the project's own (the HTTP itself
//! is hyper's): any bytes as the body of each route, any text as an
//! Authorization header, every route read from the server's own table.
//! Nothing panics; a command made from a body is
//! refused only with 400, 404 or 405 and a message, a claim keeps its
//! reference as the text it was, and a game's rules are checked without a
//! panic.
#![no_main]

use bingomint::hall::api::{bearer, Access, ApiError, Command, Route, ROUTES};
use bingomint::hall::books::ClaimAsked;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else {
        return;
    };
    // Every route of the server's own table, a method a path does not
    // take, and a path of none.
    let (method, path) = match usize::from(*pick) % (ROUTES.len() + 2) {
        k if k < ROUTES.len() => (ROUTES[k].method, ROUTES[k].path),
        k if k == ROUTES.len() => ("PUT", "/api/claims"),
        _ => ("GET", "/nowhere"),
    };
    // A route's `{id}`: the rest of the input is the claim's number.
    let owned;
    let path = match path.strip_suffix("{id}") {
        Some(prefix) => {
            owned = format!("{prefix}{}", String::from_utf8_lossy(rest));
            owned.as_str()
        }
        None => path,
    };
    // The table answers the route asked for, and what anyone may use only
    // reads.
    if let Ok(route) = Route::of(method, path) {
        assert_eq!(route.method, method);
        assert!(route.access != Access::Public || method == "GET");
    }
    match Command::of(method, path, rest) {
        Ok(Command::Claim(ClaimAsked { card, queued, .. })) => {
            let body: serde_json::Value = serde_json::from_slice(rest).expect("a claim was JSON");
            assert_eq!(body["card"].as_str(), card.as_deref());
            assert!(card.is_some() || queued.is_some());
        }
        Ok(Command::Bingo { card } | Command::Face { card }) => {
            let body: serde_json::Value = serde_json::from_slice(rest).expect("a claim was JSON");
            assert_eq!(body["card"].as_str(), Some(card.as_str()));
            assert!(card.len() <= 200);
        }
        // The number the path names (as u64 reads it: `08` and `+8` are 8).
        Ok(Command::Status(id)) => {
            assert_eq!(path["/api/bingo/".len()..].parse::<u64>().ok(), Some(id))
        }
        // A game as asked: text bounded, and its rules checked against
        // every game without a panic (a huge precalls or jackpot is refused).
        Ok(Command::Start(plan)) => {
            assert!(plan.prize.chars().count() <= 200);
            for text in [&plan.rules.name, &plan.rules.paper].into_iter().flatten() {
                assert!(text.chars().count() <= 80);
            }
            for game in ["75", "80", "90"] {
                let spec = bingomint::game::Spec::named(game).unwrap();
                if plan.check(spec).is_ok() {
                    assert!(plan.rules.precalls < usize::from(spec.balls()));
                }
            }
        }
        Ok(_) => {}
        Err(refused) => {
            // A body, path or method the API does not take: never the
            // hall's refusal (nothing was asked of it yet).
            assert!(
                matches!(
                    refused,
                    ApiError::Body(_)
                        | ApiError::Field(_)
                        | ApiError::NoRoute(_)
                        | ApiError::NoMethod { .. }
                        | ApiError::BadClaimNumber(_)
                ),
                "{refused:?}"
            );
            assert!(!refused.to_string().is_empty());
        }
    }
    if let Ok(header) = std::str::from_utf8(rest) {
        if let Some(token) = bearer(header) {
            assert!(header.len() > token.len());
        }
    }
});
