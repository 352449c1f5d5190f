//! Which bingos can exist at all: the alphagrams (letters sorted) of every word as long as a bingo
//! lays tiles, or one or two letters longer (a bingo through one or two board tiles).  The best-move bounds
//! count a bingo's bonus on every span where a rack could lay all its tiles; most racks make no
//! such word, and this index tells so in one lookup, so those spans stop holding the search
//! open.  The index only tightens bounds: answers do not depend on whether it exists (it is made
//! once a graph has seen many searches, or for a simulation: `kwg::GraphWords::bingo_index`).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::kwg::Kwg;
use crate::movegen::{Rack, BLANK_SLOT, MAX_WORD};

/// The hasher of the index's keys: a key is a sum of well-mixed letter keys (`letter_key`),
/// random-looking already, so it is its own hash (SipHash would only slow the build).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 ^= key;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Board tiles a bingo may run through and still be looked up (longer ones are always possible).
pub const MAX_THROUGH: usize = 2;

/// A letter's share of a key: the key of a multiset of letters is the (wrapping) sum of its
/// letters' shares, so it is made a letter at a time, in any order, with no sort.  Two different
/// multisets may share a key (about one chance in 2^64 / keys): then a span is kept that could
/// have been dropped, a looser bound, never a different answer.
const fn letter_key(code: usize) -> u64 {
    // splitmix64 of the code: well mixed, fixed from build to build
    let mut z = (code as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const LETTER_KEYS: [u64; 64] = {
    let mut keys = [0u64; 64];
    let mut code = 0;
    while code < 64 {
        keys[code] = letter_key(code);
        code += 1;
    }
    keys
};

/// The key of the multiset `letters` (codes).
fn key_of(letters: &[u8]) -> u64 {
    letters.iter().fold(0u64, |key, &code| key.wrapping_add(LETTER_KEYS[code as usize & 63]))
}

/// The alphagrams (as multiset keys) of the lexicon's words of `tiles` to `tiles + MAX_THROUGH`
/// letters.
pub struct BingoIndex {
    pub tiles: usize,
    /// False for a bingo of no tiles (then it answers nothing).
    usable: bool,
    keys: KeySet,
}

impl BingoIndex {
    /// Every word of the DAWG at `dawg_root` of `tiles` to `tiles + MAX_THROUGH` letters, as
    /// alphagrams.
    pub fn build(kwg: &Kwg, dawg_root: usize, tiles: usize) -> BingoIndex {
        let mut keys = KeySet::with_capacity_and_hasher(1 << 16, Default::default());
        let usable = (1..=MAX_WORD).contains(&tiles);
        if usable {
            collect(kwg, dawg_root, 0, 0, tiles, &mut keys);
        }
        BingoIndex { tiles, usable, keys }
    }

    /// Whether some word's letters are those of the multiset key `key` (see `key_of`).
    fn has(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }
}

/// The keys of the words below `list`, whose first `depth` letters have the key `key`.
fn collect(kwg: &Kwg, list: usize, depth: usize, key: u64, tiles: usize, keys: &mut KeySet) {
    if list == 0 {
        return;
    }
    let mut p = list;
    loop {
        let arc = kwg.arc(p);
        let key = key.wrapping_add(LETTER_KEYS[Kwg::letter(arc) as usize & 63]);
        let length = depth + 1;
        if Kwg::accepts(arc) && length >= tiles {
            keys.insert(key);
        }
        if length < tiles + MAX_THROUGH {
            collect(kwg, Kwg::target(arc), length, key, tiles, keys);
        }
        if Kwg::is_last(arc) {
            break;
        }
        p += 1;
    }
}

/// One rack's questions to the index, remembered: can all its tiles make a word alone, or with the
/// letters of one or two board tiles?  Racks with three blanks or more are not asked (always yes).
pub struct BingoCheck<'a> {
    index: &'a BingoIndex,
    /// The key of the rack's tiles other than blanks, and how many blanks.
    natural: u64,
    blanks: i64,
    /// Answers by the extra letters (first * 33 + second; 0: none); None: not asked yet.
    known: Vec<Option<bool>>,
}

impl<'a> BingoCheck<'a> {
    /// None when the index cannot answer for this rack (another bingo size, too many blanks).
    pub fn of(index: &'a BingoIndex, rack: &Rack) -> Option<BingoCheck<'a>> {
        let tiles: i64 = rack.iter().sum();
        if !index.usable || tiles as usize != index.tiles || rack[BLANK_SLOT] > 2 {
            return None;
        }
        let mut natural = 0u64;
        for (code, &count) in rack.iter().enumerate().skip(1) {
            natural = natural.wrapping_add(LETTER_KEYS[code & 63].wrapping_mul(count as u64));
        }
        Some(BingoCheck { index, natural, blanks: rack[BLANK_SLOT], known: vec![None; 33 * 33] })
    }

    /// Whether the rack's tiles, with the board letters `extra` (0: none), are some word's letters.
    pub fn possible(&mut self, extra: [u8; MAX_THROUGH]) -> bool {
        let (a, b) = (extra[0].min(extra[1]) as usize, extra[0].max(extra[1]) as usize);
        if b > 32 {
            return true;
        }
        let slot = a * 33 + b;
        if let Some(answer) = self.known[slot] {
            return answer;
        }
        let present: Vec<u8> = extra.iter().copied().filter(|&code| code != 0).collect();
        let key = self.natural.wrapping_add(key_of(&present));
        let answer = match self.blanks {
            0 => self.index.has(key),
            1 => (1..=32).any(|code| self.index.has(key.wrapping_add(LETTER_KEYS[code]))),
            _ => (1..=32).any(|a| {
                let key = key.wrapping_add(LETTER_KEYS[a]);
                (a..=32).any(|b| self.index.has(key.wrapping_add(LETTER_KEYS[b])))
            }),
        };
        self.known[slot] = Some(answer);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kwg::{graph_words, test_arc as arc};

    #[test]
    fn the_index_knows_the_words_of_a_bingo_and_one_letter_more() {
        // A DAWG of "ab", "abc" and "abcd" (codes a=1 ...): root 1 -> a (2) -> b (3) -> c (4) -> d.
        let arcs = [0, arc(1, 2, false, true), arc(2, 3, true, true), arc(3, 4, true, true), arc(4, 0, true, true)];
        let words = graph_words(&arcs);
        let index = BingoIndex::build(&Kwg { words: &words }, 1, 3);
        let mut rack = [0i64; crate::movegen::RACK_SLOTS];
        rack[3] = 1;
        rack[1] = 1;
        rack[2] = 1; // "cab": the letters of "abc"
        let mut check = BingoCheck::of(&index, &rack).expect("three tiles");
        assert!(check.possible([0, 0]));
        assert!(check.possible([4, 0])); // with a board "d": "abcd"
        assert!(!check.possible([0, 1])); // "aabc": no such word
        assert!(!check.possible([4, 5])); // "abcde": none either
        rack[3] = 0;
        rack[BLANK_SLOT] = 1; // "ab?": the blank as c
        let mut check = BingoCheck::of(&index, &rack).expect("three tiles");
        assert!(check.possible([0, 0]) && check.possible([0, 4]));
        assert!(!check.possible([5, 0]));
        rack[2] = 0;
        rack[BLANK_SLOT] = 2; // "a??": the blanks as b and c
        let mut check = BingoCheck::of(&index, &rack).expect("three tiles");
        assert!(check.possible([0, 0]) && check.possible([4, 0]));
        assert!(!check.possible([5, 0])); // "a??e": no word has a and e
        rack[1] = 0;
        rack[BLANK_SLOT] = 3; // three blanks: not asked
        assert!(BingoCheck::of(&index, &rack).is_none());
        rack[BLANK_SLOT] = 1;
        rack[1] = 1; // "a?": two tiles, not a bingo of three
        assert!(BingoCheck::of(&index, &rack).is_none());
        let none = BingoIndex::build(&Kwg { words: &words }, 1, 0); // a bingo of no tiles: not asked
        rack[BLANK_SLOT] = 0;
        rack[1] = 0;
        assert!(BingoCheck::of(&none, &rack).is_none());
    }
}
