//! `bingomint audit`: the statistical battery on a card file or on the
//! calls → `audit::{cards, calls}` → Holm's verdict → the report files and
//! a one-line summary; or, with --raw, the generator's output for a lab.

mod args;
mod calls;
mod cards;
mod files;
mod raw;
mod raw_hall;
mod union;

use super::{outln, with_threads, Outcome};
use anyhow::{Context, Result};
pub use args::Args;
use bingomint::audit::Battery;
use bingomint::cardfile::header::today;
use std::path::Path;

/// Runs `audit`.
pub fn run(args: Args) -> Result<Outcome> {
    args.check()?;
    if let Some(bytes) = args.raw {
        return raw::raw(&args, bytes);
    }
    let (mut battery, about, game) = if args.calls {
        calls::calls(&args)?
    } else if !args.with.is_empty() {
        union::union(&args)?
    } else {
        cards::cards(&args)?
    };
    battery.judge(args.alpha);
    let files = files::report_files(&args, &game)?;
    files::write_report(&files, &battery, &about, args.force)?;
    let paths: Vec<&Path> = files.iter().map(|(path, _)| path.as_path()).collect();
    summary(&battery, &paths, args.quiet)
}

/// The verdict line (and, unless quiet, the rejected tests): exit 0 on a
/// pass, 1 on a fail.
fn summary(battery: &Battery, files: &[&Path], quiet: bool) -> Result<Outcome> {
    let rejected = battery.rejected();
    let failed_checks: Vec<_> = battery.checks.iter().filter(|c| !c.passed).collect();
    if !quiet {
        for c in &battery.checks {
            outln!(
                "{:<11} {}",
                if c.passed { "ok" } else { "FAILED" },
                c.detail
            );
        }
        for t in rejected.iter().take(10) {
            outln!(
                "rejected    {} (p = {:.3e}, Holm p = {:.3e})",
                t.name,
                t.p,
                t.adjusted
            );
        }
        if rejected.len() > 10 {
            outln!("            … and {} more", rejected.len() - 10);
        }
    }
    let report = files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let tests = bingomint::text::count_of(battery.tests.len() as u64, "test");
    if battery.passed() {
        outln!(
            "PASS: {}: {tests}, none rejected at α = {} (Holm); report in {report}",
            battery.subject,
            battery.alpha,
        );
        return Ok(Outcome::Success);
    }
    let families: Vec<&str> = battery.failed_families().iter().map(|f| f.name()).collect();
    let mut what = Vec::new();
    if !rejected.is_empty() {
        what.push(format!(
            "{} of {tests} rejected ({})",
            rejected.len(),
            families.join(", ")
        ));
    }
    what.extend(failed_checks.iter().map(|c| format!("{} failed", c.name)));
    outln!(
        "FAIL: {}: {} at α = {} (Holm); report in {report}",
        battery.subject,
        what.join("; "),
        battery.alpha,
    );
    Ok(Outcome::Negative)
}

/// Runs `work` on the pool `--threads` asks for.
pub fn pooled<T: Send>(args: &Args, work: impl FnOnce() -> T + Send) -> Result<T> {
    with_threads(args.threads, work)
}

/// What an audit was of: (what, value) lines for the report's header.
type About = Vec<(String, String)>;

/// The binary and the day of the audit.
pub fn auditor(args: &Args) -> Result<About> {
    let exe = std::env::current_exe().context("cannot find this program's own file")?;
    let sha = bingomint::input::sha256_file(&exe)
        .with_context(|| format!("cannot read '{}'", exe.display()))?;
    Ok(vec![
        (
            "audited by".into(),
            format!("bingomint {}", env!("CARGO_PKG_VERSION")),
        ),
        ("binary SHA-256".into(), sha),
        ("audited on".into(), bingomint::text::iso_date(today()?)),
        ("alpha".into(), args.alpha.to_string()),
    ])
}
