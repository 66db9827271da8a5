//! What the hall answers, typed: the [`State`] the pages show, a claim's
//! [`Verdict`], a face as the console and the phones draw it ([`Grid`]),
//! and the house's daubing rule. Each serializes to the JSON the API has
//! always sent (the tests of the API hold its shape).

use serde::Serialize;

/// What the pages show: the open game, the last revealed seed, the files,
/// the game's facts, the last claims.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub game: Option<GameState>,
    pub revealed: Option<Revealed>,
    pub files: Vec<FileState>,
    pub balls: u8,
    pub letters: &'static [&'static str],
    pub game_name: &'static str,
    pub patterns: Vec<&'static str>,
    /// The last ten claims, newest first.
    pub claims: Vec<ClaimSeen>,
    /// What the caller should know since the hall started (a repaired log).
    pub notice: Option<String>,
    /// How players' phones mark called numbers.
    pub daub: Daub,
    /// The jurisdiction's rule it follows, in words, when one was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daub_rule: Option<&'static str>,
    /// Who the night is for (absent: a hall).
    #[serde(skip_serializing_if = "Audience::is_hall")]
    pub audience: Audience,
    /// The night's programme, when the hall plays a night file.
    pub night: Option<NightShown>,
    /// A face's shape, as the pages draw it.
    pub card: CardShape,
    /// The last win accepted, shown to the room until the next call or
    /// game.
    pub winner: Option<WinnerShown>,
    /// The last ended game's last payout, while no other game has started:
    /// the caller may take it back (a win accepted by mistake).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reversible: Option<Reversible>,
    /// The languages calls are spoken in, in turn (the night file's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
}

/// A payout an ended game's void would take back.
#[derive(Clone, Debug, Serialize)]
pub struct Reversible {
    pub game: u64,
    pub stage: String,
    pub call: usize,
}

/// An accepted win as the room sees it: the face claimed as printed, the
/// called numbers marked, the winning way lit, the last ball ringed.
#[derive(Clone, Debug, Serialize)]
pub struct WinnerShown {
    pub game: u64,
    pub stage: String,
    pub call: usize,
    /// `card 4711 of 3f2a…`.
    pub label: String,
    /// `£30.00 shared by 2: £15.00, £15.00`.
    pub prize: String,
    /// How many faces share it.
    pub shared: usize,
    pub face: Option<Grid>,
    /// The consolation by closeness paid with it, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near: Option<String>,
}

/// A face of the hall's cards: its rows and columns and its free cell (a
/// 0 elsewhere is a blank).
#[derive(Clone, Debug, Serialize)]
pub struct CardShape {
    pub rows: usize,
    pub cols: usize,
    /// The free cell's index (row-major), if the cards have one.
    pub free: Option<usize>,
    /// What the free cell shows (`FREE`, or an items game's own text).
    pub free_text: String,
    /// What a face is called: `card` or `ticket`.
    pub noun: &'static str,
}

/// The open game.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    pub game: u64,
    pub balls: u8,
    pub stages: Vec<String>,
    /// The stage being played.
    pub stage: String,
    pub prize: String,
    pub last_call: bool,
    pub commitment: String,
    /// The room's seed, mixed into the order, once given.
    pub room_seed: Option<String>,
    /// The calls so far, in order.
    pub calls: Vec<u8>,
    /// The stage's pattern as the board draws it (None: a count of numbers).
    pub drawn: Option<Drawn>,
    /// The same stage's pattern as the phones count "to go" with.
    pub aim: crate::play::pattern::Aim,
    /// The game's name and paper, from the night file.
    pub name: Option<String>,
    pub paper: Option<String>,
    /// The paper's colour on screen (`#ffe94d`).
    pub paper_colour: Option<String>,
    /// `rng` (the hall's committed calls) or `blower`.
    pub balls_from: super::event::Source,
    /// Bonanza: the first `precalls` calls were made before any claim.
    pub precalls: usize,
    /// A wild game's digit, once the first ball is out.
    pub wild: Option<u8>,
    /// Whether the game is wild (its digit comes with the first ball).
    pub wild_game: bool,
    pub jackpot: Option<JackpotShown>,
    /// The consolation by closeness, in words: `£1.00 shared by the faces
    /// 1 to go when coverall is won`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consolation: Option<String>,
    /// Every stage or prize, its amount, and the call it was won at.
    pub prizes: Vec<PrizeShown>,
    /// The prizes are all open at once (tambola).
    pub concurrent: bool,
    /// Who shares a prize: `claimed` or `all-holders`.
    pub share: &'static str,
    pub payouts: Vec<PayoutShown>,
    /// What the room must be told: `ball 42 recalled`.
    pub announcement: Option<String>,
    /// How near the sold faces are to each open prize at this call (empty
    /// when the hall does not track them).
    pub to_go: Vec<ToGo>,
    /// The counts are being brought to this call (a state with them
    /// follows at once).
    pub counting: bool,
}

/// How many sold faces hold an open prize now, and how many need one or
/// two more numbers for it.
#[derive(Clone, Debug, Serialize)]
pub struct ToGo {
    pub stage: String,
    pub holding: u64,
    pub one: u64,
    pub two: u64,
}

/// A jackpot as the board counts it down.
#[derive(Clone, Debug, Serialize)]
pub struct JackpotShown {
    pub within: usize,
    pub prize: String,
    pub consolation: String,
    /// Calls left for the jackpot (0: the consolation is played for).
    pub left: usize,
}

/// A stage or prize of the game.
#[derive(Clone, Debug, Serialize)]
pub struct PrizeShown {
    pub pattern: String,
    pub amount: Option<String>,
    pub won_at: Option<usize>,
}

/// A prize paid.
#[derive(Clone, Debug, Serialize)]
pub struct PayoutShown {
    pub stage: String,
    pub call: usize,
    pub kind: Option<super::event::PayoutKind>,
    /// `£50.00 shared by 3: £16.67, £16.67, £16.66`.
    pub text: String,
    pub winners: Vec<String>,
    pub shares: Vec<String>,
    /// The shares' sum in minor units (the night's books).
    #[serde(skip)]
    pub minor: u64,
    /// Winners past those listed (the pages get at most the payouts'
    /// `LISTED`; the log and the report hold them all).
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// An items game's labels, as `GET /api/labels` answers.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Labels {
    /// Ball n's label at n - 1; empty for a game of numbers.
    pub labels: Vec<String>,
    /// The free cell's text, if the cards have one.
    pub free: Option<String>,
}

/// The night's programme.
#[derive(Clone, Debug, Serialize)]
pub struct NightShown {
    pub title: String,
    pub games: Vec<NightGame>,
    /// The programme's next game (from 1), if any is left.
    pub next: Option<usize>,
    /// Paid so far tonight, in the night's currency.
    pub paid: String,
    /// The night's currency, as its file gives it (`£`, `$`).
    pub currency: String,
}

/// A game of the programme.
#[derive(Clone, Debug, Serialize)]
pub struct NightGame {
    pub number: usize,
    pub name: String,
    pub paper: Option<String>,
    pub paper_colour: Option<String>,
    pub stages: Vec<String>,
    pub prize: String,
    /// The special games, in words: `jackpot £500.00 within 50 calls`.
    pub specials: Vec<String>,
    /// `played`, `playing` or `to come`.
    pub status: &'static str,
}

/// A pattern's first way, cell by cell (row-major), and how many ways it has.
#[derive(Clone, Debug, Serialize)]
pub struct Drawn {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<bool>,
    pub way: String,
    pub ways: usize,
}

/// The last ended game's seed beside its commitment.
#[derive(Clone, Debug, Serialize)]
pub struct Revealed {
    pub game: u64,
    pub seed: String,
    /// The room's seed the order mixed in, if any.
    pub room_seed: Option<String>,
    pub commitment: String,
}

/// A card file the hall holds.
#[derive(Clone, Debug, Serialize)]
pub struct FileState {
    pub id: String,
    pub count: u64,
    /// The file's name, without its folder.
    pub path: String,
}

/// A claim as the pages list it.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimSeen {
    pub card: String,
    pub win: bool,
    pub reason: String,
    pub call: usize,
}

/// A face with the called numbers marked (0 is a free or blank cell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
    pub marked: Vec<bool>,
    /// The cells of the way that wins (empty for no win).
    pub line: Vec<bool>,
    /// The cell of the last number called, when the face holds it.
    pub last: Option<usize>,
}

/// A claim judged, as the console shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The reference as given.
    pub card: String,
    pub win: bool,
    /// In words: `wins: row 2 complete at call 31`.
    pub reason: String,
    /// `card 4711 of 3f2a…`, when the reference named a face.
    pub label: Option<String>,
    /// Whether the reference named a face of the hall's files.
    pub found: bool,
    pub face: Option<Grid>,
    /// The stage and the call it was judged at.
    pub stage: String,
    pub call: usize,
    /// Other sold faces that hold the pattern too (shared prizes), when a
    /// win was accepted.
    pub also_winning: Vec<String>,
    pub accepted: bool,
    /// The queued claim this decided, if it came from a player's phone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queued: Option<u64>,
    /// The prize this accepted win paid (shared with every sold face that
    /// holds it at the same call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payout: Option<PayoutShown>,
    /// A win not accepted yet: how its prize would be paid now
    /// (`£10.00 shared by 3: …`), so the caller sees the split first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// The consolation by closeness the accepted win paid with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near: Option<String>,
}

/// A face as a phone adds it: what to send back to claim it, and its numbers.
#[derive(Clone, Debug, Serialize)]
pub struct FaceShown {
    /// The reference that names this face to the hall (a number for the
    /// first file, else the QR text).
    pub card: String,
    pub label: String,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
}

/// Who the night is for, which sets the pages' words: a hall's (prizes,
/// payouts, the seed's commitment), or a class's (the same game told
/// without money or hall terms; a game with no prize names none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    #[default]
    Hall,
    Class,
}

impl Audience {
    pub fn is_hall(&self) -> bool {
        *self == Audience::Hall
    }
}

/// A jurisdiction's rule for marking numbers, by name (`hall --daub
/// ontario`): the mode it takes and why, as the phones say it.
pub struct DaubPreset {
    pub name: &'static str,
    pub daub: Daub,
    pub why: &'static str,
}

/// Every named rule, in one place.
pub const DAUB_PRESETS: [DaubPreset; 3] = [
    DaubPreset {
        name: "uk",
        daub: Daub::Manual,
        why: "UK halls: players mark their own numbers",
    },
    DaubPreset {
        name: "ontario",
        daub: Daub::Manual,
        why: "Ontario: every ball is acknowledged on the device (Catch up marks what was called)",
    },
    DaubPreset {
        name: "olg-ebingo",
        daub: Daub::Auto,
        why: "OLG eBingo: the device daubs for the player",
    },
];

/// The house rule for marking numbers on players' phones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Daub {
    /// Players mark their own numbers (a Catch up button marks what was
    /// called); UK halls require players to mark their own.
    #[default]
    Manual,
    /// Called numbers glow on the face; the player taps to mark them.
    Assist,
    /// Called numbers are marked as they are called.
    Auto,
}

impl Grid {
    /// `face`, a cell marked when it is free or `called` says so.
    pub fn of(face: &crate::game::Face, called: impl Fn(u8) -> bool) -> Grid {
        let cells = face.numbers().to_vec();
        let marked = cells.iter().map(|&x| x == 0 || called(x)).collect();
        Grid {
            rows: usize::from(face.rows),
            cols: usize::from(face.cols),
            cells,
            marked,
            line: Vec::new(),
            last: None,
        }
    }

    /// The grid with the cells of `way` (a mask) lit and the cell holding
    /// `last` (the last number called) ringed.
    pub fn lit(mut self, way: u32, last: Option<u8>) -> Grid {
        let numbers = self.cells.iter().filter(|&&n| n != 0).count();
        if numbers > 0 && way != 0 {
            // Any five numbers: the numbers called are the way.
            let lit = |i: usize| way >> i & 1 == 1 && self.marked[i];
            self.line = (0..self.cells.len()).map(lit).collect();
        }
        self.last = last.and_then(|l| self.cells.iter().position(|&n| n == l && n != 0));
        self
    }
}
