//! The word graph: the lexicon file's flat array of 32-bit arcs (see
//! `literaki_cli/engine/wordgraph.py` for the layout, modelled on wolges' KWG).
//!
//! A node is a list of sibling arcs stored contiguously and sorted by letter; index 0 is a dummy
//! arc, so that 0 can mean "no list".  The file's arc indices are checked when it is opened (in
//! Python); here every read is bounds-checked all the same, so that a bad index is a caught
//! panic, never undefined behaviour.

pub const INDEX_MASK: u32 = (1 << 24) - 1;
pub const END_BIT: u32 = 1 << 24;
pub const ACCEPTS_BIT: u32 = 1 << 25;
pub const LETTER_SHIFT: u32 = 26;
/// The GADDAG separator's letter code.
pub const SEPARATOR: u32 = 0;

/// A lexicon's graph as the walks read it: for each arc position, one 64-bit word holding the
/// arc (low half) and the letters (bit code-1, codes 1..32) of its sibling list from that arc on
/// (high half): for the first arc of a list, the letters of the whole node.  One test of this mask
/// against the letters a square allows tells whether the walk can do anything there, without
/// scanning the node's arcs (as MAGPIE tests the rack against a node's letters).  The walk reads a
/// list's mask and then one of its arcs: kept side by side they come in one cache line, where two
/// separate arrays cost two misses (the walk is bound by these loads).
#[derive(Clone, Copy)]
pub struct Kwg<'a> {
    pub words: &'a [u64],
}

/// The graph's words (see `Kwg`) in memory of their own, asked to be backed by huge pages (on
/// Linux, where transparent huge pages are on "madvise", as on most distributions).
pub struct GraphWords {
    map: memmap2::MmapMut,
    len: usize,
    /// The bingo indexes made on this graph, by DAWG root and bingo size (`bingo_index`).
    indexes: std::sync::Mutex<Vec<(usize, usize, std::sync::Arc<crate::bingo::BingoIndex>)>>,
    /// Best-move searches run on this graph so far (`bingo_index_if_due`).
    searches: std::sync::atomic::AtomicU64,
}

/// Searches on a graph before its bingo index is made: the index costs some 0.05 s once on the SJP
/// list and saves 5-25 % of every search after it (far more with a blank), so a job of a few dozen
/// searches (one game's review, one `solve`) does without it and a long one (self-play, a batch)
/// makes it early.
pub const SEARCHES_BEFORE_BINGO_INDEX: u64 = 100;

impl GraphWords {
    /// The bingo index for one more best-move search: the one made already, else made now once
    /// SEARCHES_BEFORE_BINGO_INDEX searches ran on this graph, else None.
    pub fn bingo_index_if_due(
        &self,
        dawg_root: usize,
        tiles: usize,
    ) -> Option<std::sync::Arc<crate::bingo::BingoIndex>> {
        {
            let indexes = self.indexes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some((_, _, index)) = indexes.iter().find(|(root, t, _)| (*root, *t) == (dawg_root, tiles)) {
                return Some(index.clone());
            }
        }
        let searches = self.searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (searches >= SEARCHES_BEFORE_BINGO_INDEX).then(|| self.bingo_index(dawg_root, tiles))
    }

    /// The bingo index of the DAWG at `dawg_root` for bingos of `tiles` tiles: made once (some
    /// 0.05 s on the SJP list) and kept with the graph for every generator of it.
    pub fn bingo_index(&self, dawg_root: usize, tiles: usize) -> std::sync::Arc<crate::bingo::BingoIndex> {
        let mut indexes = self.indexes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, _, index)) = indexes.iter().find(|(root, t, _)| (*root, *t) == (dawg_root, tiles)) {
            return index.clone();
        }
        let index = std::sync::Arc::new(crate::bingo::BingoIndex::build(&Kwg { words: self }, dawg_root, tiles));
        indexes.push((dawg_root, tiles, index.clone()));
        index
    }
}

impl std::ops::Deref for GraphWords {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        // SAFETY: the map holds `len` u64 words, written by `graph_words`; an anonymous map is
        // page-aligned, so aligned for u64.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const u64, self.len) }
    }
}

/// The graph's words (see `Kwg`) built from the file's arcs, in one backward pass (this runs once
/// per process and lexicon, before the first answer: its time is part of every `solve`).
pub fn graph_words(arcs: &[u32]) -> GraphWords {
    let bytes = std::mem::size_of_val(arcs) * 2;
    let mut map = memmap2::MmapMut::map_anon(bytes.max(8)).expect("memory for the word graph");
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage); // only advice: small pages work the same
                                                   // SAFETY: the map is `bytes` long and page-aligned: room for arcs.len() u64 words.
    let words = unsafe { std::slice::from_raw_parts_mut(map.as_mut_ptr() as *mut u64, arcs.len()) };
    let mut rest = 0u32; // the letters of the arcs after p in its list
    for p in (1..arcs.len()).rev() {
        let arc = arcs[p];
        let mask = crate::movegen::bit(Kwg::letter(arc)) | if Kwg::is_last(arc) { 0 } else { rest };
        words[p] = ((mask as u64) << 32) | arc as u64;
        rest = mask;
    }
    if let Some(&first) = arcs.first() {
        words[0] = first as u64;
    }
    GraphWords { map, len: arcs.len(), indexes: Default::default(), searches: Default::default() }
}

impl<'a> Kwg<'a> {
    /// The letters of the sibling list at `list` from its first arc on (0 for no list).
    #[inline(always)]
    pub fn letters(&self, list: usize) -> u32 {
        (self.words[list] >> 32) as u32
    }

    #[inline(always)]
    pub fn arc(&self, p: usize) -> u32 {
        self.words[p] as u32
    }

    /// The letter an arc carries.
    #[inline(always)]
    pub fn letter(arc: u32) -> u32 {
        arc >> LETTER_SHIFT
    }

    /// The sibling list an arc leads to (0: none).
    #[inline(always)]
    pub fn target(arc: u32) -> usize {
        (arc & INDEX_MASK) as usize
    }

    #[inline(always)]
    pub fn accepts(arc: u32) -> bool {
        arc & ACCEPTS_BIT != 0
    }

    #[inline(always)]
    pub fn is_last(arc: u32) -> bool {
        arc & END_BIT != 0
    }

    /// The position of the arc for `letter` in the sibling list at `list`, if there is one.  For
    /// a letter of the mask (codes 1..32) the position is counted from the list's letter mask (the
    /// arcs are sorted, the separator first) and checked; otherwise, or when the check fails (a
    /// list out of order), the list is scanned.
    #[inline]
    pub fn find(&self, list: usize, letter: u32) -> Option<usize> {
        if list == 0 {
            return None;
        }
        let b = crate::movegen::bit(letter);
        if b != 0 {
            let letters = self.letters(list);
            if letters & b == 0 {
                return None;
            }
            return self.find_from(list, letters, self.letters_base(list), letter);
        }
        self.scan(list, letter)
    }

    /// Where the arcs of the list at `list` start after its separator: `find_from`'s `base`.
    #[inline(always)]
    pub fn letters_base(&self, list: usize) -> usize {
        list + (Self::letter(self.arc(list)) == SEPARATOR) as usize
    }

    /// `find` for a letter of the list's mask `letters` (codes 1..32, `bit(letter)` in `letters`)
    /// whose arcs after the separator start at `base` (`letters_base`): what a loop over a list's
    /// letters asks, with the list's words read once.
    #[inline(always)]
    pub fn find_from(&self, list: usize, letters: u32, base: usize, letter: u32) -> Option<usize> {
        let b = crate::movegen::bit(letter);
        let p = base + (letters & (b - 1)).count_ones() as usize;
        if p < self.words.len() && Self::letter(self.arc(p)) == letter {
            return Some(p);
        }
        self.scan(list, letter)
    }

    /// `find` by reading the list arc by arc.
    fn scan(&self, list: usize, letter: u32) -> Option<usize> {
        let mut p = list;
        loop {
            let arc = self.arc(p);
            let arc_letter = Self::letter(arc);
            if arc_letter == letter {
                return Some(p);
            }
            if arc_letter > letter || Self::is_last(arc) {
                return None;
            }
            p += 1;
        }
    }
}

/// An arc as the lexicon file holds it, for the tests' small graphs.
#[cfg(test)]
pub fn test_arc(letter: u32, target: u32, accepts: bool, last: bool) -> u32 {
    (letter << LETTER_SHIFT) | target | if accepts { ACCEPTS_BIT } else { 0 } | if last { END_BIT } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::test_arc as arc;
    use super::*;

    #[test]
    fn find_walks_one_sorted_sibling_list() {
        // 0: dummy; 1..3: the list [a, c, e]; 4: the list [b]
        let arcs = [0, arc(1, 4, false, false), arc(3, 0, true, false), arc(5, 0, true, true), arc(2, 0, true, true)];
        let words = graph_words(&arcs);
        let kwg = Kwg { words: &words };
        assert_eq!(kwg.letters(1), 0b10101); // a, c, e
        assert_eq!(kwg.letters(2), 0b10100); // from c on
        assert_eq!(kwg.letters(4), 0b10); // b
        assert_eq!(kwg.letters(0), 0);
        assert_eq!(kwg.find(1, 3), Some(2));
        assert_eq!(kwg.find(1, 5), Some(3));
        assert_eq!(kwg.find(1, 2), None); // passed by c: the list is sorted
        assert_eq!(kwg.find(1, 6), None); // the list ends
        assert_eq!(kwg.find(0, 1), None); // no list
        assert_eq!(kwg.find(Kwg::target(arcs[1]), 2), Some(4));
    }

    #[test]
    fn find_counts_past_the_separator_and_scans_a_list_out_of_order() {
        // 1..3: [separator, b, d]; 4..5: [d, b] (out of order: a crafted file)
        let arcs = [
            0,
            arc(0, 4, false, false),
            arc(2, 0, true, false),
            arc(4, 0, true, true),
            arc(4, 0, true, false),
            arc(2, 0, true, true),
        ];
        let words = graph_words(&arcs);
        let kwg = Kwg { words: &words };
        assert_eq!(kwg.letters(1), 0b1010);
        assert_eq!(kwg.find(1, SEPARATOR), Some(1));
        assert_eq!(kwg.find(1, 2), Some(2));
        assert_eq!(kwg.find(1, 4), Some(3));
        assert_eq!(kwg.find(1, 3), None);
        assert_eq!(kwg.find(4, 4), Some(4)); // the count points at b: checked, then scanned
        for letter in 0..6 {
            assert_eq!(kwg.find(1, letter), kwg.scan(1, letter));
        }
    }
}
