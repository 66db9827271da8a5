//! `--raw --generator hall`: the live calls' generator's own output.

use super::Args;
use anyhow::{Context, Result};
use bingomint::audit;
use bingomint::game::Spec;
use std::io::Write;

/// `--raw --generator hall`: the live calls' generator. Raw: the ChaCha20
/// keystream under the key of the seed (no room seed), as the hall's draws
/// read it. Scaled: the call orders of game 0, 1, … (each seeded as
/// `audit --call-orders --generator hall` seeds game g), one byte a call.
/// Returns what the stream is, and the writer of its first `bytes` bytes.
pub fn stream(
    args: &Args,
    bytes: u64,
) -> Result<(String, impl FnOnce(&mut dyn Write) -> std::io::Result<u64>)> {
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
    let scaled = args.scaled;
    let what = if scaled {
        "call orders as a live hall draws them"
    } else {
        "raw ChaCha20 keystream of the hall's generator"
    };
    let about = format!("{what} (seed {seed})");
    let write = move |w: &mut dyn Write| -> std::io::Result<u64> {
        let mut left = bytes;
        let mut buffer = vec![0u8; 1 << 16];
        let mut words = live::Words::new(live::key(&seed, ""));
        let mut g = 0u64;
        while left > 0 {
            let n = if scaled {
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
    Ok((about, write))
}
