//! The API's contract, route by route, in-process through `Api::answer`
//! and the statuses the server gives its answers (no server, no spawned
//! binary): what each route takes, who may use it, the status it answers
//! and the reply's shape. Every
//! route of `ROUTES` must have its contract here (the last test checks
//! it), so a route added without one fails.

use bingomint::cardfile::CardFile;
use bingomint::hall::api::{Api, Request, ROUTES};
use bingomint::hall::judge::Cards;
use bingomint::hall::night::Night;
use bingomint::hall::shell::{Hall, LostSeed, Opening};
use bingomint::hall::{FileEntry, NightEntry};
use serde_json::{json, Value};
use std::cell::RefCell;

const KEY: &str = "0123456789abcdef0123456789abcdef";

const NIGHT: &str = r#"
title = "Contract night"
currency = "£"

[[product]]
name = "Book"
price = "6.00"
faces = 6
games = "all"

[[product]]
name = "E-pack"
price = "3.00"
faces = 6
electronic = true

[electronic]
faces = "91..120"
cap = 6

[[game]]
name = "Lines"
stages = ["line", "coverall"]
prize = ["10.00", "50.00"]

[[game]]
name = "Second"
pattern = "line"
prize = "5.00"
"#;

/// A hall over 120 cards in a folder of its own, behind its API: balls
/// from a blower (`blower`), else the hall's own draws.
struct Served {
    _dir: tempfile::TempDir,
    api: Api,
    /// The routes asked so far, as `METHOD path-pattern`.
    asked: RefCell<Vec<String>>,
}

fn served(blower: bool) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.bmc");
    let plan = bingomint::pipeline::file::Plan {
        force: true,
        ..bingomint::pipeline::file::Plan::new(
            bingomint::game::Spec::named("75").unwrap(),
            120,
            5,
            &out,
        )
    };
    bingomint::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
    let file = CardFile::open(&out).unwrap();
    let entry = FileEntry {
        path: out.display().to_string(),
        id: file.short_id(),
        sha256: bingomint::input::sha256_file(&out).unwrap(),
        count: 120,
        game: "75-ball".into(),
    };
    let night = Night::parse(NIGHT).unwrap();
    let night_entry = NightEntry {
        path: "night.toml".into(),
        sha256: bingomint::text::sha256_hex(NIGHT.as_bytes()),
        title: night.title.clone(),
        games: night.games.len(),
    };
    let opening = Opening {
        files: vec![entry],
        sold: None,
        lost: LostSeed::Refuse,
        night: Some((night, night_entry)),
        blower,
        night_changed: false,
        ledger: None,
        new_ledger: false,
        stock: None,
    };
    let cards = Cards::new(vec![file], None);
    let hall = Hall::open(cards, &dir.path().join("n.jsonl"), opening).unwrap();
    Served {
        _dir: dir,
        api: Api::new(hall, KEY.into(), "f".repeat(64)),
        asked: RefCell::new(Vec::new()),
    }
}

impl Served {
    /// `method path` with `body` (JSON) and the `auth` token; the status
    /// and the reply.
    fn ask(&self, method: &str, path: &str, auth: Option<&str>, body: Value) -> (u16, Value) {
        let pattern = match path.strip_prefix("/api/bingo/") {
            Some(_) => "/api/bingo/{id}",
            None => path,
        };
        self.asked.borrow_mut().push(format!("{method} {pattern}"));
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let bearer = auth.map(|k| format!("Bearer {k}"));
        let (status, body) = super::status::respond(self.api.answer(&Request {
            method,
            path,
            authorization: bearer.as_deref(),
            content_type: Some("application/json"),
            body: body.as_bytes(),
            client: Some([127, 0, 0, 9].into()),
        }));
        let reply = serde_json::from_str(&body).unwrap();
        (status, reply)
    }

    /// A caller's request.
    fn caller(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        self.ask(method, path, Some(KEY), body)
    }

    /// Face `card`'s numbers, as a phone adds it.
    fn numbers(&self, card: &str) -> Vec<u8> {
        let (status, v) = self.ask("POST", "/api/faces", None, json!({ "card": card }));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["cols"], 5, "{v}");
        (v["cells"].as_array().unwrap().iter())
            .map(|n| n.as_u64().unwrap() as u8)
            .collect()
    }
}

/// `GET /api/state`, `/api/night`, `/api/labels`, `/api/join`: anyone.
fn public_routes(s: &Served) {
    let (status, v) = s.ask("GET", "/api/state", None, Value::Null);
    assert_eq!((status, &v["balls"]), (200, &json!(75)), "{v}");
    assert!(v["game"].is_null(), "{v}");
    let (status, v) = s.ask("GET", "/api/night", None, Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["title"], "Contract night", "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2, "{v}");
    let (status, v) = s.ask("GET", "/api/labels", None, Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["labels"],
        json!([]),
        "a game of numbers has no labels: {v}"
    );
    let (status, v) = s.ask("GET", "/api/join", None, Value::Null);
    assert_eq!(status, 200, "{v}");
    assert!(v["players"].is_array() && v["qr"].is_array(), "{v}");
}

/// The caller's routes want the key; they sell, call, judge, void and
/// end.
fn caller_routes(s: &Served) {
    // No key, a wrong key: 401, nothing done.
    for auth in [None, Some("not-the-key")] {
        let (status, v) = s.ask("POST", "/api/games", auth, json!({}));
        assert_eq!(status, 401, "{v}");
    }
    assert!(s.ask("GET", "/api/state", None, Value::Null).1["game"].is_null());
    sale_routes(s);
    game_routes(s);
}

/// The session's money: sales, a return, a void, the head count.
fn sale_routes(s: &Served) {
    // Sales: a book of six faces sold, one returned whole, one voided.
    let sale = |path, first: u64, last: u64| {
        s.caller(
            "POST",
            path,
            json!({"product": "Book", "first": first, "last": last}),
        )
    };
    let (status, v) = sale("/api/sales", 1, 60);
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["made"]["event"], "sale", "{v}");
    assert_eq!(v["made"]["amount"], 6000, "{v}");
    assert_eq!(sale("/api/sales", 61, 66).0, 201);
    let (status, v) = sale("/api/sales/return", 55, 60);
    assert_eq!((status, &v["made"]["event"]), (201, &json!("sale_return")));
    let void = json!({"sale": 2, "reason": "keyed twice"});
    let (status, v) = s.caller("POST", "/api/sales/void", void);
    assert_eq!((status, &v["made"]["event"]), (201, &json!("sale_void")));
    let (status, v) = s.caller("POST", "/api/attendance", json!({"count": 30}));
    assert_eq!((status, &v["attendance"]), (201, &json!(30)), "{v}");
    let float = json!({"drawer": "Door", "amount": "10.00"});
    let (status, v) = s.caller("POST", "/api/cash/float", float);
    assert_eq!(
        (status, &v["made"]["event"]),
        (201, &json!("cash_float")),
        "{v}"
    );
    let count = json!({"drawer": "Door", "amount": "10.00"});
    let (status, v) = s.caller("POST", "/api/cash/count", count);
    assert_eq!((status, &v["made"]["over"]), (201, &json!(0)), "{v}");
    let (status, v) = s.caller("GET", "/api/sales", Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["sales"]["net"], 5400, "{v}");
    // A refused sale names why, with its status.
    let (status, v) = sale("/api/sales", 61, 64);
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("61"), "{v}");
}

/// A game: started, its balls keyed, a call recalled, a win paid and
/// voided, a card of no face, the end.
fn game_routes(s: &Served) {
    // The programme's next game, its balls keyed from the blower.
    let (status, v) = s.caller("POST", "/api/games", json!({}));
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["game"]["name"], "Lines", "{v}");
    let row: Vec<u8> = s.numbers("1")[..5].to_vec();
    for &ball in &row {
        let (status, v) = s.caller("POST", "/api/calls", json!({ "ball": ball }));
        assert_eq!((status, &v["ball"]), (201, &json!(ball)), "{v}");
    }
    // A blower's game takes no room seed; a ball twice is refused.
    let (status, v) = s.caller("POST", "/api/games/room-seed", json!({"room_seed": "x"}));
    assert_eq!(status, 409, "{v}");
    let (status, v) = s.caller("POST", "/api/calls", json!({ "ball": row[0] }));
    assert_eq!(status, 409, "{v}");
    // The last call taken back and keyed again.
    let (status, v) = s.caller("DELETE", "/api/calls/last", json!({}));
    assert_eq!((status, &v["recalled"]), (200, &json!(row[4])), "{v}");
    s.caller("POST", "/api/calls", json!({ "ball": row[4] }));
    // A claim on the row: judged, accepted, paid; then the payout voided.
    let (status, v) = s.caller("POST", "/api/claims", json!({"card": "1", "accept": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["accepted"], true, "{v}");
    assert_eq!(v["payout"]["shares"][0], "£10.00", "{v}");
    let void = json!({"reason": "misread"});
    let (status, v) = s.caller("POST", "/api/payouts/void", void);
    assert_eq!(status, 200, "{v}");
    assert!(v["game"]["payouts"].as_array().unwrap().is_empty(), "{v}");
    // A card of no face: 404, the claim still judged.
    let (status, v) = s.caller("POST", "/api/claims", json!({"card": "9999"}));
    assert_eq!(status, 404, "{v}");
    assert!(v["error"].is_string(), "{v}");
    // The end reveals no seed (the blower's).
    let (status, v) = s.caller("POST", "/api/games/end", json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["seed"], "", "{v}");
    assert!(v["state"]["game"].is_null(), "{v}");
}

/// A player's claim queues, is read back by its token alone, and is
/// decided from the console's queue.
fn player_routes(s: &Served) {
    s.caller(
        "POST",
        "/api/sales",
        json!({"product": "Book", "first": 1, "last": 12}),
    );
    s.caller("POST", "/api/games", json!({}));
    let row: Vec<u8> = s.numbers("2")[..5].to_vec();
    for &ball in &row {
        s.caller("POST", "/api/calls", json!({ "ball": ball }));
    }
    // An unsold face is not a player's to claim.
    let (status, v) = s.ask("POST", "/api/bingo", None, json!({"card": "100"}));
    assert_eq!(status, 409, "{v}");
    let (status, v) = s.ask("POST", "/api/bingo", None, json!({"card": "2"}));
    assert_eq!(status, 202, "{v}");
    let id = v["id"].as_u64().unwrap();
    let token = v["token"].as_str().unwrap().to_string();
    let (status, v) = s.ask("POST", "/api/bingo", None, json!({"card": "3"}));
    assert_eq!(status, 202, "{v}");
    // The standing is the phone's: its token reads it, no token does not.
    let path = format!("/api/bingo/{id}");
    let (status, v) = s.ask("GET", &path, None, Value::Null);
    assert_eq!(status, 401, "{v}");
    let (status, v) = s.ask("GET", &path, Some(&token), Value::Null);
    assert_eq!((status, &v["status"]), (200, &json!("waiting")), "{v}");
    // The console's queue, the claims that were no win rejected at once,
    // the win accepted from the queue.
    let (status, v) = s.caller("GET", "/api/queue", Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["queue"].as_array().unwrap().len(), 2, "{v}");
    let (status, v) = s.caller("POST", "/api/queue/reject", json!({}));
    assert_eq!((status, &v["rejected"]), (200, &json!(1)), "{v}");
    let (status, v) = s.caller("POST", "/api/claims", json!({"queued": id, "accept": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["accepted"], true, "{v}");
    let (_, v) = s.ask("GET", &path, Some(&token), Value::Null);
    assert_eq!(v["status"], "accepted", "{v}");
    pack_routes(s);
}

/// An electronic pack: issued at the console with its code, loaded once
/// on a phone (the cap holds a second off), the phone's packs read back.
fn pack_routes(s: &Served) {
    let (status, v) = s.caller("POST", "/api/sales", json!({"product": "E-pack"}));
    assert_eq!(status, 201, "{v}");
    let code = v["pack"]["code"].as_str().unwrap().to_string();
    assert_eq!(
        (v["made"]["first"].as_u64(), v["made"]["last"].as_u64()),
        (Some(91), Some(96)),
        "{v}"
    );
    let (_, v) = s.caller("POST", "/api/sales", json!({"product": "E-pack"}));
    let second = v["pack"]["code"].as_str().unwrap().to_string();
    let phone = "ab".repeat(16);
    let load = |code: &str, device: &str| {
        s.ask(
            "POST",
            "/api/packs/load",
            None,
            json!({"code": code, "device": device}),
        )
    };
    let (status, v) = load(&code, &phone);
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["faces"].as_array().unwrap().len(), 6, "{v}");
    let (status, v) = load(&code, &phone);
    assert_eq!(status, 409, "{v}");
    let (status, v) = load(&second, &phone);
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("cap of 6"), "{v}");
    let (status, v) = load("1-0000000000", &phone);
    assert_eq!(status, 404, "{v}");
    let (status, v) = load(&second, "not hex");
    assert_eq!(status, 400, "{v}");
    let (status, v) = s.ask("POST", "/api/packs", None, json!({"device": phone}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["packs"][0]["receipt"].as_array().unwrap().len(), 2, "{v}");
}

/// A game of the hall's own draws takes a room seed before its first
/// call, and its end reveals the seed committed to.
fn drawn_game(s: &Served) {
    let (status, v) = s.caller("POST", "/api/games", json!({"pattern": "line"}));
    assert_eq!(status, 201, "{v}");
    let commitment = v["game"]["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64, "{v}");
    let seed = json!({"room_seed": "table 4"});
    let (status, v) = s.caller("POST", "/api/games/room-seed", seed);
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["game"]["room_seed"], "table 4", "{v}");
    let (status, v) = s.caller("POST", "/api/calls", json!({}));
    assert_eq!(status, 201, "{v}");
    let ball = v["ball"].as_u64().unwrap();
    assert!((1..=75).contains(&ball), "{v}");
    // A ball keyed into a game the hall draws: refused.
    let (status, v) = s.caller("POST", "/api/calls", json!({"ball": 3}));
    assert_eq!(status, 400, "{v}");
    let (status, v) = s.caller("POST", "/api/games/end", json!({}));
    assert_eq!(status, 200, "{v}");
    let seed = v["seed"].as_str().unwrap();
    assert_eq!(bingomint::hall::commitment(seed), commitment);
}

#[test]
fn every_route_keeps_its_contract() {
    let blower = served(true);
    public_routes(&blower);
    caller_routes(&blower);
    let phones = served(true);
    player_routes(&phones);
    let drawn = served(false);
    drawn_game(&drawn);
    let asked: Vec<String> = [&blower, &phones, &drawn]
        .iter()
        .flat_map(|s| s.asked.borrow().clone())
        .collect();
    for route in ROUTES {
        let name = format!("{} {}", route.method, route.path);
        assert!(asked.contains(&name), "{name} has no contract here");
    }
}
