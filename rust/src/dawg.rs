//! Compiling sorted string sets into the minimised word graph of the lexicon file (the arc layout
//! of `kwg.rs`): Daciuk's incremental algorithm.  Strings arrive sorted; each shares a prefix with
//! the one before, and the states of the one before below that prefix can no longer change, so
//! they are frozen at once: replaced by an equal state already registered, or appended to the arc
//! array as a new sibling list.  Memory stays at the size of the result, never of a trie.  Several
//! string sets (the words, the popular words, their GADDAGs) go through one register, so they share
//! every common structure and live in one arc array with several roots.
//!
//! A port of `lexicon_build/dawg.py`'s numba kernels, arc for arc: a lexicon built from the same
//! source is the same bytes.  The register's layout does not matter to the result (a state is
//! appended only when no equal one is registered, so an equal one is always the one), which frees
//! it to be any hash table.
//!
//! A GADDAG (Gordon 1994) holds, for each word w and each split 1 <= i <= len(w), the string
//! reverse(w[:i]) + SEPARATOR + w[i:] (no separator when i = len(w)).

use std::sync::Arc;

use rayon::prelude::*;

use crate::kwg::{ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT, SEPARATOR};

/// The longest string a set may hold: a GADDAG string of a word of ROW_WIDTH - 1 letters.
pub const ROW_WIDTH: usize = 24;
const MAX_DEPTH: usize = ROW_WIDTH + 1;
/// The most arcs a state can have (letters 1..=35 and the separator).
const MAX_ARCS: usize = 64;
/// The highest letter code (the GADDAG's strings are made one split letter at a time).
pub const MAX_LETTER: u8 = 35;
/// The byte between two words of a word buffer.
const WORD_END: u8 = 255;

/// Why a graph could not be built.
#[derive(Debug, PartialEq)]
pub enum BuildError {
    /// More arcs than the arc format's index can address.
    TooManyArcs(usize),
    /// A word longer than a set's strings may be.
    WordTooLong(usize),
    /// Strings out of order or repeated (they must be sorted and unique).
    Unsorted,
}

/// The states of the set being built that are not frozen yet: per depth, the arcs of the state
/// on the path of the last string (letter, accepts, target).
struct Open {
    letters: [[u8; MAX_ARCS]; MAX_DEPTH],
    accepts: [[bool; MAX_ARCS]; MAX_DEPTH],
    targets: [[u32; MAX_ARCS]; MAX_DEPTH],
    counts: [usize; MAX_DEPTH + 1],
    /// The last string added, and whether no string was added at all.
    prev: [u8; MAX_DEPTH],
    prev_len: usize,
    empty: bool,
}

impl Open {
    fn new() -> Box<Open> {
        Box::new(Open {
            letters: [[0; MAX_ARCS]; MAX_DEPTH],
            accepts: [[false; MAX_ARCS]; MAX_DEPTH],
            targets: [[0; MAX_ARCS]; MAX_DEPTH],
            counts: [0; MAX_DEPTH + 1],
            prev: [0; MAX_DEPTH],
            prev_len: 0,
            empty: true,
        })
    }
}

/// Accumulates string sets into one arc array (see the module's documentation).
pub struct GraphBuilder {
    arcs: Vec<u32>,
    /// The register: per slot, the start of a registered list (0: empty).
    table: Vec<u32>,
    states: usize,
    open: Option<Box<Open>>,
}

/// A hash of a list's arcs (the END bit left out: it is positional).
#[inline]
fn list_hash(arcs: impl Iterator<Item = u32>) -> u64 {
    let mut h: u64 = 1469598103934665603;
    for arc in arcs {
        h = (h ^ (arc & !END_BIT) as u64).wrapping_mul(1099511628211);
        h ^= h >> 29;
    }
    h
}

impl Default for GraphBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl GraphBuilder {
    pub fn new() -> GraphBuilder {
        GraphBuilder { arcs: vec![END_BIT], table: vec![0; 1 << 16], states: 0, open: None }
    }

    /// The list index of a state with arcs `state` (END bit not set): an equal registered state,
    /// or a new one appended (0 for a state with no arc).
    fn freeze(&mut self, state: &[u32]) -> u32 {
        if state.is_empty() {
            return 0;
        }
        let mask = self.table.len() - 1;
        let mut slot = list_hash(state.iter().copied()) as usize & mask;
        let n = state.len();
        loop {
            let start = self.table[slot] as usize;
            if start == 0 {
                break;
            }
            let list = &self.arcs[start..];
            let same = (0..n).all(|k| list[k] & !END_BIT == state[k] && (list[k] & END_BIT != 0) == (k == n - 1));
            if same {
                return start as u32;
            }
            slot = (slot + 1) & mask;
        }
        let start = self.arcs.len();
        self.arcs.extend_from_slice(state);
        self.arcs[start + n - 1] |= END_BIT;
        self.states += 1;
        if 2 * self.states > self.table.len() {
            self.rehash(2 * self.table.len());
        } else {
            self.table[slot] = start as u32;
        }
        start as u32
    }

    /// The register again, `size` slots, every list of the arc array in it.
    fn rehash(&mut self, size: usize) {
        let mut table = vec![0u32; size];
        let mask = size - 1;
        let mut p = 1;
        while p < self.arcs.len() {
            let end = p + self.arcs[p..].iter().position(|&arc| arc & END_BIT != 0).unwrap_or(0);
            let mut slot = list_hash(self.arcs[p..=end].iter().copied()) as usize & mask;
            while table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            table[slot] = p as u32;
            p = end + 1;
        }
        self.table = table;
    }

    /// Freeze the open state at depth `d`.
    fn freeze_depth(&mut self, open: &mut Open, d: usize) -> u32 {
        let n = open.counts[d];
        let mut packed = [0u32; MAX_ARCS];
        for (a, arc) in packed.iter_mut().enumerate().take(n) {
            *arc = ((open.letters[d][a] as u32) << LETTER_SHIFT)
                | open.targets[d][a]
                | if open.accepts[d][a] { ACCEPTS_BIT } else { 0 };
        }
        let index = self.freeze(&packed[..n]);
        open.counts[d] = 0;
        index
    }

    /// Add sorted, unique strings (each after every string of earlier calls) to the open set
    /// (starting one if needed); with `finish` close it and return its root (0: no string).
    pub fn feed<S: AsRef<[u8]>>(&mut self, strings: impl Iterator<Item = S>, finish: bool) -> Result<u32, BuildError> {
        let mut open = self.open.take().unwrap_or_else(Open::new);
        for s in strings {
            let s = s.as_ref();
            let length = s.len();
            if length == 0 || length > ROW_WIDTH {
                return Err(BuildError::WordTooLong(length));
            }
            let prev_len = open.prev_len;
            let mut p = 0;
            while p < length && p < prev_len && s[p] == open.prev[p] {
                p += 1;
            }
            if !open.empty && (p == length || (p < prev_len && s[p] < open.prev[p])) {
                return Err(BuildError::Unsorted);
            }
            // freeze the states of the previous string below the common prefix, deepest first
            for d in (p + 1..=prev_len).rev() {
                let index = self.freeze_depth(&mut open, d);
                let last = open.counts[d - 1] - 1;
                open.targets[d - 1][last] = index;
            }
            for (d, &letter) in s.iter().enumerate().skip(p) {
                let a = open.counts[d];
                open.letters[d][a] = letter;
                open.accepts[d][a] = false;
                open.targets[d][a] = 0;
                open.counts[d] = a + 1;
                open.counts[d + 1] = 0;
                open.prev[d] = letter;
            }
            let last = open.counts[length - 1] - 1;
            open.accepts[length - 1][last] = true;
            open.prev_len = length;
            open.empty = false;
        }
        let mut root = 0;
        if finish {
            for d in (0..=open.prev_len).rev() {
                let index = self.freeze_depth(&mut open, d);
                if d > 0 {
                    let last = open.counts[d - 1] - 1;
                    open.targets[d - 1][last] = index;
                } else {
                    root = index;
                }
            }
            if open.empty {
                root = 0;
            }
        } else {
            self.open = Some(open);
        }
        if self.arcs.len() - 1 > INDEX_MASK as usize {
            return Err(BuildError::TooManyArcs(self.arcs.len()));
        }
        Ok(root)
    }

    /// Add a sorted, unique list of words (`buffer`: letter codes, each word followed by 255) as
    /// a DAWG; returns its root.
    pub fn add_words(&mut self, buffer: &[u8]) -> Result<u32, BuildError> {
        self.feed(words_of(buffer), true)
    }

    /// Add the GADDAG of a list of words (as `add_words` takes them); returns its root (see
    /// `GaddagFeed`, which this drives to the end).
    pub fn add_gaddag(&mut self, buffer: &[u8]) -> Result<u32, BuildError> {
        let mut feed = GaddagFeed::new(buffer.to_vec())?;
        while feed.feed_next(self)? {}
        self.feed(std::iter::empty::<&[u8]>(), true)
    }

    /// The arc array built so far.
    pub fn result(self) -> Vec<u32> {
        self.arcs
    }
}

/// A GADDAG being added, one split letter's group at a time: the strings are made, sorted and fed
/// in ascending letter order, so memory holds two groups, the next one made and sorted on another
/// thread while one is fed; and a caller (Python) can stop between groups (Ctrl-C is heard within
/// a group's time, some 0.5 s at most on the SJP list).
pub struct GaddagFeed {
    buffer: Arc<Vec<u8>>,
    places: Arc<Vec<Vec<u32>>>,
    /// The letter of the group being sorted (past MAX_LETTER: none left).
    letter: u8,
    pending: Option<std::thread::JoinHandle<Vec<Row>>>,
}

impl GaddagFeed {
    /// The feed of the words of `buffer` (as `GraphBuilder::add_words` takes them), its first group
    /// being sorted.
    pub fn new(buffer: Vec<u8>) -> Result<GaddagFeed, BuildError> {
        if let Some(long) = words_of(&buffer).find(|w| w.len() >= ROW_WIDTH) {
            return Err(BuildError::WordTooLong(long.len()));
        }
        let places = Arc::new(letter_places(&buffer));
        let mut feed = GaddagFeed { buffer: Arc::new(buffer), places, letter: 1, pending: None };
        feed.sort_next();
        Ok(feed)
    }

    /// Start sorting the group of `self.letter` on a thread of its own.
    fn sort_next(&mut self) {
        let (buffer, places, letter) = (self.buffer.clone(), self.places.clone(), self.letter);
        self.pending = (letter <= MAX_LETTER).then(|| {
            std::thread::spawn(move || {
                let mut rows = gaddag_rows(&buffer, &places[letter as usize]);
                rows.sort_unstable();
                rows
            })
        });
    }

    /// Feed the next group into `builder` (the one after it starts sorting); Ok(false) when every
    /// group has been fed (then the set is closed by an empty `GraphBuilder::feed` with `finish`).
    pub fn feed_next(&mut self, builder: &mut GraphBuilder) -> Result<bool, BuildError> {
        let Some(pending) = self.pending.take() else {
            return Ok(false);
        };
        let rows = pending.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        self.letter += 1;
        self.sort_next();
        builder.feed(rows.iter().map(Row::text), false)?;
        Ok(true)
    }
}

/// The words of a buffer (letter codes, each word followed by 255).
fn words_of(buffer: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = buffer.strip_suffix(&[WORD_END]).unwrap_or(buffer);
    body.split(|&b| b == WORD_END).filter(|_| !buffer.is_empty())
}

/// A GADDAG string as it is sorted: its bytes shifted by one (the separator 1, letter c as c + 1)
/// and zero-padded to ROW_WIDTH, read as three big-endian words (so that they compare as the bytes
/// do: the padding below every byte, a string before its extensions), and its length.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    key: [u64; 3],
    length: u8,
}

impl Row {
    fn of(bytes: &[u8; ROW_WIDTH], length: usize) -> Row {
        let word = |k: usize| u64::from_be_bytes(bytes[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        Row { key: [word(0), word(1), word(2)], length: length as u8 }
    }

    /// The string, shifted back (separator 0, letter c).
    fn text(&self) -> Text {
        let mut text = Text { bytes: [0; ROW_WIDTH], length: self.length as usize };
        for (k, word) in self.key.iter().enumerate() {
            text.bytes[8 * k..8 * k + 8].copy_from_slice(&word.to_be_bytes());
        }
        text.bytes[..text.length].iter_mut().for_each(|b| *b -= 1);
        text
    }
}

/// A string of at most ROW_WIDTH bytes, by value.
struct Text {
    bytes: [u8; ROW_WIDTH],
    length: usize,
}

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.length]
    }
}

/// Per letter code, the places in `buffer` (see `add_words`) where it stands, ascending: the
/// GADDAG strings split there are that letter's group.
fn letter_places(buffer: &[u8]) -> Vec<Vec<u32>> {
    let mut counts = [0usize; 256];
    buffer.iter().for_each(|&b| counts[b as usize] += 1);
    let mut places: Vec<Vec<u32>> = (0..=MAX_LETTER as usize).map(|l| Vec::with_capacity(counts[l])).collect();
    for (o, &b) in buffer.iter().enumerate() {
        if let Some(list) = places.get_mut(b as usize) {
            list.push(o as u32);
        }
    }
    places
}

/// The GADDAG strings split at `places` of `buffer` (one letter's places: `letter_places`), each
/// made of the word around its place.
fn gaddag_rows(buffer: &[u8], places: &[u32]) -> Vec<Row> {
    let mut rows = Vec::with_capacity(places.len());
    for &o in places {
        let o = o as usize;
        let start = buffer[..o].iter().rposition(|&c| c == WORD_END).map_or(0, |p| p + 1);
        let end = o + buffer[o..].iter().position(|&c| c == WORD_END).unwrap_or(buffer.len() - o);
        let word = &buffer[start..end];
        let i = o - start + 1;
        let mut bytes = [0u8; ROW_WIDTH];
        let mut j = 0;
        for t in (0..i).rev() {
            bytes[j] = word[t] + 1;
            j += 1;
        }
        if i < word.len() {
            bytes[j] = SEPARATOR as u8 + 1;
            j += 1;
            for &c in &word[i..] {
                bytes[j] = c + 1;
                j += 1;
            }
        }
        rows.push(Row::of(&bytes, j));
    }
    rows
}

/// The words of `text` (one per line) as letter codes (`code_of`: the code of each code point
/// below its length, 0 for none), sorted and each followed by 255: the buffer `add_words` reads.
/// Err(line): the first word with a character that has no code.  Duplicates stay (the caller's
/// words are a set).
pub fn sorted_code_words(text: &str, code_of: &[u8]) -> Result<Vec<u8>, usize> {
    let mut codes = Vec::with_capacity(text.len() + 1);
    let mut spans = Vec::new();
    for (line, word) in text.split('\n').enumerate().filter(|(_, w)| !w.is_empty()) {
        let start = codes.len();
        for ch in word.chars() {
            match code_of.get(ch as usize) {
                Some(&code) if code != 0 && code != WORD_END => codes.push(code),
                _ => return Err(line),
            }
        }
        spans.push((start, codes.len()));
    }
    spans.par_sort_unstable_by(|a, b| codes[a.0..a.1].cmp(&codes[b.0..b.1]));
    let mut out = Vec::with_capacity(codes.len() + spans.len());
    for (start, end) in spans {
        out.extend_from_slice(&codes[start..end]);
        out.push(WORD_END);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::find_arc;

    fn buffer(words: &[&[u8]]) -> Vec<u8> {
        words.iter().flat_map(|w| w.iter().copied().chain([WORD_END])).collect()
    }

    #[test]
    fn equal_suffixes_share_one_list() {
        // "ab" and "cb": the lists after a and after c are one list, [b accepting]
        let mut builder = GraphBuilder::new();
        let root = builder.add_words(&buffer(&[&[1, 2], &[3, 2]])).unwrap() as usize;
        let arcs = builder.result();
        let (a, c) = (find_arc(&arcs, root, 1).unwrap(), find_arc(&arcs, root, 3).unwrap());
        assert_eq!(arcs[a] & INDEX_MASK, arcs[c] & INDEX_MASK);
        assert_eq!(arcs.len(), 1 + 1 + 2); // the dummy, [b], [a, c]
    }

    #[test]
    fn a_gaddag_holds_every_split_of_every_word() {
        let mut builder = GraphBuilder::new();
        let root = builder.add_gaddag(&buffer(&[&[1, 2, 3]])).unwrap() as usize;
        let arcs = builder.result();
        let accepts = |path: &[u32]| {
            let (mut node, mut accepted) = (root, false);
            for &letter in path {
                let Some(p) = find_arc(&arcs, node, letter) else { return false };
                (node, accepted) = ((arcs[p] & INDEX_MASK) as usize, arcs[p] & ACCEPTS_BIT != 0);
            }
            accepted
        };
        let sep = SEPARATOR;
        for path in [&[1, sep, 2, 3][..], &[2, 1, sep, 3], &[3, 2, 1]] {
            assert!(accepts(path), "{path:?}");
        }
        for path in [&[1, 2, 3][..], &[2, sep, 3], &[3, 2, 1, sep]] {
            assert!(!accepts(path), "{path:?}");
        }
    }

    #[test]
    fn sorting_words_orders_prefixes_first() {
        let code_of: Vec<u8> = (0..128u8).map(|c| if c.is_ascii_lowercase() { c - b'a' + 1 } else { 0 }).collect();
        let sorted = sorted_code_words("kota\nkot\nab\n", &code_of).unwrap();
        assert_eq!(sorted, buffer(&[&[1, 2], &[11, 15, 20], &[11, 15, 20, 1]]));
        assert_eq!(sorted_code_words("ab\nk0t", &code_of), Err(1));
    }
}
