//! A stock minted in shards (`generate --shard I/N`): disjoint, in
//! proportion, numbered on, reproducible, checked by `verify`.

use crate::common::{bingomint, generate, generate_fails, stdout_of};
use predicates::prelude::*;

// See: issue 64, item 1.
#[test]
fn shards_share_no_card_add_up_to_the_stock_and_number_on() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["75", "80"] {
        let shards: Vec<_> = (1..=3)
            .map(|i| {
                let name = format!("{game}-{i}.bmc");
                let shard = format!("{i}/3");
                generate(
                    dir.path(),
                    &name,
                    &[
                        "--game", game, "--count", "30001", "--seed", "9", "--shard", &shard,
                    ],
                )
            })
            .collect();
        let mut next = 1;
        for (i, file) in shards.iter().enumerate() {
            let info = stdout_of(bingomint().arg("info").arg(file));
            assert!(
                info.contains(&format!(
                    "native, shard {}/3 of a stock of 30001 cards",
                    i + 1
                )),
                "{info}"
            );
            let count: u64 = (info.lines())
                .find_map(|l| l.strip_prefix("cards         "))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            if next > 1 {
                assert!(info.contains(&format!("cards {next}–")), "{info}");
            }
            next += count;
            bingomint()
                .arg("verify")
                .arg(file)
                .assert()
                .success()
                .stdout(predicate::str::contains(format!(
                    "shard             ok (every card of shard {}/3's part",
                    i + 1
                )));
        }
        assert_eq!(
            next, 30002,
            "{game}: the shards' counts add up to the stock"
        );
        bingomint()
            .args(["verify", "--across", "--quiet"])
            .args(&shards)
            .assert()
            .success();
        // A shard is not another shard.
        bingomint()
            .args(["verify", "--shard", "1/3"])
            .arg(&shards[1])
            .assert()
            .code(1)
            .stdout(predicate::str::contains("NOT 1/3: the file is shard 2/3"));
    }
}

#[test]
fn a_shard_is_the_same_bytes_for_any_thread_count_and_a_plain_file_is_no_shard() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--count", "200000", "--seed", "4", "--shard", "2/5"];
    let one = generate(dir.path(), "one.bmc", &[&args[..], &["-j", "1"]].concat());
    let two = generate(dir.path(), "two.bmc", &[&args[..], &["-j", "2"]].concat());
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    // A file minted whole draws its first column from every class.
    let whole = generate(dir.path(), "whole.bmc", &["--count", "2000", "--seed", "4"]);
    bingomint()
        .args(["verify", "--shard", "2/5"])
        .arg(&whole)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("is not of shard 2/5"));
}

#[test]
fn strips_and_impossible_shards_are_refused_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.bmc");
    generate_fails(
        &["--game", "90", "--count", "10", "--shard", "1/2"],
        &out,
        "verify --across",
    );
    generate_fails(
        &["--count", "10", "--shard", "0/2"],
        &out,
        "JOB_COMPLETION_INDEX",
    );
    generate_fails(
        &["--count", "3", "--shard", "1/5"],
        &out,
        "leaves this shard none",
    );
    generate_fails(
        &["--count", "10", "--shard", "2"],
        &out,
        "give the shard as I/N",
    );
    assert!(!out.exists());
}

// See: issue 64, "generate --shard gives disjoint shards whose union
// passes audit". A shard alone is of its part of the space: the battery
// rejects it, which is what shows the union's pass means something.
#[test]
fn the_shards_union_passes_the_audit_and_one_shard_alone_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<_> = (1..=3)
        .map(|i| {
            let shard = format!("{i}/3");
            generate(
                dir.path(),
                &format!("s{i}.bmc"),
                &["--count", "60000", "--seed", "11", "--shard", &shard],
            )
        })
        .collect();
    let report = dir.path().join("union.audit.json");
    bingomint()
        .arg("audit")
        .arg(&shards[0])
        .arg("--with")
        .args(&shards[1..])
        .arg("--out")
        .arg(&report)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "PASS: 60000 75-ball cards in 3 files",
        ));
    let json = std::fs::read_to_string(&report).unwrap();
    assert!(json.contains("none in two files"), "{json}");
    bingomint()
        .arg("audit")
        .arg(&shards[1])
        .arg("--out")
        .arg(dir.path().join("one.audit.json"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAIL: 20000 75-ball cards"));
}
