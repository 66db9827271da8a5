//! The words games describe their win patterns in: a [`Builtin`] pattern is
//! a name, a line of explanation and its [`Ways`] (masks over a face's
//! cells, bit `row × cols + col`), or a rule that depends on the face
//! (corners, any k numbers). Each game lists its own
//! ([`super::Facts::patterns`]); `play::pattern` judges faces against them.
//!
//! The helpers here draw the shapes every square card shares (rows,
//! columns, diagonals, corners, blocks), so a game states its patterns in a
//! few lines.

/// One way to win: the cells that must all be marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Way {
    pub name: String,
    pub mask: u32,
}

/// How a pattern is won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ways {
    /// Any one of these fixed masks.
    Fixed(Vec<Way>),
    /// The first and last number of the top and bottom rows (a 90-ball
    /// ticket's corners, which move with its blanks).
    NumberedCorners,
    /// Any `k` numbers of the face.
    AnyNumbers(u8),
}

/// A built-in pattern of a game.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// The name `--pattern` takes.
    pub name: &'static str,
    /// What it takes, in words, for a pattern not drawn as masks.
    pub about: &'static str,
    /// Its ways on a face of the game's facts, built when asked.
    pub ways: fn(&super::Facts) -> Ways,
}

/// A way named `name` over `cells`.
pub fn way(name: &str, cells: &[usize]) -> Way {
    Way {
        name: name.into(),
        mask: cells.iter().fold(0, |m, &c| m | 1 << c),
    }
}

/// The rows of a `rows` × `cols` face, each a way: `row 1` … .
pub fn rows(rows: usize, cols: usize) -> Vec<Way> {
    (0..rows)
        .map(|r| {
            let cells: Vec<usize> = (r * cols..r * cols + cols).collect();
            way(&format!("row {}", r + 1), &cells)
        })
        .collect()
}

/// The columns of a `rows` × `cols` face, named by `letters` (or numbered
/// when the game has none).
pub fn columns(rows: usize, cols: usize, letters: &[&str]) -> Vec<Way> {
    (0..cols)
        .map(|c| {
            let cells: Vec<usize> = (0..rows).map(|r| r * cols + c).collect();
            let name = match letters.get(c) {
                Some(letter) => format!("column {letter}"),
                None => format!("column {}", c + 1),
            };
            way(&name, &cells)
        })
        .collect()
}

/// The two diagonals of an `n` × `n` face.
pub fn diagonals(n: usize) -> Vec<Way> {
    let down: Vec<usize> = (0..n).map(|i| i * n + i).collect();
    let up: Vec<usize> = (0..n).map(|i| i * n + (n - 1 - i)).collect();
    vec![
        way("diagonal from top left", &down),
        way("diagonal from top right", &up),
    ]
}

/// The four corner cells of a `rows` × `cols` face.
pub fn corners(rows: usize, cols: usize) -> Way {
    let last = rows * cols - 1;
    way("four corners", &[0, cols - 1, last + 1 - cols, last])
}

/// Every cell of a `rows` × `cols` face.
pub fn every_cell(rows: usize, cols: usize) -> Way {
    way("every cell", &(0..rows * cols).collect::<Vec<_>>())
}

/// The cells of the `size` × `size` block whose top-left cell is (r, c).
pub fn block(cols: usize, (r, c): (usize, usize), size: usize) -> Vec<usize> {
    (0..size)
        .flat_map(|i| (0..size).map(move |j| (r + i) * cols + c + j))
        .collect()
}

/// Every line of a square face: its rows, columns and both diagonals.
pub fn lines(n: usize, letters: &[&str]) -> Vec<Way> {
    let mut ways = rows(n, n);
    ways.extend(columns(n, n, letters));
    ways.extend(diagonals(n));
    ways
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_a_four_by_four_face() {
        assert_eq!(rows(4, 4)[1].mask, 0xF0);
        assert_eq!(columns(4, 4, &[])[0].mask, 0x1111);
        assert_eq!(columns(4, 4, &[])[0].name, "column 1");
        assert_eq!(diagonals(4)[0].mask, 1 | 1 << 5 | 1 << 10 | 1 << 15);
        assert_eq!(diagonals(4)[1].mask, 1 << 3 | 1 << 6 | 1 << 9 | 1 << 12);
        assert_eq!(corners(4, 4).mask, 1 | 1 << 3 | 1 << 12 | 1 << 15);
        assert_eq!(block(4, (1, 1), 2), vec![5, 6, 9, 10]);
        assert_eq!(lines(4, &[]).len(), 10);
        assert_eq!(every_cell(3, 9).mask.count_ones(), 27);
    }
}
