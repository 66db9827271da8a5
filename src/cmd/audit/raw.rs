//! `--raw`: the generator's own output for a lab's batteries.

use super::Args;
use crate::cmd::{outln, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::audit;
use bingomint::cardfile::{writer::TempOutput, CardFile};
use bingomint::game::Spec;
use bingomint::seed::Seed;
use std::io::Write;

/// --raw: the generator's words (or, --scaled, the numbers) to --out.
pub fn raw(args: &Args, bytes: u64) -> Result<Outcome> {
    if args.generator == super::args::Generator::Hall {
        return hall(args, bytes);
    }
    let (spec, seed) = match &args.file {
        Some(path) => {
            let file = CardFile::open(path)?;
            let seed = match (&args.seed, file.header().seed) {
                (Some(text), _) => Seed::parse(text).value,
                (None, Some(seed)) => seed,
                (None, None) => {
                    anyhow::bail!("'{}' records no seed (v3 layout); give --seed", file.path())
                }
            };
            (file.header().spec, seed)
        }
        None => {
            let game = args.game.as_deref().unwrap_or("75");
            let spec = Spec::named(game).context("--game: choose one of the games listed")?;
            let seed = match &args.seed {
                Some(text) => Seed::parse(text),
                None => {
                    Seed::from_entropy().context("cannot read a seed from the operating system")?
                }
            };
            (spec, seed.value)
        }
    };
    let dump = if args.scaled {
        audit::raw::Dump::Scaled
    } else {
        audit::raw::Dump::Raw
    };
    let out = args.out.as_deref().expect("checked: --raw has --out");
    let what = if args.scaled {
        "numbers as drawn"
    } else {
        "raw xoshiro256++ words"
    };
    let written = if out.as_os_str() == "-" {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        audit::raw::write(spec, seed, dump, bytes, &mut stdout)
            .context("cannot write to standard output")?
    } else {
        let (guard, file) = TempOutput::new(out, args.force)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let n = audit::raw::write(spec, seed, dump, bytes, &mut w)
            .with_context(|| crate::cmd::cannot_write(Some(out)))?;
        w.flush()
            .with_context(|| crate::cmd::cannot_write(Some(out)))?;
        let file = w.into_inner().map_err(|e| anyhow!("{}", e.error()))?;
        guard.publish(&file)?;
        outln!(
            "wrote {n} bytes of {what} ({}, seed {seed}) to {}",
            spec.made(2),
            out.display()
        );
        return Ok(Outcome::Success);
    };
    if !args.quiet {
        eprintln!(
            "bingomint: wrote {written} bytes of {what} ({}, seed {seed})",
            spec.made(2)
        );
    }
    Ok(Outcome::Success)
}

/// `--raw --generator hall`: the live calls' generator. Raw: the ChaCha20
/// keystream under the key of the seed (no room seed), as the hall's draws
/// read it. Scaled: the call orders of game 0, 1, … (each seeded as
/// `audit --calls --generator hall` seeds game g), one byte a call.
fn hall(args: &Args, bytes: u64) -> Result<Outcome> {
    use bingomint::play::live;
    anyhow::ensure!(
        args.file.is_none(),
        "--generator hall: a card file is minted by the mint generator; leave out the file (or --generator)"
    );
    let game = args.game.as_deref().unwrap_or("75");
    let balls = Spec::named(game)
        .context("--game: choose one of the games listed")?
        .balls();
    let seed = match &args.seed {
        Some(text) => text.clone(),
        None => {
            bingomint::hall::fresh_seed().context("cannot read a seed from the operating system")?
        }
    };
    let out = args.out.as_deref().expect("checked: --raw has --out");
    let write = |w: &mut dyn Write| -> std::io::Result<u64> {
        let mut left = bytes;
        let mut buffer = vec![0u8; 1 << 16];
        let mut words = live::Words::new(live::key(&seed, ""));
        let mut g = 0u64;
        while left > 0 {
            let n = if args.scaled {
                buffer.clear();
                while buffer.len() < 1 << 16 {
                    let order = live::order(balls, &audit::calls::hall_seed(&seed, g), "");
                    buffer.extend_from_slice(&order);
                    g += 1;
                }
                buffer.len()
            } else {
                buffer.resize(1 << 16, 0);
                words.fill(&mut buffer);
                buffer.len()
            };
            let n = (n as u64).min(left) as usize;
            match w.write_all(&buffer[..n]) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
                r => r?,
            }
            left -= n as u64;
        }
        w.flush()?;
        Ok(bytes - left)
    };
    let what = if args.scaled {
        "call orders as a live hall draws them"
    } else {
        "raw ChaCha20 keystream of the hall's generator"
    };
    let written = if out.as_os_str() == "-" {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        write(&mut stdout).context("cannot write to standard output")?
    } else {
        let (guard, file) = TempOutput::new(out, args.force)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let n = write(&mut w).with_context(|| crate::cmd::cannot_write(Some(out)))?;
        let file = w.into_inner().map_err(|e| anyhow!("{}", e.error()))?;
        guard.publish(&file)?;
        outln!(
            "wrote {n} bytes of {what} (seed {seed}) to {}",
            out.display()
        );
        return Ok(Outcome::Success);
    };
    if !args.quiet {
        eprintln!("bingomint: wrote {written} bytes of {what} (seed {seed})");
    }
    Ok(Outcome::Success)
}
