//! The API's routes: one table ([`ROUTES`]) of every method and path with
//! who may use it ([`Access`]), read by the server and the fuzz target
//! alike, and each request's body read strictly into a [`Command`].

use super::super::books::ClaimAsked;
use super::super::money::parse_amount;
use super::super::rules::{Asked, AskedJackpot, FieldError, Near, Plan, Share, ToGo};
use super::super::sales::Move;
use super::reply::ApiError;
use serde::Deserialize;
use Access::{Caller, Player, Public};
use Done::{Answered, Made, Queued};

/// Who may use a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone: the board, the programme, the labels.
    Public,
    /// A player's phone: no key; a claim's standing needs the token its
    /// phone was given (or the console's key).
    Player,
    /// The caller: the console's key (`Authorization: Bearer KEY`).
    Caller,
}

/// What a route does when it is answered (the server says it in its
/// status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Answered: something read, or changed in place.
    Answered,
    /// Something new made: a game, a call, a sale, a line of the log.
    Made,
    /// A player's claim taken, for the caller to decide.
    Queued,
}

/// A route of the API.
#[derive(Clone, Copy, Debug)]
pub struct Route {
    pub method: &'static str,
    /// The path; `{id}` at its end stands for a claim's number.
    pub path: &'static str,
    pub access: Access,
    pub done: Done,
}

const fn route(method: &'static str, path: &'static str, access: Access, done: Done) -> Route {
    Route {
        method,
        path,
        access,
        done,
    }
}

/// A claim's standing, by its number.
const STATUS: &str = "/api/bingo/{id}";

/// Every route of the API.
pub const ROUTES: [Route; 25] = [
    route("GET", "/api/state", Public, Answered),
    route("GET", "/api/join", Public, Answered),
    route("GET", "/api/night", Public, Answered),
    route("GET", "/api/labels", Public, Answered),
    route("POST", "/api/games", Caller, Made),
    route("POST", "/api/games/room-seed", Caller, Made),
    route("POST", "/api/calls", Caller, Made),
    route("DELETE", "/api/calls/last", Caller, Answered),
    route("POST", "/api/claims", Caller, Answered),
    route("POST", "/api/games/end", Caller, Answered),
    route("POST", "/api/payouts/void", Caller, Answered),
    route("POST", "/api/queue/reject", Caller, Answered),
    route("GET", "/api/queue", Caller, Answered),
    route("POST", "/api/bingo", Player, Queued),
    route("GET", STATUS, Player, Answered),
    route("POST", "/api/faces", Player, Answered),
    route("POST", "/api/packs/load", Player, Made),
    route("POST", "/api/packs", Player, Answered),
    route("POST", "/api/sales", Caller, Made),
    route("POST", "/api/sales/return", Caller, Made),
    route("POST", "/api/sales/void", Caller, Made),
    route("POST", "/api/cash/float", Caller, Made),
    route("POST", "/api/cash/count", Caller, Made),
    route("GET", "/api/sales", Caller, Answered),
    route("POST", "/api/attendance", Caller, Made),
];

impl Route {
    /// Whether `path` is this route's.
    fn matches(&self, path: &str) -> bool {
        match self.path.strip_suffix("{id}") {
            Some(prefix) => path.len() > prefix.len() && path.starts_with(prefix),
            None => path == self.path,
        }
    }

    /// The route of `method path`: 404 for no path of the API, 405 for a
    /// method its path does not take.
    pub fn of(method: &str, path: &str) -> Result<Route, ApiError> {
        let mut of_path = ROUTES.iter().filter(|r| r.matches(path)).peekable();
        if of_path.peek().is_none() {
            return Err(ApiError::NoRoute(path.to_string()));
        }
        of_path
            .find(|r| r.method == method)
            .copied()
            .ok_or_else(|| ApiError::NoMethod {
                method: method.to_string(),
                path: path.to_string(),
            })
    }
}

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
    consolation: Option<NearBody>,
}

/// A consolation by closeness: `to_go` a count or `"nearest"`, the
/// amount as decimal text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NearBody {
    to_go: ToGo,
    prize: String,
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

/// `POST /api/payouts/void`: the last payout (of `stage`, if named), and
/// why it is voided.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoidBody {
    stage: Option<String>,
    reason: String,
}

/// `POST /api/games/room-seed`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Room {
    room_seed: String,
}

/// `POST /api/faces`: a face, by any reference.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Card {
    card: String,
}

/// `POST /api/bingo`: a face, by any reference, and the phone's device
/// secret when it holds electronic packs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BingoBody {
    card: String,
    device: Option<String>,
}

/// The head count.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttendanceBody {
    count: u64,
}

/// The body of a request that takes none (`{}` or nothing).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// Reads a JSON body as `T`; an empty body is `{}`. A missing, unknown or
/// mistyped field is refused with 400 naming it.
pub(super) fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        bytes
    };
    let refused = ApiError::Body;
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
    /// The last payout voided, and why.
    Void {
        stage: Option<String>,
        reason: String,
    },
    /// The room's seed for the open game's order.
    RoomSeed {
        text: String,
    },
    Call(Option<u8>),
    Recall,
    End,
    /// The caller's claim: a card, or a queued claim decided.
    Claim(ClaimAsked),
    /// A player's claim, to the queue (from a device holding packs: its
    /// secret).
    Bingo {
        card: String,
        device: Option<String>,
    },
    /// A pack loaded onto a device with its code.
    Load {
        code: String,
        device: String,
    },
    /// A device's packs and receipts.
    Packs {
        device: String,
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
    /// The players' addresses and QR code.
    Join,
    /// A sale, return or void of paper.
    Sell(Move),
    /// The night's sales, for the console.
    Sales,
    /// The head count keyed.
    Attendance(u64),
}

/// The longest reference a phone may send (a QR text is about 30).
const MAX_CARD: usize = 200;

impl Command {
    /// The command `method path` with `body` makes; a refusal (404, 405,
    /// or 400 naming the field) otherwise.
    pub fn of(method: &str, path: &str, body: &[u8]) -> Result<Command, ApiError> {
        let route = Route::of(method, path)?;
        if route.path == STATUS {
            let id = &path[STATUS.len() - "{id}".len()..];
            let id = (id.parse()).map_err(|_| ApiError::BadClaimNumber(id.to_string()))?;
            return Ok(Command::Status(id));
        }
        let command = match (route.method, route.path) {
            ("GET", "/api/state") => Command::State,
            ("GET", "/api/night") => Command::Night,
            ("GET", "/api/labels") => Command::Labels,
            ("GET", "/api/join") => Command::Join,
            ("POST", "/api/games") => new_game(read(body)?)?,
            ("POST", "/api/calls") => call(body)?,
            ("POST", "/api/games/end") | ("DELETE", "/api/calls/last") => {
                let Nothing {} = read(body)?;
                match method {
                    "DELETE" => Command::Recall,
                    _ => Command::End,
                }
            }
            ("POST", "/api/claims") => claim(body)?,
            ("POST", "/api/games/room-seed") => {
                let Room { room_seed } = read(body)?;
                Command::RoomSeed { text: room_seed }
            }
            ("POST", "/api/payouts/void") => {
                let VoidBody { stage, reason } = read(body)?;
                Command::Void { stage, reason }
            }
            ("POST", "/api/bingo") => bingo(body)?,
            ("POST", "/api/packs/load") => super::packs::load_body(body)?,
            ("POST", "/api/packs") => super::packs::device_body(body)?,
            ("POST", "/api/faces") => Command::Face { card: card(body)? },
            ("GET", "/api/queue") => Command::Queue,
            ("GET", "/api/sales") => Command::Sales,
            ("POST", "/api/cash/float" | "/api/cash/count") => {
                super::sale_body::cash_command(path.ends_with("/float"), body)?
            }
            ("POST", "/api/sales" | "/api/sales/return" | "/api/sales/void") => {
                super::sale_body::sale_command(path, body)?
            }
            ("POST", "/api/attendance") => {
                let AttendanceBody { count } = read(body)?;
                Command::Attendance(count)
            }
            ("POST", "/api/queue/reject") => {
                let Nothing {} = read(body)?;
                Command::RejectNotWins
            }
            (method, path) => unreachable!("{method} {path} is in ROUTES and read above"),
        };
        Ok(command)
    }
}

/// `{"card": "…"}`: the number printed on a card, at most [`MAX_CARD`]
/// bytes.
fn card(body: &[u8]) -> Result<String, ApiError> {
    let Card { card } = read(body)?;
    if card.len() > MAX_CARD {
        return Err(ApiError::Body(format!(
            "field card: over {MAX_CARD} bytes; send the number printed on the card"
        )));
    }
    Ok(card)
}

/// `POST /api/bingo`: the card, and the device's secret if sent.
fn bingo(body: &[u8]) -> Result<Command, ApiError> {
    let BingoBody { card, device } = read(body)?;
    if card.len() > MAX_CARD {
        return Err(ApiError::Body(format!(
            "field card: over {MAX_CARD} bytes; send the number printed on the card"
        )));
    }
    let device = device.as_deref().map(super::packs::device).transpose()?;
    Ok(Command::Bingo { card, device })
}

/// `POST /api/calls`: the hall's next ball (`{}`), or the blower's.
fn call(body: &[u8]) -> Result<Command, ApiError> {
    let CallBody { ball } = read(body)?;
    let ball =
        match ball {
            Some(b) => Some(u8::try_from(b).map_err(|_| {
                ApiError::Body(format!("field ball: {b} is not a number of any game"))
            })?),
            None => None,
        };
    Ok(Command::Call(ball))
}

/// `POST /api/claims`: a card claimed, or a queued claim decided.
fn claim(body: &[u8]) -> Result<Command, ApiError> {
    let claim: Claim = read(body)?;
    if claim.card.is_none() && claim.queued.is_none() {
        return Err(ApiError::Body(
            "give the card claimed, {\"card\": \"4711\"}, or a queued claim, {\"queued\": 17}"
                .into(),
        ));
    }
    Ok(Command::Claim(ClaimAsked {
        card: claim.card,
        accept: claim.accept,
        queued: claim.queued,
        named: claim.prize,
    }))
}

/// An amount of `field`, as text.
pub(super) fn money(field: &str, text: &str) -> Result<u64, FieldError> {
    parse_amount(text).map_err(|e| FieldError::of(field, e.to_string()))
}

/// The game a `POST /api/games` body asks for.
fn new_game(new: NewGame) -> Result<Command, ApiError> {
    let shaped = new.pattern.is_some() || new.stages.is_some() || new.prizes.is_some();
    if !shaped {
        let alone = new.prize.is_empty()
            && !new.last_call_must_complete
            && new.name.is_none()
            && new.paper.is_none()
            && new.jackpot.is_none()
            && new.precalls == 0
            && !new.wild
            && new.share.is_none()
            && new.consolation.is_none();
        if !alone {
            return Err(ApiError::Body("give the game's pattern, stages or prizes, or {} for the programme's next game, or {\"game\": K} for its game K, alone".into()));
        }
        return Ok(Command::Planned(new.game));
    }
    if new.game.is_some() {
        return Err(ApiError::Body(
            "give game K (the programme's) or a pattern, not both".into(),
        ));
    }
    let plan = asked(new).and_then(Asked::plan).map_err(ApiError::Field)?;
    Ok(Command::Start(Box::new(plan)))
}

/// The game a body asks for, its amounts read (a prize's index counted
/// from 0, as JSON counts).
fn asked(new: NewGame) -> Result<Asked, FieldError> {
    let prizes = (new.prizes.map(|list| {
        (list.into_iter().enumerate())
            .map(|(k, p)| {
                let field = format!("prizes[{k}].prize");
                let amount = p.prize.map(|a| money(&field, &a)).transpose()?;
                Ok((p.pattern, amount))
            })
            .collect::<Result<Vec<_>, FieldError>>()
    }))
    .transpose()?;
    let jackpot = match new.jackpot {
        Some(j) => Some(AskedJackpot {
            within: j.within,
            prize: money("jackpot.prize", &j.prize)?,
            consolation: (j.consolation.as_deref())
                .map(|c| money("jackpot.consolation", c))
                .transpose()?,
            progress: None,
        }),
        None => None,
    };
    let near = match new.consolation {
        Some(n) => Some(Near {
            to_go: (n.to_go.distance()).map_err(|e| FieldError::of("consolation.to_go", e))?,
            prize: money("consolation.prize", &n.prize)?,
        }),
        None => None,
    };
    Ok(Asked {
        name: new.name,
        paper: new.paper,
        words: new.prize,
        pattern: new.pattern,
        stages: new.stages,
        prizes,
        amounts: None,
        last_call: new.last_call_must_complete,
        jackpot,
        near,
        precalls: new.precalls,
        wild: new.wild,
        share: new.share,
        planned: None,
        currency: String::new(),
    })
}
