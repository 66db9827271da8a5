//! Where `audit`'s report goes: its files (HTML, JSON) and their writing,
//! each whole or not at all.

use super::Args;
use anyhow::{Context, Result};
use bingomint::audit::{report, Battery};
use bingomint::cardfile::writer::TempOutput;
use std::io::Write;
use std::path::PathBuf;

/// The report's files and their formats: --out's, or beside the file.
pub fn report_files(args: &Args, game: &str) -> Result<Vec<(PathBuf, ReportFormat)>> {
    if !args.out.is_empty() {
        return args
            .out
            .iter()
            .map(|out| Ok((out.clone(), ReportFormat::of(out)?)))
            .collect();
    }
    let stem = match &args.file {
        Some(file) => file.as_os_str().to_owned(),
        None => format!("calls-{game}").into(),
    };
    let with = |ending: &str| {
        let mut name = stem.clone();
        name.push(ending);
        PathBuf::from(name)
    };
    Ok(vec![
        (with(".audit.html"), ReportFormat::Html),
        (with(".audit.json"), ReportFormat::Json),
    ])
}

/// A report file's format, by its name's ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Html,
    Json,
}

impl ReportFormat {
    /// The format `path` asks for by its ending, or an error naming --out.
    pub fn of(path: &std::path::Path) -> Result<ReportFormat> {
        let ending = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ending.as_deref() {
            Some("html") | Some("htm") => Ok(ReportFormat::Html),
            Some("json") => Ok(ReportFormat::Json),
            _ => anyhow::bail!(
                "--out '{}': name the report's file, ending .html or .json \
                 (give --out twice for both), such as --out {}.html",
                path.display(),
                path.with_extension("").display()
            ),
        }
    }
}

/// Writes each report file, whole or not at all.
pub fn write_report(
    files: &[(PathBuf, ReportFormat)],
    battery: &Battery,
    about: &[(String, String)],
    force: bool,
) -> Result<()> {
    // Refuse before writing any, so a refusal leaves no half report.
    for (path, _) in files {
        use bingomint::cardfile::writer::WriteError;
        bingomint::cardfile::writer::refuse_existing(path, force).map_err(|e| {
            // --force replaces a report, never what stands in its way.
            let fix = match e {
                WriteError::Exists(_) => "add --force to replace the report",
                _ => "move it away, or give --out another file",
            };
            anyhow::anyhow!("{e} ({fix})")
        })?;
    }
    for (path, format) in files {
        let text = match format {
            ReportFormat::Json => {
                serde_json::to_string_pretty(&report::json(battery, about))? + "\n"
            }
            ReportFormat::Html => report::html(battery, about),
        };
        let (guard, mut file) = TempOutput::new(path, force)?;
        file.write_all(text.as_bytes())
            .with_context(|| crate::cmd::cannot_write(Some(path)))?;
        guard.publish(&file)?;
    }
    Ok(())
}
