//! The hall's HTTP API and pages: what each path does, the console key,
//! and the live stream of the state to every page (server-sent events).

use super::http::{respond, Request};
use super::{Hall, HallError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Reply> {
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        bytes
    };
    let refused = |message: String| (400, json!({ "error": message }));
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
fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The hall behind the API: its state, the console's key, the viewers.
pub struct Api {
    pub hall: Mutex<Hall>,
    pub key: String,
    viewers: Mutex<Vec<Sender<Arc<String>>>>,
}

type Reply = (u16, Value);

impl Api {
    pub fn new(hall: Hall, key: String) -> Api {
        Api {
            hall: Mutex::new(hall),
            key,
            viewers: Mutex::new(Vec::new()),
        }
    }

    fn hall(&self) -> std::sync::MutexGuard<'_, Hall> {
        self.hall.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Answers one request.
    pub fn handle(&self, request: Request, mut stream: TcpStream) {
        let (method, path) = (request.method.as_str(), request.path.as_str());
        let path = if path == "/" { "/board" } else { path };
        if method == "GET" {
            if let Some((_, kind, page)) = PAGES.iter().find(|(p, ..)| *p == path) {
                let _ = respond(&mut stream, 200, kind, page.as_bytes());
                return;
            }
        }
        if (method, path) == ("GET", "/api/events") {
            return self.stream_events(stream);
        }
        let (status, body) = match self.route(&request) {
            Ok(reply) | Err(reply) => reply,
        };
        let _ = respond(
            &mut stream,
            status,
            "application/json",
            body.to_string().as_bytes(),
        );
    }

    fn route(&self, request: &Request) -> Result<Reply, Reply> {
        let fail = |status: u16, message: &str| (status, json!({ "error": message }));
        let writes = [
            "/api/games",
            "/api/calls",
            "/api/calls/last",
            "/api/claims",
            "/api/games/end",
        ];
        if writes.contains(&request.path.as_str()) && request.method != "GET" {
            let given = request.header("authorization").and_then(bearer);
            if !given.is_some_and(|g| same_key(g, &self.key)) {
                return Err(fail(401, "this needs the console's key: header Authorization: Bearer KEY (the key is in the console's address)"));
            }
        }
        let mut hall = self.hall();
        let reply = answer(&mut hall, request)?;
        // The pages follow changes of the game; a claim checked and not
        // accepted changes nothing they show (the console reads its own
        // verdict), so the viewers are not woken for it.
        let claim_only = request.path == "/api/claims" && reply.1["accepted"] != json!(true);
        if request.method != "GET" && !claim_only {
            let state = Arc::new(hall.state().to_string());
            drop(hall);
            self.publish(state);
        }
        Ok(reply)
    }

    /// Sends the state to every viewer still listening.
    fn publish(&self, state: Arc<String>) {
        let mut viewers = self.viewers.lock().unwrap_or_else(|e| e.into_inner());
        viewers.retain(|v| v.send(state.clone()).is_ok());
    }

    fn stream_events(&self, mut stream: TcpStream) {
        let (tx, rx) = channel();
        // Listen first, then read the state: no change falls between.
        self.viewers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tx);
        let first = self.hall().state().to_string();
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                    Connection: close\r\n\r\nretry: 1000\n\n";
        let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
        let _ = stream.set_nodelay(true);
        if stream
            .write_all(head.as_bytes())
            .and_then(|()| event(&mut stream, &first))
            .is_err()
        {
            return;
        }
        loop {
            let sent = match rx.recv_timeout(Duration::from_secs(15)) {
                Ok(state) => event(&mut stream, &state),
                Err(RecvTimeoutError::Timeout) => event(&mut stream, "{\"ping\":true}"),
                Err(RecvTimeoutError::Disconnected) => return,
            };
            if sent.is_err() {
                return;
            }
        }
    }
}

/// One server-sent event.
fn event(stream: &mut TcpStream, data: &str) -> std::io::Result<()> {
    stream.write_all(format!("data: {data}\n\n").as_bytes())?;
    stream.flush()
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
    /// The command a request to the API makes; a refusal (404, 405, or
    /// 400 naming the field) otherwise.
    pub fn of(request: &Request) -> Result<Command, (u16, String)> {
        let error = |reply: Reply| {
            let message = reply.1["error"].as_str().unwrap_or("").to_string();
            (reply.0, message)
        };
        let command = match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/api/state") => Command::State,
            ("POST", "/api/games") => {
                let new: NewGame = body(&request.body).map_err(error)?;
                Command::Start {
                    stages: stages(new.pattern, new.stages).map_err(|m| (400, m))?,
                    prize: new.prize.chars().take(200).collect(),
                    last_call: new.last_call_must_complete,
                }
            }
            ("POST", "/api/calls" | "/api/games/end") | ("DELETE", "/api/calls/last") => {
                let Nothing {} = body(&request.body).map_err(error)?;
                match request.method.as_str() {
                    "DELETE" => Command::Recall,
                    _ if request.path == "/api/calls" => Command::Call,
                    _ => Command::End,
                }
            }
            ("POST", "/api/claims") => {
                let claim: Claim = body(&request.body).map_err(error)?;
                Command::Claim {
                    card: claim.card,
                    accept: claim.accept,
                }
            }
            (
                _,
                "/api/state" | "/api/games" | "/api/calls" | "/api/calls/last" | "/api/claims"
                | "/api/games/end",
            ) => {
                return Err((
                    405,
                    format!("{} is not a method of {}", request.method, request.path),
                ))
            }
            _ => return Err((404, format!("no page or API at {}", request.path))),
        };
        Ok(command)
    }
}

/// What a request to the API answers, and what it changed.
fn answer(hall: &mut Hall, request: &Request) -> Result<Reply, Reply> {
    let command =
        Command::of(request).map_err(|(status, message)| (status, json!({ "error": message })))?;
    let refuse = refusal;
    let reply = match command {
        Command::State => (200, hall.state()),
        Command::Start {
            stages,
            prize,
            last_call,
        } => {
            hall.start(stages, prize, last_call).map_err(refuse)?;
            (201, hall.state())
        }
        Command::Call => {
            let ball = hall.call().map_err(refuse)?;
            (201, json!({ "ball": ball, "state": hall.state() }))
        }
        Command::Recall => {
            let ball = hall.recall().map_err(refuse)?;
            (200, json!({ "recalled": ball, "state": hall.state() }))
        }
        Command::End => {
            let seed = hall.end().map_err(refuse)?;
            (200, json!({ "seed": seed, "state": hall.state() }))
        }
        Command::Claim { card, accept } => {
            let verdict = hall.claim(&card, accept).map_err(refuse)?;
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
