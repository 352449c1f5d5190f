//! The lexicon's words read straight off the graph: whether words are in it (a game's judge, a
//! batch of `check-word`), and every word in graph order (the word list, word study).  Ports of
//! `lookup_words` and `enumerate_words` in `literaki_cli/engine/wordgraph.py`, which stay as the
//! plain-Python oracles.

use crate::kwg::{ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT};

/// The byte after each word of a word buffer (`enumerate`, `grid::rack_words`).
pub const WORD_SEPARATOR: u8 = 255;

/// The arc for `letter` in the sorted sibling list at `list` of the lexicon's arcs (0: no list),
/// if there is one: `find_arc` in `literaki_cli/engine/wordgraph.py`.
pub fn find_arc(arcs: &[u32], list: usize, letter: u32) -> Option<usize> {
    if list == 0 {
        return None;
    }
    let mut p = list;
    loop {
        let arc = arcs[p];
        let arc_letter = arc >> LETTER_SHIFT;
        if arc_letter == letter {
            return Some(p);
        }
        if arc_letter > letter || arc & END_BIT != 0 {
            return None;
        }
        p += 1;
    }
}

/// For each word `codes[starts[i]..ends[i]]` (letter codes): is it a word of the graph at `root`?
pub fn lookup(arcs: &[u32], root: usize, codes: &[u8], starts: &[i64], ends: &[i64]) -> Vec<bool> {
    starts
        .iter()
        .zip(ends)
        .map(|(&start, &end)| {
            if end <= start {
                return false;
            }
            let mut p = root;
            let mut ok = false;
            for &letter in &codes[start as usize..end as usize] {
                let Some(q) = find_arc(arcs, p, letter as u32) else {
                    return false;
                };
                ok = arcs[q] & ACCEPTS_BIT != 0;
                p = (arcs[q] & INDEX_MASK) as usize;
            }
            ok
        })
        .collect()
}

/// Every word of the graph at `root` of at most `max_len` + 1 letters, in letter-code order, as
/// codes each followed by WORD_SEPARATOR; None when they take more than `capacity` bytes (a
/// lexicon whose header understates its word count).
pub fn enumerate(arcs: &[u32], root: usize, max_len: usize, capacity: usize) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    if root == 0 {
        return Some(out);
    }
    let mut word = vec![0u8; max_len + 1];
    let mut stack = vec![root; max_len + 1]; // the arc read at each depth
    let mut depth = 0usize;
    loop {
        let arc = arcs[stack[depth]];
        word[depth] = (arc >> LETTER_SHIFT) as u8;
        if arc & ACCEPTS_BIT != 0 {
            if out.len() + depth + 2 > capacity {
                return None;
            }
            out.extend_from_slice(&word[..=depth]);
            out.push(WORD_SEPARATOR);
        }
        let target = (arc & INDEX_MASK) as usize;
        if target != 0 && depth < max_len {
            depth += 1;
            stack[depth] = target;
            continue;
        }
        // the next sibling, leaving the lists read to their end
        loop {
            if arcs[stack[depth]] & END_BIT == 0 {
                stack[depth] += 1;
                break;
            }
            if depth == 0 {
                return Some(out);
            }
            depth -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kwg::test_arc as arc;

    /// A DAWG of "a", "ab" and "b" (a = 1, b = 2): root 1 -> [a (3), b]; 3: [b].
    fn graph() -> Vec<u32> {
        vec![0, arc(1, 3, true, false), arc(2, 0, true, true), arc(2, 0, true, true)]
    }

    #[test]
    fn words_are_found_and_listed_in_graph_order() {
        let arcs = graph();
        let codes = [1, 2, 2, 1, 1, 1];
        assert_eq!(lookup(&arcs, 1, &codes, &[0, 1, 2, 0, 4], &[2, 2, 4, 0, 6]), [true, true, false, false, false]);
        let all = enumerate(&arcs, 1, 15, 100).expect("room enough");
        assert_eq!(all, [1, WORD_SEPARATOR, 1, 2, WORD_SEPARATOR, 2, WORD_SEPARATOR]);
        assert_eq!(enumerate(&arcs, 1, 0, 100).expect("room"), [1, WORD_SEPARATOR, 2, WORD_SEPARATOR]);
        assert!(enumerate(&arcs, 1, 15, 6).is_none()); // more words than room for them
        assert_eq!(enumerate(&arcs, 0, 15, 0).expect("no graph"), Vec::<u8>::new());
    }
}
