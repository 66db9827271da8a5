//! `hall`'s flags and their help.

pub use super::daub::Daub;
pub use super::sub::{Balls, Sub};
use std::path::PathBuf;

/// Run a bingo night in the browser: a caller's console, a board for the
/// projector, claims judged by any number printed on a card.
///
/// Prints three addresses: the console (with its secret key; for the
/// caller only), the board (read-only, for the room) and the players' page
/// (phones: their cards lit as numbers are called, a Bingo button that
/// queues a claim for the caller). Each game's calls come from ChaCha20
/// keyed by a fresh 256-bit seed of the operating system, published as a
/// SHA-256 commitment before the first ball and revealed when the game
/// ends, and by the room's seed, typed at the console before the first
/// ball (docs/hall.md states the formula). Every
/// event goes to an append-only, hash-chained log first; a hall started
/// again with the same --log resumes its open game.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "\
Examples:
  bingomint hall --cards cards.bmc                  # serves until stopped
  bingomint hall --cards cards.bmc --listen 8075    # serves until stopped
  bingomint hall --cards cards.bmc --sold 1..5000 \\
      --log friday.jsonl                            # serves until stopped
  bingomint hall --cards cards.bmc --daub assist --listen 0.0.0.0:8443 \\
      --tls-cert tls/hall-cert.pem \\
      --tls-key tls/hall-key.pem                    # serves until stopped
  bingomint hall --cards cards.bmc --night data/night.toml \\
      --balls blower                                # serves until stopped
  bingomint hall --cards cards.bmc --night data/session.toml \\
      --jackpots jackpots.jsonl                     # serves until stopped
  bingomint hall --cards cards.bmc --night data/session.toml \\
      --jackpots jackpots.jsonl --stock stock.jsonl # serves until stopped
  bingomint hall --cards cards.bmc --audience class # serves until stopped
  bingomint hall --night data/night.toml --check
  bingomint hall verify friday.jsonl --cards cards.bmc   # needs: a night's log
  bingomint hall report friday.jsonl --cards cards.bmc \\
      --out night.html                              # needs: a night's log
  bingomint calls --game 75 --seed hall2-5e1f…c09a \\
      --room-seed 'table 4'       # needs: the seed a hall game revealed"
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Sub>,

    /// A card file the night plays (repeat for more; plain numbers name
    /// faces of the first, QR texts name their file).
    #[arg(long = "cards", value_name = "FILE")]
    pub cards: Vec<PathBuf>,

    /// Faces of the first file sold tonight, such as 1..5000,7001..9000
    /// [default: all]; a claim on another is refused.
    #[arg(long, value_name = "RANGES")]
    pub sold: Option<String>,

    /// Address and port to listen on; another address than 127.0.0.1 lets
    /// other machines in (phones, the board on a second computer). A port
    /// alone (8075) means every interface on it: the hall then prints the
    /// addresses phones can use, with a QR code.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8075")]
    pub listen: String,

    /// The night's log [default: hall-YYYY-MM-DD.jsonl]; an existing log is
    /// continued.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// Serve over TLS (https) with this certificate (PEM; a chain may
    /// follow it); needs --tls-key. `hall cert` makes a self-signed pair.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// The private key (PEM) of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// How phones (/play) mark called numbers: manual (players tap; Catch up
    /// marks what was called), assist (called numbers glow, players tap),
    /// auto (marked as called); or a jurisdiction's rule: uk (manual),
    /// ontario (manual, every ball acknowledged), olg-ebingo (auto).
    #[arg(long, value_enum, value_name = "RULE", default_value_t = Daub::Manual)]
    pub daub: Daub,

    /// The night's programme: a TOML file of games in order, each with its
    /// pattern (or stages, or prizes open at once), prize amounts, paper
    /// and special games (docs/hall.md; data/night.toml is an example).
    #[arg(long, value_name = "FILE")]
    pub night: Option<PathBuf>,

    /// The progressive jackpots' ledger, carried from night to night
    /// (created if new): the pots and call limits the night's
    /// [[progressive]] games offer, and each night's outcome written to it.
    #[arg(long, value_name = "FILE")]
    pub jackpots: Option<PathBuf>,

    /// Begin --jackpots FILE as a new ledger although nights beside the
    /// log played its jackpots (refused without it: a mistyped path would
    /// start every pot again at its seed).
    #[arg(long, requires = "jackpots")]
    pub new_ledger: bool,

    /// The paper stock book kept across sessions (`hall stock receive`
    /// begins it): a sale of faces not on hand (never received,
    /// destroyed, or sold in another session and not come back) is
    /// refused, and each sale, return and void is written to it.
    #[arg(long, value_name = "FILE", requires = "night")]
    pub stock: Option<PathBuf>,

    /// Who the night is for: hall (prizes, payouts and the seed's
    /// commitment in a hall's words) or class (the same game told for a
    /// classroom: no money words for a game with no prize, no hall terms)
    /// [default: the night file's `audience`, else hall].
    #[arg(long, value_enum, value_name = "WHO")]
    pub audience: Option<AudienceArg>,

    /// Check --night FILE (against --cards' game, when given) and exit: 0
    /// when it can be played, 2 naming the game and field when not.
    #[arg(long, requires = "night")]
    pub check: bool,

    /// Where the balls come from: rng (the hall's calls, committed before
    /// the first ball and revealed after) or blower (the caller keys in
    /// each ball drawn; nothing to commit to).
    #[arg(long, value_enum, value_name = "SOURCE", default_value_t = Balls::Rng)]
    pub balls: Balls,

    /// Print only the three addresses (no log, night or resume lines);
    /// warnings still go to standard error.
    #[arg(short, long)]
    pub quiet: bool,

    /// When the log's open game has lost its seed file (LOG.seed), end
    /// that game unrevealed, logged as such (its calls can then never be
    /// checked), and go on with the night.
    #[arg(long)]
    pub void_lost_game: bool,

    /// When --night FILE is not the file the log's night began with (its
    /// SHA-256 differs): keep-log goes on, as long as every game the log
    /// played is, in the file, the game that was played (only games not
    /// played yet changed). Without it, a changed file is refused.
    #[arg(long, value_enum, value_name = "WHAT", requires = "night")]
    pub night_changed: Option<NightChanged>,
}

/// `--audience`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AudienceArg {
    Hall,
    Class,
}

impl From<AudienceArg> for bingomint::hall::state::Audience {
    fn from(a: AudienceArg) -> Self {
        match a {
            AudienceArg::Hall => Self::Hall,
            AudienceArg::Class => Self::Class,
        }
    }
}

/// What `--night-changed` allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NightChanged {
    /// Go on with the changed file where it agrees with the log.
    KeepLog,
}

impl Args {
    /// The log: `--log`, else `hall-YYYY-MM-DD.jsonl` for today (UTC).
    pub fn log_path(&self) -> PathBuf {
        self.log.clone().unwrap_or_else(|| {
            let d = bingomint::cardfile::header::today().unwrap_or(0);
            PathBuf::from(format!(
                "hall-{}-{:02}-{:02}.jsonl",
                d / 10_000,
                d / 100 % 100,
                d % 100
            ))
        })
    }

    /// What to do with an open game whose seed file is lost.
    pub fn lost_seed(&self) -> bingomint::hall::shell::LostSeed {
        if self.void_lost_game {
            bingomint::hall::shell::LostSeed::Void
        } else {
            bingomint::hall::shell::LostSeed::Refuse
        }
    }
}
