//! The board seen along one direction, and its cross-checks.
//!
//! For each direction the board is viewed so that the words of that direction run along rows
//! (the down view is the transposed board).  Per empty square the view carries the letters a
//! tile there may be (a 32-bit mask computed from the DAWG), and the base score and multiplier of
//! the cross word a tile there would make, so that a move's score is summed as it is built.

use crate::kwg::Kwg;
use crate::movegen::bit;
use crate::rules::{Rules, END, START};

pub const ACROSS: usize = 0;
pub const DOWN: usize = 1;
pub const ALL_LETTERS: u32 = u32::MAX;

/// One direction's view of the board (wolges' `BoardSnapshot`, seen along rows).
#[derive(Clone)]
pub struct View {
    pub rows: usize,
    pub cols: usize,
    /// Letter codes, row-major; 0 = empty.
    pub letters: Vec<u8>,
    pub blanks: Vec<bool>,
    /// The square index (row * columns + col) of the unviewed board.
    pub sqmap: Vec<usize>,
    /// ACROSS or DOWN: the direction of the words read along the view's rows.
    pub main_dir: usize,
    /// The down view: a single tile forming words both ways is left to the across view.
    pub transposed: bool,
    /// On an empty board the start square in view coordinates.
    pub start: Option<(usize, usize)>,
}

impl View {
    /// The across view and the transposed down view of a board (`letters`, `blanks`: row-major,
    /// `rules.rows` x `rules.cols`).
    pub fn pair(rules: &Rules, letters: &[u8], blanks: &[bool]) -> (View, View) {
        let (rows, cols) = (rules.rows, rules.cols);
        let empty = letters.iter().all(|&l| l == 0);
        let (sr, sc) = rules.start;
        let across = View {
            rows,
            cols,
            letters: letters.to_vec(),
            blanks: blanks.to_vec(),
            sqmap: (0..rows * cols).collect(),
            main_dir: ACROSS,
            transposed: false,
            start: if empty { Some((sr, sc)) } else { None },
        };
        let mut t_letters = vec![0u8; rows * cols];
        let mut t_blanks = vec![false; rows * cols];
        let mut t_map = vec![0usize; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                t_letters[c * rows + r] = letters[r * cols + c];
                t_blanks[c * rows + r] = blanks[r * cols + c];
                t_map[c * rows + r] = r * cols + c;
            }
        }
        let down = View {
            rows: cols,
            cols: rows,
            letters: t_letters,
            blanks: t_blanks,
            sqmap: t_map,
            main_dir: DOWN,
            transposed: true,
            start: if empty { Some((sc, sr)) } else { None },
        };
        (across, down)
    }

    #[inline(always)]
    pub fn at(&self, r: usize, c: usize) -> u8 {
        self.letters[r * self.cols + c]
    }

    #[inline(always)]
    pub fn blank_at(&self, r: usize, c: usize) -> bool {
        self.blanks[r * self.cols + c]
    }

    #[inline(always)]
    pub fn square(&self, r: usize, c: usize) -> usize {
        self.sqmap[r * self.cols + c]
    }

    /// An empty square next to a tile (on an empty board: the start square), where plays are sought.
    pub fn is_anchor(&self, r: usize, c: usize) -> bool {
        if self.at(r, c) != 0 {
            return false;
        }
        if let Some(start) = self.start {
            return (r, c) == start;
        }
        (c > 0 && self.at(r, c - 1) != 0)
            || (c + 1 < self.cols && self.at(r, c + 1) != 0)
            || (r > 0 && self.at(r - 1, c) != 0)
            || (r + 1 < self.rows && self.at(r + 1, c) != 0)
    }
}

/// Per square of a view: the letters allowed there (bit code-1) and the cross word a tile there
/// makes (`base` -1: no cross word).
pub struct CrossChecks {
    pub mask: Vec<u32>,
    pub base: Vec<i64>,
    pub mult: Vec<i64>,
}

/// Whether the DAWG `arc` (a letter after the tiles above) followed by the tiles of column `c`
/// from row `first` to `bottom` ends a word.
fn completes(kwg: &Kwg, arc: u32, view: &View, c: usize, first: usize, bottom: usize) -> bool {
    if first > bottom {
        return Kwg::accepts(arc);
    }
    let mut q = Kwg::target(arc);
    for k in first..=bottom {
        match kwg.find(q, view.at(k, c) as u32) {
            None => return false,
            Some(pk) => {
                if k == bottom {
                    return Kwg::accepts(kwg.arc(pk));
                }
                q = Kwg::target(kwg.arc(pk));
            }
        }
    }
    false
}

impl CrossChecks {
    /// The cross-checks of the `wanted` rows of a view (other rows: left open), for the letters
    /// of `fits` (a mask; the others are left out).  Cross words run along the view's columns.
    pub fn of_rows(kwg: &Kwg, dawg_root: usize, rules: &Rules, view: &View, wanted: &[bool], fits: u32) -> CrossChecks {
        let (rows, cols) = (view.rows, view.cols);
        let mut mask = vec![ALL_LETTERS; rows * cols];
        let mut base = vec![-1i64; rows * cols];
        let mut mult = vec![1i64; rows * cols];
        let cross_dir = 1 - view.main_dir;
        for (r, _) in wanted.iter().enumerate().take(rows).filter(|(_, &w)| w) {
            for c in 0..cols {
                if view.at(r, c) != 0 {
                    continue;
                }
                let mut top = r;
                while top > 0 && view.at(top - 1, c) != 0 {
                    top -= 1;
                }
                let mut bottom = r;
                while bottom + 1 < rows && view.at(bottom + 1, c) != 0 {
                    bottom += 1;
                }
                if top == r && bottom == r {
                    continue;
                }
                let i = r * cols + c;
                let sq = view.square(r, c);
                let mut total = 0i64;
                for k in top..=bottom {
                    if k != r && !view.blank_at(k, c) {
                        total += rules.tile_value[view.at(k, c) as usize];
                    }
                }
                base[i] = total;
                let mut m = rules.word_mult[sq];
                if top == r {
                    m *= rules.end_mult(cross_dir, START, sq);
                }
                if bottom == r {
                    m *= rules.end_mult(cross_dir, END, sq);
                }
                mult[i] = m;
                let mut allowed = 0u32;
                let length = (bottom - top + 1) as i64;
                if length < rules.min_word || length > rules.max_word {
                    mask[i] = 0;
                    continue;
                }
                // Walk the tiles above, then try each letter followed by the tiles below.
                let mut node = dawg_root;
                let mut ok = true;
                for k in top..r {
                    match kwg.find(node, view.at(k, c) as u32) {
                        None => {
                            ok = false;
                            break;
                        }
                        Some(p) => node = Kwg::target(kwg.arc(p)),
                    }
                }
                if ok && node != 0 && fits == ALL_LETTERS {
                    let mut p = node;
                    loop {
                        let arc = kwg.arc(p);
                        let letter = Kwg::letter(arc);
                        if (1..=32).contains(&letter) && completes(kwg, arc, view, c, r + 1, bottom) {
                            allowed |= bit(letter);
                        }
                        if Kwg::is_last(arc) {
                            break;
                        }
                        p += 1;
                    }
                } else if ok && node != 0 {
                    // only the letters the rack has and the node goes on with: far fewer walks
                    let letters = kwg.letters(node);
                    let base = kwg.letters_base(node);
                    let mut todo = fits & letters;
                    while todo != 0 {
                        let letter = todo.trailing_zeros() + 1;
                        todo &= todo - 1;
                        if let Some(p) = kwg.find_from(node, letters, base, letter) {
                            if completes(kwg, kwg.arc(p), view, c, r + 1, bottom) {
                                allowed |= bit(letter);
                            }
                        }
                    }
                }
                mask[i] = allowed;
            }
        }
        CrossChecks { mask, base, mult }
    }
}
