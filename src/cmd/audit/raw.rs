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
        let (about, stream) = super::raw_hall::stream(args, bytes)?;
        return emit(args, bytes, &about, stream);
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
    let (dump, what) = if args.scaled {
        (audit::raw::Dump::Scaled, "numbers as drawn")
    } else {
        (audit::raw::Dump::Raw, "raw xoshiro256++ words")
    };
    let about = format!("{what} ({}, seed {seed})", spec.made(2));
    emit(args, bytes, &about, |w: &mut dyn Write| {
        audit::raw::write(spec, seed, dump, bytes, w)
    })
}

/// Writes `bytes` bytes of a generator's output (`about` says what) to
/// --out: standard output, saying on stderr how much the reader took, or
/// a file, published whole or not at all.
fn emit(
    args: &Args,
    bytes: u64,
    about: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<u64>,
) -> Result<Outcome> {
    let out = args.out[0].as_path();
    if out.as_os_str() == "-" {
        let mut stdout = std::io::BufWriter::new(Counted::stdout());
        write(&mut stdout).context("cannot write to standard output")?;
        let _ = stdout.flush();
        if !args.quiet {
            let taken = stdout.get_ref().taken;
            eprintln!("bingomint: {}", piped(taken, bytes, about));
        }
        return Ok(Outcome::Success);
    }
    let (guard, file) = TempOutput::new(out, args.force)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let n = write(&mut w).with_context(|| crate::cmd::cannot_write(Some(out)))?;
    w.flush()
        .with_context(|| crate::cmd::cannot_write(Some(out)))?;
    let file = w.into_inner().map_err(|e| anyhow!("{}", e.error()))?;
    guard.publish(&file)?;
    outln!("wrote {n} bytes of {about} to {}", out.display());
    Ok(Outcome::Success)
}

/// Standard output, counting the bytes it took (what a reader can have
/// read before closing the pipe).
struct Counted {
    out: std::io::StdoutLock<'static>,
    taken: u64,
}

impl Counted {
    fn stdout() -> Counted {
        Counted {
            out: std::io::stdout().lock(),
            taken: 0,
        }
    }
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.taken += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What `--out -` did: all `bytes` written, or stopped when the reader
/// closed the pipe (`written`: what the pipe took before it closed).
fn piped(written: u64, bytes: u64, about: &str) -> String {
    if written < bytes {
        format!(
            "the reader closed the pipe: stopped after {written} of the {bytes} bytes asked of {about}"
        )
    } else {
        format!("wrote {written} bytes of {about}")
    }
}
