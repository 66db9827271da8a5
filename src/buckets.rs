//! The counting sort that every bulk key stage shares: items grouped by a
//! small bucket number (a shard, a partition, the top bits of a hash) in two
//! passes, stable, into buffers reused from call to call.

/// Writes `items` grouped by `bucket_of` (each below `buckets`) into
/// `sorted`, in their order within a bucket; bucket b is then
/// `sorted[starts[b]..starts[b + 1]]`.
pub fn sort_into<T: Copy>(
    items: &[T],
    buckets: usize,
    bucket_of: impl Fn(&T) -> usize,
    starts: &mut Vec<u32>,
    sorted: &mut Vec<T>,
) {
    starts.clear();
    starts.resize(buckets + 1, 0);
    for item in items {
        starts[bucket_of(item) + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    sorted.clear();
    sorted.extend_from_slice(items);
    let mut next = starts.clone();
    for item in items {
        let slot = &mut next[bucket_of(item)];
        sorted[*slot as usize] = *item;
        *slot += 1;
    }
}

/// `items` split into the runs that start at `starts` (one more: the end),
/// each mutable on its own: bucket b is `starts[b]..starts[b + 1]`.
pub fn runs_mut<'a, T>(items: &'a mut [T], starts: &[usize]) -> Vec<&'a mut [T]> {
    let mut runs = Vec::with_capacity(starts.len().saturating_sub(1));
    let mut rest = &mut items[starts.first().copied().unwrap_or(0)..];
    for w in starts.windows(2) {
        let (run, tail) = rest.split_at_mut(w[1] - w[0]);
        runs.push(run);
        rest = tail;
    }
    runs
}

#[cfg(test)]
mod tests {
    #[test]
    fn items_are_grouped_by_bucket_in_their_order() {
        let items = [(2, 'a'), (0, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        let (mut starts, mut sorted) = (Vec::new(), Vec::new());
        super::sort_into(&items, 4, |i| i.0, &mut starts, &mut sorted);
        assert_eq!(starts, [0, 2, 3, 5, 5]);
        let letters: String = sorted.iter().map(|i| i.1).collect();
        assert_eq!(letters, "bedac");
    }
}
