use super::*;

fn native() -> Header {
    Header {
        format: FileFormat::Native,
        spec: Spec::Us75 { star: StarRule::On },
        count: 800_000,
        record_size: 25,
        records_at: 128 + 12_500 * 8,
        created: 20261122,
        seed: Some(42),
        algorithm: Some(1),
        redrawn: Some(3),
        tool_version: Some("0.1.0".into()),
        records_checksum: Some(0xDEAD_BEEF),
        block: Some(BLOCK),
        first_face: 1,
        import: None,
        shard: None,
    }
}

/// Puts the header's own checksum right after an edit of its bytes.
fn reseal(b: &mut [u8]) {
    let sum = xxh3_64(&b[..120]);
    b[120..128].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn imported_headers_carry_their_provenance_and_numbering() {
    let provenance = br#"{"source":"perm.csv"}"#.to_vec();
    let h = Header {
        seed: None,
        algorithm: None,
        redrawn: None,
        records_at: (128 + provenance.len() + 12_500 * 8) as u32,
        first_face: 10_001,
        import: Some(Import {
            provenance: provenance.clone(),
            serials: None,
        }),
        ..native()
    };
    let mut b = h.encode().to_vec();
    b.extend_from_slice(&provenance);
    assert_eq!(b[8], 3);
    assert_eq!(Header::decode(&b), Ok((h.clone(), Some(true))));
    assert_eq!(h.face_number(1, 0), 10_001);
    assert_eq!(h.record_of(10_001), Some((1, 0)));
    assert_eq!(h.record_of(10_000), None);
    assert_eq!(h.record_of(810_000), Some((800_000, 0)));
    assert_eq!(h.record_of(810_001), None);
    // A changed provenance byte is damage, named.
    let last = b.len() - 2;
    b[last] ^= 1;
    let Err(HeaderError::Damaged(why)) = Header::decode(&b) else {
        panic!("a changed provenance must be damage");
    };
    assert!(why.contains("provenance"), "{why}");
}

#[test]
fn a_minted_file_continues_a_series_from_its_first_face() {
    // At 1, bytes 88-95 stay zero: the bytes every earlier file has.
    let at_one = native().encode();
    assert!(at_one[84..120].iter().all(|&x| x == 0));
    let h = Header {
        first_face: 800_001,
        ..native()
    };
    let b = h.encode();
    assert_eq!(u64::from_le_bytes(b[88..96].try_into().unwrap()), 800_001);
    assert_eq!(Header::decode(&b), Ok((h.clone(), Some(true))));
    assert_eq!(h.face_number(1, 0), 800_001);
    assert_eq!(h.record_of(1_600_000), Some((800_000, 0)));
    assert_eq!(h.record_of(800_000), None);
    assert_eq!(h.face_range(), 800_001..=1_600_000);
    // A stored 1 is not how a file numbered from 1 is written: damage.
    let mut one = at_one;
    one[88] = 1;
    reseal(&mut one);
    assert!(matches!(Header::decode(&one), Err(HeaderError::Damaged(_))));
}

#[test]
fn an_import_keeps_its_serials_as_printed_in_version_5() {
    let mut serials = Serials {
        prefix: "CH-".into(),
        width: 5,
        runs: vec![],
    };
    for n in [4512, 4515, 4518, 4519] {
        assert!(serials.push(n));
    }
    let provenance = serde_json::to_vec(&Provenance {
        source: "charity.csv".into(),
        sha256: "00".into(),
        layout: "csv".into(),
        numbering: "column 'Serial No.'".into(),
        rules: "strict".into(),
        breaking: 0,
        serials: Some(serials.clone()),
    })
    .unwrap();
    let h = Header {
        seed: None,
        algorithm: None,
        redrawn: None,
        count: 4,
        records_at: (128 + provenance.len() + 8) as u32,
        first_face: 4512,
        import: Some(Import {
            provenance: provenance.clone(),
            serials: Some(serials),
        }),
        ..native()
    };
    let mut b = h.encode().to_vec();
    b.extend_from_slice(&provenance);
    assert_eq!(b[8], 5);
    assert_eq!(Header::decode(&b), Ok((h.clone(), Some(true))));
    let numbers: Vec<u64> = (1..=4).map(|r| h.face_number(r, 0)).collect();
    assert_eq!(numbers, [4512, 4515, 4518, 4519]);
    assert_eq!(h.record_of(4518), Some((3, 0)));
    assert_eq!(h.record_of(4513), None);
    assert_eq!(h.serial(4515), "CH-04515");
    assert_eq!(h.read_serial("ch-04515"), Some(4515));
    // The same bytes called version 3 (serials an older reader would not
    // know to read) are damage.
    b[8] = 3;
    reseal(&mut b);
    assert!(matches!(Header::decode(&b), Err(HeaderError::Damaged(_))));
}

#[test]
fn a_shard_is_version_6_and_its_place_is_checked() {
    let h = Header {
        first_face: 400_001,
        shard: Some(ShardMark {
            index: 3,
            of: 4,
            stock: 1_600_000,
        }),
        ..native()
    };
    let b = h.encode();
    assert_eq!(u16::from_le_bytes([b[8], b[9]]), SHARD_VERSION);
    assert_eq!(Header::decode(&b).unwrap(), (h, Some(true)));
    // Shard 5 of 4, and a stock smaller than the file: damage, named.
    for (at, value) in [(104, 5u64), (112, 10)] {
        let mut bad = b;
        match at {
            104 => bad[104..108].copy_from_slice(&(value as u32).to_le_bytes()),
            _ => bad[112..120].copy_from_slice(&value.to_le_bytes()),
        }
        reseal(&mut bad);
        let said = format!("{:?}", Header::decode(&bad).unwrap_err());
        assert!(said.contains("impossible"), "{said}");
    }
    // A version 2 header with bytes in the shard's place is damage.
    let mut plain = native().encode();
    plain[104] = 1;
    reseal(&mut plain);
    assert!(Header::decode(&plain).is_err());
}

#[test]
fn version_1_headers_are_read() {
    let h = Header {
        block: None,
        records_at: 128,
        ..native()
    };
    let b = h.encode();
    assert_eq!(b[8], 1);
    assert_eq!(Header::decode(&b), Ok((h, Some(true))));
}

#[test]
fn a_records_offset_that_misses_the_block_table_is_damage() {
    for records_at in [128, 128 + 12_499 * 8, 128 + 12_501 * 8] {
        let h = Header {
            records_at,
            ..native()
        };
        assert!(matches!(
            Header::decode(&h.encode()),
            Err(HeaderError::Damaged(_))
        ));
    }
}

#[test]
fn native_header_round_trips_and_checks_itself() {
    let h = native();
    let mut b = h.encode();
    assert_eq!(Header::decode(&b), Ok((h.clone(), Some(true))));
    // A changed seed byte: decoded, but the checksum says so.
    b[33] ^= 1;
    let (_, ok) = Header::decode(&b).unwrap();
    assert_eq!(ok, Some(false));
    // A changed count no longer fits the block table: damage outright.
    b[20] ^= 1;
    assert!(matches!(Header::decode(&b), Err(HeaderError::Damaged(_))));
}

#[test]
fn v3_header_matches_the_original_layout() {
    let h = Header {
        format: FileFormat::V3,
        spec: Spec::Us75 {
            star: StarRule::Any,
        },
        seed: None,
        algorithm: None,
        redrawn: None,
        tool_version: None,
        records_checksum: None,
        block: None,
        records_at: 128,
        created: 20230205,
        ..native()
    };
    let b = h.encode();
    // The original article's dump: 03 00 00 00 | 00 35 0C 00 | 80 00 00 00 | 19 00 00 00 | 3D B0 34 01
    assert_eq!(
        &b[..20],
        &[3, 0, 0, 0, 0, 0x35, 0x0C, 0, 0x80, 0, 0, 0, 0x19, 0, 0, 0, 0x3D, 0xB0, 0x34, 0x01]
    );
    assert!(b[20..].iter().all(|&x| x == 0));
    assert_eq!(Header::decode(&b), Ok((h, None)));
}

#[test]
fn zeroed_header_is_not_a_card_file() {
    assert!(matches!(
        Header::decode(&[0u8; 128]),
        Err(HeaderError::Unrecognised(_))
    ));
}
