//! `hall`'s flags and their help.

pub use super::daub::Daub;
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
  bingomint hall --cards cards.bmc
  bingomint hall --cards cards.bmc --sold 1..5000 --log friday.jsonl
  bingomint hall --cards cards.bmc --daub assist --listen 0.0.0.0:8443 \\
      --tls-cert tls/hall-cert.pem --tls-key tls/hall-key.pem
  bingomint hall verify friday.jsonl --cards cards.bmc
  bingomint calls --game 75 --seed hall2-5e1f…c09a --room-seed 'table 4'"
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
    /// other machines in (the board on a second computer).
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

    /// How players' phones (/play) mark called numbers: manual (players
    /// tap; a Catch up button marks what was called; halls that require
    /// players to mark their own), assist (called numbers glow, players
    /// tap), auto (marked as called).
    #[arg(long, value_enum, value_name = "RULE", default_value_t = Daub::Manual)]
    pub daub: Daub,

    /// When the log's open game has lost its seed file (LOG.seed), end
    /// that game unrevealed, logged as such (its calls can then never be
    /// checked), and go on with the night.
    #[arg(long)]
    pub void_lost_game: bool,
}

#[derive(clap::Subcommand)]
pub enum Sub {
    /// Check a night's log: its chain, every game's calls against its
    /// revealed seed, every claim judged again. Exit 0, or 1 naming the
    /// first bad line.
    Verify {
        /// The log.
        log: PathBuf,
        /// The card files the night played.
        #[arg(long = "cards", value_name = "FILE", required = true)]
        cards: Vec<PathBuf>,
    },
    /// Make a self-signed TLS certificate and key for a venue without a
    /// domain: DIR/hall-cert.pem and DIR/hall-key.pem (mode 0600). Start
    /// the hall with them; phones are asked once to trust the certificate
    /// (its SHA-256 fingerprint is printed, to check against).
    #[command(after_help = "\
Examples:
  bingomint hall cert --host hall.local --host 192.168.1.20 --out tls
  bingomint hall --cards cards.bmc --listen 0.0.0.0:8443 \\
      --tls-cert tls/hall-cert.pem --tls-key tls/hall-key.pem")]
    Cert {
        /// A name or address the hall is reached by (repeat for more);
        /// localhost and 127.0.0.1 are always included.
        #[arg(long = "host", value_name = "NAME")]
        hosts: Vec<String>,
        /// The folder to write the pair into.
        #[arg(short, long, value_name = "DIR")]
        out: PathBuf,
        /// Replace an existing pair.
        #[arg(long)]
        force: bool,
    },
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
    pub fn lost_seed(&self) -> bingomint::hall::LostSeed {
        if self.void_lost_game {
            bingomint::hall::LostSeed::Void
        } else {
            bingomint::hall::LostSeed::Refuse
        }
    }
}
