//! The hall's request handling: any bytes as an HTTP request (request line,
//! headers, Content-Length, body), and any bytes as the JSON body of each
//! route. Nothing panics; a request read is within the bounds; a command
//! made from one is refused only with 400, 404 or 405, and a claim keeps
//! its reference as the text it was.
#![no_main]

use bingomint::hall::api::Command;
use bingomint::hall::http::{parse_request, Request, MAX_BODY};
use libfuzzer_sys::fuzz_target;

const ROUTES: [(&str, &str); 6] = [
    ("POST", "/api/games"),
    ("POST", "/api/calls"),
    ("DELETE", "/api/calls/last"),
    ("POST", "/api/claims"),
    ("POST", "/api/games/end"),
    ("GET", "/api/state"),
];

fn judged(request: &Request) {
    match Command::of(request) {
        Ok(Command::Claim { card, .. }) => {
            let body: serde_json::Value =
                serde_json::from_slice(&request.body).expect("a claim was JSON");
            assert_eq!(body["card"].as_str(), Some(card.as_str()));
        }
        Ok(Command::Start { prize, .. }) => {
            assert!(prize.chars().count() <= 200);
        }
        Ok(_) => {}
        Err((status, message)) => {
            assert!(matches!(status, 400 | 404 | 405), "{status} {message}");
            assert!(!message.is_empty());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, rest @ ..] = data else {
        return;
    };
    if *mode < 128 {
        // The whole request from the wire.
        let mut source = rest;
        if let Ok(request) = parse_request(&mut source) {
            assert!(request.body.len() <= MAX_BODY);
            judged(&request);
        }
    } else {
        // A body for one route.
        let (method, path) = ROUTES[usize::from(*mode) % ROUTES.len()];
        let request = Request {
            method: method.into(),
            path: path.into(),
            headers: vec![],
            body: rest.to_vec(),
            peer: None,
        };
        judged(&request);
    }
});
