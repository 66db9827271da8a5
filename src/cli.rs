//! The command line: the top-level parser and the list of subcommands, each
//! defined beside its command in `cmd/` (its `Args` and its `run`).

use crate::cmd::{self, Outcome};
use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  bingomint generate --count 10000000 --out cards.bmc
  bingomint generate --count 800000 --seed 42 --star --format v3 --out cards.dat
  bingomint generate --count 100000 --seed 42 --exclude cards.bmc --out more.bmc
  bingomint info cards.bmc
  bingomint show cards.bmc --card 66057
  bingomint verify cards.bmc
  bingomint export cards.bmc --format txt --range 1..1000 \\
      --out first-thousand.txt
  bingomint generate --game 90 --count 1000000 --out strips.bmc
  bingomint show strips.bmc --strip 12
  bingomint count --game 90
  bingomint boards --set data/sample-goals.json --size 5x5 --seed MV2XRO
  bingomint boards --set data/sample-goals.json --count 100000 --seed s1 \\
      --format jsonl --out boards.jsonl
  bingomint calls --game 75 --seed friday-game-3 --count 40 > calls.txt
  bingomint check cards.bmc --card 4711 --calls-file calls.txt --pattern line
  bingomint winners cards.bmc --calls-file calls.txt --pattern x --range 1..9000
  bingomint simulate --game 75 --cards 1000 --pattern coverall --games 100000
  bingomint print cards.bmc --layout 6 --series 'Autumn 24-B' --out cards.pdf
  bingomint audit cards.bmc
  bingomint hall --cards cards.bmc        # serves until stopped
  bingomint import data/import/perms.csv --by columns --out perms.bmc";

/// Mint millions of unique, fairly drawn bingo cards (US 75- and 80-ball),
/// strips (UK 90-ball), cards of words, pictures or songs (items games), and
/// objective boards for game bingo (Lockout goal sets): fast, reproducible
/// from a seed, and verifiable card by card.
#[derive(Parser)]
#[command(name = "bingomint", version, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    Generate(cmd::generate::Args),
    Info(cmd::info::Args),
    Show(cmd::show::Args),
    Verify(cmd::verify::Args),
    Export(cmd::export::Args),
    Count(cmd::count::Args),
    Boards(cmd::boards::Args),
    Calls(cmd::calls::Args),
    Check(cmd::check::Args),
    Winners(cmd::winners::Args),
    Simulate(cmd::simulate::Args),
    Patterns(cmd::patterns::Args),
    Print(cmd::print::Args),
    Audit(cmd::audit::Args),
    Hall(cmd::hall::Args),
    Link(cmd::link::Args),
    Import(cmd::import::Args),
}

impl Command {
    /// Runs the command.
    pub fn run(self) -> anyhow::Result<Outcome> {
        match self {
            Command::Generate(args) => cmd::generate::run(args),
            Command::Info(args) => cmd::info::run(args),
            Command::Show(args) => cmd::show::run(args),
            Command::Verify(args) => cmd::verify::run(args),
            Command::Export(args) => cmd::export::run(args),
            Command::Count(args) => cmd::count::run(args),
            Command::Boards(args) => cmd::boards::run(args),
            Command::Calls(args) => cmd::calls::run(args),
            Command::Check(args) => cmd::check::run(args),
            Command::Winners(args) => cmd::winners::run(args),
            Command::Simulate(args) => cmd::simulate::run(args),
            Command::Patterns(args) => cmd::patterns::run(args),
            Command::Print(args) => cmd::print::run(args),
            Command::Audit(args) => cmd::audit::run(args),
            Command::Hall(args) => cmd::hall::run(args),
            Command::Link(args) => cmd::link::run(args),
            Command::Import(args) => cmd::import::run(args),
        }
    }
}
