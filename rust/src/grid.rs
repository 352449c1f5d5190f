//! Word searches on a DAWG outside the board game: the words that can be traced on a letter grid
//! (the 5x5 grid game, `literaki_cli/games/grid5.py`), and the words a rack spells (`anagram
//! --rack`).  Both walk the lexicon file's arcs as they are (no letter masks: a grid search is
//! one walk per command), in the order the numba kernels they replace walked them, so that the
//! answers and their order stay what they were.

use crate::kwg::{ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT, SEPARATOR};
use crate::movegen::{BLANK_FLAG, BLANK_SLOT, RACK_SLOTS};
use crate::words::{find_arc as find, WORD_SEPARATOR};

/// Longest path a grid search keeps (cells).
pub const MAX_PATH: usize = 16;

/// A grid and what its search found: every traced path that spells a word.
pub struct GridSearch<'a> {
    arcs: &'a [u32],
    /// Letter codes of the cells, row by row, on a `size` x `size` grid.
    codes: &'a [u32],
    size: usize,
    /// The premium of each crossing point ((size - 1)^2, row by row).
    premium: &'a [i64],
    letter_points: i64,
    min_len: usize,
    max_len: usize,
    used: Vec<bool>,
    blocks: Vec<bool>,
    path: [usize; MAX_PATH],
    /// Found paths: MAX_PATH cells each (unused ones 0), their lengths and scores.
    pub cells: Vec<i64>,
    pub lengths: Vec<i64>,
    pub scores: Vec<i64>,
}

/// The eight neighbours, in the order the search tries them.
const STEPS: [(i64, i64); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl<'a> GridSearch<'a> {
    /// Every path through touching cells, no cell twice and no crossing point twice, that spells a
    /// word of the DAWG at `root` of at least `min_len` letters: cells, length and score (one
    /// point a letter plus the premium of each crossing point passed), in the order found.
    pub fn run(
        arcs: &'a [u32],
        root: usize,
        codes: &'a [u32],
        size: usize,
        premium: &'a [i64],
        letter_points: i64,
        min_len: usize,
    ) -> GridSearch<'a> {
        let n_cells = size * size;
        let mut search = GridSearch {
            arcs,
            codes,
            size,
            premium,
            letter_points,
            min_len,
            max_len: n_cells.min(MAX_PATH),
            used: vec![false; n_cells],
            blocks: vec![false; (size.max(1) - 1) * (size.max(1) - 1)],
            path: [0; MAX_PATH],
            cells: Vec::new(),
            lengths: Vec::new(),
            scores: Vec::new(),
        };
        for (start, &code) in codes.iter().enumerate().take(n_cells) {
            let Some(p) = find(arcs, root, code) else {
                continue;
            };
            search.path[0] = start;
            search.used[start] = true;
            search.extend(0, (arcs[p] & INDEX_MASK) as usize, letter_points);
            search.used[start] = false;
        }
        search
    }

    /// The paths that go on from `path[..=depth]` (whose score is `score`), reading the next letter
    /// from the sibling list `list`.
    fn extend(&mut self, depth: usize, list: usize, score: i64) {
        if list == 0 || depth + 1 >= self.max_len {
            return;
        }
        let size = self.size as i64;
        let cell = self.path[depth];
        let (row, col) = ((cell / self.size) as i64, (cell % self.size) as i64);
        for (dr, dc) in STEPS {
            let (r, c) = (row + dr, col + dc);
            if r < 0 || r >= size || c < 0 || c >= size {
                continue;
            }
            let next = (r * size + c) as usize;
            if self.used[next] {
                continue;
            }
            // a diagonal step passes the crossing point of its 2x2 block
            let block = (dr != 0 && dc != 0).then(|| (r.min(row) * (size - 1) + c.min(col)) as usize);
            if block.is_some_and(|b| self.blocks[b]) {
                continue;
            }
            let Some(q) = find(self.arcs, list, self.codes[next]) else {
                continue;
            };
            self.path[depth + 1] = next;
            self.used[next] = true;
            let mut gain = 0;
            if let Some(b) = block {
                self.blocks[b] = true;
                gain = self.premium[b];
            }
            let score = score + self.letter_points + gain;
            let arc = self.arcs[q];
            if arc & ACCEPTS_BIT != 0 && depth + 2 >= self.min_len {
                let mut cells = [0i64; MAX_PATH];
                for (i, &c) in self.path[..depth + 2].iter().enumerate() {
                    cells[i] = c as i64;
                }
                self.cells.extend_from_slice(&cells);
                self.lengths.push((depth + 2) as i64);
                self.scores.push(score);
            }
            self.extend(depth + 1, (arc & INDEX_MASK) as usize, score);
            self.used[next] = false;
            if let Some(b) = block {
                self.blocks[b] = false;
            }
        }
    }
}

/// Every word of the DAWG at `root` spelled from the rack `counts` (slot BLANK_SLOT: blanks) in at
/// most `max_len` letters, each as its letter codes (a blank's letter + BLANK_FLAG) and a
/// WORD_SEPARATOR; at each letter the tile is tried before the blank.
pub fn rack_words(arcs: &[u32], root: usize, counts: &mut [i64; RACK_SLOTS], max_len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut word = vec![0u8; max_len + 1];
    spell(arcs, root, 0, counts, max_len, &mut word, &mut out);
    out
}

fn spell(
    arcs: &[u32],
    list: usize,
    depth: usize,
    counts: &mut [i64; RACK_SLOTS],
    max_len: usize,
    word: &mut [u8],
    out: &mut Vec<u8>,
) {
    if list == 0 || depth >= max_len {
        return;
    }
    let mut p = list;
    loop {
        let arc = arcs[p];
        let letter = (arc >> LETTER_SHIFT) as usize;
        if letter != SEPARATOR as usize {
            for (slot, flag) in [(letter, 0u8), (BLANK_SLOT, BLANK_FLAG as u8)] {
                if counts[slot] == 0 {
                    continue;
                }
                counts[slot] -= 1;
                word[depth] = letter as u8 + flag;
                if arc & ACCEPTS_BIT != 0 {
                    out.extend_from_slice(&word[..=depth]);
                    out.push(WORD_SEPARATOR);
                }
                spell(arcs, (arc & INDEX_MASK) as usize, depth + 1, counts, max_len, word, out);
                counts[slot] += 1;
            }
        }
        if arc & END_BIT != 0 {
            break;
        }
        p += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kwg::test_arc as arc;

    /// A DAWG of "ab" and "ba" (a = 1, b = 2): root 1 -> [a (3), b (4)]; 3: [b]; 4: [a].
    fn ab_ba() -> Vec<u32> {
        vec![0, arc(1, 3, false, false), arc(2, 4, false, true), arc(2, 0, true, true), arc(1, 0, true, true)]
    }

    #[test]
    fn a_grid_traces_its_words_each_way_and_scores_the_crossings() {
        // a a
        // b b : "ab" down and across the diagonals, "ba" back; a diagonal passes the one crossing
        let arcs = ab_ba();
        let search = GridSearch::run(&arcs, 1, &[1, 1, 2, 2], 2, &[5], 1, 2);
        let found: Vec<(Vec<i64>, i64)> = (0..search.lengths.len())
            .map(|i| (search.cells[i * MAX_PATH..i * MAX_PATH + 2].to_vec(), search.scores[i]))
            .collect();
        let expected = [
            (vec![0, 2], 2),
            (vec![0, 3], 7),
            (vec![1, 2], 7),
            (vec![1, 3], 2),
            (vec![2, 0], 2),
            (vec![2, 1], 7),
            (vec![3, 0], 7),
            (vec![3, 1], 2),
        ];
        assert_eq!(found, expected.to_vec());
        assert!(GridSearch::run(&arcs, 1, &[1, 1, 2, 2], 2, &[5], 1, 3).lengths.is_empty());
        // none of 3
    }

    #[test]
    fn a_rack_spells_with_tiles_before_blanks() {
        let arcs = ab_ba();
        let mut counts = [0i64; RACK_SLOTS];
        counts[1] = 1;
        counts[BLANK_SLOT] = 1;
        let out = rack_words(&arcs, 1, &mut counts, 7);
        let blank_a = 1 + BLANK_FLAG as u8;
        let blank_b = 2 + BLANK_FLAG as u8;
        assert_eq!(out, vec![1, blank_b, WORD_SEPARATOR, blank_b, 1, WORD_SEPARATOR]); // "aB", "Ba"
        assert!(!out.contains(&blank_a)); // the blank as a would leave b without a tile
        assert_eq!(counts[1], 1); // the rack is given back
    }
}
