use super::*;
use crate::link::message::Body;

fn key(byte: u8) -> SigningKey {
    SigningKey::from_bytes(&[byte; 32])
}

/// A chain of `n` records of game "g" signed by key 1.
fn chain(n: u64) -> Vec<Signed> {
    let mut c = Chain::new(key(1), "g");
    (1..=n)
        .map(|k| c.sign(Body::Prize { amount: k * 100 }, k))
        .collect()
}

fn follower() -> Follower {
    Follower::new(key(1).verifying_key(), "g")
}

#[test]
fn a_chain_in_order_is_taken_whole() {
    let mut f = follower();
    for s in chain(5) {
        f.take(&s).unwrap();
    }
    assert_eq!(f.seq(), 5);
}

#[test]
fn a_record_survives_its_line() {
    let s = &chain(2)[1];
    let back = Signed::parse(&s.line()).unwrap();
    assert_eq!(&back, s);
    assert!(back.signed_by(&key(1).verifying_key()));
    assert!(!back.signed_by(&key(2).verifying_key()));
}

#[test]
fn another_key_is_a_forgery() {
    let mut f = follower();
    let mut c = Chain::new(key(2), "g");
    let forged = c.sign(Body::Prize { amount: 1 }, 0);
    assert_eq!(f.take(&forged), Err(ChainError::Forged { seq: 1 }));
}

#[test]
fn a_changed_amount_breaks_the_signature() {
    let mut f = follower();
    let mut s = chain(1).remove(0);
    s.record.body = Body::Prize { amount: 1_000_000 };
    assert_eq!(f.take(&s), Err(ChainError::Forged { seq: 1 }));
}

#[test]
fn a_missing_record_is_a_gap() {
    let c = chain(4);
    let mut f = follower();
    f.take(&c[0]).unwrap();
    let gap = ChainError::Gap {
        last: 1,
        seq: 4,
        missing: 2,
    };
    assert_eq!(f.take(&c[3]), Err(gap));
}

#[test]
fn a_record_again_is_a_replay_and_another_at_its_place_a_fork() {
    let c = chain(3);
    let mut f = follower();
    for s in &c {
        f.take(s).unwrap();
    }
    assert_eq!(f.take(&c[1]), Err(ChainError::Replay { seq: 2 }));
    // The control signs a second record 2: equivocation.
    let mut again = Chain::resume(key(1), &c[0]);
    let other = again.sign(Body::Prize { amount: 7 }, 2);
    assert_eq!(f.take(&other), Err(ChainError::Fork { seq: 2 }));
}

#[test]
fn a_next_record_linked_elsewhere_is_a_broken_chain() {
    let c = chain(2);
    let mut f = follower();
    f.take(&c[0]).unwrap();
    // Record 2 that links to a record 1 this venue never took.
    let mut elsewhere = Chain::new(key(1), "g");
    elsewhere.sign(Body::Prize { amount: 999 }, 0);
    let s = elsewhere.sign(Body::Prize { amount: 1 }, 0);
    assert_eq!(f.take(&s), Err(ChainError::Broken { seq: 2, before: 1 }));
}

#[test]
fn another_games_record_is_refused() {
    let mut c = Chain::new(key(1), "h");
    let s = c.sign(Body::Prize { amount: 1 }, 0);
    assert!(matches!(
        follower().take(&s),
        Err(ChainError::OtherGame { .. })
    ));
}

#[test]
fn hex_reads_only_exact_hex() {
    assert_eq!(unhex::<2>("0aff"), Some([10, 255]));
    assert_eq!(unhex::<2>("+aff"), None);
    assert_eq!(unhex::<2>("0af"), None);
    assert_eq!(hex(&[0, 171]), "00ab");
}
