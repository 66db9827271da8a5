//! `bingomint audit`: the statistical battery on a card file or on the
//! calls → `audit::{cards, calls}` → Holm's verdict → the report files and
//! a one-line summary; or, with --raw, the generator's output for a lab.

mod args;
mod calls;
mod cards;
mod raw;
mod raw_hall;

use super::{outln, with_threads, Outcome};
use anyhow::{Context, Result};
pub use args::Args;
use bingomint::audit::{report, Battery};
use bingomint::cardfile::header::today;
use bingomint::cardfile::writer::TempOutput;
use std::io::Write;
use std::path::Path;

/// Runs `audit`.
pub fn run(args: Args) -> Result<Outcome> {
    args.check()?;
    if let Some(bytes) = args.raw {
        return raw::raw(&args, bytes);
    }
    let (mut battery, about, game) = if args.calls {
        calls::calls(&args)?
    } else {
        cards::cards(&args)?
    };
    battery.judge(args.alpha);
    let dir = args.report_dir(&game);
    write_report(&dir, &battery, &about, args.force)?;
    summary(&battery, &dir, args.quiet)
}

/// Writes DIR/report.html and DIR/report.json, each whole or not at all.
fn write_report(
    dir: &Path,
    battery: &Battery,
    about: &[(String, String)],
    force: bool,
) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the report directory '{}'", dir.display()))?;
    let json = serde_json::to_string_pretty(&report::json(battery, about))? + "\n";
    let html = report::html(battery, about);
    let files = [("report.json", json), ("report.html", html)];
    // Refuse before writing either, so a refusal leaves no half report.
    for (name, _) in &files {
        use bingomint::cardfile::writer::WriteError;
        bingomint::cardfile::writer::refuse_existing(&dir.join(name), force).map_err(|e| {
            // --force replaces a report, never what stands in its way.
            let fix = match e {
                WriteError::Exists(_) => "add --force to replace the report",
                _ => "move it away, or give --out another folder",
            };
            anyhow::anyhow!("{e} (in --out '{}'; {fix})", dir.display())
        })?;
    }
    for (name, text) in files {
        let path = dir.join(name);
        let (guard, mut file) = TempOutput::new(&path, force)?;
        file.write_all(text.as_bytes())
            .with_context(|| super::cannot_write(Some(&path)))?;
        guard.publish(&file)?;
    }
    Ok(())
}

/// The verdict line (and, unless quiet, the rejected tests): exit 0 on a
/// pass, 1 on a fail.
fn summary(battery: &Battery, dir: &Path, quiet: bool) -> Result<Outcome> {
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
    let report = dir.join("report.html");
    let tests = bingomint::text::count_of(battery.tests.len() as u64, "test");
    if battery.passed() {
        outln!(
            "PASS: {}: {tests}, none rejected at α = {} (Holm); report in {}",
            battery.subject,
            battery.alpha,
            report.display()
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
        "FAIL: {}: {} at α = {} (Holm); report in {}",
        battery.subject,
        what.join("; "),
        battery.alpha,
        report.display()
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
