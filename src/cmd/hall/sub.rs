//! `hall`'s subcommands (`verify`, `report`, `cert`, `tables`) and the
//! ball source.

use std::path::PathBuf;

/// Where a night's balls come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Balls {
    Rng,
    Blower,
}

#[derive(clap::Subcommand)]
pub enum Sub {
    /// The night's record from its log: every game's name, paper,
    /// patterns and specials, each call with its time and source, recalls,
    /// claims, winners and payouts, the commitment and revealed seed (or
    /// the blower), and the night's total. The log is verified first: a
    /// broken log exits 1 naming the line, and no report is written.
    #[command(after_help = "\
Examples:
  bingomint hall report friday.jsonl --cards cards.bmc \\
      --out night.html                              # needs: a night's log
  bingomint hall report friday.jsonl --cards cards.bmc \\
      --out night.csv                               # needs: a night's log
  bingomint hall report friday.jsonl --cards cards.bmc --slips \\
      --out slips.html                              # needs: a night's log
  bingomint hall report friday.jsonl --cards cards.bmc --form wa-daily \\
      --out daily.html                              # needs: a night of sales
  bingomint hall report friday.jsonl --cards cards.bmc --form w2g \\
      --out w2g.html                                # needs: a night's log
  bingomint hall report --period 2026-10-01..2026-12-31 n1.jsonl n2.jsonl \\
      --cards cards.bmc --out q4.csv                # needs: the nights' logs
  bingomint hall report --period 2026-10-01..2026-12-31 n1.jsonl n2.jsonl \\
      --cards cards.bmc --form uk-duty --out duty.html  # needs: the logs
  bingomint hall report --stock stock.jsonl --out stock.html  # needs: a stock book")]
    Report(super::report::Args),
    /// Check a night's log: its chain, every game's calls against its
    /// revealed seed, every claim judged again, every sale, return and
    /// void against the products' prices and the faces issued. With
    /// --jackpots, the nights' logs in order against the ledger that
    /// carried their progressive jackpots. With --stock, the nights' sales
    /// against the paper stock book they sold from. With --link, a venue's night
    /// against the linked game's records the venue kept: the sales the
    /// control booked are the night's own, every payout on a face it sold.
    /// Exit 0, or 1 naming the first bad line.
    #[command(after_help = "\
Examples:
  bingomint hall verify friday.jsonl --cards cards.bmc   # needs: a night's log
  bingomint hall verify night1.jsonl night2.jsonl --cards cards.bmc \\
      --jackpots jackpots.jsonl                     # needs: the nights' logs
  bingomint hall verify tue.jsonl fri.jsonl --cards cards.bmc \\
      --stock stock.jsonl                           # needs: the nights' logs
  bingomint hall verify friday.jsonl --cards stock.bmc \\
      --link leeds-link.jsonl --control KEY       # needs: a linked night")]
    Verify {
        /// The log (several: nights whose jackpots one ledger carried).
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<PathBuf>,
        /// The card files the nights played.
        #[arg(long = "cards", value_name = "FILE", required = true)]
        cards: Vec<PathBuf>,
        /// The progressive jackpots' ledger the nights wrote to.
        #[arg(long, value_name = "FILE")]
        jackpots: Option<PathBuf>,
        /// The paper stock book the nights sold from: each night's faces
        /// sold are those the book holds issued to it.
        #[arg(long, value_name = "FILE")]
        stock: Option<PathBuf>,
        #[command(flatten)]
        link: super::verify::Linked,
    },
    /// Make a self-signed TLS certificate and key for a venue without a
    /// domain: DIR/hall-cert.pem and DIR/hall-key.pem (mode 0600). Start
    /// the hall with them; phones are asked once to trust the certificate
    /// (its SHA-256 fingerprint is printed, to check against).
    #[command(after_help = "\
Examples:
  bingomint hall cert --host hall.local --host 192.168.1.20 --out tls
  bingomint hall --cards cards.bmc --listen 0.0.0.0:8443 \\
      --tls-cert tls/hall-cert.pem \\
      --tls-key tls/hall-key.pem                    # serves until stopped")]
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
    /// Table cards that tell phones how to find the hall: the night's
    /// title, the table's number, the players' address as a QR code and as
    /// text, and what to do; two to a page, to cut apart. The address is
    /// the one the hall prints (this machine's network address and the
    /// --listen port), or --url.
    #[command(after_help = "\
Examples:
  bingomint hall tables --listen 8075 --title 'Friday bingo' \\
      --tables 12 --out tables.pdf                  # needs: a network address
  bingomint hall tables --url http://192.168.1.20:8075/play \\
      --wifi 'Hall guests' --paper a4 --out tables.pdf")]
    Tables(super::tables::Args),
    /// The paper stock book kept across sessions: paper received by
    /// serial range and series, destroyed; sessions issue from it as they
    /// sell (hall --stock), and `hall report --stock` lists it.
    Stock(super::stock::Args),
}
