//! The hall's HTTP API and pages: what each path does, the console key,
//! and the live stream of the state to every page (server-sent events).

use super::http::{respond, Request};
use super::{Hall, HallError};
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CONSOLE: &str = include_str!("pages/console.html");
const BOARD: &str = include_str!("pages/board.html");

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
        let page = match (method, path) {
            ("GET", "/" | "/board") => Some(BOARD),
            ("GET", "/console") => Some(CONSOLE),
            _ => None,
        };
        if let Some(page) = page {
            let _ = respond(
                &mut stream,
                200,
                "text/html; charset=utf-8",
                page.as_bytes(),
            );
            return;
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
            let given = request
                .header("authorization")
                .and_then(|h| h.strip_prefix("Bearer "))
                .map(str::trim);
            if given != Some(self.key.as_str()) {
                return Err(fail(401, "this needs the console's key: header Authorization: Bearer KEY (the key is in the console's address)"));
            }
        }
        let body: Value = if request.body.is_empty() {
            json!({})
        } else {
            serde_json::from_slice(&request.body)
                .map_err(|e| fail(400, &format!("the body is not JSON: {e}")))?
        };
        let mut hall = self.hall();
        let reply = answer(&mut hall, request, &body)?;
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

/// What a request to the API answers, and what it changed.
fn answer(hall: &mut Hall, request: &Request, body: &Value) -> Result<Reply, Reply> {
    let fail = |status: u16, message: &str| (status, json!({ "error": message }));
    let refuse = |e: HallError| {
        let status = match e {
            HallError::Conflict(_) => 409,
            HallError::Bad(_) => 400,
            HallError::Log(_) => 500,
        };
        fail(status, &e.to_string())
    };
    let reply = match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/api/state") => (200, hall.state()),
        ("POST", "/api/games") => {
            let stages = stages(body).map_err(|m| fail(400, &m))?;
            let prize = body["prize"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            let last_call = body["last_call_must_complete"].as_bool().unwrap_or(false);
            hall.start(stages, prize, last_call).map_err(refuse)?;
            (201, hall.state())
        }
        ("POST", "/api/calls") => {
            let ball = hall.call().map_err(refuse)?;
            (201, json!({ "ball": ball, "state": hall.state() }))
        }
        ("DELETE", "/api/calls/last") => {
            let ball = hall.recall().map_err(refuse)?;
            (200, json!({ "recalled": ball, "state": hall.state() }))
        }
        ("POST", "/api/claims") => {
            let card = body["card"]
                .as_str()
                .ok_or_else(|| fail(400, "give the card: {\"card\": \"4711\"}"))?;
            let verdict = hall
                .claim(card, body["accept"].as_bool().unwrap_or(false))
                .map_err(refuse)?;
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
        ("POST", "/api/games/end") => {
            let seed = hall.end().map_err(refuse)?;
            (200, json!({ "seed": seed, "state": hall.state() }))
        }
        (
            _,
            "/api/state" | "/api/games" | "/api/calls" | "/api/calls/last" | "/api/claims"
            | "/api/games/end",
        ) => {
            return Err(fail(
                405,
                &format!("{} is not a method of {}", request.method, request.path),
            ));
        }
        _ => return Err(fail(404, &format!("no page or API at {}", request.path))),
    };
    Ok(reply)
}

/// A game's stages from `{"pattern": "line"}` or `{"stages": [...]}`.
fn stages(body: &Value) -> Result<Vec<String>, String> {
    if let Some(list) = body["stages"].as_array() {
        return list
            .iter()
            .map(|s| {
                s.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| "stages: a list of pattern names".to_string())
            })
            .collect();
    }
    match body["pattern"].as_str() {
        Some(p) => Ok(vec![p.to_string()]),
        None => Err("give the game's pattern: {\"pattern\": \"line\"} or {\"stages\": [\"one-line\", \"two-lines\", \"full-house\"]}".into()),
    }
}
