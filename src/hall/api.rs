//! The hall's API, apart from any server: what each method and path does
//! ([`Command`], read strictly from the body), the console key, the pages'
//! files, and the limits a server of it keeps. `bingomint hall` serves it
//! (over HTTP or TLS); a route there is a call of [`Api::answer`].

use super::{Hall, HallError};
use serde::Deserialize;
use serde_json::{json, Value};
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
const PAGES: [(&str, &str, &str); 6] = [
    ("/console", HTML, include_str!("pages/console.html")),
    ("/console.js", JS, include_str!("pages/console.js")),
    ("/console.css", CSS, include_str!("pages/console.css")),
    ("/board", HTML, include_str!("pages/board.html")),
    ("/board.js", JS, include_str!("pages/board.js")),
    ("/board.css", CSS, include_str!("pages/board.css")),
];
const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// `POST /api/games`: a pattern, or stages in order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    pattern: Option<String>,
    stages: Option<Vec<String>>,
    #[serde(default)]
    prize: String,
    #[serde(default)]
    last_call_must_complete: bool,
}

/// `POST /api/claims`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    card: String,
    #[serde(default)]
    accept: bool,
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

/// The paths that change the hall, and so need the console's key.
const WRITES: [&str; 5] = [
    "/api/games",
    "/api/calls",
    "/api/calls/last",
    "/api/claims",
    "/api/games/end",
];

impl Api {
    pub fn new(hall: Hall, key: String) -> Api {
        Api {
            hall: Mutex::new(hall),
            key,
        }
    }

    fn hall(&self) -> std::sync::MutexGuard<'_, Hall> {
        self.hall.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state the pages show, as JSON text.
    pub fn state_text(&self) -> String {
        self.hall().state().to_string()
    }

    /// Answers `method path` with `body`; `authorization` is the request's
    /// Authorization header, if any.
    pub fn answer(
        &self,
        method: &str,
        path: &str,
        authorization: Option<&str>,
        body: &[u8],
    ) -> Answer {
        let fail = |status: u16, message: &str| Answer {
            status,
            body: json!({ "error": message }),
            changed: None,
        };
        if WRITES.contains(&path) && method != "GET" {
            let given = authorization.and_then(bearer);
            if !given.is_some_and(|g| same_key(g, &self.key)) {
                return fail(401, "this needs the console's key: header Authorization: Bearer KEY (the key is in the console's address)");
            }
        }
        let command = match Command::of(method, path, body) {
            Ok(command) => command,
            Err((status, message)) => return fail(status, &message),
        };
        let mut hall = self.hall();
        let writes = command != Command::State;
        let (status, body) = match answer(&mut hall, command) {
            Ok(reply) | Err(reply) => reply,
        };
        // The pages follow changes of the game; a claim checked and not
        // accepted changes nothing they show (the console reads its own
        // verdict), so the viewers are not woken for it.
        let claim_only = path == "/api/claims" && body["accepted"] != json!(true);
        let changed =
            (writes && !claim_only && status < 300).then(|| Arc::new(hall.state().to_string()));
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
    Start {
        stages: Vec<String>,
        prize: String,
        last_call: bool,
    },
    Call,
    Recall,
    End,
    Claim {
        card: String,
        accept: bool,
    },
}

impl Command {
    /// The command `method path` with `body` makes; a refusal (404, 405,
    /// or 400 naming the field) otherwise.
    pub fn of(method: &str, path: &str, body: &[u8]) -> Result<Command, (u16, String)> {
        let command = match (method, path) {
            ("GET", "/api/state") => Command::State,
            ("POST", "/api/games") => {
                let new: NewGame = read(body)?;
                Command::Start {
                    stages: stages(new.pattern, new.stages).map_err(|m| (400, m))?,
                    prize: new.prize.chars().take(200).collect(),
                    last_call: new.last_call_must_complete,
                }
            }
            ("POST", "/api/calls" | "/api/games/end") | ("DELETE", "/api/calls/last") => {
                let Nothing {} = read(body)?;
                match method {
                    "DELETE" => Command::Recall,
                    _ if path == "/api/calls" => Command::Call,
                    _ => Command::End,
                }
            }
            ("POST", "/api/claims") => {
                let claim: Claim = read(body)?;
                Command::Claim {
                    card: claim.card,
                    accept: claim.accept,
                }
            }
            (
                _,
                "/api/state" | "/api/games" | "/api/calls" | "/api/calls/last" | "/api/claims"
                | "/api/games/end",
            ) => return Err((405, format!("{method} is not a method of {path}"))),
            _ => return Err((404, format!("no page or API at {path}"))),
        };
        Ok(command)
    }
}

/// What a request to the API answers, and what it changed.
fn answer(hall: &mut Hall, command: Command) -> Result<Reply, Reply> {
    let reply = match command {
        Command::State => (200, hall.state()),
        Command::Start {
            stages,
            prize,
            last_call,
        } => {
            hall.start(stages, prize, last_call).map_err(refusal)?;
            (201, hall.state())
        }
        Command::Call => {
            let ball = hall.call().map_err(refusal)?;
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
        Command::Claim { card, accept } => {
            let verdict = hall.claim(&card, accept).map_err(refusal)?;
            // A reference that names no face of the hall's files: 404, the
            // claim still logged (it was made), the reason as the error.
            if verdict["found"] == json!(false) {
                let mut v = verdict;
                v["error"] = v["reason"].clone();
                (404, v)
            } else {
                (200, verdict)
            }
        }
    };
    Ok(reply)
}

/// A refusal of the hall as an HTTP answer.
fn refusal(e: HallError) -> Reply {
    let status = match e {
        HallError::Conflict(_) => 409,
        HallError::Bad(_) => 400,
        HallError::Log(_) => 500,
    };
    (status, json!({ "error": e.to_string() }))
}

/// A game's stages from `{"pattern": "line"}` or `{"stages": [...]}`.
fn stages(pattern: Option<String>, stages: Option<Vec<String>>) -> Result<Vec<String>, String> {
    match (pattern, stages) {
        (Some(_), Some(_)) => Err("give pattern or stages, not both".into()),
        (Some(p), None) => Ok(vec![p]),
        (None, Some(list)) => Ok(list),
        (None, None) => Err("give the game's pattern: {\"pattern\": \"line\"} or {\"stages\": [\"one-line\", \"two-lines\", \"full-house\"]}".into()),
    }
}
