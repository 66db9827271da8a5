//! `hall report`'s flags.

use std::path::PathBuf;

/// `hall report`'s flags.
#[derive(clap::Args)]
pub struct Args {
    /// The log (several, with --period).
    #[arg(required_unless_present = "stock", value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// The card files the night played.
    #[arg(long = "cards", value_name = "FILE", required_unless_present = "stock")]
    pub cards: Vec<PathBuf>,
    /// The report: .html (a page to print), .csv (a row per event) or
    /// .json, by its extension; - writes HTML to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// Winner slips instead of the record: a page per prize paid (not
    /// voided), each winner's face with the numbers called by then
    /// marked and the last ball ringed, the share, and lines to sign;
    /// HTML. A night that paid nothing has none (exit 1).
    #[arg(long)]
    pub slips: bool,
    /// A regulator's form instead of the record: wa-daily, Washington's
    /// bingo daily record (WAC 230-10-335) with its per-set records, for a
    /// night that sold by serial range; w2g, the winners' shares a US hall
    /// reports on Form W-2G; uk-duty (with --period), a UK bingo duty
    /// return's figures. HTML.
    #[arg(long, value_enum, value_name = "FORM", conflicts_with = "slips")]
    pub form: Option<Form>,
    /// Sum the sessions of LOG… whose date is within FROM..TO
    /// (2026-10-01..2026-12-31): a row per session and the totals.
    #[arg(long, value_name = "FROM..TO", conflicts_with = "slips")]
    pub period: Option<String>,
    /// Prizes of this amount or more are counted apart (and, in
    /// wa-daily, prizes over it list their calls and cards; w2g lists each
    /// winner's share of it or more). Default 200.00; 1200.00 for w2g.
    #[arg(long, value_name = "AMOUNT")]
    pub threshold: Option<String>,
    /// A linked game's records as the venue kept them (`link venue
    /// --log`): the report adds the venue's part of the game and the
    /// network's (takings, prize, what was paid here). Repeat for more.
    #[arg(long = "link", value_name = "LOG", requires = "control", conflicts_with_all = ["slips", "form", "period"])]
    pub link_logs: Vec<PathBuf>,
    /// The control's public key (64 hex digits), with --link.
    #[arg(long, value_name = "HEX", requires = "link_logs")]
    pub control: Option<String>,
    /// The paper stock book instead of a night: each card file's paper
    /// received (by range and series), each session's sold and come back,
    /// destroyed, and on hand; its chain verified first.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["logs", "slips", "form", "period", "link_logs"])]
    pub stock: Option<PathBuf>,
    /// Show times in this time zone of the IANA database
    /// (America/Los_Angeles, Europe/London) [default: the zone the night
    /// file states (`zone = "…"`), else UTC as logged].
    #[arg(long, value_name = "ZONE")]
    pub zone: Option<String>,
    /// Replace an existing report.
    #[arg(long)]
    pub force: bool,
    /// No summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Args {
    /// `--zone`, read.
    pub fn zone(&self) -> anyhow::Result<Option<bingomint::hall::zone::Zone>> {
        (self.zone.as_deref())
            .map(|z| {
                bingomint::hall::zone::Zone::parse(z).map_err(|e| anyhow::anyhow!("--zone: {e}"))
            })
            .transpose()
    }
}

/// A regulator's form `hall report` fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Form {
    /// Washington's bingo daily record (WAC 230-10-335).
    WaDaily,
    /// The prizes for IRS Form W-2G: each winner's share at or over
    /// --threshold (default 1200.00), with lines for the winner's details.
    W2g,
    /// The figures of a UK bingo duty return for --period FROM..TO:
    /// stakes, prizes, promotion profits and the duty at 10%.
    UkDuty,
}
