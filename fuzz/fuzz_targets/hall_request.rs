//! The hall's request handling that is the project's own (the HTTP itself
//! is hyper's): any bytes as the body of each route, any text as an
//! Authorization header. Nothing panics; a command made from a body is
//! refused only with 400, 404 or 405 and a message, a claim keeps its
//! reference as the text it was, and a game's rules are checked without a
//! panic.
#![no_main]

use bingomint::hall::api::{bearer, Command};
use libfuzzer_sys::fuzz_target;

const ROUTES: [(&str, &str); 13] = [
    ("POST", "/api/games"),
    ("POST", "/api/calls"),
    ("DELETE", "/api/calls/last"),
    ("POST", "/api/claims"),
    ("POST", "/api/games/end"),
    ("GET", "/api/state"),
    ("PUT", "/api/claims"),
    ("GET", "/nowhere"),
    ("POST", "/api/bingo"),
    ("POST", "/api/faces"),
    ("GET", "/api/queue"),
    ("GET", "/api/night"),
    // The rest of the input is the claim's number in the path.
    ("GET", "/api/bingo/"),
];

fuzz_target!(|data: &[u8]| {
    let [route, rest @ ..] = data else {
        return;
    };
    let (method, path) = ROUTES[usize::from(*route) % ROUTES.len()];
    let owned;
    let path = if path == "/api/bingo/" {
        owned = format!("{path}{}", String::from_utf8_lossy(rest));
        owned.as_str()
    } else {
        path
    };
    match Command::of(method, path, rest) {
        Ok(Command::Claim { card, queued, .. }) => {
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
        Err((status, message)) => {
            assert!(matches!(status, 400 | 404 | 405), "{status} {message}");
            assert!(!message.is_empty());
        }
    }
    if let Ok(header) = std::str::from_utf8(rest) {
        if let Some(token) = bearer(header) {
            assert!(header.len() > token.len());
        }
    }
});
