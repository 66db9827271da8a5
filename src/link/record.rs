//! The control's records: each signed (Ed25519) and hash-chained to the one
//! before, so a venue trusts the chain and never the broker that carried it.
//!
//! A record is one JSON line, `{"record":{…},"sig":"…"}`. Its hash is
//! SHA-256 of the record's JSON as written here (fields in their declared
//! order); the signature is over that hash. Record 1's `prev` is 64 zeros,
//! every later record's is the hash of the one before.
//!
//! A [`Follower`] takes records in the order they arrive and answers which
//! fault, if any, a record shows: a forgery (the signature is not the pinned
//! key's), a gap (a record missing), a fork (a second record at a place
//! already taken, or a link to a record that is not the one before) or a
//! replay (a record already taken, sent again).

use super::message::Body;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};

/// The hash before record 1.
pub const GENESIS: [u8; 32] = [0; 32];

/// A record as the control writes it, before its signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The linked game's id.
    pub game: String,
    /// Its place in the game's chain, from 1.
    pub seq: u64,
    /// The hash of record `seq - 1` (hex), or 64 zeros.
    pub prev: String,
    /// When the control wrote it: milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// What it says.
    pub body: Body,
}

/// A record and the control's signature of its hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signed {
    pub record: Record,
    /// Ed25519 over [`Signed::hash`], hex.
    pub sig: String,
}

impl Record {
    /// SHA-256 of the record's JSON.
    pub fn hash(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_vec(self).expect("a record is always JSON");
        Sha256::digest(json).into()
    }
}

impl Signed {
    /// The record's hash.
    pub fn hash(&self) -> [u8; 32] {
        self.record.hash()
    }

    /// The record as one line of JSON, without its newline.
    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("a record is always JSON")
    }

    /// A line read back.
    pub fn parse(line: &str) -> Result<Signed, String> {
        serde_json::from_str(line.trim()).map_err(|e| format!("not a record of a linked game: {e}"))
    }

    /// Whether `key` signed it.
    pub fn signed_by(&self, key: &VerifyingKey) -> bool {
        let Some(bytes) = unhex::<64>(&self.sig) else {
            return false;
        };
        key.verify(&self.hash(), &Signature::from_bytes(&bytes))
            .is_ok()
    }
}

/// The control's side: signs each record and links it to the last.
pub struct Chain {
    key: SigningKey,
    game: String,
    seq: u64,
    prev: [u8; 32],
}

impl Chain {
    /// A new chain for `game`.
    pub fn new(key: SigningKey, game: &str) -> Chain {
        Chain {
            key,
            game: game.to_string(),
            seq: 0,
            prev: GENESIS,
        }
    }

    /// A chain that goes on after `last`, its newest record.
    pub fn resume(key: SigningKey, last: &Signed) -> Chain {
        Chain {
            key,
            game: last.record.game.clone(),
            seq: last.record.seq,
            prev: last.hash(),
        }
    }

    /// The next record, saying `body`, written at `at_ms`.
    pub fn sign(&mut self, body: Body, at_ms: u64) -> Signed {
        let record = Record {
            game: self.game.clone(),
            seq: self.seq + 1,
            prev: hex(&self.prev),
            at_ms,
            body,
        };
        let hash = record.hash();
        let sig = hex(&self.key.sign(&hash).to_bytes());
        (self.seq, self.prev) = (record.seq, hash);
        Signed { record, sig }
    }

    /// The place of the last record signed (0 before the first).
    pub fn seq(&self) -> u64 {
        self.seq
    }
}

/// What a record that does not belong shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    #[error("record {seq} is not signed by the control's key pinned in the venue file: a forgery")]
    Forged { seq: u64 },
    #[error("record {seq} is of game {found:?}, not {wanted:?}")]
    OtherGame {
        seq: u64,
        found: String,
        wanted: String,
    },
    #[error("record {seq} came after record {last}: {missing} record(s) missing (a gap)")]
    Gap { last: u64, seq: u64, missing: u64 },
    #[error("record {seq} differs from the record {seq} already taken, both signed: the control's chain forks")]
    Fork { seq: u64 },
    #[error("record {seq} does not link to record {before} taken before it: the chain forks")]
    Broken { seq: u64, before: u64 },
    #[error("record {seq} was taken already and came again: a replay")]
    Replay { seq: u64 },
    #[error("a message on the control's subject is not a record: {0}")]
    Unreadable(String),
}

/// A venue's side: takes the control's records in order, refusing any
/// that does not belong.
pub struct Follower {
    key: VerifyingKey,
    game: String,
    hashes: Vec<[u8; 32]>,
}

impl Follower {
    /// A follower of `game`'s chain signed by `key`.
    pub fn new(key: VerifyingKey, game: &str) -> Follower {
        Follower {
            key,
            game: game.to_string(),
            hashes: Vec::new(),
        }
    }

    /// The place of the last record taken (0 before the first).
    pub fn seq(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// Takes `s` if it is the next record of the chain.
    pub fn take(&mut self, s: &Signed) -> Result<(), ChainError> {
        let seq = s.record.seq;
        if !s.signed_by(&self.key) {
            return Err(ChainError::Forged { seq });
        }
        if s.record.game != self.game {
            return Err(ChainError::OtherGame {
                seq,
                found: s.record.game.clone(),
                wanted: self.game.clone(),
            });
        }
        let last = self.seq();
        if seq == 0 || seq <= last {
            let taken = seq.checked_sub(1).and_then(|i| self.hashes.get(i as usize));
            return Err(match taken {
                Some(h) if *h == s.hash() => ChainError::Replay { seq },
                _ => ChainError::Fork { seq },
            });
        }
        if seq > last + 1 {
            let missing = seq - last - 1;
            return Err(ChainError::Gap { last, seq, missing });
        }
        let before = self.hashes.last().copied().unwrap_or(GENESIS);
        if s.record.prev != hex(&before) {
            return Err(ChainError::Broken { seq, before: last });
        }
        self.hashes.push(s.hash());
        Ok(())
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `N` bytes from hex, if `text` is exactly that.
pub fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let t = text.trim().as_bytes();
    if t.len() != 2 * N || !t.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, pair) in t.chunks(2).enumerate() {
        let s = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(s, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests;
