//! The exact laws of a uniform strip's layout that an audit tests a file
//! against: how often each row pattern and each column count comes, from
//! the sampler's own tables (not from a simulation).

use super::rules::Rules;
use super::tables::tables;

/// Exact probabilities of a ticket's layout, the same at every ticket of
/// a strip (a uniform strip favours no position).
#[derive(Clone, Debug)]
pub struct LayoutLaw {
    /// `rows[r][mask]`: the probability that row r's filled columns are
    /// the 9-bit `mask` (bit c for column c).
    pub rows: [Vec<f64>; 3],
    /// `columns[c][k]`: the probability that column c holds k numbers.
    pub columns: [[f64; 4]; 9],
}

/// The law of `rules`' strips: a ticket's vector v comes with probability
/// `Tables::vector_probabilities`, and its layout is uniform among the
/// layouts with that vector.
pub fn layout_law(rules: Rules) -> LayoutLaw {
    let t = tables(rules);
    let p = t.vector_probabilities();
    let mut rows: [Vec<f64>; 3] = std::array::from_fn(|_| vec![0.0; 512]);
    let mut columns = [[0.0; 4]; 9];
    for (v, (&pv, counts)) in p.iter().zip(&t.vectors).enumerate() {
        let layouts = t.layouts_of(v);
        let share = pv / layouts.len() as f64;
        for &layout in layouts {
            for (r, row) in rows.iter_mut().enumerate() {
                row[((layout >> (9 * r)) & 0x1FF) as usize] += share;
            }
        }
        for (c, &k) in counts.iter().enumerate() {
            columns[c][usize::from(k)] += pv;
        }
    }
    LayoutLaw { rows, columns }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_laws_are_distributions_with_known_means() {
        for rules in [Rules::Uk, Rules::Es] {
            let law = layout_law(rules);
            for row in &law.rows {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
            // Column c holds its numbers over six tickets: a mean of n_c / 6.
            for (c, col) in law.columns.iter().enumerate() {
                assert!((col.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                let mean: f64 = col.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
                let n = f64::from(super::super::rules::COLUMN_SIZES[c]);
                assert!((mean - n / 6.0).abs() < 1e-9, "column {c}: {mean}");
            }
        }
    }
}
