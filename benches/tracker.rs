//! The hall's tracker on a large night: how long building the index of
//! every sold face takes, what it holds per face, and what each call (and
//! recall) costs to follow, for 75-ball cards and 90-ball tickets.
//!
//! Run: `cargo bench --bench tracker` (10,000,000 cards and 1,666,667
//! strips by default; `BINGOMINT_TRACK_FACES=1000000` for fewer). Prints
//! the median and max of each call's update, with its calls as judged.

use bingomint::cardfile::{CardFile, FileFormat};
use bingomint::game::Spec;
use bingomint::hall::judge::Cards;
use bingomint::hall::track::Tracker;
use bingomint::play::calls::Calls;
use bingomint::play::pattern::Pattern;
use std::time::Instant;

fn main() {
    let faces: u64 = std::env::var("BINGOMINT_TRACK_FACES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    for (game, pattern, per_record) in [("75", "line", 1), ("90", "one-line", 6)] {
        let records = faces.div_ceil(per_record);
        let out = dir.join(format!("track-{game}-{records}.bmc"));
        if !out.exists() {
            let plan = bingomint::pipeline::file::Plan {
                spec: Spec::named(game).unwrap(),
                count: records,
                seed: 20261127,
                format: FileFormat::Native,
                out: &out,
                force: true,
                exclude: &[],
                allow_damaged: false,
                memory: 8 << 30,
                spill_dir: None,
                first_face: 1,
                shard: None,
            };
            bingomint::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
        }
        let spec = Spec::named(game).unwrap();
        let cards = Cards::new(vec![CardFile::open(&out).unwrap()], None);
        let t = Instant::now();
        let mut tracker = Tracker::build(&cards.files, None)
            .unwrap()
            .expect("within the tracker's limit");
        let built = t.elapsed();
        let per_face = tracker.bytes() as f64 / tracker.faces() as f64;
        println!(
            "{game}-ball: {} faces tracked in {:.2} s; {} MiB, {per_face:.1} bytes a face",
            tracker.faces(),
            built.as_secs_f64(),
            tracker.bytes() >> 20
        );
        let pattern = Pattern::parse(pattern, spec).unwrap();
        let order = Calls::seeded(spec.balls(), 7, usize::from(spec.balls()))
            .order()
            .to_vec();
        let t = Instant::now();
        tracker.sync(
            Some(&Calls::from_order(spec.balls(), Vec::new())),
            &[(0, &pattern)],
        );
        let opened = t.elapsed();
        let mut times = Vec::new();
        for n in 1..=40 {
            let calls = Calls::from_order(spec.balls(), order[..n].to_vec());
            let t = Instant::now();
            tracker.sync(Some(&calls), &[(0, &pattern)]);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        eprintln!(
            "  each call (ms): {:?}",
            times.iter().map(|t| t.round() as u64).collect::<Vec<_>>()
        );
        let d = tracker.distances();
        let recall = {
            let calls = Calls::from_order(spec.balls(), order[..39].to_vec());
            let t = Instant::now();
            tracker.sync(Some(&calls), &[(0, &pattern)]);
            t.elapsed().as_secs_f64() * 1e3
        };
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "  {}: opened (every face counted) {:.1} ms; a call: median {:.1} ms, max {:.1} ms over 40 calls; a recall {recall:.1} ms",
            pattern.name(),
            opened.as_secs_f64() * 1e3,
            sorted[sorted.len() / 2],
            sorted[sorted.len() - 1],
        );
        println!(
            "  after 40 calls: {} hold it, {} one to go, {} two to go",
            d[0].holding, d[0].one, d[0].two
        );
    }
}
