//! The audit's report: one self-contained HTML page (plots as inline SVG,
//! no scripts, nothing fetched) for people, and JSON with every figure for
//! a lab's tooling.

use super::{Battery, Family};
use serde_json::{json, Value};
use statrs::distribution::{ContinuousCDF, Normal};
use std::fmt::Write;

/// How bingomint draws, for the lab's file: the source's description of
/// seeding and scaling in one place.
pub const GENERATOR: &[(&str, &str)] = &[
    ("generator", "xoshiro256++ (Blackman and Vigna), 256-bit state, 64-bit output words"),
    (
        "seeding",
        "a master seed of 64 bits: a decimal number as it is, any other text by XXH3-64 of its UTF-8 bytes; \
         a fresh file's seed comes from the operating system (getrandom)",
    ),
    (
        "streams",
        "stream i of seed s starts from the state XXH3-128(i ‖ 0) ‖ XXH3-128(i ‖ 1), both with s as XXH3's seed: \
         chunk c of 65,536 cards draws from stream c; a 90-ball uk strip n from stream n + 2^40·attempt; \
         call orders from stream 2^64 − 2",
    ),
    (
        "scaling",
        "every bounded draw is exact (Lemire's multiply-and-reject): a 75-ball column is one uniform rank of its \
         360,360 ordered draws (32,760 × 24 for the N column with a star), an 80-ball column of its 116,280; \
         a call order is a Fisher–Yates shuffle",
    ),
    (
        "90-ball strips",
        "uniform over every valid numbered strip: the six tickets' column counts from exact integer alias tables \
         (weights ∏ W(v)), each ticket's layout uniform among those with its counts, each column's numbers dealt \
         to the tickets by a uniform shuffle",
    ),
    (
        "uniqueness",
        "every face's exact key in a sharded set; a repeated card is redrawn from a stream of its own",
    ),
];

/// The critical |z| of a two-sided test at `alpha`.
pub fn critical_z(alpha: f64) -> f64 {
    Normal::new(0.0, 1.0)
        .expect("the standard normal")
        .inverse_cdf(1.0 - alpha / 2.0)
}

/// The report as JSON: `about` (what was audited: file, binary), the
/// generator's description, the verdict, every check and test.
pub fn json(battery: &Battery, about: &[(String, String)]) -> Value {
    let (ks, ks_p) = battery.p_uniformity();
    json!({
        "about": about.iter().map(|(k, v)| (k.clone(), Value::from(v.clone()))).collect::<serde_json::Map<_, _>>(),
        "generator": GENERATOR.iter().map(|(k, v)| (k.to_string(), Value::from(*v))).collect::<serde_json::Map<_, _>>(),
        "subject": battery.subject,
        "alpha": battery.alpha,
        "method": "Holm's step-down procedure over every test (family-wise error rate at most alpha)",
        "passed": battery.passed(),
        "tests_run": battery.tests.len(),
        "tests_rejected": battery.rejected().len(),
        "tests_below_alpha_uncorrected": battery.raw_below_alpha(),
        "p_value_uniformity": { "ks_distance": ks, "p": ks_p },
        "checks": battery.checks.iter().map(|c| json!({"name": c.name, "passed": c.passed, "detail": c.detail})).collect::<Vec<_>>(),
        "tests": battery.tests.iter().map(|t| json!({
            "family": t.family.name(),
            "name": t.name,
            "statistic": t.statistic,
            "df": t.df,
            "p": t.p,
            "holm_p": t.adjusted,
            "rejected": t.rejected,
            "n": t.n,
            "lag": t.lag,
        })).collect::<Vec<_>>(),
        "residuals": battery.residuals.iter().map(|r| json!({
            "title": r.title,
            "bars": r.bars.iter().map(|(label, z)| json!([label, z])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#222;padding:0 1em}\
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;width:100%;font-size:13px}td,th{padding:2px 6px;border-bottom:1px solid #eee;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}.pass{color:#17692f}.fail{color:#b00020;font-weight:bold}\
.verdict{font-size:1.4em;padding:.5em 1em;border-radius:6px;display:inline-block}\
.verdict.pass{background:#e3f5e8}.verdict.fail{background:#fde7ea}dt{font-weight:bold}dd{margin:0 0 .5em 1.5em}\
summary{cursor:pointer;margin:.3em 0}svg{background:#fafafa;border:1px solid #ddd}";

/// The report as one HTML page.
pub fn html(battery: &Battery, about: &[(String, String)]) -> String {
    let mut h = String::new();
    let passed = battery.passed();
    let verdict = if passed { "PASS" } else { "FAIL" };
    let class = if passed { "pass" } else { "fail" };
    let _ = write!(
        h,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>bingomint audit: {verdict}</title>\
         <style>{STYLE}</style></head><body><h1>bingomint audit</h1><p>{}</p>\
         <p class=\"verdict {class}\">{verdict}: {} tests, {} rejected at family-wise α = {} (Holm)</p>",
        esc(&battery.subject),
        battery.tests.len(),
        battery.rejected().len(),
        battery.alpha
    );
    h.push_str("<h2>What was audited</h2><table>");
    for (k, v) in about {
        let _ = write!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
    }
    h.push_str("</table>");
    verdict_section(&mut h, battery);
    h.push_str("<h2>Observed against expected</h2>");
    let z = critical_z(battery.alpha / battery.tests.len().max(1) as f64);
    for r in &battery.residuals {
        let _ = write!(
            h,
            "<p>{}: standardised residuals, lines at ±{z:.2} (α over the tests)</p>",
            esc(&r.title)
        );
        h.push_str(&residual_svg(&r.bars, z));
    }
    h.push_str("<h2>The p-values</h2><p>Fair draws give p-values spread evenly over 0–1.</p>");
    h.push_str(&histogram_svg(battery));
    h.push_str(
        "<h2>Serial correlation by lag</h2><p>Each dot is one stream's z-score at that lag; lines at ±the critical value of α before the correction, which about α of the dots cross by chance.</p>",
    );
    h.push_str(&serial_svg(battery, critical_z(battery.alpha)));
    tests_section(&mut h, battery);
    h.push_str("<h2>The generator</h2><dl>");
    for (k, v) in GENERATOR {
        let _ = write!(h, "<dt>{}</dt><dd>{}</dd>", esc(k), esc(v));
    }
    h.push_str("</dl></body></html>\n");
    h
}

fn verdict_section(h: &mut String, battery: &Battery) {
    let (ks, ks_p) = battery.p_uniformity();
    let _ = write!(
        h,
        "<h2>The verdict</h2><p>Each test's p-value is compared by Holm's step-down procedure, so that a fair \
         file fails with probability at most α = {} however many tests run. {} of {} p-values are at or below α \
         before the correction (about {:.1} expected by chance). The p-values' distance from uniform (Kolmogorov–Smirnov) \
         is {ks:.4}, p = {ks_p:.3}.</p>",
        battery.alpha,
        battery.raw_below_alpha(),
        battery.tests.len(),
        battery.alpha * battery.tests.len() as f64
    );
    for c in &battery.checks {
        let class = if c.passed { "pass" } else { "fail" };
        let word = if c.passed { "passed" } else { "FAILED" };
        let _ = write!(
            h,
            "<p class=\"{class}\">{} {word}: {}</p>",
            esc(&c.name),
            esc(&c.detail)
        );
    }
    let rejected = battery.rejected();
    if !rejected.is_empty() {
        h.push_str("<p class=\"fail\">Rejected:</p>");
        test_table(h, rejected.into_iter());
    }
}

fn tests_section(h: &mut String, battery: &Battery) {
    h.push_str("<h2>Every test</h2>");
    for family in Family::ALL {
        let tests: Vec<_> = battery
            .tests
            .iter()
            .filter(|t| t.family == family)
            .collect();
        if tests.is_empty() {
            continue;
        }
        let failed = tests.iter().filter(|t| t.rejected).count();
        let _ = write!(
            h,
            "<details><summary><b>{}</b> ({} tests, {failed} rejected): {}</summary>",
            family.name(),
            tests.len(),
            family.what()
        );
        test_table(h, tests.into_iter());
        h.push_str("</details>");
    }
}

fn test_table<'a>(h: &mut String, tests: impl Iterator<Item = &'a super::Test>) {
    h.push_str("<table><tr><th>test</th><th>statistic</th><th>df</th><th>n</th><th>p</th><th>Holm p</th><th></th></tr>");
    for t in tests {
        let df = t.df.map_or("z".to_string(), |d| format!("{d}"));
        let (class, word) = if t.rejected {
            ("fail", "rejected")
        } else {
            ("pass", "ok")
        };
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=n>{:.3}</td><td class=n>{df}</td><td class=n>{}</td><td class=n>{:.4}</td>\
             <td class=n>{:.4}</td><td class={class}>{word}</td></tr>",
            esc(&t.name),
            t.statistic,
            t.n,
            t.p,
            t.adjusted
        );
    }
    h.push_str("</table>");
}

const W: f64 = 960.0;

fn residual_svg(bars: &[(String, f64)], z: f64) -> String {
    let h = 180.0;
    let top = bars.iter().map(|b| b.1.abs()).fold(z * 1.25, f64::max);
    let y = |v: f64| h / 2.0 - v / top * (h / 2.0 - 14.0);
    let step = (W - 40.0) / bars.len().max(1) as f64;
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{h}\" viewBox=\"0 0 {W} {h}\">");
    for (i, (label, v)) in bars.iter().enumerate() {
        let x = 30.0 + i as f64 * step;
        let (y0, y1) = (y(0.0).min(y(*v)), y(0.0).max(y(*v)));
        let colour = if v.abs() > z { "#b00020" } else { "#4a7ab5" };
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"><title>{} {v:.2}</title></rect>",
            (step * 0.8).max(1.0),
            (y1 - y0).max(0.5),
            esc(label)
        );
        if bars.len() <= 30 || i % 5 == 0 {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" font-size=\"9\">{}</text>",
                x,
                h - 2.0,
                esc(label)
            );
        }
    }
    for v in [z, -z] {
        let _ = write!(s, "<line x1=\"28\" x2=\"{}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#b00020\" stroke-dasharray=\"4 3\"/>", W - 8.0, y(v));
    }
    let _ = write!(
        s,
        "<line x1=\"28\" x2=\"{}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#888\"/>",
        W - 8.0,
        y(0.0)
    );
    s.push_str("</svg>");
    s
}

fn histogram_svg(battery: &Battery) -> String {
    let (w, h, bins) = (W, 200.0, 20usize);
    let mut counts = vec![0usize; bins];
    for t in &battery.tests {
        counts[((t.p * bins as f64) as usize).min(bins - 1)] += 1;
    }
    let expected = battery.tests.len() as f64 / bins as f64;
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.15;
    let bar = (w - 60.0) / bins as f64;
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">");
    for (i, &c) in counts.iter().enumerate() {
        let bh = c as f64 / top * (h - 30.0);
        let x = 40.0 + i as f64 * bar;
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#4a7ab5\"><title>{:.2}–{:.2}: {c}</title></rect>",
            h - 20.0 - bh,
            bar - 2.0,
            i as f64 / bins as f64,
            (i + 1) as f64 / bins as f64
        );
    }
    let ey = h - 20.0 - expected / top * (h - 30.0);
    let _ = write!(s, "<line x1=\"40\" x2=\"{}\" y1=\"{ey:.1}\" y2=\"{ey:.1}\" stroke=\"#b00020\" stroke-dasharray=\"4 3\"/>", w - 20.0);
    for i in 0..=4 {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\">{:.2}</text>",
            36.0 + i as f64 * (w - 60.0) / 4.0,
            h - 4.0,
            i as f64 / 4.0
        );
    }
    s.push_str("</svg>");
    s
}

fn serial_svg(battery: &Battery, z: f64) -> String {
    let (w, h) = (W, 220.0);
    let points: Vec<(usize, f64)> = battery
        .tests
        .iter()
        .filter_map(|t| t.lag.map(|l| (l, t.statistic)))
        .collect();
    let lags = points.iter().map(|p| p.0).max().unwrap_or(1);
    let top = points.iter().map(|p| p.1.abs()).fold(z * 1.3, f64::max);
    let y = |v: f64| h / 2.0 - v / top * (h / 2.0 - 16.0);
    let x = |lag: usize| 60.0 + (lag - 1) as f64 * (w - 120.0) / (lags.max(2) - 1) as f64;
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">");
    for (i, &(lag, v)) in points.iter().enumerate() {
        // A small fixed spread around the lag so the dots do not hide each other.
        let jitter = ((i * 37) % 41) as f64 - 20.0;
        let colour = if v.abs() > z { "#b00020" } else { "#4a7ab5" };
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"{colour}\" fill-opacity=\"0.6\"/>",
            x(lag) + jitter,
            y(v)
        );
    }
    for v in [z, -z] {
        let _ = write!(s, "<line x1=\"20\" x2=\"{}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#b00020\" stroke-dasharray=\"4 3\"/>", w - 20.0, y(v));
    }
    for lag in 1..=lags {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\">lag {lag}</text>",
            x(lag) - 14.0,
            h - 4.0
        );
    }
    s.push_str("</svg>");
    s
}
