//! Proving that no two keys are equal without holding the keys: distinct
//! 64-bit hashes mean distinct keys. Each chunk's hashes are grouped by
//! their top bits (a counting sort, while the chunk is still in cache);
//! then each bucket, gathered from every chunk, goes through an
//! open-addressing table small enough for a core's cache, in parallel, with
//! no locks. Only when two hashes meet (a key repeated, or a coincidence: at
//! 10 M keys about one run in 10¹²) does a caller need the exact keys,
//! from the [`crate::dedup::KeySet`]. Used by `verify` and, while no key is
//! held yet, by the draw itself ([`super::draw_unique`]).

use rayon::prelude::*;

/// At most `1 << MAX_BITS` buckets: each chunk keeps a start per bucket.
const MAX_BITS: u32 = 14;

/// Keys per bucket of [`ChunkHashes`]: a bucket's table (16 bytes a key)
/// stays in a core's cache while it is checked.
const BUCKET_KEYS: usize = 8192;

/// One chunk's key hashes, grouped by bucket (the hash's top bits) with a
/// counting sort: bucket b is `hashes[starts[b]..starts[b + 1]]`.
pub struct ChunkHashes {
    hashes: Vec<u64>,
    starts: Vec<u32>,
}

/// All keys' hashes, chunk by chunk, in `1 << bits` buckets.
pub struct Hashes {
    pub bits: u32,
    pub chunks: Vec<ChunkHashes>,
}

impl Hashes {
    /// The buckets (as bits of the hash) for `keys` hashes in all.
    pub fn bits_for(keys: usize) -> u32 {
        (keys / BUCKET_KEYS)
            .next_power_of_two()
            .trailing_zeros()
            .min(MAX_BITS)
    }

    fn bucket(bits: u32, hash: u64) -> usize {
        hash.checked_shr(64 - bits).unwrap_or(0) as usize
    }
}

impl Drop for Hashes {
    /// Frees the chunks' hashes on every thread: tens of MB a run, whose
    /// pages the kernel would otherwise give back on one.
    fn drop(&mut self) {
        std::mem::take(&mut self.chunks)
            .into_par_iter()
            .for_each(drop);
    }
}

impl ChunkHashes {
    /// Groups one chunk's `hashes` into the `1 << bits` buckets.
    pub fn new(bits: u32, hashes: &[u64]) -> ChunkHashes {
        let (mut starts, mut sorted) = (Vec::new(), Vec::new());
        crate::buckets::sort_into(
            hashes,
            1 << bits,
            |&h| Hashes::bucket(bits, h),
            &mut starts,
            &mut sorted,
        );
        ChunkHashes {
            hashes: sorted,
            starts,
        }
    }
}

/// Whether no two of the hashes are equal: each bucket in turn goes into
/// an open-addressing table twice its size, in parallel.
pub fn distinct(hashes: &Hashes) -> bool {
    let Hashes { bits, chunks } = hashes;
    (0..1usize << bits)
        .into_par_iter()
        .map_init(Vec::new, |table: &mut Vec<u64>, b| {
            fn part(c: &ChunkHashes, b: usize) -> &[u64] {
                &c.hashes[c.starts[b] as usize..c.starts[b + 1] as usize]
            }
            let len: usize = chunks.iter().map(|c| part(c, b).len()).sum();
            let slots = (2 * len).next_power_of_two().max(16);
            table.clear();
            table.resize(slots, 0);
            let mask = slots - 1;
            // 0 marks an empty slot, so a zero hash is counted aside.
            let mut zero = false;
            for &h in chunks.iter().flat_map(|c| part(c, b)) {
                if h == 0 {
                    if zero {
                        return false;
                    }
                    zero = true;
                    continue;
                }
                // The low bits: the top ones are the bucket's.
                let mut i = h as usize & mask;
                loop {
                    match table[i] {
                        0 => {
                            table[i] = h;
                            break;
                        }
                        t if t == h => return false,
                        _ => i = (i + 1) & mask,
                    }
                }
            }
            true
        })
        .all(|unique| unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distinct_of(chunks: Vec<Vec<u64>>) -> bool {
        let bits = Hashes::bits_for(chunks.iter().map(Vec::len).sum());
        let chunks = chunks.iter().map(|c| ChunkHashes::new(bits, c)).collect();
        distinct(&Hashes { bits, chunks })
    }

    #[test]
    fn equal_hashes_are_found_in_any_chunk_and_bucket() {
        // Enough keys for several buckets; spread over chunks.
        let n = 5 * BUCKET_KEYS as u64;
        let spread = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let all: Vec<u64> = (1..=n).map(spread).collect();
        let chunks = |all: &[u64]| all.chunks(7000).map(<[u64]>::to_vec).collect::<Vec<_>>();
        assert!(distinct_of(chunks(&all)));
        for (i, j) in [(0, 1), (3, 30_000), (100, 40_959)] {
            let mut twice = all.clone();
            twice[j] = twice[i];
            assert!(!distinct_of(chunks(&twice)), "{i} and {j}");
        }
        // Zero is a hash like any other.
        let mut zeros = all.clone();
        zeros[10] = 0;
        assert!(distinct_of(chunks(&zeros)));
        zeros[20_000] = 0;
        assert!(!distinct_of(chunks(&zeros)));
        // Hashes equal in their low bits only.
        assert!(distinct_of(vec![vec![1, 1 | 1 << 40, 1 | 1 << 63]]));
        assert!(distinct_of(vec![]));
    }
}
