//! `link`'s flags and their help.

use anyhow::{anyhow, Result};
use bingomint::link::bus::Broker;
use std::path::PathBuf;

/// Link venues into one game: a control runs it, each venue sells its
/// allotted faces, calls the sealed order in its room and claims; the
/// fewest calls across the network wins, ties share the prize to the cent.
///
/// The broker (NATS JetStream, NATS_URL) carries the messages; the
/// network's books are in PostgreSQL (DATABASE_URL); the control's records
/// are signed and chained, so a venue trusts neither the broker nor the
/// network. `scripts/network.sh start DIR` starts both servers on this
/// machine and writes DIR/network.env.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint link key --out control.key      # prints the public key
  bingomint link control data/link/network.toml --key control.key \\
      --log control.jsonl       # needs: NATS_URL, DATABASE_URL, a stock
  bingomint link venue data/link/venue.toml \\
      --log leeds.jsonl         # needs: NATS_URL, the control's key pinned
  bingomint link verify control.jsonl --control PUBLIC-KEY \\
      --stock stock.bmc         # needs: a control's log
  scripts/link-demo.sh demo     # needs: the repository; plays it all")]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(clap::Subcommand)]
pub enum Sub {
    /// Make the control's signing key (Ed25519); prints the public key
    /// every venue file pins.
    Key {
        /// Where to write the secret key (readable by its owner only).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Replace an existing key file.
        #[arg(long)]
        force: bool,
    },
    /// Run a national game for the venues of a network file.
    Control {
        /// The network file: the game, its stock, pattern, prize, venues.
        network: PathBuf,
        /// The control's signing key (`link key`).
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        /// The control's log: every record it signed (a new file).
        #[arg(long, value_name = "FILE")]
        log: PathBuf,
        #[command(flatten)]
        servers: Servers,
    },
    /// Play a venue's part in a linked game.
    Venue {
        /// The venue file: the venue, the game, its stock, the control's
        /// public key, the faces sold and their price.
        venue: PathBuf,
        /// The venue's log of the control's records; given again after a
        /// crash, the venue checks it and carries on.
        #[arg(long, value_name = "FILE")]
        log: PathBuf,
        /// Seconds to wait for the control's next record.
        #[arg(long, value_name = "SECS", default_value_t = 3600)]
        wait: u64,
        /// Append a line a record to FILE: its place, kind, when the
        /// control signed it and when this venue took it (ms since the
        /// epoch), for measuring a network.
        #[arg(long, value_name = "FILE")]
        timings: Option<PathBuf>,
        #[command(flatten)]
        servers: Servers,
    },
    /// Check a control's log: its chain, its sums and winners, against the
    /// stock, the books and the venues' logs. Exits 1 when anything
    /// disagrees.
    Verify {
        /// The control's log.
        log: PathBuf,
        /// The control's public key (64 hex digits).
        #[arg(long, value_name = "HEX")]
        control: String,
        /// The stock, to judge every claim again.
        #[arg(long, value_name = "FILE")]
        stock: Option<PathBuf>,
        /// A venue's log, which must be the control's records unchanged.
        #[arg(long = "venue-log", value_name = "FILE")]
        venue_logs: Vec<PathBuf>,
        /// The network's books, which must hold what the log says.
        #[arg(long, value_name = "URL", env = "DATABASE_URL")]
        database: Option<String>,
    },
}

#[derive(clap::Args)]
pub struct Servers {
    /// The NATS server (JetStream on).
    #[arg(long, value_name = "URL", env = "NATS_URL")]
    nats: Option<String>,
    /// Servers that keep each copy of a game's messages (3 on a cluster of
    /// three).
    #[arg(long, value_name = "N", env = "NATS_REPLICAS", default_value_t = 1)]
    pub replicas: usize,
    /// The network's JetStream domain, for a venue that connects through
    /// its own leaf server (`scripts/network.sh leaf`): the leaf carries
    /// the game's messages to and from the network's servers.
    #[arg(long, value_name = "DOMAIN", env = "NATS_DOMAIN")]
    domain: Option<String>,
    /// The network's books (PostgreSQL), control only.
    #[arg(long, value_name = "URL", env = "DATABASE_URL")]
    database: Option<String>,
}

impl Servers {
    /// The NATS servers, the replicas a stream keeps, the domain.
    pub fn nats(&self) -> Result<Broker<'_>> {
        anyhow::ensure!((1..=5).contains(&self.replicas), "--replicas: give 1 to 5");
        let url = self.nats.as_deref().ok_or_else(|| {
            anyhow!("--nats URL: name the NATS server (or set NATS_URL; scripts/network.sh start DIR writes it)")
        })?;
        let domain = self.domain.as_deref().filter(|d| !d.is_empty());
        if let Some(d) = domain {
            anyhow::ensure!(
                bingomint::text::is_id(d),
                "--domain {d:?}: give the network's JetStream domain as its servers name it (letters, digits, '-', '_')"
            );
        }
        Ok(Broker {
            url,
            replicas: self.replicas,
            domain,
        })
    }
    pub fn database(&self) -> Result<&str> {
        self.database.as_deref().ok_or_else(|| {
            anyhow!("--database URL: name the network's books (or set DATABASE_URL; scripts/network.sh start DIR writes it)")
        })
    }
}
