//! The rank of an ordered draw: the inverse of the partial Fisher–Yates
//! shuffle the 75- and 80-ball columns are drawn by (digit dᵢ < span − i,
//! most significant first, position i swapped with i + dᵢ).

/// The rank of `picks` (each below `span`, all different) as an ordered
/// draw of `picks.len()` of `span`; None when a pick is out of range or
/// repeated.
pub fn rank_of(picks: &[u8], span: u8) -> Option<u32> {
    let mut numbers: Vec<u8> = (0..span).collect();
    let mut rank = 0u32;
    for (i, &pick) in picks.iter().enumerate() {
        let at = (i..numbers.len()).find(|&j| numbers[j] == pick)?;
        numbers.swap(i, at);
        rank = rank * u32::from(span - i as u8) + (at - i) as u32;
    }
    Some(rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shuffle itself, from a rank (as the games draw).
    fn unrank(mut rank: u32, k: usize, span: u8) -> Vec<u8> {
        let mut digits = vec![0u32; k];
        for i in (0..k).rev() {
            let radix = u32::from(span) - i as u32;
            digits[i] = rank % radix;
            rank /= radix;
        }
        let mut numbers: Vec<u8> = (0..span).collect();
        for (i, &d) in digits.iter().enumerate() {
            numbers.swap(i, i + d as usize);
        }
        numbers[..k].to_vec()
    }

    #[test]
    fn every_rank_of_four_of_twenty_comes_back() {
        for rank in 0..20 * 19 * 18 * 17 {
            assert_eq!(rank_of(&unrank(rank, 4, 20), 20), Some(rank));
        }
        assert_eq!(rank_of(&[3, 3], 20), None);
        assert_eq!(rank_of(&[20], 20), None);
    }
}
