//! The command-line conventions (ARCHITECTURE.md, "Command-line
//! conventions"), checked on every command's help: one flag for one idea,
//! and examples that fit 80 columns so they never break inside a command.

use crate::common::{bingomint, stdout_of};

/// Every subcommand, as `bingomint --help` lists them.
fn commands() -> Vec<String> {
    let help = stdout_of(bingomint().arg("--help"));
    let list = help
        .split("Commands:")
        .nth(1)
        .expect("the help lists the commands");
    list.lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// The options a help lists, as their lines (`  -n, --count <N>`).
fn options(help: &str) -> Vec<String> {
    let options = help.split("Options:").nth(1).unwrap_or("");
    options
        .lines()
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .map(String::from)
        .collect()
}

#[test]
fn every_command_follows_the_conventions() {
    let commands = commands();
    assert!(commands.len() >= 16, "{commands:?}");
    let mut problems = Vec::new();
    for command in std::iter::once(String::new()).chain(commands) {
        let mut cmd = bingomint();
        if !command.is_empty() {
            cmd.arg(&command);
        }
        // Unwrapped, to see each example line as written.
        let help = stdout_of(cmd.arg("--help").env("COLUMNS", "1000"));
        let name = if command.is_empty() {
            "bingomint"
        } else {
            &command
        };
        let options = options(&help);
        let has = |long: &str| {
            options
                .iter()
                .find(|o| o.split([',', ' ', '=']).any(|w| w == long))
        };
        for (long, short) in [
            ("--threads", "-j"),
            ("--count", "-n"),
            ("--quiet", "-q"),
            ("--out", "-o"),
            ("--game", "-g"),
        ] {
            if let Some(line) = has(long) {
                if !line.starts_with(&format!("{short}, {long}")) {
                    problems.push(format!("{name}: {long} without {short}: {line}"));
                }
            }
        }
        // Every command that says more than its product (a summary, a
        // progress bar, notes) can be quieted.
        let says_more = [
            "generate", "import", "print", "boards", "export", "winners", "check", "simulate",
            "audit", "verify", "hall",
        ];
        if says_more.contains(&name) && has("--quiet").is_none() {
            problems.push(format!("{name}: no -q, --quiet"));
        }
        if has("--out").is_some() && has("--force").is_none() {
            problems.push(format!("{name}: --out without --force"));
        }
        // Examples: commands that fit 80 columns (a long one continues on
        // the next line after a backslash).
        let examples = help
            .split("Example")
            .skip(1)
            .flat_map(|s| s.lines().skip(1));
        for line in
            examples.filter(|l| l.trim_start().starts_with("bingomint") || l.starts_with("      "))
        {
            if line.chars().count() > 80 {
                problems.push(format!("{name}: example wider than 80 columns: {line}"));
            }
        }
        if help.contains("BINGOMINT:") {
            problems.push(format!(
                "{name}: the QR text is written bingomint:ID:card:N"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
