//! The hall's API, apart from any server: what each method and path does
//! ([`Command`], read strictly from the body), the console key, the pages'
//! files, and the limits a server of it keeps. `bingomint hall` serves it
//! (over HTTP or TLS); a route there is a call of [`Api::answer`].

use super::money::parse_amount;
use super::rules::{shown_field, Jackpot, Plan, Rules, Share};
use super::{Hall, HallError};
use crate::shown::max;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Largest request body: a claim or a game's settings.
pub const MAX_BODY: usize = 16 * 1024;
/// Connections at once from one address (a phone, the projector's laptop):
/// one client cannot take the slots everyone else needs.
pub const MAX_PER_ADDRESS: usize = 64;
/// A request's head must arrive within this, and its body within as long
/// again; an idle kept-alive connection is closed after it.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// A page or a file of one: its content type and text, for `path`.
pub fn page(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path == "/" { "/board" } else { path };
    PAGES
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|&(_, kind, text)| (kind, text))
}

/// The pages and their files: (path, content type, bytes). Scripts and
/// styles are files of their own, so the Content-Security-Policy can allow
/// the hall's own files and no inline script at all.
const PAGES: [(&str, &str, &str); 10] = [
    ("/console", HTML, include_str!("pages/console.html")),
    ("/console.js", JS, include_str!("pages/console.js")),
    ("/console.css", CSS, include_str!("pages/console.css")),
    ("/board", HTML, include_str!("pages/board.html")),
    ("/board.js", JS, include_str!("pages/board.js")),
    ("/board.css", CSS, include_str!("pages/board.css")),
    ("/play", HTML, include_str!("pages/play.html")),
    ("/play.js", JS, include_str!("pages/play.js")),
    ("/play.css", CSS, include_str!("pages/play.css")),
    ("/speech.js", JS, include_str!("pages/speech.js")),
];
const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// `POST /api/games`: the programme's next game (`{}`), its game K
/// (`{"game": K}`), or a game as asked: a pattern, stages in order, or
/// prizes open at once, with the special games' keys of a night file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: Option<usize>,
    pattern: Option<String>,
    stages: Option<Vec<String>>,
    prizes: Option<Vec<PrizeBody>>,
    #[serde(default)]
    prize: String,
    #[serde(default)]
    last_call_must_complete: bool,
    name: Option<String>,
    paper: Option<String>,
    jackpot: Option<JackpotBody>,
    #[serde(default)]
    precalls: usize,
    #[serde(default)]
    wild: bool,
    /// Who shares a prize: `claimed` (the default) or `all-holders`.
    share: Option<Share>,
}

/// A prize of a game whose prizes are open at once.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PrizeBody {
    pattern: String,
    prize: Option<String>,
}

/// A jackpot: amounts as decimal text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JackpotBody {
    within: usize,
    prize: String,
    consolation: Option<String>,
}

/// `POST /api/calls`: nothing, or the ball a blower drew.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallBody {
    ball: Option<u64>,
}

/// `POST /api/claims`: a card, or a player's claim waiting in the queue.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    card: Option<String>,
    #[serde(default)]
    accept: bool,
    queued: Option<u64>,
    /// The prize claimed, in a game of prizes open at once.
    prize: Option<String>,
}

/// `POST /api/games/room-seed`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Room {
    room_seed: String,
}

/// `POST /api/bingo` and `POST /api/faces`: a face, by any reference.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Card {
    card: String,
}

/// The body of a request that takes none (`{}` or nothing).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// Reads a JSON body as `T`; an empty body is `{}`. A missing, unknown or
/// mistyped field is refused with 400 naming it.
fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, (u16, String)> {
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        bytes
    };
    let refused = |message: String| (400, message);
    // serde reads a struct from an array too (`["4711", true]` as a
    // claim); the API's bodies are objects, named fields only.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(refused(
            "the body must be a JSON object, such as {\"card\": \"4711\"}".into(),
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = e.path().to_string();
        let why = e.into_inner();
        refused(if at == "." {
            format!("the body is not the JSON this takes: {why}")
        } else {
            format!("field {at}: {why}")
        })
    })?;
    de.end()
        .map_err(|e| refused(format!("the body is not the JSON this takes: {e}")))?;
    Ok(value)
}

/// Whether `given` is `key`, in time that does not depend on where they
/// differ.
fn same_key(given: &str, key: &str) -> bool {
    let (a, b) = (given.as_bytes(), key.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The token of an `Authorization: Bearer TOKEN` header (the scheme in any
/// case).
pub fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The hall behind the API: its state and the console's key.
pub struct Api {
    hall: Mutex<Hall>,
    key: String,
    /// What players' claim tokens are made with ([`super::secret::claim_token`]).
    claims_key: String,
}

type Reply = (u16, Value);

/// What a request answers.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    /// The state after the request, when it changed what the pages show
    /// (for the live streams); None when nothing they show changed.
    pub changed: Option<Arc<String>>,
}

/// A request, as the server read it.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// The Authorization header, if any.
    pub authorization: Option<&'a str>,
    /// The Content-Type header, if any.
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    /// The client's address (for the caps on players' claims).
    pub client: Option<IpAddr>,
}

/// Whether a Content-Type header names JSON (`application/json`, in any
/// case, with or without parameters).
fn is_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|t| {
        let kind = t.split(';').next().unwrap_or("").trim();
        kind.eq_ignore_ascii_case("application/json")
    })
}

/// Whether `method path` is the caller's: it changes the game, or reads
/// the queue.
fn needs_key(method: &str, path: &str) -> bool {
    path == "/api/queue" || (CALLERS.contains(&path) && method != "GET")
}

impl Api {
    pub fn new(hall: Hall, key: String, claims_key: String) -> Api {
        Api {
            hall: Mutex::new(hall),
            key,
            claims_key,
        }
    }

    fn hall(&self) -> std::sync::MutexGuard<'_, Hall> {
        self.hall.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state the pages show, as JSON text.
    pub fn state_text(&self) -> String {
        serde_json::to_string(&self.hall().state()).expect("the state is JSON")
    }

    /// Answers `request`.
    pub fn answer(&self, request: Request) -> Answer {
        let fail = |status: u16, message: &str| Answer {
            status,
            body: json!({ "error": message }),
            changed: None,
        };
        // A page of another site can send a "simple" cross-site request
        // (text/plain, a form) without asking; it cannot send JSON. So no
        // request that changes anything is taken without it.
        if request.method != "GET" && !is_json(request.content_type) {
            return fail(
                415,
                "send the body as JSON, with the header Content-Type: application/json",
            );
        }
        if needs_key(request.method, request.path) {
            let given = request.authorization.and_then(bearer);
            if !given.is_some_and(|g| same_key(g, &self.key)) {
                return fail(401, "this needs the console's key: header Authorization: Bearer KEY (the key is in the console's address)");
            }
        }
        let command = match Command::of(request.method, request.path, request.body) {
            Ok(command) => command,
            Err((status, message)) => return fail(status, &message),
        };
        // A claim's standing is its phone's: read with the token the phone
        // was given (or the console's key), so no one walks the ids.
        if let Command::Status(id) = command {
            let given = request.authorization.and_then(bearer).unwrap_or("");
            let token = super::secret::claim_token(&self.claims_key, id);
            let known = self.hall().status(id).is_some();
            if known && !same_key(given, &token) && !same_key(given, &self.key) {
                return fail(401, "a claim's standing is read with the token its phone was given: header Authorization: Bearer TOKEN");
            }
        }
        // The pages follow changes of the game. A claim checked and not
        // accepted changes nothing they show (the console reads its own
        // verdict), nor does a player's claim joining the queue (the
        // console reads the queue): the viewers are not woken for them.
        let moves = matches!(
            command,
            Command::Start(_)
                | Command::Planned(_)
                | Command::Call(_)
                | Command::Recall
                | Command::End
        ) || matches!(command, Command::Claim { accept: true, .. });
        let mut hall = self.hall();
        let bingo = matches!(command, Command::Bingo { .. });
        let (status, mut body) = match answer(&mut hall, command, request.client) {
            Ok(reply) | Err(reply) => reply,
        };
        if let (true, Some(id)) = (bingo && status < 300, body["id"].as_u64()) {
            body["token"] = json!(super::secret::claim_token(&self.claims_key, id));
        }
        let accepted = body["accepted"] != json!(false);
        let changed = (moves && accepted && status < 300)
            .then(|| Arc::new(serde_json::to_string(&hall.state()).expect("the state is JSON")));
        Answer {
            status,
            body,
            changed,
        }
    }
}

/// What a request asks of the hall, read and checked from its method,
/// path and body before the hall is touched.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    State,
    /// A game as asked.
    Start(Box<Plan>),
    /// The programme's game K, or its next.
    Planned(Option<usize>),
    /// The night's programme.
    Night,
    /// The room's seed for the open game's order.
    RoomSeed {
        text: String,
    },
    Call(Option<u8>),
    Recall,
    End,
    /// The caller's claim: a card, or a queued claim decided.
    Claim {
        card: Option<String>,
        accept: bool,
        queued: Option<u64>,
        prize: Option<String>,
    },
    /// A player's claim, to the queue.
    Bingo {
        card: String,
    },
    /// The queue, for the console.
    Queue,
    /// Every waiting claim that was not a win, rejected at once.
    RejectNotWins,
    /// Where a player's claim stands.
    Status(u64),
    /// A face, as a phone adds it.
    Face {
        card: String,
    },
    /// An items game's labels (none for numbers).
    Labels,
}

/// The API's paths (a claim's standing is `/api/bingo/ID`): the state,
/// then the caller's ([`CALLERS`]), then the players' and the queue.
const PATHS: [&str; 13] = [
    "/api/state",
    "/api/night",
    "/api/labels",
    "/api/games",
    "/api/games/room-seed",
    "/api/calls",
    "/api/calls/last",
    "/api/claims",
    "/api/games/end",
    "/api/queue/reject",
    "/api/bingo",
    "/api/queue",
    "/api/faces",
];

/// The paths that change the game: they need the console's key.
const CALLERS: &[&str] = PATHS.split_at(10).0.split_at(3).1;

/// The longest reference a phone may send (a QR text is about 30).
const MAX_CARD: usize = 200;

impl Command {
    /// The command `method path` with `body` makes; a refusal (404, 405,
    /// or 400 naming the field) otherwise.
    pub fn of(method: &str, path: &str, body: &[u8]) -> Result<Command, (u16, String)> {
        if let Some(id) = path.strip_prefix("/api/bingo/") {
            let id = id.parse().map_err(|_| {
                (404, format!("no claim {id:?}: a claim's number is a whole number, as POST /api/bingo answered"))
            })?;
            return match method {
                "GET" => Ok(Command::Status(id)),
                _ => Err((405, format!("{method} is not a method of {path}"))),
            };
        }
        let card = |body: &[u8]| -> Result<String, (u16, String)> {
            let Card { card } = read(body)?;
            if card.len() > MAX_CARD {
                return Err((
                    400,
                    format!(
                        "field card: over {MAX_CARD} bytes; send the number printed on the card"
                    ),
                ));
            }
            Ok(card)
        };
        let command = match (method, path) {
            ("GET", "/api/state") => Command::State,
            ("GET", "/api/night") => Command::Night,
            ("GET", "/api/labels") => Command::Labels,
            ("POST", "/api/games") => new_game(read(body)?)?,
            ("POST", "/api/calls") => {
                let CallBody { ball } = read(body)?;
                let ball = match ball {
                    Some(b) => Some(u8::try_from(b).map_err(|_| {
                        (400, format!("field ball: {b} is not a number of any game"))
                    })?),
                    None => None,
                };
                Command::Call(ball)
            }
            ("POST", "/api/games/end") | ("DELETE", "/api/calls/last") => {
                let Nothing {} = read(body)?;
                match method {
                    "DELETE" => Command::Recall,
                    _ => Command::End,
                }
            }
            ("POST", "/api/claims") => {
                let claim: Claim = read(body)?;
                if claim.card.is_none() && claim.queued.is_none() {
                    return Err((400, "give the card claimed, {\"card\": \"4711\"}, or a queued claim, {\"queued\": 17}".into()));
                }
                Command::Claim {
                    card: claim.card,
                    accept: claim.accept,
                    queued: claim.queued,
                    prize: claim.prize,
                }
            }
            ("POST", "/api/games/room-seed") => {
                let Room { room_seed } = read(body)?;
                Command::RoomSeed { text: room_seed }
            }
            ("POST", "/api/bingo") => Command::Bingo { card: card(body)? },
            ("POST", "/api/faces") => Command::Face { card: card(body)? },
            ("GET", "/api/queue") => Command::Queue,
            ("POST", "/api/queue/reject") => {
                let Nothing {} = read(body)?;
                Command::RejectNotWins
            }
            (_, path) if PATHS.contains(&path) => {
                return Err((405, format!("{method} is not a method of {path}")))
            }
            _ => return Err((404, format!("no page or API at {path}"))),
        };
        Ok(command)
    }
}

/// `value` as JSON.
fn to_json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("the hall's answers are JSON")
}

/// What a request to the API answers.
fn answer(hall: &mut Hall, command: Command, client: Option<IpAddr>) -> Result<Reply, Reply> {
    let reply = match command {
        Command::State => (200, to_json(hall.state())),
        Command::Start(plan) => {
            hall.start(*plan).map_err(refusal)?;
            (201, to_json(hall.state()))
        }
        Command::Planned(number) => {
            let plan = hall.planned(number).map_err(refusal)?;
            hall.start(plan).map_err(refusal)?;
            (201, to_json(hall.state()))
        }
        Command::Labels => (200, to_json(hall.labels())),
        Command::Night => match hall.night_shown() {
            Some(night) => (200, to_json(night)),
            None => (
                404,
                json!({ "error": "the hall has no night file: start it with --night FILE" }),
            ),
        },
        Command::RoomSeed { text } => {
            hall.room_seed(&text).map_err(refusal)?;
            (201, to_json(hall.state()))
        }
        Command::Call(ball) => {
            let ball = hall.call(ball).map_err(refusal)?;
            (201, json!({ "ball": ball, "state": hall.state() }))
        }
        Command::Recall => {
            let ball = hall.recall().map_err(refusal)?;
            (200, json!({ "recalled": ball, "state": hall.state() }))
        }
        Command::End => {
            let seed = hall.end().map_err(refusal)?;
            (200, json!({ "seed": seed, "state": hall.state() }))
        }
        Command::Claim {
            card,
            accept,
            queued,
            prize,
        } => {
            let verdict = hall
                .claim(card.as_deref(), accept, queued, prize.as_deref())
                .map_err(refusal)?;
            // A reference that names no face of the hall's files: 404, the
            // claim still logged (it was made), the reason as the error.
            let status = if verdict.found { 200 } else { 404 };
            let mut body = to_json(&verdict);
            if !verdict.found {
                body["error"] = json!(verdict.reason);
            }
            (status, body)
        }
        Command::Bingo { card } => (202, to_json(hall.bingo(&card, client).map_err(refusal)?)),
        Command::Queue => (200, json!({ "queue": hall.waiting() })),
        Command::RejectNotWins => {
            let rejected = hall.reject_not_wins().map_err(refusal)?;
            (
                200,
                json!({ "rejected": rejected, "queue": hall.waiting() }),
            )
        }
        Command::Status(id) => match hall.status(id) {
            Some(status) => (200, to_json(status)),
            None => (
                404,
                json!({ "error": format!("no claim {id} is known to the hall") }),
            ),
        },
        Command::Face { card } => (200, to_json(hall.face(&card).map_err(refusal)?)),
    };
    Ok(reply)
}

/// A refusal of the hall as an HTTP answer.
fn refusal(e: HallError) -> Reply {
    (e.status(), json!({ "error": e.to_string() }))
}

/// An amount of `field`, as text.
fn money(field: &str, text: &str) -> Result<u64, (u16, String)> {
    parse_amount(text).map_err(|e| (400, format!("field {field}: {e}")))
}

/// Prizes open at once: their patterns, and their amounts (all or none:
/// `Rules::check` counts them).
fn prizes_of(prizes: Vec<PrizeBody>) -> Result<(Vec<String>, Vec<u64>), (u16, String)> {
    let amounts = (prizes.iter().enumerate())
        .filter_map(|(k, p)| (p.prize.as_ref()).map(|a| money(&format!("prizes[{k}].prize"), a)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((prizes.into_iter().map(|p| p.pattern).collect(), amounts))
}

/// A jackpot's amounts, read; without a consolation, the last stage's own
/// amount (`last`) is paid after the jackpot's calls, as a night file's.
fn jackpot_of(j: JackpotBody, last: Option<u64>) -> Result<Jackpot, (u16, String)> {
    Ok(Jackpot {
        within: j.within,
        prize: money("jackpot.prize", &j.prize)?,
        consolation: match &j.consolation {
            Some(c) => money("jackpot.consolation", c)?,
            None => last.unwrap_or(0),
        },
    })
}

/// The game a `POST /api/games` body asks for.
fn new_game(new: NewGame) -> Result<Command, (u16, String)> {
    let asked = new.pattern.is_some() || new.stages.is_some() || new.prizes.is_some();
    if !asked {
        let alone = new.prize.is_empty()
            && !new.last_call_must_complete
            && new.name.is_none()
            && new.paper.is_none()
            && new.jackpot.is_none()
            && new.precalls == 0
            && !new.wild
            && new.share.is_none();
        if !alone {
            return Err((400, "give the game's pattern, stages or prizes, or {} for the programme's next game, or {\"game\": K} for its game K, alone".into()));
        }
        return Ok(Command::Planned(new.game));
    }
    if new.game.is_some() {
        return Err((
            400,
            "give game K (the programme's) or a pattern, not both".into(),
        ));
    }
    let (stages, amounts, concurrent) = match (new.pattern, new.stages, new.prizes) {
        (Some(p), None, None) => (vec![p], Vec::new(), false),
        (None, Some(list), None) => (list, Vec::new(), false),
        (None, None, Some(prizes)) => {
            let (stages, amounts) = prizes_of(prizes)?;
            (stages, amounts, true)
        }
        _ => {
            return Err((
                400,
                "give pattern or stages, not both (or prizes, alone)".into(),
            ))
        }
    };
    let last = amounts.last().copied();
    let jackpot = new.jackpot.map(|j| jackpot_of(j, last)).transpose()?;
    let shown = |field: &str, text: &str, most: usize| {
        shown_field(field, text, most).map_err(|e| (400, e.to_string()))
    };
    let optional = |field: &str, text: Option<String>| {
        (text.as_deref())
            .map(|t| shown(field, t, max::NAME))
            .transpose()
    };
    Ok(Command::Start(Box::new(Plan {
        stages,
        prize: shown("prize", &new.prize, max::PRIZE)?,
        last_call: new.last_call_must_complete,
        rules: Rules {
            name: optional("name", new.name)?,
            paper: optional("paper", new.paper)?,
            amounts,
            concurrent,
            jackpot,
            precalls: new.precalls,
            wild: new.wild,
            share: new.share.unwrap_or(Share::Claimed),
            ..Rules::default()
        },
    })))
}
