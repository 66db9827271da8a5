//! `bingomint import`: other makers' card and ticket files as a card file.
//!
//! Flags → a game and options → `import::import` (judge, then write) →
//! a summary, the warnings, and where the faces' numbers came from.

use super::{clear_stale, not_an_input, outln, spec_from_flags, Bar, Outcome};
mod args;

use anyhow::{bail, Result};
pub use args::Args;
use bingomint::import::read::Layout;
use bingomint::import::{import, Duplicates, ImportError, Imported, Options, Shape, Source};

/// Runs `import`.
pub fn run(args: Args) -> Result<Outcome> {
    let loose = args.rules.as_deref() == Some("loose");
    let rules = args.rules.as_deref().filter(|_| !loose);
    not_an_input(&args.out, "--out", &[&args.file])?;
    if let Some(kind) = bingomint::input::irregular(&args.file) {
        bail!(
            "'{}' is {kind}: import reads its source twice (judge, then write), so it needs a \
             regular file; save the data to a file first (e.g. `… > cards.csv`) and import that",
            args.file.display()
        );
    }
    if !args.file.exists() {
        bail!("'{}': no such file to import", args.file.display());
    }
    let named = match &args.game {
        Some(game) => game.clone(),
        None => sniffed(&args)?,
    };
    if loose && named != "90" {
        bail!(
            "--rules loose is for 90-ball tickets; {named}-ball cards have no layout rules to \
             loosen (each number must sit in its column's range)"
        );
    }
    let game = spec_from_flags(&named, rules, false)?;
    bingomint::cardfile::writer::refuse_existing(&args.out, args.force)?;
    clear_stale(Some(&args.out), args.force)?;
    let size = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let bar = Bar::new(2 * size, "byte", args.quiet);
    let tick = |n: u64| bingomint::pipeline::Progress::advance(&bar, n);
    let source = Source {
        path: &args.file,
        shape: Shape::of(game),
        columns: args.columns.as_deref(),
        by_columns: args.by == "columns",
        progress: &tick,
    };
    let options = Options {
        game,
        loose,
        layout: args.format.as_deref().and_then(Layout::named),
        renumber: args.renumber,
        duplicates: if args.duplicates == "drop" {
            Duplicates::Drop
        } else {
            Duplicates::Refuse
        },
        out: &args.out,
        force: args.force,
    };
    let started = std::time::Instant::now();
    let made = import(&source, &options);
    bar.finish();
    let made = made.map_err(|e| match e {
        ImportError::Write(e) => anyhow::Error::new(e),
        e => e.into(),
    })?;
    summary(&args, &made, started.elapsed().as_secs_f64(), args.quiet)?;
    Ok(Outcome::Success)
}

/// The game the source's first face reads as, said on stderr.
fn sniffed(args: &Args) -> Result<String> {
    let (none, shown) = (|_: u64| {}, args.file.display());
    let source = Source {
        path: &args.file,
        shape: Shape::of(bingomint::game::Spec::named("75").expect("a game")),
        columns: args.columns.as_deref(),
        by_columns: args.by == "columns",
        progress: &none,
    };
    let layout = args.format.as_deref().and_then(Layout::named);
    let Some(spec) = bingomint::import::sniff_game(&source, layout) else {
        bail!("'{shown}': its first face reads as no game's: name it with --game 75, 80 or 90");
    };
    let game = spec.short_name();
    if !args.quiet {
        eprintln!("bingomint: reading '{shown}' as {game}: its first face reads as one (--game chooses another)");
    }
    Ok(game.trim_end_matches("-ball").to_string())
}

/// The summary on stdout; what was loosened or dropped on stderr.
fn summary(args: &Args, made: &Imported, secs: f64, quiet: bool) -> Result<()> {
    let spec = made.spec;
    let numbers = made.numbers();
    if !quiet {
        outln!(
            "{} {} from '{}' ({}), {}s {numbers} ({}), {secs:.2} s -> {}",
            made.records,
            spec.made(made.records),
            args.file.display(),
            made.provenance.layout,
            spec.face_noun(),
            made.provenance.numbering,
            args.out.display()
        );
    }
    if let Some(note) = made.numbering_note().filter(|_| !quiet) {
        eprintln!("bingomint: note: '{}' {note}", args.file.display());
    }
    if let Some(why) = &made.not_strips {
        eprintln!("bingomint: kept as single tickets, not strips: {why}");
    }
    let report = |what: String, lines: &[String]| {
        eprintln!("bingomint: {what}:");
        for line in lines {
            eprintln!("  {line}");
        }
    };
    if made.provenance.breaking > 0 {
        let shown = made.breaking.len().min(10);
        report(
            format!(
                "{} break the uk layout rules, imported under --rules loose (valid to play){}",
                bingomint::text::count_of(made.provenance.breaking, spec.face_noun()),
                if made.provenance.breaking > shown as u64 {
                    format!("; the first {shown}")
                } else {
                    String::new()
                }
            ),
            &made.breaking[..shown],
        );
    }
    if !made.dropped.is_empty() {
        report(
            "duplicates dropped (--duplicates drop)".into(),
            &made.dropped,
        );
    }
    Ok(())
}
