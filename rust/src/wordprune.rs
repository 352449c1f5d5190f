//! The lexicon of one endgame: the words its moves could ever form, as a small word graph (the
//! idea is MAGPIE's `word_prune.c`; this code is our own).  A port of the numba kernels of
//! `literaki_cli/endgame/wordprune.py` (its docstring says why the search's values cannot change):
//! the same arcs marked, the same graph laid out.
//!
//! Once the bag is empty every tile still to be played is on one of the two racks, so a word any
//! move of the rest of the game forms lies along one line and is made of the letters on that line
//! now plus tiles of the two racks (a blank for any letter): line by line, the words through the
//! line's tiles (read from the first tile of a run, leftwards over empty squares, then rightwards,
//! as the move generator reads the GADDAG from an anchor), and the words of new tiles only, as long
//! as the longest stretch of empty squares with no tile beside it.  Every arc those words use (each
//! GADDAG path, one per split, and the DAWG path) is kept.

use std::collections::hash_map::{Entry, HashMap};

use crate::kwg::{ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT, SEPARATOR};
use crate::movegen::BLANK_SLOT;
use crate::words::find_arc;

/// The largest letter code of a tile (codes 1..32 are letters).
const LAST_LETTER: u32 = 32;

#[inline]
fn target(arc: u32) -> usize {
    (arc & INDEX_MASK) as usize
}

/// The word graph and what is being marked in it.
struct Marker<'a> {
    arcs: &'a [u32],
    gaddag_root: usize,
    dawg_root: usize,
    marks: Vec<bool>,
    found: u64,
}

impl Marker<'_> {
    /// Follow `word[k]` for k = first, first + step, ... last from the list `p`, marking each arc;
    /// the list after the last arc (0 when a letter has no arc).
    fn mark_path(&mut self, mut p: usize, word: &[u8], first: usize, last: usize, forward: bool) -> usize {
        let mut k = first;
        loop {
            let Some(a) = find_arc(self.arcs, p, word[k] as u32) else {
                return 0;
            };
            self.marks[a] = true;
            p = target(self.arcs[a]);
            if k == last {
                return p;
            }
            if forward {
                k += 1;
            } else {
                k -= 1;
            }
        }
    }

    /// Mark every arc of `word`: its DAWG path and its GADDAG path of each split.
    fn mark_word(&mut self, word: &[u8]) {
        let n = word.len();
        self.found += 1;
        self.mark_path(self.dawg_root, word, 0, n - 1, true);
        for split in 1..=n {
            let p = self.mark_path(self.gaddag_root, word, split - 1, 0, false);
            if split < n && p != 0 {
                if let Some(sep) = find_arc(self.arcs, p, SEPARATOR) {
                    self.marks[sep] = true;
                    self.mark_path(target(self.arcs[sep]), word, split, n - 1, true);
                }
            }
        }
    }
}

/// One line's walk: every word whose leftmost original tile (on a line with no tile, its first
/// square) is `anchor`, with no square left of `lowest`; empty squares take a tile of `pool` (the
/// letter, else a blank as that letter).
struct LineWalk<'m, 'a> {
    marker: &'m mut Marker<'a>,
    line: &'m [u8],
    anchor: usize,
    lowest: usize,
    pool: &'m mut [i64],
    min_word: usize,
    max_word: usize,
    word: Vec<u8>,
}

impl LineWalk<'_, '_> {
    /// Square `col` read with the GADDAG list `list` (`left`: the word's first square, on the
    /// right of the anchor).
    fn visit(&mut self, col: usize, list: usize, left: usize) {
        let arcs = self.marker.arcs;
        let fixed = self.line[col] as u32;
        if fixed != 0 {
            if let Some(cand) = find_arc(arcs, list, fixed) {
                self.step(col, cand, left);
            }
            return;
        }
        if list == 0 {
            return;
        }
        let mut p = list;
        loop {
            let arc = arcs[p];
            let letter = arc >> LETTER_SHIFT;
            if letter != SEPARATOR
                && letter <= LAST_LETTER
                && (self.pool[letter as usize] > 0 || self.pool[BLANK_SLOT] > 0)
            {
                let slot = if self.pool[letter as usize] > 0 { letter as usize } else { BLANK_SLOT };
                self.pool[slot] -= 1;
                self.step(col, p, left);
                self.pool[slot] += 1;
            }
            if arc & END_BIT != 0 {
                break;
            }
            p += 1;
        }
    }

    fn step(&mut self, col: usize, cand: usize, left: usize) {
        let (arcs, anchor, n) = (self.marker.arcs, self.anchor, self.line.len());
        let arc = arcs[cand];
        self.word[col] = (arc >> LETTER_SHIFT) as u8;
        let accepts = arc & ACCEPTS_BIT != 0;
        let next = target(arc);
        if col <= anchor {
            // the left part, read leftwards from the anchor
            let length = anchor - col + 1;
            if accepts && length >= self.min_word && (anchor + 1 == n || self.line[anchor + 1] == 0) {
                self.marker.mark_word(&self.word[col..=anchor]);
            }
            if next != 0 && length < self.max_word {
                if col > self.lowest {
                    self.visit(col - 1, next, col - 1);
                }
                if anchor + 1 < n {
                    if let Some(sep) = find_arc(arcs, next, SEPARATOR) {
                        if target(arcs[sep]) != 0 {
                            self.visit(anchor + 1, target(arcs[sep]), col);
                        }
                    }
                }
            }
        } else {
            let length = col - left + 1;
            if accepts && length >= self.min_word && (col + 1 == n || self.line[col + 1] == 0) {
                self.marker.mark_word(&self.word[left..=col]);
            }
            if next != 0 && col + 1 < n && length < self.max_word {
                self.visit(col + 1, next, left);
            }
        }
    }
}

/// The most squares a word of new tiles only can cover on any line of `lines` (`cols` a line): a
/// stretch of empty squares less the square at each end that has a tile beside it.
fn longest_free_span(lines: &[u8], cols: usize) -> usize {
    let mut best = 0;
    for line in lines.chunks_exact(cols) {
        let mut c = 0;
        while c < cols {
            if line[c] != 0 {
                c += 1;
                continue;
            }
            let start = c;
            while c < cols && line[c] == 0 {
                c += 1;
            }
            let span = (c - start) as i64 - (start > 0) as i64 - (c < cols) as i64;
            best = best.max(span.max(0) as usize);
        }
    }
    best
}

/// A board view: its letters row-major, and the length of a row.
pub struct Lines<'a> {
    pub letters: &'a [u8],
    pub cols: usize,
}

/// The arcs of every word an endgame's moves could form, for the board's across view and its
/// transposed view and the tiles of both racks `pool` (counts by slot, slot 0 blanks); returns
/// (marks, words found).
#[allow(clippy::too_many_arguments)]
pub fn mark_endgame_words(
    arcs: &[u32],
    gaddag_root: usize,
    dawg_root: usize,
    views: [Lines; 2],
    pool: &mut [i64],
    min_word: usize,
    max_word: usize,
) -> (Vec<bool>, u64) {
    let mut marker = Marker { arcs, gaddag_root, dawg_root, marks: vec![false; arcs.len()], found: 0 };
    let tiles: i64 = pool.iter().sum();
    for view in &views {
        let n = view.cols;
        for line in view.letters.chunks_exact(n) {
            let mut last_tile = -2i64; // the last tile left of the run looked at
            for c in 0..n {
                if line[c] != 0 && (c == 0 || line[c - 1] == 0) {
                    let lowest = (last_tile + 2) as usize;
                    let word = vec![0u8; n];
                    let pool = &mut *pool;
                    let mut walk =
                        LineWalk { marker: &mut marker, line, anchor: c, lowest, pool, min_word, max_word, word };
                    walk.visit(c, gaddag_root, c);
                }
                if line[c] != 0 {
                    last_tile = c as i64;
                }
            }
        }
    }
    let spans = views.iter().map(|v| longest_free_span(v.letters, v.cols)).max().unwrap_or(0);
    let free = spans.min(tiles.max(0) as usize).min(max_word);
    if free >= min_word && free > 0 {
        let empty = vec![0u8; free];
        let word = vec![0u8; free];
        let mut walk =
            LineWalk { marker: &mut marker, line: &empty, anchor: 0, lowest: 0, pool, min_word, max_word, word };
        walk.visit(0, gaddag_root, 0);
    }
    (marker.marks, marker.found)
}

/// Queue `list` for `compact_graph` unless it was queued already.
fn enqueue(list: usize, remap: &mut HashMap<usize, usize>, queue: &mut Vec<usize>) {
    if let Entry::Vacant(place) = remap.entry(list) {
        place.insert(0);
        queue.push(list);
    }
}

/// The marked arcs as a graph of their own: each sibling list reached from `roots` through marked
/// arcs, laid out breadth first, keeping its marked arcs in order; returns (arcs, roots).
pub fn compact_graph(arcs: &[u32], marks: &[bool], roots: &[usize]) -> (Vec<u32>, Vec<usize>) {
    // an old list's index in the new array (0: it keeps no arc); a list is in it once queued
    let mut remap: HashMap<usize, usize> = HashMap::new();
    let mut queue: Vec<usize> = Vec::new();
    for &root in roots.iter().filter(|&&root| root != 0) {
        enqueue(root, &mut remap, &mut queue);
    }
    let mut size = 1; // index 0: the dummy arc
    let mut head = 0;
    while head < queue.len() {
        let start = queue[head];
        head += 1;
        let mut kept = 0;
        let mut p = start;
        loop {
            if marks[p] {
                kept += 1;
                let t = target(arcs[p]);
                if t != 0 {
                    enqueue(t, &mut remap, &mut queue);
                }
            }
            if arcs[p] & END_BIT != 0 {
                break;
            }
            p += 1;
        }
        if kept > 0 {
            remap.insert(start, size);
        }
        size += kept;
    }
    let mut out = vec![0u32; size];
    for &start in &queue {
        let mut q = remap[&start];
        if q == 0 {
            continue;
        }
        let mut p = start;
        let mut last = 0;
        loop {
            if marks[p] {
                let arc = arcs[p];
                let t = target(arc);
                let new_target = if t != 0 { remap[&t] } else { 0 };
                out[q] = (arc & !(INDEX_MASK | END_BIT)) | new_target as u32;
                last = q;
                q += 1;
            }
            if arcs[p] & END_BIT != 0 {
                break;
            }
            p += 1;
        }
        out[last] |= END_BIT;
    }
    let new_roots = roots.iter().map(|&root| if root != 0 { remap[&root] } else { 0 }).collect();
    (out, new_roots)
}
