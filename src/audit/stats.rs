//! The distributions and classic probabilities the battery tests against:
//! chi-square and normal tail probabilities, Pearson's statistic with small
//! categories lumped, Holm's step-down procedure, and the exact category
//! probabilities of Knuth's gap, poker and coupon-collector tests.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// Categories are lumped until each expects at least this many.
pub const MIN_EXPECTED: f64 = 5.0;

/// P(χ²(df) ≥ x).
pub fn chi_square_p(x: f64, df: f64) -> f64 {
    if df <= 0.0 {
        return 1.0;
    }
    ChiSquared::new(df)
        .map(|d| d.sf(x.max(0.0)))
        .unwrap_or(f64::NAN)
}

/// P(|Z| ≥ |z|) for a standard normal Z.
pub fn normal_two_sided_p(z: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("the standard normal");
    (2.0 * n.sf(z.abs())).min(1.0)
}

/// Pearson's statistic of `observed` against `probabilities` (summing to
/// one), adjacent categories lumped from the left until
/// each expects at least [`MIN_EXPECTED`] (a short last group joins the one
/// before it). Returns (statistic, degrees of freedom); (0, 0) when fewer
/// than two groups remain.
pub fn pearson_lumped(observed: &[u64], probabilities: &[f64]) -> (f64, f64) {
    debug_assert_eq!(observed.len(), probabilities.len());
    let total: u64 = observed.iter().sum();
    let n = total as f64;
    let mut groups: Vec<(f64, f64)> = Vec::new();
    let (mut o, mut e) = (0.0, 0.0);
    for (&count, &p) in observed.iter().zip(probabilities) {
        o += count as f64;
        e += p * n;
        if e >= MIN_EXPECTED {
            groups.push((o, e));
            (o, e) = (0.0, 0.0);
        }
    }
    if e > 0.0 || o > 0.0 {
        match groups.last_mut() {
            Some(last) => {
                last.0 += o;
                last.1 += e;
            }
            None => groups.push((o, e)),
        }
    }
    if groups.len() < 2 {
        return (0.0, 0.0);
    }
    let x = groups
        .iter()
        .map(|&(o, e)| (o - e) * (o - e) / e)
        .sum::<f64>();
    (x, (groups.len() - 1) as f64)
}

/// Pearson's statistic of `observed` against equal probabilities, and its
/// degrees of freedom (categories − 1).
pub fn pearson_uniform(observed: &[u64]) -> (f64, f64) {
    let n: u64 = observed.iter().sum();
    let e = n as f64 / observed.len() as f64;
    if e == 0.0 {
        return (0.0, 0.0);
    }
    let x = observed
        .iter()
        .map(|&o| (o as f64 - e) * (o as f64 - e) / e)
        .sum();
    (x, (observed.len() - 1) as f64)
}

/// Which of `p_values` Holm's step-down procedure rejects at family-wise
/// level `alpha`: the smallest p is compared with α/m, the next with
/// α/(m − 1), …, stopping at the first that is not below its bound.
/// Also the Holm-adjusted p-value of each.
pub fn holm(p_values: &[f64], alpha: f64) -> (Vec<bool>, Vec<f64>) {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]).then(a.cmp(&b)));
    let mut rejected = vec![false; m];
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    let mut stopped = false;
    for (rank, &i) in order.iter().enumerate() {
        let factor = (m - rank) as f64;
        running = running.max((p_values[i] * factor).min(1.0));
        adjusted[i] = running;
        if !stopped && p_values[i] <= alpha / factor {
            rejected[i] = true;
        } else {
            stopped = true;
        }
    }
    (rejected, adjusted)
}

/// Stirling numbers of the second kind S(n, k) for n ≤ `n`, as f64
/// (exact far beyond what the tests need).
fn stirling2(n: usize) -> Vec<Vec<f64>> {
    let mut s = vec![vec![0.0; n + 1]; n + 1];
    s[0][0] = 1.0;
    for i in 1..=n {
        for k in 1..=i {
            s[i][k] = k as f64 * s[i - 1][k] + s[i - 1][k - 1];
        }
    }
    s
}

/// Poker test: the probability that a hand of `hand` independent uniform
/// digits below `d` shows exactly r distinct values, for r = 1..=hand.
pub fn poker_probabilities(d: usize, hand: usize) -> Vec<f64> {
    let s = stirling2(hand);
    (1..=hand)
        .map(|r| {
            let falling: f64 = (0..r).map(|i| (d - i) as f64).product();
            if r > d {
                0.0
            } else {
                falling * s[hand][r] / (d as f64).powi(hand as i32)
            }
        })
        .collect()
}

/// Gap test: the probability that a gap (digits outside the hit set
/// between two hits) has length 0, 1, …, `longest − 1`, and at least
/// `longest`, when a digit is a hit with probability `p`.
pub fn gap_probabilities(p: f64, longest: usize) -> Vec<f64> {
    let mut probs: Vec<f64> = (0..longest).map(|r| p * (1.0 - p).powi(r as i32)).collect();
    probs.push((1.0 - p).powi(longest as i32));
    probs
}

/// Coupon-collector test: the probability that a segment (digits until
/// every one of the `d` values has appeared) has length d, d + 1, …,
/// `longest − 1`, and at least `longest`.
pub fn coupon_probabilities(d: usize, longest: usize) -> Vec<f64> {
    // seen[j]: the probability of exactly j values seen after l digits.
    let mut seen = vec![0.0; d + 1];
    seen[0] = 1.0;
    let mut probs = Vec::new();
    let mut done = 0.0;
    for l in 1..longest {
        let mut next = vec![0.0; d + 1];
        for j in 0..d {
            next[j] += seen[j] * j as f64 / d as f64;
            next[j + 1] += seen[j] * (d - j) as f64 / d as f64;
        }
        // A segment ends at its d-th value: those leave the table.
        let ended = next[d];
        next[d] = 0.0;
        seen = next;
        if l >= d {
            probs.push(ended);
            done += ended;
        }
    }
    probs.push((1.0 - done).max(0.0));
    probs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_tables_sum_to_one_and_match_known_values() {
        for probs in [
            poker_probabilities(10, 5),
            poker_probabilities(15, 5),
            gap_probabilities(1.0 / 3.0, 10),
            coupon_probabilities(6, 60),
            coupon_probabilities(15, 200),
        ] {
            let total: f64 = probs.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
        }
        // Knuth's poker with d = 10: all different 0.3024, one pair 0.504.
        let p = poker_probabilities(10, 5);
        assert!((p[4] - 0.3024).abs() < 1e-12 && (p[3] - 0.504).abs() < 1e-12);
        // A coupon segment of d = 6 is 6 long with probability 6!/6⁶.
        let c = coupon_probabilities(6, 60);
        assert!((c[0] - 720.0 / 46_656.0).abs() < 1e-12);
    }

    #[test]
    fn holm_steps_down_and_stops() {
        let (rejected, adjusted) = holm(&[0.001, 0.03, 0.004, 0.5], 0.05);
        // 0.001 ≤ 0.05/4, 0.004 ≤ 0.05/3, 0.03 > 0.05/2: stop.
        assert_eq!(rejected, [true, false, true, false]);
        assert!((adjusted[0] - 0.004).abs() < 1e-12);
        assert!((adjusted[2] - 0.012).abs() < 1e-12);
        assert!((adjusted[1] - 0.06).abs() < 1e-12);
    }

    #[test]
    fn lumping_keeps_every_trial_and_tails_are_right() {
        let (x, df) = pearson_lumped(&[0, 1, 49, 50], &[0.001, 0.009, 0.49, 0.5]);
        assert_eq!(df, 1.0);
        assert!((x - 0.0).abs() < 1e-9);
        assert!((chi_square_p(3.841_458_820_694_124, 1.0) - 0.05).abs() < 1e-9);
        assert!((normal_two_sided_p(2.575_829_303_549) - 0.01).abs() < 1e-9);
    }
}
