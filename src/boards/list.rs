//! A batch of boards as values, kept compactly: every board's cells in one
//! array, its attempt, and the relaxed list of each board that has one
//! (most have none, and an empty list takes no allocation). A [`Store`] for
//! the pipeline, read back as [`BoardRef`]s by the renderer.

use super::board::{Board, Relaxed};
use crate::pipeline::{Part, Store};

/// One board of a [`BoardList`] (or of a [`Board`]), borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardRef<'a> {
    /// 0 for a first draw; n for the n-th redraw of a duplicate.
    pub attempt: u32,
    /// Row-major cells, each packed (objective, value index).
    pub cells: &'a [u16],
    /// The constraints that gave way, in the order they did.
    pub relaxed: &'a [Relaxed],
}

impl Board {
    /// The board, borrowed as the renderer reads it.
    pub fn view(&self) -> BoardRef<'_> {
        BoardRef {
            attempt: self.attempt,
            cells: &self.cells,
            relaxed: &self.relaxed,
        }
    }
}

/// `count` boards of `width` cells each.
pub struct BoardList {
    width: usize,
    cells: Vec<u16>,
    attempts: Vec<u32>,
    relaxed: Vec<Option<Box<[Relaxed]>>>,
}

impl BoardList {
    /// Room for `count` boards of `width` cells.
    pub fn new(count: usize, width: usize) -> BoardList {
        BoardList {
            width,
            cells: vec![0; count * width],
            attempts: vec![0; count],
            relaxed: vec![None; count],
        }
    }

    /// Board `i` (0-based).
    pub fn get(&self, i: usize) -> BoardRef<'_> {
        BoardRef {
            attempt: self.attempts[i],
            cells: &self.cells[i * self.width..(i + 1) * self.width],
            relaxed: self.relaxed[i].as_deref().unwrap_or(&[]),
        }
    }

    /// How many boards.
    pub fn len(&self) -> usize {
        self.attempts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.attempts.is_empty()
    }

    /// Every board, in order.
    pub fn iter(&self) -> impl Iterator<Item = BoardRef<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// A run of consecutive boards of a [`BoardList`].
pub struct ListPart<'a> {
    width: usize,
    cells: &'a mut [u16],
    attempts: &'a mut [u32],
    relaxed: &'a mut [Option<Box<[Relaxed]>>],
}

impl Part<Board> for ListPart<'_> {
    fn len(&self) -> usize {
        self.attempts.len()
    }

    fn put(&mut self, j: usize, board: Board) {
        self.cells[j * self.width..(j + 1) * self.width].copy_from_slice(&board.cells);
        self.attempts[j] = board.attempt;
        self.relaxed[j] = (!board.relaxed.is_empty()).then(|| board.relaxed.into_boxed_slice());
    }
}

impl Store<Board> for BoardList {
    type Part<'a> = ListPart<'a>;

    fn len(&self) -> usize {
        self.attempts.len()
    }

    fn parts(&mut self, per: usize) -> Vec<ListPart<'_>> {
        let width = self.width;
        self.cells
            .chunks_mut(per * width)
            .zip(self.attempts.chunks_mut(per))
            .zip(self.relaxed.chunks_mut(per))
            .map(|((cells, attempts), relaxed)| ListPart {
                width,
                cells,
                attempts,
                relaxed,
            })
            .collect()
    }

    fn put(&mut self, index: usize, board: Board) {
        let width = self.width;
        ListPart {
            width,
            cells: &mut self.cells[index * width..(index + 1) * width],
            attempts: &mut self.attempts[index..=index],
            relaxed: &mut self.relaxed[index..=index],
        }
        .put(0, board);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boards::board::Gave;

    #[test]
    fn boards_come_back_as_they_went_in() {
        let mut list = BoardList::new(3, 2);
        let relaxed = vec![Relaxed {
            cell: 1,
            gave: Gave::IndividualLimit,
        }];
        let board = |attempt, cells: [u16; 2], relaxed: Vec<Relaxed>| Board {
            attempt,
            cells: cells.to_vec(),
            relaxed,
        };
        list.parts(2)[1].put(0, board(0, [5, 6], relaxed.clone()));
        Store::put(&mut list, 0, board(2, [1, 2], Vec::new()));
        assert_eq!(list.get(0).cells, [1, 2]);
        assert_eq!(list.get(0).attempt, 2);
        assert_eq!(list.get(2), board(0, [5, 6], relaxed.clone()).view());
        // A board replaced by one without relaxation loses the old list.
        Store::put(&mut list, 2, board(1, [7, 8], Vec::new()));
        assert!(list.get(2).relaxed.is_empty());
        assert_eq!(list.iter().count(), 3);
    }
}
