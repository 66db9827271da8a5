//! The hall's API, apart from any server: one table of routes with who
//! may use each ([`ROUTES`]), what each does ([`Command`], read strictly
//! from the body), typed replies and refusals ([`Reply`], [`ApiError`]),
//! the console key, the pages' files, and the limits a server of it keeps.
//! `bingomint hall` serves it (over HTTP or TLS): a route there is a call
//! of [`Api::answer`], and the server chooses each answer's HTTP status
//! from what it says (what the route did, [`Done`], or why it refused).

mod feed;
mod packs;
mod reply;
mod routes;
mod sale_body;

pub use feed::{Feed, Update};
pub use packs::PackIssued;
pub use reply::{AdviceWords, ApiError, Reply};
pub use routes::{Access, Command, Done, Route, ROUTES};

use super::shell::Hall;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};
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
const PAGES: [(&str, &str, &str); 15] = [
    ("/console", HTML, include_str!("../pages/console.html")),
    ("/console.js", JS, include_str!("../pages/console.js")),
    ("/console.css", CSS, include_str!("../pages/console.css")),
    ("/sales.js", JS, include_str!("../pages/sales.js")),
    ("/board", HTML, include_str!("../pages/board.html")),
    ("/board.js", JS, include_str!("../pages/board.js")),
    ("/board.css", CSS, include_str!("../pages/board.css")),
    ("/play", HTML, include_str!("../pages/play.html")),
    ("/play.js", JS, include_str!("../pages/play.js")),
    ("/play.css", CSS, include_str!("../pages/play.css")),
    ("/packs.js", JS, include_str!("../pages/packs.js")),
    ("/receipt", HTML, include_str!("../pages/receipt.html")),
    ("/receipt.js", JS, include_str!("../pages/receipt.js")),
    ("/speech.js", JS, include_str!("../pages/speech.js")),
    ("/dom.js", JS, include_str!("../pages/dom.js")),
];
const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

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
    /// The players' addresses and their QR code.
    join: super::join::Join,
    /// The state as the live streams were last sent it.
    feed: Mutex<Feed>,
    /// Where each change goes (the server's live streams).
    viewers: OnceLock<Viewers>,
}

/// Where the changes of the state go.
type Viewers = Box<dyn Fn(Arc<Update>) + Send + Sync>;

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

impl Api {
    pub fn new(hall: Hall, key: String, claims_key: String) -> Api {
        Api {
            hall: Mutex::new(hall),
            key,
            claims_key,
            join: super::join::Join::default(),
            feed: Mutex::default(),
            viewers: OnceLock::new(),
        }
    }

    /// The API with the players' addresses phones can use.
    pub fn with_join(mut self, join: super::join::Join) -> Api {
        self.join = join;
        self
    }

    fn hall(&self) -> std::sync::MutexGuard<'_, Hall> {
        self.hall.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `send` each change of what the pages show, in turn, for as
    /// long as the API lives: after each request that changes it, and when
    /// the "to go" counts come up to date (off the request that changed
    /// them).
    pub fn watch(self: &Arc<Self>, send: impl Fn(Arc<Update>) + Send + Sync + 'static) {
        if self.viewers.set(Box::new(send)).is_err() {
            return;
        }
        let api = Arc::downgrade(self);
        let counted = Arc::new(move || {
            if let Some(api) = api.upgrade() {
                api.publish(&api.hall());
            }
        });
        if let Some(tracker) = self.hall().cards.tracker.as_ref() {
            tracker.on_counted(counted);
        }
    }

    /// The state now, as a new viewer is sent it first (whole, with its
    /// number); the viewers are sent the change if there is one.
    pub fn first(&self) -> (u64, Arc<String>) {
        self.publish(&self.hall())
    }

    /// Takes the state of `hall` (whose lock the caller holds, so changes
    /// are numbered in the order they happened) and sends the viewers the
    /// change; the state now, whole, and its number.
    fn publish(&self, hall: &Hall) -> (u64, Arc<String>) {
        let state = serde_json::to_value(hall.state()).expect("the state is JSON");
        let mut feed = self.feed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(update) = feed.publish(state) {
            if let Some(send) = self.viewers.get() {
                send(update);
            }
        }
        feed.now()
    }

    /// The reply to `request` and what its route did (the viewers are
    /// sent what it changed of the state); or the refusal. The server
    /// says both in HTTP.
    pub fn answer(&self, request: &Request) -> Result<(Done, Reply), ApiError> {
        // A page of another site can send a "simple" cross-site request
        // (text/plain, a form) without asking; it cannot send JSON. So no
        // request that changes anything is taken without it.
        if request.method != "GET" && !is_json(request.content_type) {
            return Err(ApiError::NotJson);
        }
        let route = Route::of(request.method, request.path)?;
        let given = request.authorization.and_then(bearer).unwrap_or("");
        if route.access == Access::Caller && !same_key(given, &self.key) {
            return Err(ApiError::NeedsKey);
        }
        let command = Command::of(request.method, request.path, request.body)?;
        if let Command::Join = command {
            return Ok((route.done, Reply::Join(self.join.clone())));
        }
        // A claim's standing is its phone's: read with the token the phone
        // was given (or the console's key), so no one walks the ids.
        if let Command::Status(id) = command {
            let token = super::secret::claim_token(&self.claims_key, id);
            let known = self.hall().status(id).is_some();
            if known && !same_key(given, &token) && !same_key(given, &self.key) {
                return Err(ApiError::NeedsToken);
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
                | Command::Void { .. }
        ) || matches!(&command, Command::Claim(asked) if asked.accept);
        let mut hall = self.hall();
        if let Command::Load { .. } | Command::Packs { .. } = command {
            return Ok((
                route.done,
                packs::answer(&mut hall, &self.claims_key, command)?,
            ));
        }
        let mut reply = answer(&mut hall, command, request.client)?;
        // A sale that issued a pack: its code and QR, which only the API
        // (holding the key codes are made from) can give.
        if let Reply::Sales {
            made: Some(made),
            pack,
            ..
        } = &mut reply
        {
            *pack = packs::issued(&hall, &self.claims_key, made, &self.join);
        }
        let reply = match reply {
            Reply::Queued { status, .. } => {
                let token = super::secret::claim_token(&self.claims_key, status.id);
                Reply::Queued { status, token }
            }
            reply => reply,
        };
        let accepted = !matches!(&reply, Reply::Verdict { verdict, .. } if !verdict.accepted);
        if moves && accepted {
            self.publish(&hall);
        }
        Ok((route.done, reply))
    }
}

/// What a request to the API answers.
fn answer(hall: &mut Hall, command: Command, client: Option<IpAddr>) -> Result<Reply, ApiError> {
    let state = |hall: &Hall| Box::new(hall.state());
    let reply = match command {
        Command::State => Reply::State(state(hall)),
        Command::Start(plan) => {
            hall.start(*plan)?;
            Reply::State(state(hall))
        }
        Command::Planned(number) => {
            let plan = hall.planned(number)?;
            hall.start(plan)?;
            Reply::State(state(hall))
        }
        Command::Labels => Reply::Labels(hall.labels()),
        Command::Join => unreachable!("the API answers where phones find the hall"),
        Command::Night => Reply::Night(hall.night_shown().ok_or(ApiError::NoNight)?),
        Command::RoomSeed { text } => {
            hall.room_seed(&text)?;
            Reply::State(state(hall))
        }
        Command::Call(ball) => {
            let ball = hall.call(ball)?;
            let state = state(hall);
            Reply::Called { ball, state }
        }
        Command::Void { stage, reason } => {
            hall.void(stage.as_deref(), &reason)?;
            Reply::State(state(hall))
        }
        Command::Recall => {
            let recalled = hall.recall()?;
            let state = state(hall);
            Reply::Recalled { recalled, state }
        }
        Command::End => {
            let seed = hall.end()?.into();
            let state = state(hall);
            Reply::Ended { seed, state }
        }
        Command::Sell(m) => {
            let made = hall.sell(m)?;
            sales(hall, Some(made))
        }
        Command::Sales => sales(hall, None),
        Command::Attendance(count) => {
            hall.attendance(count)?;
            sales(hall, None)
        }
        Command::Claim(_)
        | Command::Bingo { .. }
        | Command::Queue
        | Command::RejectNotWins
        | Command::Status(_)
        | Command::Face { .. } => return answer_claims(hall, command, client),
        Command::Load { .. } | Command::Packs { .. } => {
            unreachable!("the API answers packs before")
        }
    };
    Ok(reply)
}

/// The night's sales as the console reads them.
fn sales(hall: &Hall, made: Option<super::Event>) -> Reply {
    let books = hall.books();
    Reply::Sales {
        made: made.map(Box::new),
        sales: Box::new(books.sales().shown()),
        jackpots: books.pots().to_vec(),
        attendance: books.attendance(),
        currency: hall.currency(),
        pack: None,
    }
}

/// What a claim, the queue or a face asks of the hall.
fn answer_claims(
    hall: &mut Hall,
    command: Command,
    client: Option<IpAddr>,
) -> Result<Reply, ApiError> {
    let reply = match command {
        Command::Claim(asked) => {
            let verdict = hall.claim(asked)?;
            // A reference that names no face of the hall's files: the
            // claim still logged (it was made), the reason as the error.
            let error = (!verdict.found).then(|| verdict.reason.clone());
            let verdict = Box::new(verdict);
            Reply::Verdict { verdict, error }
        }
        Command::Bingo { card, device } => {
            let device = device.as_deref().map(super::packs::device_name);
            let status = hall.bingo(&card, client, device.as_deref())?;
            let token = String::new();
            Reply::Queued { status, token }
        }
        Command::Queue => Reply::Queue {
            queue: hall.waiting(),
        },
        Command::RejectNotWins => {
            let rejected = hall.reject_not_wins()?;
            let queue = hall.waiting();
            Reply::Rejected { rejected, queue }
        }
        Command::Status(id) => Reply::Status(hall.status(id).ok_or(ApiError::NoClaim(id))?),
        Command::Face { card } => Reply::Face(Box::new(hall.face(&card)?)),
        _ => unreachable!("answer sends only claims, the queue and faces here"),
    };
    Ok(reply)
}
