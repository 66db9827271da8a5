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
        return super::raw_hall::hall(args, bytes);
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
        let mut stdout = std::io::BufWriter::new(Counted::stdout());
        audit::raw::write(spec, seed, dump, bytes, &mut stdout)
            .context("cannot write to standard output")?;
        let _ = stdout.flush();
        stdout.get_ref().taken
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
        let about = format!("{what} ({}, seed {seed})", spec.made(2));
        eprintln!("bingomint: {}", piped(written, bytes, &about));
    }
    Ok(Outcome::Success)
}

/// Standard output, counting the bytes it took (what a reader can have
/// read before closing the pipe).
pub struct Counted {
    out: std::io::StdoutLock<'static>,
    pub taken: u64,
}

impl Counted {
    pub fn stdout() -> Counted {
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
pub fn piped(written: u64, bytes: u64, about: &str) -> String {
    if written < bytes {
        format!(
            "the reader closed the pipe: stopped after {written} of the {bytes} bytes asked of {about}"
        )
    } else {
        format!("wrote {written} bytes of {about}")
    }
}
