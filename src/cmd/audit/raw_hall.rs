//! `--raw --generator hall`: the live calls' generator's own output.

use super::Args;
use crate::cmd::{outln, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::audit;
use bingomint::cardfile::writer::TempOutput;
use bingomint::game::Spec;
use std::io::Write;

/// `--raw --generator hall`: the live calls' generator. Raw: the ChaCha20
/// keystream under the key of the seed (no room seed), as the hall's draws
/// read it. Scaled: the call orders of game 0, 1, … (each seeded as
/// `audit --calls --generator hall` seeds game g), one byte a call.
pub fn hall(args: &Args, bytes: u64) -> Result<Outcome> {
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
        match w.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r?,
        }
        Ok(bytes - left)
    };
    let what = if args.scaled {
        "call orders as a live hall draws them"
    } else {
        "raw ChaCha20 keystream of the hall's generator"
    };
    let written = if out.as_os_str() == "-" {
        let mut stdout = std::io::BufWriter::new(super::raw::Counted::stdout());
        write(&mut stdout).context("cannot write to standard output")?;
        let _ = stdout.flush();
        stdout.get_ref().taken
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
        let about = format!("{what} (seed {seed})");
        eprintln!("bingomint: {}", super::raw::piped(written, bytes, &about));
    }
    Ok(Outcome::Success)
}
