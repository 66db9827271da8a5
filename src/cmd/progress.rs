//! Progress on stderr: the bar a long run counts on (the library reports
//! to it as a [`Progress`]) and the spinner of a slow start; both hidden
//! when stderr is not a terminal or the command is `--quiet`.

use bingomint::pipeline::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar on stderr counting `noun`s, when stderr is a terminal and
/// not `--quiet`; hidden otherwise. The library reports to it as a
/// [`Progress`].
///
/// With `BINGOMINT_TIMINGS` set, every phase a stage enters is also printed
/// on stderr with the seconds since the bar started: where a long run's
/// time goes.
pub struct Bar(ProgressBar, Option<std::time::Instant>);

fn timings() -> Option<std::time::Instant> {
    std::env::var_os("BINGOMINT_TIMINGS").map(|_| std::time::Instant::now())
}

impl Bar {
    pub fn new(count: u64, noun: &str, quiet: bool) -> Bar {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden(), timings());
        }
        let bar = ProgressBar::with_draw_target(Some(count), ProgressDrawTarget::stderr());
        let template = format!(
            "{{spinner}} [{{elapsed_precise}}] [{{bar:40}}] {{human_pos}}/{{human_len}} {noun}s, ETA {{eta}} {{msg}}"
        );
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar(bar, timings())
    }

    /// A bar that shows nothing.
    pub fn hidden() -> Bar {
        Bar(ProgressBar::hidden(), timings())
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn phase(&self, what: &str) {
        if let Some(start) = self.1 {
            self.0.suspend(|| {
                eprintln!("[{:8.2} s] {what}", start.elapsed().as_secs_f64());
            });
        }
        self.0.set_message(what.to_string());
    }
}

/// Runs `work` behind a spinner showing `message` on stderr (hidden as the
/// bar is).
pub fn spinning<T>(message: Option<String>, quiet: bool, work: impl FnOnce() -> T) -> T {
    let Some(message) = message.filter(|_| !quiet && std::io::stderr().is_terminal()) else {
        return work();
    };
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    spinner.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    spinner.set_message(message);
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    let result = work();
    spinner.finish_and_clear();
    result
}
