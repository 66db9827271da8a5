//! The tracker against the scan it replaces: for each game, each of its
//! patterns and a custom mask, call by call and back again, the faces it
//! reads off and its counts are the ones [`crate::play::claims`] finds by
//! judging every sold face.

use super::super::judge::Cards;
use super::{Distances, Follower, Tracker};
use crate::cardfile::CardFile;
use crate::game::Spec;
use crate::play::calls::Calls;
use crate::play::claims::{check, Verdict};
use crate::play::pattern::Pattern;
use crate::play::scan_faces;

/// Two files of `records` records each of game `game` (seeds 5 and 6).
fn files(dir: &std::path::Path, game: &str, records: u64) -> Vec<CardFile> {
    (5..7)
        .map(|seed| {
            let out = dir.join(format!("{game}-{seed}.bmc"));
            let plan = crate::pipeline::file::Plan {
                force: true,
                ..crate::pipeline::file::Plan::new(Spec::named(game).unwrap(), records, seed, &out)
            };
            crate::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
            CardFile::open(&out).unwrap()
        })
        .collect()
}

/// A face and how many numbers it still needs.
type Far = Vec<((usize, u64), usize)>;

/// By judging every sold face: the faces holding `pattern` after `calls`
/// (with `last_call`, those the last call completes), how many are 0, 1
/// and 2 away, and every face that can still hold it with its distance.
fn judged(
    cards: &Cards,
    pattern: &Pattern,
    calls: &Calls,
    last_call: bool,
) -> (Vec<(usize, u64)>, [u64; 3], Far) {
    let mut holders = Vec::new();
    let mut near = [0u64; 3];
    let mut far = Vec::new();
    for (f, file) in cards.files.iter().enumerate() {
        let faces = scan_faces(file, 1..=file.header().count, |n, face| {
            cards.sold(f, n).then(|| {
                (
                    n,
                    check(face, pattern, calls, last_call),
                    check(face, pattern, calls, false),
                )
            })
        })
        .unwrap();
        for (n, verdict, plain) in faces {
            if verdict.is_win() {
                holders.push((f, n));
            }
            let away = match plain {
                Verdict::Win(_) => 0,
                Verdict::NoWin { missing, .. } => missing.len(),
                _ => continue,
            };
            if away < 3 {
                near[away] += 1;
            }
            if away > 0 {
                far.push(((f, n), away));
            }
        }
    }
    holders.sort_unstable();
    far.sort_unstable();
    (holders, near, far)
}

/// The faces exactly `to_go` away (None: the nearest), read off the
/// tracker and found by `Cards::away`'s scan, against the judge's.
fn nearest_agree(cards: &Cards, tracker: &Tracker, pattern: &Pattern, calls: &Calls, far: &Far) {
    for to_go in [Some(1), Some(2), Some(3), None] {
        let d = to_go.map_or_else(|| far.iter().map(|x| x.1).min().unwrap_or(0), usize::from);
        let want: Vec<(usize, u64)> = far.iter().filter(|x| x.1 == d).map(|x| x.0).collect();
        let read = tracker.away(pattern, calls, to_go, usize::MAX).unwrap();
        assert_eq!(
            (usize::from(read.to_go), &read.listed),
            (d, &want),
            "{to_go:?}"
        );
        assert_eq!(read.faces, want.len() as u64);
        assert_eq!(cards.away(pattern, calls, to_go, usize::MAX).unwrap(), read);
        if want.len() > 1 {
            // Past the limit: counted, not listed.
            let over = tracker.away(pattern, calls, to_go, want.len() - 1).unwrap();
            assert!(over.listed.is_empty() && over.faces == want.len() as u64);
            let scanned = cards.away(pattern, calls, to_go, want.len() - 1).unwrap();
            assert_eq!(scanned, over);
        }
    }
}

/// A shuffle of 1..=balls by seed.
fn order(balls: u8, seed: u64) -> Vec<u8> {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out: Vec<u8> = (1..=balls).collect();
    for i in (1..out.len()).rev() {
        out.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    out
}

/// Calls `order` ball by ball up to `calls_made`, then recalls five,
/// checking the tracker on `pattern` against the judge at every step.
fn step_by_step(
    cards: &Cards,
    tracker: &mut Tracker,
    pattern: &Pattern,
    order: Vec<u8>,
    calls_made: usize,
) {
    let spec = cards.files[0].header().spec;
    let (game, name) = (spec.short_name(), pattern.name());
    let mut steps: Vec<usize> = (1..=calls_made).collect();
    // Then back: recalls.
    steps.extend((calls_made - 5..calls_made).rev());
    for n in steps {
        let calls = Calls::from_order(spec.balls(), order[..n].to_vec());
        tracker.sync(Some(&calls), &[(0, pattern)]);
        for last_call in [false, true] {
            let (holders, near, far) = judged(cards, pattern, &calls, last_call);
            if !last_call {
                nearest_agree(cards, tracker, pattern, &calls, &far);
            }
            if let Some(mut read) = tracker.winners(pattern, &calls, last_call) {
                read.sort_unstable();
                assert_eq!(
                    read, holders,
                    "{game} {name} after {n} calls, last call {last_call}"
                );
            } else {
                assert!(
                    last_call && n < 2,
                    "{game} {name}: the tracker stands at these calls"
                );
            }
            let want = Distances {
                stage: 0,
                holding: near[0],
                one: near[1],
                two: near[2],
            };
            assert_eq!(
                tracker.distances(),
                vec![want],
                "{game} {name} after {n} calls"
            );
        }
    }
    // Not at these calls: nothing read off.
    let other = Calls::from_order(spec.balls(), order[..3].to_vec());
    assert!(tracker.winners(pattern, &other, false).is_none());
}

/// Calls a game of each pattern (and `mask`) of `game` ball by ball, then
/// recalls some, checking the tracker against the judge at every step.
fn follows(game: &str, records: u64, mask: &str, calls_made: usize) {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec::named(game).unwrap();
    let files = files(dir.path(), game, records);
    // Part of the first file sold, in two ranges (one inside a record);
    // every face of the second.
    let last = *files[0].header().face_range().end();
    let sold = vec![3..=last / 3, last / 2 + 1..=last - 2];
    let cards = Cards::new(files, Some(sold));
    let mut tracker = Tracker::build(&cards.files, cards.sold.as_deref())
        .unwrap()
        .unwrap();
    let expected: u64 = {
        let second = cards.files[1].header().count * spec.faces() as u64;
        (last / 3 - 2) + (last - 2 - last / 2) + second
    };
    assert_eq!(tracker.faces() as u64, expected);
    let mut patterns: Vec<String> = spec
        .facts()
        .patterns
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    patterns.push(mask.to_string());
    for (i, name) in patterns.iter().enumerate() {
        let pattern = Pattern::parse(name, spec).unwrap();
        step_by_step(
            &cards,
            &mut tracker,
            &pattern,
            order(spec.balls(), 40 + i as u64),
            calls_made,
        );
    }
    let pattern = Pattern::parse(&patterns[0], spec).unwrap();
    let calls = Calls::from_order(spec.balls(), order(spec.balls(), 1)[..calls_made].to_vec());
    followed(cards, tracker, &pattern, &calls);
}

/// The scan and `tracker` agree through `Cards::winning` on `calls`, the
/// tracker followed on its own thread; the game over, every mark is
/// taken off.
fn followed(mut cards: Cards, tracker: Tracker, pattern: &Pattern, calls: &Calls) {
    let scanned = cards.winning(pattern, calls, false, usize::MAX).unwrap();
    // On its own thread: posted, the counts follow; a question brings it
    // to what was posted first.
    let follower = Follower::start(tracker);
    follower.post(1, Some(calls.clone()), vec![(0, pattern.clone())]);
    cards.tracker = Some(follower);
    let mut read = cards.winning(pattern, calls, false, usize::MAX).unwrap();
    let mut scanned = scanned;
    read.sort_unstable();
    scanned.sort_unstable();
    assert_eq!(read, scanned);
    // More holders than a split may pay: refused, read off the count.
    if scanned.len() > 1 {
        assert!(matches!(
            cards.winning(pattern, calls, false, scanned.len() - 1),
            Err(crate::hall::Refusal::TooManyWinners(_))
        ));
    }
    let follower = cards.tracker.as_ref().unwrap();
    let counted = follower.distances(1).expect("counted at change 1");
    assert_eq!(counted[0].holding, scanned.len() as u64);
    assert!(
        follower.distances(2).is_none(),
        "not at a change not posted"
    );
    // The game over: every mark is taken off.
    follower.post(2, None, Vec::new());
    follower.settle();
    assert_eq!(follower.distances(2), Some(Vec::new()));
    let now = follower.now();
    assert!(now
        .1
        .marked
        .iter()
        .all(|m| m.load(std::sync::atomic::Ordering::Relaxed) == 0));
}

#[test]
fn follows_75_ball_cards() {
    follows("75", 120, "mask:X...X/.X.X./..X../.X.X./X...X", 40);
}

#[test]
fn follows_90_ball_tickets() {
    follows("90", 30, "mask:X.......X/........./X.......X", 60);
}

#[test]
fn follows_80_ball_cards() {
    follows("80", 150, "mask:X..X/..../..../X..X", 45);
}

#[test]
fn sold_faces_only_and_a_second_prize() {
    let dir = tempfile::tempdir().unwrap();
    let files = files(dir.path(), "75", 50);
    let cards = Cards::new(files, Some(vec![10..=20, 15..=30]));
    let mut tracker = Tracker::build(&cards.files, cards.sold.as_deref())
        .unwrap()
        .unwrap();
    // Overlapping ranges: each face once; the second file whole.
    assert_eq!(tracker.faces(), 21 + 50);
    let spec = Spec::named("75").unwrap();
    let line = Pattern::parse("line", spec).unwrap();
    let full = Pattern::parse("coverall", spec).unwrap();
    let calls = Calls::from_order(75, order(75, 9)[..30].to_vec());
    tracker.sync(Some(&calls), &[(0, &line), (1, &full)]);
    let d = tracker.distances();
    assert_eq!((d[0].stage, d[1].stage), (0, 1));
    assert_eq!(d[0].holding, judged(&cards, &line, &calls, false).1[0]);
    assert_eq!(d[1].holding, judged(&cards, &full, &calls, false).1[0]);
    // The line won: only the blackout is tracked.
    tracker.sync(Some(&calls), &[(1, &full)]);
    assert_eq!(tracker.distances().len(), 1);
    assert!(tracker.winners(&line, &calls, false).is_none());
}
