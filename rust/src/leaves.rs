//! Leave values: every sub-multiset of a rack valued once per turn, and a move's leave read by
//! its number.  A port of the numba kernels of `literaki_cli/equity/leaves.py` (`subset_values`,
//! `leave_terms`, `model_value`, `value_of_key`, `_move_leaves`), number for number.
//!
//! A leave's value is the learned one when the leave file has it, the parametric model's
//! otherwise: a sum of whole-number features times the model's coefficients.

use crate::movegen::{Rack, BLANK_FLAG, BLANK_SLOT, BOARD_FLAG, CELLS, CODE_MASK, LENGTH, RACK_SLOTS, RECORD_WIDTH};

/// Where each feature group starts in the model's coefficient vector, and its sizes (given by
/// Python, which defines the model).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub n_slots: usize,
    pub max_leave: i64,
    pub max_colours: usize,
    pub f_tile: usize,
    pub f_extra: usize,
    pub f_blank_pair: usize,
    pub f_balance: usize,
    pub f_colour_pairs: usize,
}

/// The layout as Python passes it: (n_slots, max_leave, max_colours, f_tile, f_extra,
/// f_blank_pair, f_balance, f_colour_pairs).
pub type LayoutTuple = (usize, i64, usize, usize, usize, usize, usize, usize);

impl From<LayoutTuple> for Layout {
    fn from(t: LayoutTuple) -> Self {
        let (n_slots, max_leave, max_colours, f_tile, f_extra, f_blank_pair, f_balance, f_colour_pairs) = t;
        Layout { n_slots, max_leave, max_colours, f_tile, f_extra, f_blank_pair, f_balance, f_colour_pairs }
    }
}

/// Where to find a key among the learned leaves' keys: an open-addressing hash index of their
/// positions, at most half full, so that a lookup reads a slot or two and one key instead of
/// binary-searching the keys (a rack of seven different tiles asks 127 lookups; the index of the
/// shipped file's 10,569 keys is 128 KB and stays in the cache, where a directory of the keys' top
/// bits took 4 MB and missed it).  Keys out of strictly ascending order (a crafted file) get no
/// index: their lookups binary-search, as without one, so the answers never depend on it.
pub struct KeyDirectory {
    /// Per slot: 1 + the position of a key hashed there (0: empty); None: no index.
    slots: Option<Vec<u32>>,
    mask: usize,
}

impl KeyDirectory {
    pub fn of(keys: &[i64]) -> KeyDirectory {
        let ascending = keys.windows(2).all(|w| w[0] < w[1]) && keys.len() < (u32::MAX / 4) as usize;
        if !ascending {
            return KeyDirectory { slots: None, mask: 0 };
        }
        let capacity = (2 * keys.len()).next_power_of_two().max(16);
        let (mut slots, mask) = (vec![0u32; capacity], capacity - 1);
        for (i, &key) in keys.iter().enumerate() {
            let mut s = slot_of(key, mask);
            while slots[s] != 0 {
                s = (s + 1) & mask;
            }
            slots[s] = i as u32 + 1;
        }
        KeyDirectory { slots: Some(slots), mask }
    }

    /// The index of `key` among `keys` (the keys the directory was made of), if there.
    #[inline]
    fn find(&self, keys: &[i64], key: i64) -> Option<usize> {
        let Some(slots) = &self.slots else {
            return binary_search(keys, key);
        };
        let mut s = slot_of(key, self.mask);
        loop {
            let at = *slots.get(s)? as usize;
            if at == 0 {
                return None;
            }
            if keys.get(at - 1) == Some(&key) {
                return Some(at - 1);
            }
            s = (s + 1) & self.mask;
        }
    }
}

/// A key's first slot (Fibonacci hashing: the product's upper half spreads keys that differ in
/// their last digits).
#[inline(always)]
fn slot_of(key: i64, mask: usize) -> usize {
    ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

fn binary_search(keys: &[i64], key: i64) -> Option<usize> {
    let i = keys.partition_point(|&k| k < key);
    (i < keys.len() && keys[i] == key).then_some(i)
}

impl Layout {
    /// The model's features of a leave given by its tile counts, into `out` (whole numbers; the
    /// terms `Model::model_value_of` sums, by feature): what leave training fits.
    pub fn features(&self, counts: &[i64], colour_of: &[i64], vowel: &[i64], out: &mut [f64]) {
        out.fill(0.0);
        let mut colour_tiles = [0i64; 64];
        let (mut vowels, mut consonants) = (0i64, 0i64);
        for (slot, &c) in counts.iter().enumerate().take(self.n_slots) {
            if c <= 0 {
                continue;
            }
            out[self.f_tile + slot] += c as f64;
            if slot == BLANK_SLOT {
                if c >= 2 {
                    out[self.f_blank_pair] += 1.0;
                }
                continue;
            }
            if c > 1 {
                out[self.f_extra + slot - 1] += (c - 1) as f64;
            }
            if vowel[slot] != 0 {
                vowels += c;
            } else {
                consonants += c;
            }
            if colour_of[slot] >= 0 {
                colour_tiles[colour_of[slot] as usize] += c;
            }
        }
        if vowels + consonants <= self.max_leave {
            let balance = (self.max_leave + 1) * vowels - vowels * (vowels - 1) / 2 + consonants;
            out[self.f_balance + balance as usize] += 1.0;
        }
        for (k, &tiles) in colour_tiles.iter().enumerate().take(self.max_colours) {
            if tiles > 1 {
                out[self.f_colour_pairs + k] += (tiles * (tiles - 1) / 2) as f64;
            }
        }
    }
}

/// What leave training fits: X'WX (`n_features` x `n_features`, row-major) and X'Wy of the model's
/// features X over the leaves (`counts`: one row of `layout.n_slots` tile counts a leave), with
/// the leaves' weights W and targets y, summed leave by leave in order (the numbers of the numba
/// kernel this replaces, to the last bit).
pub fn normal_equations(
    layout: &Layout,
    counts: &[i64],
    weights: &[f64],
    targets: &[f64],
    tiles: (&[i64], &[i64]),
    n_features: usize,
) -> (Vec<f64>, Vec<f64>) {
    let (mut xtwx, mut xtwy) = (vec![0.0f64; n_features * n_features], vec![0.0f64; n_features]);
    let mut x = vec![0.0f64; n_features];
    for (i, row) in counts.chunks_exact(layout.n_slots).enumerate() {
        layout.features(row, tiles.0, tiles.1, &mut x);
        let w = weights[i];
        for a in 0..n_features {
            if x[a] == 0.0 {
                continue;
            }
            xtwy[a] += w * x[a] * targets[i];
            for b in 0..n_features {
                xtwx[a * n_features + b] += w * x[a] * x[b];
            }
        }
    }
    (xtwx, xtwy)
}

/// The model's value of each leave (`counts` as `normal_equations` reads them) with the
/// coefficients `coef`: its features times theirs, summed feature by feature.
pub fn predict(layout: &Layout, counts: &[i64], coef: &[f64], tiles: (&[i64], &[i64])) -> Vec<f64> {
    let mut x = vec![0.0f64; coef.len()];
    counts
        .chunks_exact(layout.n_slots)
        .map(|row| {
            layout.features(row, tiles.0, tiles.1, &mut x);
            x.iter().zip(coef).fold(0.0, |total, (x, c)| total + x * c)
        })
        .collect()
}

/// A leave file's arrays (borrowed from Python) with the model's layout.
pub struct Model<'a> {
    pub layout: Layout,
    /// Learned leaves' keys (ascending) and values.
    pub keys: &'a [i64],
    /// The keys' directory, when made (`KeyDirectory`; lookups are the same without it).
    pub directory: Option<&'a KeyDirectory>,
    pub values: &'a [f64],
    pub coef: &'a [f64],
    /// A letter's colour index (-1: none), and 1 for a vowel.
    pub colour_of: &'a [i64],
    pub vowel: &'a [i64],
}

impl Model<'_> {
    /// The model's value of a leave given by its tile counts (the one definition of its features).
    pub fn model_value(&self, counts: &[i64]) -> f64 {
        self.model_value_of(counts, 0..self.layout.n_slots.min(counts.len()))
    }

    /// `model_value` reading only the slots of `slots` (ascending; every slot with tiles among
    /// them): the same terms added in the same order, so the same number to the last bit.
    fn model_value_of(&self, counts: &[i64], slots: impl Iterator<Item = usize>) -> f64 {
        let l = &self.layout;
        let mut colour_tiles = [0i64; 64];
        let mut total = 0.0f64;
        let (mut vowels, mut consonants) = (0i64, 0i64);
        let mut term = |feature: usize, value: i64| total += value as f64 * self.coef[feature];
        for slot in slots {
            let c = counts[slot];
            if c <= 0 {
                continue;
            }
            term(l.f_tile + slot, c);
            if slot == BLANK_SLOT {
                if c >= 2 {
                    term(l.f_blank_pair, 1);
                }
                continue;
            }
            if c > 1 {
                term(l.f_extra + slot - 1, c - 1);
            }
            if self.vowel[slot] != 0 {
                vowels += c;
            } else {
                consonants += c;
            }
            if self.colour_of[slot] >= 0 {
                colour_tiles[self.colour_of[slot] as usize] += c;
            }
        }
        if vowels + consonants <= l.max_leave {
            let balance = (l.max_leave + 1) * vowels - vowels * (vowels - 1) / 2 + consonants;
            term(l.f_balance + balance as usize, 1);
        }
        for (k, &tiles) in colour_tiles.iter().enumerate().take(l.max_colours) {
            if tiles > 1 {
                term(l.f_colour_pairs + k, tiles * (tiles - 1) / 2);
            }
        }
        total
    }

    /// The value of the leave with this key and these counts: the learned one when the file has
    /// it, the model's otherwise (reading the counts of `slots`: see `model_value_of`); 0 for the
    /// empty leave.
    pub fn value_of_key(&self, key: i64, counts: &[i64], slots: impl Iterator<Item = usize>) -> f64 {
        if key <= 0 {
            return 0.0;
        }
        let found = match self.directory {
            Some(directory) => directory.find(self.keys, key),
            None => binary_search(self.keys, key),
        };
        match found {
            Some(i) => self.values[i],
            None => self.model_value_of(counts, slots),
        }
    }

    /// The key of the leave with these tile counts (6-bit digits slot + 1, the lowest slot most
    /// significant); -1 when it is longer than the longest leave with a value.
    pub fn leave_key(&self, counts: &[i64]) -> i64 {
        let (mut key, mut size) = (0i64, 0i64);
        for (slot, &c) in counts.iter().enumerate().take(self.layout.n_slots) {
            for _ in 0..c.max(0) {
                if size == self.layout.max_leave {
                    return -1;
                }
                key = key * 64 + slot as i64 + 1;
                size += 1;
            }
        }
        key
    }

    /// The value of a leave given by its tile counts (see `value_of_key`).
    pub fn lookup(&self, counts: &[i64]) -> f64 {
        self.value_of_key(self.leave_key(counts), counts, 0..self.layout.n_slots.min(counts.len()))
    }

    /// For every sub-multiset of the rack, numbered in mixed radix (the place value of each tile
    /// slot; the whole rack is the last number, the empty leave 0): `weight` x its value -
    /// `kept_factor` x the points of its tiles, and its size.  Returns (place, values, sizes).
    pub fn subset_values(
        &self,
        rack: &Rack,
        tile_value: &[i64],
        weight: f64,
        kept_factor: f64,
    ) -> ([i64; RACK_SLOTS], Vec<f64>, Vec<i64>) {
        let n_slots = self.layout.n_slots;
        let mut place = [0i64; RACK_SLOTS];
        let mut total = 1i64;
        for slot in 0..n_slots {
            if rack[slot] > 0 {
                place[slot] = total;
                total *= rack[slot] + 1;
            }
        }
        let present: Vec<usize> = (0..n_slots).filter(|&s| rack[s] > 0).collect();
        let mut values = Vec::with_capacity(total as usize);
        let mut sizes = Vec::with_capacity(total as usize);
        // the sub-multisets in number order: counts kept as an odometer (the first slot turns
        // fastest), no division per digit
        let mut counts = [0i64; RACK_SLOTS];
        for _ in 0..total {
            let (mut kept, mut size, mut key) = (0i64, 0i64, 0i64);
            for &slot in &present {
                let c = counts[slot];
                kept += c * tile_value[slot];
                size += c;
                for _ in 0..c {
                    key = key * 64 + slot as i64 + 1;
                }
            }
            let mut value = 0.0;
            if weight != 0.0 && size <= self.layout.max_leave {
                value = weight * self.value_of_key(key, &counts, present.iter().copied());
            }
            values.push(value - kept_factor * kept as f64);
            sizes.push(size);
            for &slot in &present {
                if counts[slot] < rack[slot] {
                    counts[slot] += 1;
                    break;
                }
                counts[slot] = 0;
            }
        }
        (place, values, sizes)
    }
}

/// The number of a move's leave among the rack's sub-multisets: the whole rack's number minus the
/// place value of every tile the move lays.
pub fn leave_number(record: &[i32], place: &[i64; RACK_SLOTS], whole: i64) -> i64 {
    let length = record[LENGTH] as usize;
    let mut index = whole;
    for &cell in &record[CELLS..CELLS + length] {
        if cell & BOARD_FLAG == 0 {
            index -= if cell & BLANK_FLAG != 0 { place[BLANK_SLOT] } else { place[(cell & CODE_MASK) as usize] };
        }
    }
    index
}

/// The leave value of every move record (`records`: rows of RECORD_WIDTH).
pub fn move_leaves(records: &[i32], place: &[i64; RACK_SLOTS], values: &[f64]) -> Vec<f64> {
    let whole = values.len() as i64 - 1;
    records.chunks_exact(RECORD_WIDTH).map(|r| values[leave_number(r, place, whole) as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_directory_finds_what_a_binary_search_finds() {
        // keys of every size, ascending, as the leave files hold them (6-bit digits slot + 1)
        let mut keys: Vec<i64> = Vec::new();
        let mut state = 12345u64;
        for _ in 0..20_000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let size = 1 + (state >> 60) % 6;
            let key = (0..size).fold(0i64, |key, k| key * 64 + 1 + ((state >> (6 * k)) % 33) as i64);
            keys.push(key);
        }
        keys.sort_unstable();
        keys.dedup();
        let directory = KeyDirectory::of(&keys);
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(directory.find(&keys, key), Some(i));
            for other in [key - 1, key + 1, key * 64] {
                assert_eq!(directory.find(&keys, other), binary_search(&keys, other), "key {other}");
            }
        }
        assert_eq!(directory.find(&keys, keys[keys.len() - 1] * 64 + 5), None); // past the last key
        let empty = KeyDirectory::of(&[]);
        assert_eq!(empty.find(&[], 7), None);
    }

    #[test]
    fn keys_out_of_order_are_binary_searched_as_without_a_directory() {
        // a crafted file: unsorted, and a repeated key
        let keys = [70, 5, 9, 9, 200, 3];
        let directory = KeyDirectory::of(&keys);
        for key in [3, 5, 9, 70, 200, 1, 100] {
            assert_eq!(directory.find(&keys, key), binary_search(&keys, key), "key {key}");
        }
    }
}
