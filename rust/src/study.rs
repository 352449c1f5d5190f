//! Word study over the word graph and flat word buffers (each word's letter codes followed by
//! `WORD_SEPARATOR`): pattern and anagram searches, hooks, tile combinations, and the merges and
//! packed keys that compare word lists.  Ports of the numba kernels that were
//! `literaki_cli/wordstudy/kernels.py`, answer for answer (the same words in the same order, the
//! same numbers; integer overflow wraps as it did there).

use crate::kwg::{ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT};
use crate::words::{find_arc, WORD_SEPARATOR};

/// A search's automaton: `table[state * width + code]` is the next state (0: dead; the start is
/// state 1), `accepting[state]` whether a word may end there.
pub struct Automaton<'a> {
    pub table: &'a [i32],
    pub width: usize,
    pub accepting: &'a [bool],
}

/// What a search may spell its words from: tiles per letter code, and blanks.
pub struct Tiles<'a> {
    pub rack: &'a [i64],
    pub blanks: i64,
}

/// How a depth of the search paid for its letter.
#[derive(Clone, Copy, PartialEq)]
enum Paid {
    Nothing,
    Tile,
    Blank,
}

/// Every word of the graph at `root` that the automaton accepts, `min_len..=max_len` letters
/// long (spelled from `tiles` when given), written to `out` in graph order (Polish alphabetical
/// order), each followed by the separator; a word that no longer fits in `out` is counted but not
/// written (an empty `out` only counts).  Stops after `limit` words (0: no limit).  Returns (words
/// found, bytes they take).
///
/// A branch is entered only while the automaton is alive and the rack can pay for its letter: a
/// tile of the letter when one is left, else a blank (taking the tile first never loses a word,
/// so each word is reached once).
#[allow(clippy::too_many_arguments)]
pub fn search(
    arcs: &[u32],
    root: usize,
    automaton: &Automaton,
    min_len: i64,
    max_len: i64,
    tiles: Option<&Tiles>,
    limit: u64,
    out: &mut [u8],
) -> (u64, u64) {
    let capacity = out.len();
    let (mut count, mut n_bytes) = (0u64, 0usize);
    if root == 0 || max_len <= 0 {
        return (0, 0);
    }
    let max_len = max_len as usize;
    let mut pos = vec![0usize; max_len];
    let mut state = vec![0usize; max_len];
    let mut paid = vec![Paid::Nothing; max_len];
    let mut word = vec![0u8; max_len];
    let mut counts: Vec<i64> = tiles.map_or_else(Vec::new, |t| t.rack.to_vec());
    let mut free_blanks = tiles.map_or(0, |t| t.blanks);
    let mut depth = 0usize;
    pos[0] = root;
    state[0] = 1;
    loop {
        let arc = arcs[pos[depth]];
        let letter = (arc >> LETTER_SHIFT) as usize;
        let next = automaton.table[state[depth] * automaton.width + letter] as usize;
        if next != 0 {
            let take = match tiles {
                None => Paid::Nothing,
                Some(_) if counts[letter] > 0 => Paid::Tile,
                Some(_) if free_blanks > 0 => Paid::Blank,
                Some(_) => Paid::Nothing,
            };
            if take != Paid::Nothing || tiles.is_none() {
                word[depth] = letter as u8;
                if arc & ACCEPTS_BIT != 0 && (depth + 1) as i64 >= min_len && automaton.accepting[next] {
                    if capacity > 0 {
                        if n_bytes + depth + 2 <= capacity {
                            out[n_bytes..=n_bytes + depth].copy_from_slice(&word[..=depth]);
                            out[n_bytes + depth + 1] = WORD_SEPARATOR;
                        }
                        n_bytes += depth + 2;
                    }
                    count += 1;
                    if limit > 0 && count >= limit {
                        return (count, n_bytes as u64);
                    }
                }
                let target = (arc & INDEX_MASK) as usize;
                if target != 0 && depth + 1 < max_len {
                    match take {
                        Paid::Tile => counts[letter] -= 1,
                        Paid::Blank => free_blanks -= 1,
                        Paid::Nothing => {}
                    }
                    paid[depth] = take;
                    depth += 1;
                    pos[depth] = target;
                    state[depth] = next;
                    continue;
                }
            }
        }
        // the next sibling, popping every list that is finished
        loop {
            if arcs[pos[depth]] & END_BIT == 0 {
                pos[depth] += 1;
                break;
            }
            if depth == 0 {
                return (count, n_bytes as u64);
            }
            depth -= 1;
            match paid[depth] {
                Paid::Tile => counts[word[depth] as usize] += 1,
                Paid::Blank => free_blanks += 1,
                Paid::Nothing => {}
            }
            paid[depth] = Paid::Nothing;
        }
    }
}

/// Follow `codes` from the sibling list `node`: (the last arc accepts, the list after it), or
/// None when the graph has no such path.
fn follow(arcs: &[u32], mut node: usize, codes: &[u8]) -> Option<(bool, usize)> {
    let mut accepted = false;
    for &code in codes {
        let p = find_arc(arcs, node, code as u32)?;
        accepted = arcs[p] & ACCEPTS_BIT != 0;
        node = (arcs[p] & INDEX_MASK) as usize;
    }
    Some((accepted, node))
}

/// For each word `codes[starts[i]..ends[i]]`: the letters that make a word in front of it and
/// after it, as bit sets (bit = letter code).
pub fn hook_masks(arcs: &[u32], root: usize, codes: &[u8], starts: &[i64], ends: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let n = starts.len();
    let (mut front, mut back) = (vec![0i64; n], vec![0i64; n]);
    if root == 0 {
        return (front, back);
    }
    let bit = |arc: u32| 1i64.wrapping_shl(arc >> LETTER_SHIFT);
    for i in 0..n {
        let word = &codes[starts[i] as usize..ends[i].max(starts[i]) as usize];
        if let Some((_, node)) = follow(arcs, root, word).filter(|&(_, node)| node > 0) {
            let mut p = node;
            loop {
                let arc = arcs[p];
                if arc & ACCEPTS_BIT != 0 {
                    back[i] |= bit(arc);
                }
                if arc & END_BIT != 0 {
                    break;
                }
                p += 1;
            }
        }
        let mut q = root;
        loop {
            let arc = arcs[q];
            let target = (arc & INDEX_MASK) as usize;
            if target != 0 && !word.is_empty() && follow(arcs, target, word).is_some_and(|(accepted, _)| accepted) {
                front[i] |= bit(arc);
            }
            if arc & END_BIT != 0 {
                break;
            }
            q += 1;
        }
    }
    (front, back)
}

/// For each word: how many sets of as many tiles as it has letters, drawn from the bag (`bag[code]`
/// tiles per letter, `blanks` blanks, every tile told apart), can spell it.
///
/// Sum over the ways blanks stand in for letters: C(blanks, b) * prod C(bag[c], k_c - r_c), with
/// r_c letters c played by blanks and b = sum r_c, computed as a product of one polynomial in the
/// blanks per distinct letter, cut at degree `blanks`.  `binomial[n * columns + k]` = C(n, k).
pub fn tile_combinations(
    codes: &[u8],
    starts: &[i64],
    ends: &[i64],
    bag: &[i64],
    blanks: usize,
    binomial: &[i64],
    columns: usize,
) -> Vec<i64> {
    let choose = |n: i64, k: usize| binomial[n as usize * columns + k];
    let mut counts = [0usize; 256];
    let (mut poly, mut next) = (vec![0i64; blanks + 1], vec![0i64; blanks + 1]);
    let mut result = Vec::with_capacity(starts.len());
    for (&start, &end) in starts.iter().zip(ends) {
        let word = &codes[start as usize..end.max(start) as usize];
        for &c in word {
            counts[c as usize] += 1;
        }
        poly.fill(0);
        poly[0] = 1;
        for &c in word {
            let k = counts[c as usize];
            if k == 0 {
                continue; // this letter was done at its first occurrence
            }
            counts[c as usize] = 0;
            let have = bag[c as usize];
            next.fill(0);
            for d in 0..=blanks {
                let p = poly[d];
                if p == 0 {
                    continue;
                }
                for r in 0..=k.min(blanks - d) {
                    let real = (k - r) as i64;
                    if real <= have {
                        next[d + r] = next[d + r].wrapping_add(p.wrapping_mul(choose(have, real as usize)));
                    }
                }
            }
            poly.copy_from_slice(&next);
        }
        let total =
            (0..=blanks).fold(0i64, |total, b| total.wrapping_add(choose(blanks as i64, b).wrapping_mul(poly[b])));
        result.push(total);
    }
    result
}

/// Two flat word buffers, each sorted in graph order (a word before its extensions): the start
/// offsets of the words only in `a` and of those only in `b`.
pub fn diff_sorted(a: &[u8], b: &[u8]) -> (Vec<i64>, Vec<i64>) {
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0usize, 0usize);
    let skip_word = |buffer: &[u8], mut k: usize| {
        while buffer[k] != WORD_SEPARATOR {
            k += 1;
        }
        k + 1
    };
    while i < a.len() || j < b.len() {
        let order = if i >= a.len() {
            1
        } else if j >= b.len() {
            -1
        } else {
            let mut k = 0;
            loop {
                let (ca, cb) = (a[i + k], b[j + k]);
                if ca == cb {
                    if ca == WORD_SEPARATOR {
                        break 0;
                    }
                    k += 1;
                    continue;
                }
                break if ca == WORD_SEPARATOR {
                    -1
                } else if cb == WORD_SEPARATOR || ca > cb {
                    1
                } else {
                    -1
                };
            }
        };
        if order <= 0 {
            if order < 0 {
                only_a.push(i as i64);
            }
            i = skip_word(a, i);
        }
        if order >= 0 {
            if order > 0 {
                only_b.push(j as i64);
            }
            j = skip_word(b, j);
        }
    }
    (only_a, only_b)
}

/// Two sorted arrays of distinct (high, low) keys: the positions of the keys only in `a` and of
/// those only in `b`.
pub fn diff_keys(a: (&[u64], &[u64]), b: (&[u64], &[u64])) -> (Vec<i64>, Vec<i64>) {
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0usize, 0usize);
    while i < a.0.len() || j < b.0.len() {
        let order = if i >= a.0.len() {
            std::cmp::Ordering::Greater
        } else if j >= b.0.len() {
            std::cmp::Ordering::Less
        } else {
            (a.0[i], a.1[i]).cmp(&(b.0[j], b.1[j]))
        };
        match order {
            std::cmp::Ordering::Less => {
                only_a.push(i as i64);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                only_b.push(j as i64);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    (only_a, only_b)
}

/// For each key (asked.0[k], asked.1[k]): is it among the sorted keys `keys`?
pub fn member_keys(keys: (&[u64], &[u64]), asked: (&[u64], &[u64])) -> Vec<bool> {
    asked
        .0
        .iter()
        .zip(asked.1)
        .map(|(&high, &low)| {
            let (mut lo, mut hi) = (0, keys.0.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                if (keys.0[mid], keys.1[mid]) < (high, low) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo < keys.0.len() && keys.0[lo] == high && keys.1[lo] == low
        })
        .collect()
}

/// The lines of `points` (code points, or letter codes with `code_of` the identity), split at
/// `separator`, that are `min_len..=max_len` letters of `allowed` codes, each packed as two keys:
/// six bits a letter, ten letters a key, padded with zeros, written to `high` and `low`.  Returns
/// (lines packed, whether a line fitting the rules was longer than 20 letters).
#[allow(clippy::too_many_arguments)]
pub fn pack_lines<T: Copy + Into<u32>>(
    points: &[T],
    code_of: &[u8],
    allowed: &[bool],
    separator: u32,
    min_len: usize,
    max_len: usize,
    high: &mut [u64],
    low: &mut [u64],
) -> (usize, bool) {
    let (mut n, mut too_long) = (0usize, false);
    let (mut h, mut l, mut length, mut ok) = (0u64, 0u64, 0usize, true);
    for i in 0..=points.len() {
        let point = points.get(i).map(|&p| p.into());
        if point.is_none() || point == Some(separator) {
            if ok && length > 0 && (min_len..=max_len).contains(&length) {
                if length > 20 {
                    too_long = true;
                } else {
                    high[n] = h;
                    low[n] = l;
                    n += 1;
                }
            }
            (h, l, length, ok) = (0, 0, 0, true);
            continue;
        }
        if !ok {
            continue;
        }
        let p = point.unwrap_or(0) as usize;
        let c = code_of.get(p).copied().unwrap_or(0);
        if c == 0 || !allowed.get(c as usize).copied().unwrap_or(false) {
            ok = false;
            continue;
        }
        if length < 10 {
            h |= (c as u64) << (6 * (9 - length));
        } else if length < 20 {
            l |= (c as u64) << (6 * (19 - length));
        }
        length += 1;
    }
    (n, too_long)
}
