//! Every truncation and every single-byte change of a small valid card file
//! of each layout is refused: the readers never panic, `verify` answers 1
//! and the other commands exit 2.
//!
//! The native layout seals the header and every block of records with a
//! checksum, so every change is caught. The v3 layout keeps no checksum: a
//! change there is caught when it breaks the header's fixed fields, a card's
//! rules or uniqueness, and `verify`'s verdict on record changes is checked
//! against a plain reference checker instead.

use crate::common::{bingomint, generate, records_at};
use bingomint::cardfile::{CardFile, FileError};
use bingomint::pipeline::verify::verify;
use std::collections::HashSet;

/// The small files: (name, generate flags).
const NATIVE: [(&str, &[&str]); 3] = [
    ("us75-star.bmc", &["--count", "3", "--star", "--seed", "1"]),
    ("uk90.bmc", &["--game", "90", "--count", "1", "--seed", "1"]),
    (
        "es90.bmc",
        &[
            "--game", "90", "--rules", "es", "--count", "1", "--seed", "1",
        ],
    ),
];
const V3: (&str, &[&str]) = ("v3.dat", &["--count", "3", "--format", "v3", "--seed", "1"]);

fn bytes_of(dir: &std::path::Path, (name, args): (&str, &[&str])) -> Vec<u8> {
    std::fs::read(generate(dir, name, args)).unwrap()
}

/// verify's answer for `bytes`, read in memory as the commands read a file:
/// Ok(passed) or the refusal. Never a panic (the test would fail).
fn verdict(bytes: Vec<u8>) -> Result<bool, FileError> {
    let file = CardFile::from_bytes("t", bytes)?;
    Ok(verify(&file).unwrap().ok())
}

/// Whether `verify` would answer 1 for this outcome (2 is kept for files it
/// cannot read at all and for a newer format version).
fn verify_says_no(outcome: &Result<bool, FileError>) -> bool {
    match outcome {
        Ok(passed) => !passed,
        Err(FileError::Read { .. } | FileError::Unsupported { .. }) => false,
        Err(_) => true,
    }
}

#[test]
fn every_truncation_of_every_layout_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for file in NATIVE.into_iter().chain([V3]) {
        let whole = bytes_of(dir.path(), file);
        assert!(verdict(whole.clone()).unwrap(), "{}", file.0);
        for len in 0..whole.len() {
            let outcome = verdict(whole[..len].to_vec());
            assert!(outcome.is_err(), "{} cut to {len} bytes was read", file.0);
            assert!(
                verify_says_no(&outcome),
                "{} cut to {len}: {outcome:?}",
                file.0
            );
        }
    }
}

#[test]
fn every_single_byte_change_of_a_native_file_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    for file in NATIVE {
        let whole = bytes_of(dir.path(), file);
        for at in 0..whole.len() {
            for flip in 1..=255u8 {
                let mut changed = whole.clone();
                changed[at] ^= flip;
                let outcome = verdict(changed);
                assert!(
                    verify_says_no(&outcome),
                    "{}: byte {at} ^ {flip:#04x} passed: {outcome:?}",
                    file.0
                );
            }
        }
    }
}

/// A plain 75-ball checker, written apart from the library: every column's
/// numbers in its range and distinct, the centre byte 12 or a numbered
/// cell's index, and no two cards with the same 24 numbers.
fn reference_v3_ok(records: &[u8]) -> bool {
    let mut seen = HashSet::new();
    records.chunks(25).all(|r| {
        let columns_ok = (0..5).all(|c| {
            let cells: Vec<u8> = (0..5)
                .filter(|&row| !(c == 2 && row == 2))
                .map(|row| r[c * 5 + row])
                .collect();
            let low = 15 * c as u8 + 1;
            let distinct: HashSet<u8> = cells.iter().copied().collect();
            cells.iter().all(|n| (low..low + 15).contains(n)) && distinct.len() == cells.len()
        });
        let numbers: Vec<u8> = (0..25).filter(|&i| i != 12).map(|i| r[i]).collect();
        columns_ok && r[12] < 25 && seen.insert(numbers)
    })
}

#[test]
fn single_byte_changes_of_a_v3_file_are_judged_by_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let whole = bytes_of(dir.path(), V3);
    let (mut caught, mut valid_other_cards) = (0, 0);
    for at in 0..whole.len() {
        for flip in 1..=255u8 {
            let mut changed = whole.clone();
            changed[at] ^= flip;
            let outcome = verdict(changed.clone());
            match at {
                // The creation date: any value is a date the layout can hold.
                16..=19 => assert!(matches!(outcome, Ok(true)), "date byte {at}"),
                // The rest of the header: fixed fields and zeros.
                0..=127 => assert!(
                    verify_says_no(&outcome),
                    "header byte {at} ^ {flip:#04x} passed: {outcome:?}"
                ),
                _ => {
                    let expected = reference_v3_ok(&changed[128..]);
                    assert_eq!(
                        outcome.as_ref().ok(),
                        Some(&expected),
                        "record byte {at} ^ {flip:#04x}"
                    );
                    if expected {
                        valid_other_cards += 1;
                    } else {
                        caught += 1;
                    }
                }
            }
        }
    }
    // Most record changes break a rule; some make another valid card, which
    // no checker can tell without a checksum.
    assert!(
        caught > 10 * valid_other_cards,
        "{caught} {valid_other_cards}"
    );
    assert!(valid_other_cards > 0);
}

/// The exit codes of the real commands on damaged copies: verify 1, the
/// others 2, never a panic.
#[test]
fn damaged_files_give_the_documented_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for file in NATIVE.into_iter().chain([V3]) {
        let whole = bytes_of(dir.path(), file);
        let v3 = file.0.ends_with(".dat");
        for len in [0, 1, 7, 64, 127, 128, whole.len() - 1] {
            cases.push((format!("{} cut to {len}", file.0), whole[..len].to_vec()));
        }
        let end = if v3 { 128 } else { whole.len() };
        for at in (0..end)
            .step_by(13)
            .filter(|at| !(16..20).contains(at) || !v3)
        {
            let mut changed = whole.clone();
            changed[at] ^= 0x5a;
            cases.push((format!("{} byte {at} changed", file.0), changed));
        }
        if !v3 {
            // The last record byte: the last block.
            let mut changed = whole.clone();
            *changed.last_mut().unwrap() ^= 1;
            assert!(records_at(&changed) < changed.len());
            cases.push((format!("{} last byte changed", file.0), changed));
        }
    }
    for (i, (what, bytes)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("case{i}.bmc"));
        std::fs::write(&path, bytes).unwrap();
        let commands: [(&[&str], i32); 4] = [
            (&["verify"], 1),
            (&["info"], 2),
            (&["show", "--card", "1"], 2),
            (&["export"], 2),
        ];
        for (args, code) in commands {
            let out = bingomint().args(args).arg(&path).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{what}: {args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{what}: {args:?}: {stderr}");
        }
    }
}
