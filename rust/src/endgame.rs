//! The exact endgame search: negamax with alpha-beta over every placement and the pass, a shared
//! transposition table, lazily generated node lists, and Lazy SMP over threads.
//!
//! Once the bag is empty both racks are known, so the rest of the game is a two-player game of
//! perfect information.  A node is (board, both racks, the player to move, the passes in a row);
//! its value is the spread change from there to the end of the game for the player to move, with
//! the end rules: going out gains the opponent's leftover values and the opponent loses them (the
//! spread moves by twice their value); once `passes_to_end` passes come in a row, each player
//! loses their own leftovers.
//!
//! The search is exact when no node was cut at the depth limit: every node counts the *horizon*
//! (nodes valued by the depth-limit heuristic, or by a table entry that was) and stores its value
//! as *solved* (valid at every depth) when no horizon was met below it.  The driver
//! (`literaki_cli/endgame/solver.py`) deepens until a search meets no horizon at all.
//!
//! A port of the former numba kernels (`search_root` and its helpers), step for step: the same
//! nodes in the same order, so that a node budget gives the same move as before.  The board is
//! the move generator's own pair of views, changed and restored in place.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use crate::board::{View, ACROSS, DOWN};
use crate::kwg::Kwg;
use crate::movegen::{
    self, Rack, Record, Sink, BLANK_FLAG, BLANK_SLOT, BOARD_FLAG, CELLS, CODE_MASK, COL, DIR, LENGTH, RACK_SLOTS, ROW,
    SCORE, TILES,
};
use crate::rules::Rules;

/// Larger than any spread: the search window's open ends.
pub const INFINITY: i64 = 1 << 40;
/// What a table entry's value is: the node's value, at least it, or at most it.
const EXACT: u64 = 0;
const LOWER: u64 = 1;
const UPPER: u64 = 2;
/// The depth of a table entry whose value holds at every depth (no horizon below it).
const SOLVED: i64 = 1 << 14;
/// Entries of the history table, and its weight in move ordering against score * 64.
const HISTORY_SIZE: usize = 1 << 16;
const HISTORY_WEIGHT: i64 = 1 << 12;
/// The most plies left below a node that generates lazily (tries the best move that still stands
/// before generating the moves that reach new tiles): near the depth limit generation is most of
/// the cost and a cut by that move is likely; higher up a full list orders the moves better.
const LAZY_DEPTH: i64 = 2;
/// Limit checks between two looks at the clock (and, on Python's main thread, at Ctrl-C).
pub const CLOCK_EVERY: i64 = 256;
/// The most plies a search may go down (a game from an empty bag is far shorter).
pub const MAX_PLY: usize = 80;
/// Moves of a node picked one at a time (the best left, by a scan) before the rest are sorted:
/// most nodes are cut after their first move or two, so most never pay for a sort.
const PICKED_ONE_BY_ONE: usize = 3;
/// The table's move of a node: a placement's id (the high bits of its hash), the pass, or none.
const PASS_MOVE: i64 = -2;
const NO_MOVE: i64 = -1;
/// Players of an endgame.
pub const PLAYERS: usize = 2;
/// A rack slot's count has keys up to this (exclusive).
pub const MAX_COUNT: usize = 16;
/// Keys per square: a letter code, plus 64 for a blank.
pub const SQUARE_KEYS: usize = 128;

/// The Zobrist keys of the position's parts (made by the caller from a fixed seed).
pub struct Keys {
    /// [square][code + 64 * blank]
    pub square: Vec<u64>,
    /// [side][slot][count]
    pub rack: Vec<u64>,
    pub side: [u64; PLAYERS],
    /// [passes in a row], `passes_to_end` of them
    pub pass: Vec<u64>,
}

/// What stays fixed during a search: the lexicon, the rules, the keys and the end rules.
#[derive(Clone, Copy)]
pub struct Game<'a> {
    pub kwg: Kwg<'a>,
    pub gaddag_root: usize,
    pub dawg_root: usize,
    pub rules: &'a Rules,
    pub keys: &'a Keys,
    /// A rack slot's value at the end of the game (the blank slot: 0).
    pub slot_value: &'a [i64; RACK_SLOTS],
    /// Passes in a row that end the game (twice the players).
    pub passes_to_end: i64,
    /// Value a node at the depth limit by a greedy playout (else by the racks' values).
    pub playout: bool,
}

/// The transposition table, shared by the search threads without locks: an entry read while
/// another thread writes it (the key of one write, the data of another) fails the key test, as
/// a miss, because the key is stored XORed with a check of the data (lockless hashing).
///
/// Its memory is an anonymous map asked to be backed by huge pages (the probes land all over
/// it: with 4 KB pages nearly each one also missed the TLB), zero until written, so a large
/// table costs nothing until the search reaches its pages.
pub struct Table {
    map: memmap2::MmapMut,
    len: usize,
}

impl Table {
    /// A table of 2**bits entries (24 bytes each); an error when the system gives no such map.
    pub fn new(bits: u32) -> std::io::Result<Table> {
        let len = 1usize << bits;
        let map = memmap2::MmapMut::map_anon(len * std::mem::size_of::<[AtomicU64; 3]>())?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage); // only advice: small pages work the same
        Ok(Table { map, len })
    }

    fn entries(&self) -> &[[AtomicU64; 3]] {
        // SAFETY: the map holds `len` entries of three 64-bit words, zeroed (a valid AtomicU64),
        // page-aligned; every access after this goes through the atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const [AtomicU64; 3], self.len) }
    }

    /// Empty every entry: the pages given back at once where the system can (Linux: a private
    /// anonymous map reads back as zeros), else each word written.
    pub fn clear(&self) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: the map is private and anonymous, so its dropped pages read back as zeros,
            // a valid word of every entry (an empty one); the entries are only read as atomics.
            if unsafe { self.map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) }.is_ok() {
                return;
            }
        }
        for entry in self.entries() {
            for word in entry {
                word.store(0, Relaxed);
            }
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key & (self.len as u64 - 1)) as usize
    }

    fn entry(&self, slot: usize) -> &[AtomicU64; 3] {
        &self.entries()[slot]
    }
}

/// What a table entry's key is stored XORed with (see `Table`).
fn entry_check(value: i64, data: u64) -> u64 {
    let mut check = (value as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    check ^= data.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    check ^ (check >> 31)
}

/// An entry's flag, depth and move in one word (as the check reads them).
fn entry_data(flag: u64, depth: i64, table_move: i64) -> u64 {
    (flag as i64 | (depth << 8) | (table_move << 24)) as u64
}

/// The position the search stands on: the generator's two views of the board (changed and
/// restored in place), both racks (counts by slot) and the hash of board and racks.
#[derive(Clone)]
pub struct Position {
    pub views: [View; 2],
    pub racks: [Rack; PLAYERS],
    pub key: u64,
}

impl Position {
    /// The position of a board (row-major letter codes and blanks) and racks; never an empty
    /// board's start square: an endgame's board holds tiles.
    pub fn new(game: &Game, letters: &[u8], blanks: &[bool], racks: [Rack; PLAYERS]) -> Position {
        let (mut across, mut down) = View::pair(game.rules, letters, blanks);
        (across.start, down.start) = (None, None);
        let mut position = Position { views: [across, down], racks, key: 0 };
        position.key = position.full_key(game);
        position
    }

    fn rows(&self) -> usize {
        self.views[ACROSS].rows
    }

    fn cols(&self) -> usize {
        self.views[ACROSS].cols
    }

    /// The letter on board square (r, c) (0: empty).
    #[inline(always)]
    fn letter(&self, r: i64, c: i64) -> u8 {
        self.views[ACROSS].letters[r as usize * self.cols() + c as usize]
    }

    fn on_board(&self, r: i64, c: i64) -> bool {
        0 <= r && r < self.rows() as i64 && 0 <= c && c < self.cols() as i64
    }

    /// The hash of the board and both racks, from scratch.
    fn full_key(&self, game: &Game) -> u64 {
        let view = &self.views[ACROSS];
        let mut key = 0u64;
        for (square, (&code, &blank)) in view.letters.iter().zip(&view.blanks).enumerate() {
            if code != 0 {
                key ^= tile_key(game, square, code as usize, blank);
            }
        }
        for side in 0..PLAYERS {
            for slot in 0..RACK_SLOTS {
                key ^= rack_key(game, side, slot, self.racks[side][slot]);
            }
        }
        key
    }

    /// What the rack of `side` counts at the end of the game.
    pub fn rack_value(&self, game: &Game, side: usize) -> i64 {
        self.racks[side].iter().zip(game.slot_value.iter()).map(|(n, v)| n * v).sum()
    }

    pub fn rack_tiles(&self, side: usize) -> i64 {
        self.racks[side].iter().sum()
    }

    /// Lay the new tiles of `rec` from the rack of `side`.
    pub fn play(&mut self, game: &Game, side: usize, rec: &Record) {
        self.lay(game, side, rec, true);
    }

    /// Take the new tiles of `rec` back to the rack of `side`.
    pub fn take_back(&mut self, game: &Game, side: usize, rec: &Record) {
        self.lay(game, side, rec, false);
    }

    fn lay(&mut self, game: &Game, side: usize, rec: &Record, laying: bool) {
        let (rows, cols) = (self.rows(), self.cols());
        let mut key = self.key;
        for k in 0..rec[LENGTH] as i64 {
            let cell = rec[CELLS + k as usize];
            if cell & BOARD_FLAG != 0 {
                continue;
            }
            let (r, c) = cell_square(rec, k);
            let (r, c) = (r as usize, c as usize);
            let code = (cell & CODE_MASK) as usize;
            let blank = cell & BLANK_FLAG != 0;
            let slot = if blank { BLANK_SLOT } else { code };
            key ^= tile_key(game, r * cols + c, code, blank);
            key ^= rack_key(game, side, slot, self.racks[side][slot]);
            let (letter, on) = if laying { (code as u8, blank) } else { (0, false) };
            self.racks[side][slot] += if laying { -1 } else { 1 };
            self.views[ACROSS].letters[r * cols + c] = letter;
            self.views[ACROSS].blanks[r * cols + c] = on;
            self.views[DOWN].letters[c * rows + r] = letter;
            self.views[DOWN].blanks[c * rows + r] = on;
            key ^= rack_key(game, side, slot, self.racks[side][slot]);
        }
        self.key = key;
    }

    /// Every placement of `side` found from an anchor of a row of the across view up to column
    /// `across_rows[row]` (-1: none), or of the down view (its rows: the board's columns) up to
    /// `down_rows[column]`, in the generator's order.
    pub fn generate_along(&mut self, game: &Game, side: usize, across_rows: &[i64], down_rows: &[i64]) -> Vec<Record> {
        let mut sink = Sink::every();
        let mut rack = self.racks[side];
        for (view, last_anchors) in self.views.iter().zip([across_rows, down_rows]) {
            movegen::generate_rows(
                game.kwg,
                game.gaddag_root,
                game.dawg_root,
                game.rules,
                view,
                &mut rack,
                &mut sink,
                last_anchors,
            );
        }
        sink.records
    }

    /// Every placement of `side` on the board now.
    pub fn generate(&mut self, game: &Game, side: usize) -> Vec<Record> {
        let across = vec![self.cols() as i64 - 1; self.rows()];
        let down = vec![self.rows() as i64 - 1; self.cols()];
        self.generate_along(game, side, &across, &down)
    }

    /// The spread for `side` (to move, `passes` passes in a row so far) to the end of the game
    /// when both sides play greedily (`greedy_move`, a pass when there is none), with the end
    /// rules.  Macondo's depth-limit estimate: far closer to the truth than the racks' values.
    /// The position is restored before it returns.
    pub fn playout_value(&mut self, game: &Game, side: usize, mut passes: i64) -> i64 {
        let mut laid: Vec<(usize, Record)> = Vec::new();
        let mut total = 0i64;
        let (mut s, mut sign) = (side, 1i64);
        loop {
            let mine = self.rack_tiles(s);
            let my_value = self.rack_value(game, s);
            let their_value = self.rack_value(game, 1 - s);
            let records = self.generate(game, s);
            match greedy_move(&records, mine, their_value, game.slot_value) {
                None => {
                    passes += 1;
                    if passes >= game.passes_to_end {
                        total += sign * (their_value - my_value);
                        break;
                    }
                }
                Some(best) => {
                    let rec = records[best];
                    total += sign * rec[SCORE] as i64;
                    if rec[TILES] as i64 == mine {
                        total += sign * 2 * their_value;
                        break;
                    }
                    self.play(game, s, &rec);
                    laid.push((s, rec));
                    passes = 0;
                }
            }
            (s, sign) = (1 - s, -sign);
        }
        for (s, rec) in laid.iter().rev() {
            self.take_back(game, *s, rec);
        }
        total
    }

    /// A node cut at the depth limit: by a greedy playout, or, without playouts, each side
    /// charged what its rack holds (the tiles it may be left with).
    fn horizon_value(&mut self, game: &Game, side: usize, passes: i64) -> i64 {
        if game.playout {
            return self.playout_value(game, side, passes);
        }
        self.rack_value(game, 1 - side) - self.rack_value(game, side)
    }

    /// Where a move may form a word through one of the tiles `placed`, as the last anchor to
    /// search on each row of each view (-1: none): on the tile's row (column), a move holding the
    /// tile holds its whole run of tiles, so its first anchor is at most the square past the
    /// run's end; on the row (column) of the first empty square past the tiles beside it the
    /// other way, a move's cross word reaches the tile only through a new tile on that square,
    /// which is an anchor.  (The generator finds each move from its first anchor.)
    fn changed_rows(&self, placed: &[usize]) -> (Vec<i64>, Vec<i64>) {
        let (rows, cols) = (self.rows() as i64, self.cols() as i64);
        let mut across = vec![-1i64; rows as usize];
        let mut down = vec![-1i64; cols as usize];
        for &square in placed {
            let (r, c) = ((square / cols as usize) as i64, (square % cols as usize) as i64);
            let mut end = c;
            while end + 1 < cols && self.letter(r, end + 1) != 0 {
                end += 1;
            }
            across[r as usize] = across[r as usize].max((end + 1).min(cols - 1));
            end = r;
            while end + 1 < rows && self.letter(end + 1, c) != 0 {
                end += 1;
            }
            down[c as usize] = down[c as usize].max((end + 1).min(rows - 1));
            for step in [-1i64, 1] {
                let mut rr = r + step;
                while 0 <= rr && rr < rows && self.letter(rr, c) != 0 {
                    rr += step;
                }
                if 0 <= rr && rr < rows {
                    across[rr as usize] = across[rr as usize].max(c);
                }
                let mut cc = c + step;
                while 0 <= cc && cc < cols && self.letter(r, cc) != 0 {
                    cc += step;
                }
                if 0 <= cc && cc < cols {
                    down[cc as usize] = down[cc as usize].max(r);
                }
            }
        }
        (across, down)
    }

    /// Mark in the bit set `out` every square where a tile laid later would change the words of
    /// `rec`: the main word's squares and one beyond each end, and the square beyond each end of
    /// every new tile's cross run.
    fn footprint(&self, rec: &Record, out: &mut [u64]) {
        let cols = self.cols() as i64;
        let n = rec[LENGTH] as i64;
        let (dr, dc) = direction(rec);
        for k in -1..=n {
            let (r, c) = cell_square(rec, k);
            if self.on_board(r, c) {
                set_bit(out, (r * cols + c) as usize);
            }
        }
        for k in 0..n {
            if rec[CELLS + k as usize] & BOARD_FLAG != 0 {
                continue;
            }
            let (r, c) = cell_square(rec, k);
            for step in [-1i64, 1] {
                // along the cross line, over its tiles, to the first empty square
                let (mut rr, mut cc) = (r + step * dc, c + step * dr);
                while self.on_board(rr, cc) && self.letter(rr, cc) != 0 {
                    (rr, cc) = (rr + step * dc, cc + step * dr);
                }
                if self.on_board(rr, cc) {
                    set_bit(out, (rr * cols + cc) as usize);
                }
            }
        }
    }

    /// Whether a word `rec` forms on the board holds a tile of the set `placed`.
    fn touches(&self, rec: &Record, placed: &[u64]) -> bool {
        let cols = self.cols() as i64;
        let (dr, dc) = direction(rec);
        for k in 0..rec[LENGTH] as i64 {
            let (r, c) = cell_square(rec, k);
            if has_bit(placed, (r * cols + c) as usize) {
                return true;
            }
            if rec[CELLS + k as usize] & BOARD_FLAG != 0 {
                continue;
            }
            for step in [-1i64, 1] {
                let (mut rr, mut cc) = (r + step * dc, c + step * dr);
                while self.on_board(rr, cc) && self.letter(rr, cc) != 0 {
                    if has_bit(placed, (rr * cols + cc) as usize) {
                        return true;
                    }
                    (rr, cc) = (rr + step * dc, cc + step * dr);
                }
            }
        }
        false
    }
}

#[inline(always)]
fn tile_key(game: &Game, square: usize, code: usize, blank: bool) -> u64 {
    game.keys.square[square * SQUARE_KEYS + code + if blank { 64 } else { 0 }]
}

#[inline(always)]
fn rack_key(game: &Game, side: usize, slot: usize, count: i64) -> u64 {
    game.keys.rack[(side * RACK_SLOTS + slot) * MAX_COUNT + count as usize]
}

/// The step from one square of `rec`'s main word to the next, as (rows, columns).
fn direction(rec: &Record) -> (i64, i64) {
    if rec[DIR] as usize == ACROSS {
        (0, 1)
    } else {
        (1, 0)
    }
}

/// The board row and column of cell `k` of `rec`'s main word.
fn cell_square(rec: &Record, k: i64) -> (i64, i64) {
    let (dr, dc) = direction(rec);
    (rec[ROW] as i64 + dr * k, rec[COL] as i64 + dc * k)
}

fn set_bit(bits: &mut [u64], square: usize) {
    bits[square >> 6] |= 1u64 << (square & 63);
}

fn has_bit(bits: &[u64], square: usize) -> bool {
    (bits[square >> 6] >> (square & 63)) & 1 != 0
}

/// What a move that does not go out is ordered by: its score plus the values of the tiles it
/// lays (they no longer count against the player at the end).
fn move_gain(rec: &Record, slot_value: &[i64; RACK_SLOTS]) -> i64 {
    let mut gain = rec[SCORE] as i64;
    for &cell in &rec[CELLS..CELLS + rec[LENGTH] as usize] {
        if cell & (BOARD_FLAG | BLANK_FLAG) == 0 {
            gain += slot_value[(cell & CODE_MASK) as usize];
        }
    }
    gain
}

/// The move a greedy player makes: the highest score plus what the move saves (going out: the
/// opponent's leftovers twice; else the value of the tiles it lays), the most tiles on a tie,
/// the first generated on a tie of both; None when there is none.
fn greedy_move(records: &[Record], mine: i64, their_value: i64, slot_value: &[i64; RACK_SLOTS]) -> Option<usize> {
    let (mut best, mut best_key) = (None, -INFINITY);
    for (i, rec) in records.iter().enumerate() {
        let gain =
            if rec[TILES] as i64 == mine { rec[SCORE] as i64 + 2 * their_value } else { move_gain(rec, slot_value) };
        let key = gain * 64 + rec[TILES] as i64;
        if key > best_key {
            (best, best_key) = (Some(i), key);
        }
    }
    best
}

/// The Zobrist key of the tiles `rec` lays (the same move anywhere in the tree): its low bits
/// are the move's history entry, its high bits the move's id in the transposition table.
fn move_hash(game: &Game, cols: usize, rec: &Record) -> i64 {
    let mut key = 0u64;
    for k in 0..rec[LENGTH] as i64 {
        let cell = rec[CELLS + k as usize];
        if cell & BOARD_FLAG == 0 {
            let (r, c) = cell_square(rec, k);
            key ^= tile_key(game, r as usize * cols + c as usize, (cell & CODE_MASK) as usize, cell & BLANK_FLAG != 0);
        }
    }
    (key >> 1) as i64
}

fn history_entry(move_hash: i64) -> usize {
    (move_hash as usize) & (HISTORY_SIZE - 1)
}

/// What the table keeps of a node's best move: the pass, or the placement's id (found again by
/// its tiles in whatever order another line lists the node's moves).
fn table_move(rec: &Record, move_hash: i64) -> i64 {
    if rec[LENGTH] == 0 {
        PASS_MOVE
    } else {
        (move_hash >> 24) & 0x7FFF_FFFF
    }
}

/// A move's place in the order, highest first: score plus what the move saves (going out: the
/// opponent's leftovers twice; else `gain`), then the tiles laid, then the history.
fn order_key(rec: &Record, gain: i64, history_count: i64, mine: i64, their_value: i64) -> i64 {
    let score = if rec[TILES] as i64 == mine { rec[SCORE] as i64 + 2 * their_value } else { gain };
    (score * 64 + rec[TILES] as i64) * HISTORY_WEIGHT + history_count.min(HISTORY_WEIGHT - 1)
}

/// Each player's rack as a set of bits: a slot holding k tiles owns k bits, so that "a rack
/// holds these tiles" is a subset test (counts of each slot filled from its lowest bit).
fn rack_fields(racks: &[Rack; PLAYERS]) -> [[i64; RACK_SLOTS]; PLAYERS] {
    let mut offsets = [[-1i64; RACK_SLOTS]; PLAYERS];
    for side in 0..PLAYERS {
        let mut offset = 0;
        for slot in 0..RACK_SLOTS {
            if racks[side][slot] > 0 {
                offsets[side][slot] = offset;
                offset += racks[side][slot];
            }
        }
    }
    offsets
}

fn rack_bits(rack: &Rack, offsets: &[i64; RACK_SLOTS]) -> i64 {
    let mut bits = 0i64;
    for slot in 0..RACK_SLOTS {
        if rack[slot] > 0 && offsets[slot] >= 0 {
            bits |= ((1i64 << rack[slot]) - 1) << offsets[slot];
        }
    }
    bits
}

/// The tiles `rec` lays, as the bits of `rack_fields`.
fn move_bits(rec: &Record, offsets: &[i64; RACK_SLOTS]) -> i64 {
    let mut counts = [0i64; RACK_SLOTS];
    for &cell in &rec[CELLS..CELLS + rec[LENGTH] as usize] {
        if cell & BOARD_FLAG == 0 {
            counts[if cell & BLANK_FLAG != 0 { BLANK_SLOT } else { (cell & CODE_MASK) as usize }] += 1;
        }
    }
    rack_bits(&counts, offsets)
}

/// Every move a search holds, with what it reads of each, made once (by the root's generation or
/// a node's) and never copied: the node lists hold their indexes.  Index 0 is the pass; then the
/// first moves of the search and the root position's placements of both sides; then, as a stack,
/// the moves the nodes on the current line generated (a finished node's are dropped).
struct MoveStore {
    records: Vec<Record>,
    /// `words` bits a move: its footprint
    prints: Vec<u64>,
    words: usize,
    tiles: Vec<i64>,
    gains: Vec<i64>,
    hashes: Vec<i64>,
}

/// The store's index of the pass.
const PASS_INDEX: u32 = 0;

impl MoveStore {
    fn new(words: usize, capacity: usize) -> MoveStore {
        let mut store = MoveStore {
            records: Vec::with_capacity(capacity),
            prints: Vec::with_capacity(capacity * words),
            words,
            tiles: Vec::with_capacity(capacity),
            gains: Vec::with_capacity(capacity),
            hashes: Vec::with_capacity(capacity),
        };
        // the pass: no tiles, no footprint, hash 0
        store.records.push([0; movegen::RECORD_WIDTH]);
        store.prints.resize(words, 0);
        store.tiles.push(0);
        store.gains.push(0);
        store.hashes.push(0);
        store
    }

    fn len(&self) -> usize {
        self.records.len()
    }

    fn print(&self, m: u32) -> &[u64] {
        let m = m as usize;
        &self.prints[m * self.words..(m + 1) * self.words]
    }

    /// Add `rec` with what the search reads of it on the board of `position`; returns its index.
    fn add(&mut self, game: &Game, position: &Position, rec: &Record, offsets: &[i64; RACK_SLOTS]) -> u32 {
        let at = self.records.len();
        self.records.push(*rec);
        self.prints.resize((at + 1) * self.words, 0);
        position.footprint(rec, &mut self.prints[at * self.words..]);
        self.tiles.push(move_bits(rec, offsets));
        self.gains.push(move_gain(rec, game.slot_value));
        self.hashes.push(move_hash(game, position.cols(), rec));
        at as u32
    }

    /// Drop the moves from index `len` on.
    fn truncate(&mut self, len: usize) {
        self.records.truncate(len);
        self.prints.truncate(len * self.words);
        self.tiles.truncate(len);
        self.gains.truncate(len);
        self.hashes.truncate(len);
    }

    fn table_move(&self, m: u32) -> i64 {
        table_move(&self.records[m as usize], self.hashes[m as usize])
    }
}

/// The nodes of the current line, one list after another: each entry a move of the store, its
/// order key at the node, and the order the node tries its moves in (indexes in its list).
#[derive(Default)]
struct NodeLists {
    moves: Vec<u32>,
    keys: Vec<i64>,
    order: Vec<usize>,
}

impl NodeLists {
    fn new(size: usize) -> NodeLists {
        let mut lists = NodeLists::default();
        lists.grow(size);
        lists
    }

    /// Room for `needed` moves (twice that when it must grow), contents kept.
    fn grow(&mut self, needed: usize) {
        if needed <= self.moves.len() {
            return;
        }
        let size = if self.moves.is_empty() { needed } else { 2 * needed };
        self.moves.resize(size, PASS_INDEX);
        self.keys.resize(size, 0);
        self.order.resize(size, 0);
    }

    /// Where the table's move `wanted` is among a node's moves `first` to `count - 1` (its list
    /// from `start`).
    fn find_move(&self, store: &MoveStore, start: usize, first: usize, count: usize, wanted: i64) -> Option<usize> {
        (first..count).find(|&i| store.table_move(self.moves[start + i]) == wanted)
    }

    /// The order keys of a node's moves `first` to `count - 1` (its list from `start`), each in
    /// its own place of the order to begin with (`pick_next` orders them).
    #[allow(clippy::too_many_arguments)]
    fn order_from(
        &mut self,
        store: &MoveStore,
        history: &[i64],
        start: usize,
        first: usize,
        count: usize,
        mine: i64,
        their_value: i64,
    ) {
        for i in first..count {
            let at = start + i;
            let m = self.moves[at] as usize;
            let seen = history[history_entry(store.hashes[m])];
            self.keys[at] = order_key(&store.records[m], store.gains[m], seen, mine, their_value);
            self.order[at] = i;
        }
    }

    /// Put the next move to try at `order[start + taken]`: the highest key left, ties by the list
    /// order.  After PICKED_ONE_BY_ONE picks, the rest are sorted at once.
    fn pick_next(&mut self, start: usize, n: usize, taken: usize) {
        let keys = &self.keys[start..start + n];
        let order = &mut self.order[start..start + n];
        if taken < PICKED_ONE_BY_ONE {
            let (mut best_i, mut best_j) = (taken, order[taken]);
            for (i, &j) in order.iter().enumerate().skip(taken + 1) {
                if keys[j] > keys[best_j] || (keys[j] == keys[best_j] && j < best_j) {
                    (best_i, best_j) = (i, j);
                }
            }
            order[best_i] = order[taken];
            order[taken] = best_j;
        } else if taken == PICKED_ONE_BY_ONE {
            order[taken..].sort_unstable_by_key(|&j| (std::cmp::Reverse(keys[j]), j));
        }
    }
}

/// The order to try `moves` in at a node (the last is the pass, tried last; the solver orders
/// its first moves with it too): by `order_key`, ties in list order.
pub fn order_moves(
    game: &Game,
    cols: usize,
    moves: &[Record],
    mine: i64,
    their_value: i64,
    history: &[i64],
) -> Vec<usize> {
    let n = moves.len();
    let mut keys: Vec<i64> = moves
        .iter()
        .map(|rec| {
            let seen = history[history_entry(move_hash(game, cols, rec))];
            order_key(rec, move_gain(rec, game.slot_value), seen, mine, their_value)
        })
        .collect();
    if n > 0 {
        keys[n - 1] = -INFINITY;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
    order
}

/// When a search stops: a clock time (seconds on the caller's clock: Python's perf_counter) and
/// a node count; kept as atomics so that another thread (a Ctrl-C handler, the thread a helper
/// works for) may lower them while the search runs.
pub struct Limits {
    deadline: AtomicU64,
    nodes: AtomicU64,
}

impl Limits {
    pub fn new(deadline: f64, nodes: f64) -> Limits {
        Limits { deadline: AtomicU64::new(deadline.to_bits()), nodes: AtomicU64::new(nodes.to_bits()) }
    }

    pub fn get(&self) -> (f64, f64) {
        (f64::from_bits(self.deadline.load(Relaxed)), f64::from_bits(self.nodes.load(Relaxed)))
    }

    pub fn set(&self, deadline: f64, nodes: f64) {
        self.deadline.store(deadline.to_bits(), Relaxed);
        self.nodes.store(nodes.to_bits(), Relaxed);
    }

    /// Stop at the next look at the clock.
    pub fn stop(&self) {
        self.deadline.store(f64::NEG_INFINITY.to_bits(), Relaxed);
    }

    /// Stop at the next node.
    pub fn stop_now(&self) {
        self.nodes.store((-1.0f64).to_bits(), Relaxed);
    }
}

/// The caller's clock: its time when the search began, and this process's since.
#[derive(Clone, Copy)]
pub struct Clock {
    pub origin: f64,
    pub since: Instant,
}

impl Clock {
    pub fn now(&self) -> f64 {
        self.origin + self.since.elapsed().as_secs_f64()
    }
}

/// A search's counters and what it keeps from one search to the next (its move history).
pub struct Counters {
    pub nodes: i64,
    pub horizon: i64,
    pub aborted: bool,
    checks: i64,
    history: Vec<i64>,
}

impl Default for Counters {
    fn default() -> Self {
        // the first node reads the clock: a search begun late stops at once
        Counters { nodes: 0, horizon: 0, aborted: false, checks: CLOCK_EVERY - 1, history: vec![0; HISTORY_SIZE] }
    }
}

impl Counters {
    pub fn history(&self) -> &[i64] {
        &self.history
    }
}

/// One thread's search: the game, the shared table, its own position, counters and limits.
pub struct Searcher<'a> {
    pub game: Game<'a>,
    pub table: &'a Table,
    pub position: &'a mut Position,
    pub counters: &'a mut Counters,
    pub limits: &'a Limits,
    pub clock: Clock,
    /// Asked every CLOCK_EVERY checks whether to stop (a Ctrl-C on Python's main thread).
    pub interrupted: Option<&'a mut dyn FnMut() -> bool>,
}

/// The search's frame of one ply.
#[derive(Clone, Copy, Default)]
struct Frame {
    side: usize,
    passes: i64,
    depth: i64,
    alpha: i64,
    beta: i64,
    alpha0: i64,
    best: i64,
    best_move: usize,
    key: u64,
    slot: usize,
    horizon: i64,
    start: usize,
    count: usize,
    next: usize,
    mine: i64,
    my_value: i64,
    their_value: i64,
    /// the move being searched (index in the node's list)
    move_index: usize,
    score: i64,
    /// its tiles are on the board
    played: bool,
    /// it was searched with a null window
    probe: bool,
    /// tiles laid since the root when the node was entered
    placed: usize,
    /// tiles laid since the root when its base list was made
    since: usize,
    /// its new moves are not generated yet
    pending: bool,
    /// the store's length when the node was entered (its own moves come after)
    store_len: usize,
}

/// The search loop's steps: enter a node, try its next move, take a child's value.
#[derive(PartialEq)]
enum Step {
    Enter,
    Next,
    Result,
}

/// A root search's first moves and what comes back: each move's value, and whether it is exact.
pub struct RootMoves<'m> {
    pub moves: &'m [Record],
    pub order: &'m [usize],
    pub values: &'m mut [i64],
    pub exact: &'m mut [bool],
}

impl<'a> Searcher<'a> {
    fn out_of_time(&mut self) -> bool {
        let counters = &mut *self.counters;
        if counters.aborted {
            return true;
        }
        counters.checks += 1;
        if counters.nodes as f64 > self.limits.get().1 {
            counters.aborted = true;
            return true;
        }
        // The clock is read even without a deadline: that is where a Ctrl-C is heard.
        if counters.checks % CLOCK_EVERY == 0 {
            let interrupted = self.interrupted.as_mut().is_some_and(|heard| heard());
            // read again: what was heard may have stopped the search by lowering the deadline
            if interrupted || self.clock.now() > self.limits.get().0 {
                counters.aborted = true;
                return true;
            }
        }
        false
    }

    fn node_key(&self, side: usize, passes: i64) -> u64 {
        self.position.key ^ self.game.keys.side[side] ^ self.game.keys.pass[passes as usize]
    }

    /// Every placement of `side` on the board of the search's root, added to the store: a later
    /// node keeps those its rack allows and no tile laid since has touched, and generates only
    /// the rest.  Returns where they are in the store (from, count).
    fn first_moves(&mut self, store: &mut MoveStore, side: usize, offsets: &[i64; RACK_SLOTS]) -> (usize, usize) {
        let from = store.len();
        for rec in self.position.generate(&self.game, side) {
            store.add(&self.game, self.position, &rec, offsets);
        }
        (from, store.len() - from)
    }

    /// Append to a node's list (`n` moves from `start`) the moves generated along the lines that
    /// the tiles `placed` changed and that reach one of them (added to the store), then the pass;
    /// returns the node's count of moves.
    #[allow(clippy::too_many_arguments)]
    fn add_new_moves(
        &mut self,
        side: usize,
        store: &mut MoveStore,
        lists: &mut NodeLists,
        start: usize,
        mut n: usize,
        placed: &[usize],
        recent: &mut [u64],
        offsets: &[i64; RACK_SLOTS],
    ) -> usize {
        recent_squares(recent, placed);
        let records = if placed.is_empty() {
            Vec::new()
        } else {
            let (across, down) = self.position.changed_rows(placed);
            self.position.generate_along(&self.game, side, &across, &down)
        };
        lists.grow(start + n + records.len() + 1);
        for rec in &records {
            if self.position.touches(rec, recent) {
                lists.moves[start + n] = store.add(&self.game, self.position, rec, offsets);
                n += 1;
            }
        }
        lists.moves[start + n] = PASS_INDEX;
        n + 1
    }

    /// Value the first moves in their order to `depth` plies, for `side` to move after `passes`
    /// passes in a row: the best `keep` get their value exactly (`exact` set), the others a bound
    /// at most the `keep`-th best.  Moves not reached before the limits keep their values.
    ///
    /// Below the first moves: negamax with alpha-beta (fail-soft), a null window for every move
    /// after a node's first (searched again in full when it beats alpha), and the table.
    ///
    /// A node's moves are those of a *base* list that still stand as they were (the last node of
    /// the same side on the line, or the root position's placements) and the ones that reach a
    /// tile laid since the base, generated along the lines those tiles changed.  Generating is
    /// most of a node's cost and nine nodes in ten are cut by their first move, so a node first
    /// tries the best of the moves that stand, and generates the others only if that move does
    /// not cut it (or at once when the table's move is not among them).  A node whose first move
    /// is still being searched holds only the moves that stand: a later node of the same side
    /// then takes it as its base with the node's own base's tiles (the same moves).
    pub fn search_root(&mut self, root: RootMoves, depth: i64, keep: usize, side: usize, passes: i64) {
        let n_root = root.moves.len();
        let (rows, cols) = (self.position.rows(), self.position.cols());
        let words = (rows * cols).div_ceil(64);
        let mut f = vec![Frame::default(); MAX_PLY + 1];
        let mut top = vec![-INFINITY; keep]; // the root's best values so far, highest first
        let offsets = rack_fields(&self.position.racks);
        let mut store = MoveStore::new(words, (4 * n_root).max(4096));
        let mut lists = NodeLists::new((4 * n_root).max(4096));
        for (i, rec) in root.moves.iter().enumerate() {
            let pass = rec[LENGTH] == 0;
            lists.moves[i] = if pass { PASS_INDEX } else { store.add(&self.game, self.position, rec, &offsets[side]) };
        }
        lists.order[..n_root].copy_from_slice(root.order);
        let first = [self.first_moves(&mut store, 0, &offsets[0]), self.first_moves(&mut store, 1, &offsets[1])];
        let mut placed_squares: Vec<usize> = Vec::with_capacity(rows * cols); // tiles laid since the root
        let mut recent = vec![0u64; words]; // the squares laid since a node's base (scratch)

        f[0].side = side;
        f[0].passes = passes;
        f[0].depth = depth;
        f[0].count = n_root;
        f[0].mine = self.position.rack_tiles(side);
        f[0].my_value = self.position.rack_value(&self.game, side);
        f[0].their_value = self.position.rack_value(&self.game, 1 - side);
        f[0].beta = INFINITY;
        let mut p = 0usize;
        let mut child_value = 0i64;
        let mut step = Step::Next;
        loop {
            match step {
                Step::Enter => {
                    // the node at ply p: its side, passes, depth and window are set
                    self.counters.nodes += 1;
                    if self.out_of_time() {
                        break;
                    }
                    let s = f[p].side;
                    if f[p].depth <= 0 {
                        self.counters.horizon += 1;
                        child_value = self.position.horizon_value(&self.game, s, f[p].passes);
                        p -= 1;
                        step = Step::Result;
                        continue;
                    }
                    let key = self.node_key(s, f[p].passes);
                    let slot = self.table.slot(key);
                    let mut wanted = NO_MOVE;
                    let entry = self.table.entry(slot);
                    let (stored_key, value, data) =
                        (entry[0].load(Relaxed), entry[1].load(Relaxed) as i64, entry[2].load(Relaxed));
                    if stored_key ^ entry_check(value, data) == key {
                        let flag = data & 0xFF;
                        let stored = ((data >> 8) & 0xFFFF) as i64;
                        wanted = (data as i64) >> 24;
                        if stored >= f[p].depth
                            && (flag == EXACT
                                || (flag == LOWER && value >= f[p].beta)
                                || (flag == UPPER && value <= f[p].alpha))
                        {
                            if stored != SOLVED {
                                self.counters.horizon += 1;
                            }
                            child_value = value;
                            p -= 1;
                            step = Step::Result;
                            continue;
                        }
                    }
                    f[p].key = key;
                    f[p].slot = slot;
                    f[p].horizon = self.counters.horizon;
                    f[p].mine = self.position.rack_tiles(s);
                    f[p].my_value = self.position.rack_value(&self.game, s);
                    f[p].their_value = self.position.rack_value(&self.game, 1 - s);
                    // The moves that stand, from the base list.
                    let start = f[p - 1].start + f[p - 1].count;
                    f[p].placed = placed_squares.len();
                    let (base_from, mut base_count) = if p >= 3 { (f[p - 2].start, f[p - 2].count) } else { first[s] };
                    if p >= 3 {
                        if f[p - 2].pending {
                            // it holds its base's moves that stand, no pass yet
                            f[p].since = f[p - 2].since;
                        } else {
                            base_count -= 1; // not its pass
                            f[p].since = f[p - 2].placed;
                        }
                    } else {
                        f[p].since = 0;
                    }
                    f[p].store_len = store.len();
                    lists.grow(start + base_count + 1);
                    recent_squares(&mut recent, &placed_squares[f[p].since..]);
                    let rack = rack_bits(&self.position.racks[s], &offsets[s]);
                    let mut n = 0;
                    for i in base_from..base_from + base_count {
                        // the base: a list of the line (p >= 3), or the root's placements in the store
                        let m = if p >= 3 { lists.moves[i] } else { i as u32 };
                        let (tiles, print) = (store.tiles[m as usize], store.print(m));
                        if tiles & !rack != 0 || print.iter().zip(&recent).any(|(a, b)| a & b != 0) {
                            continue;
                        }
                        lists.moves[start + n] = m;
                        n += 1;
                    }
                    let mut remembered = None;
                    if wanted >= 0 {
                        remembered = lists.find_move(&store, start, 0, n, wanted);
                    }
                    f[p].start = start;
                    f[p].pending = n > 0 && (wanted == NO_MOVE || remembered.is_some()) && f[p].depth <= LAZY_DEPTH;
                    if f[p].pending {
                        f[p].count = n;
                    } else {
                        let since = f[p].since;
                        f[p].count = self.add_new_moves(
                            s,
                            &mut store,
                            &mut lists,
                            start,
                            n,
                            &placed_squares[since..],
                            &mut recent,
                            &offsets[s],
                        );
                        if wanted == PASS_MOVE {
                            remembered = Some(f[p].count - 1);
                        } else if wanted >= 0 && remembered.is_none() {
                            remembered = lists.find_move(&store, start, n, f[p].count, wanted);
                        }
                    }
                    lists.order_from(&store, &self.counters.history, start, 0, f[p].count, f[p].mine, f[p].their_value);
                    if !f[p].pending {
                        lists.keys[start + f[p].count - 1] = -INFINITY; // the pass, last
                    }
                    if let Some(i) = remembered {
                        lists.keys[start + i] = INFINITY << 10;
                    }
                    f[p].next = 0;
                    f[p].best = -INFINITY;
                    f[p].best_move = 0;
                    f[p].alpha0 = f[p].alpha;
                    step = Step::Next;
                }
                Step::Next => {
                    // try the next move of the node at ply p, or finish it
                    if f[p].pending && f[p].next > 0 {
                        // its first move did not cut it: the moves reaching new tiles too
                        let (n, start, since, until) = (f[p].count, f[p].start, f[p].since, f[p].placed);
                        f[p].count = self.add_new_moves(
                            f[p].side,
                            &mut store,
                            &mut lists,
                            start,
                            n,
                            &placed_squares[since..until],
                            &mut recent,
                            &offsets[f[p].side],
                        );
                        lists.order_from(
                            &store,
                            &self.counters.history,
                            start,
                            n,
                            f[p].count,
                            f[p].mine,
                            f[p].their_value,
                        );
                        lists.keys[start + f[p].count - 1] = -INFINITY;
                        f[p].pending = false;
                    }
                    if f[p].next == f[p].count {
                        if p == 0 {
                            break;
                        }
                        let fr = f[p];
                        let flag = if fr.best <= fr.alpha0 {
                            UPPER
                        } else if fr.best >= fr.beta {
                            LOWER
                        } else {
                            EXACT
                        };
                        let stored = if self.counters.horizon == fr.horizon { SOLVED } else { fr.depth };
                        let best_move = store.table_move(lists.moves[fr.start + fr.best_move]);
                        store.truncate(fr.store_len); // the moves this node generated
                        let data = entry_data(flag, stored, best_move);
                        let entry = self.table.entry(fr.slot);
                        entry[0].store(fr.key ^ entry_check(fr.best, data), Relaxed);
                        entry[1].store(fr.best as u64, Relaxed);
                        entry[2].store(data, Relaxed);
                        child_value = fr.best;
                        p -= 1;
                        step = Step::Result;
                        continue;
                    }
                    if p > 0 {
                        lists.pick_next(f[p].start, f[p].count, f[p].next);
                    }
                    let j = lists.order[f[p].start + f[p].next];
                    f[p].next += 1;
                    f[p].move_index = j;
                    if p == 0 {
                        f[0].alpha = top[keep - 1] - 1; // values tying the keep-th best are found exactly too
                    }
                    // A null window for every move after the first: only whether it beats alpha.
                    f[p].probe = f[p].next > 1 && f[p].alpha > -INFINITY && f[p].beta > f[p].alpha + 1;
                    let beta = if f[p].probe { f[p].alpha + 1 } else { f[p].beta };
                    let rec = store.records[lists.moves[f[p].start + j] as usize];
                    f[p].played = false;
                    let q = p + 1;
                    if rec[LENGTH] == 0 {
                        f[p].score = 0;
                        if f[p].passes + 1 >= self.game.passes_to_end {
                            // the game ends by passes
                            child_value = f[p].my_value - f[p].their_value;
                            f[p].probe = false;
                            step = Step::Result;
                            continue;
                        }
                        f[q].passes = f[p].passes + 1;
                        f[q].alpha = -beta;
                        f[q].beta = -f[p].alpha;
                    } else {
                        let score = rec[SCORE] as i64;
                        f[p].score = score;
                        if rec[TILES] as i64 == f[p].mine {
                            // out: the game ends here
                            child_value = -2 * f[p].their_value;
                            f[p].probe = false;
                            step = Step::Result;
                            continue;
                        }
                        self.position.play(&self.game, f[p].side, &rec);
                        track(&rec, cols, &mut placed_squares, true);
                        f[p].played = true;
                        f[q].passes = 0;
                        f[q].alpha = score - beta;
                        f[q].beta = score - f[p].alpha;
                    }
                    f[q].side = 1 - f[p].side;
                    f[q].depth = f[p].depth - 1;
                    p = q;
                    step = Step::Enter;
                }
                Step::Result => {
                    // the value of the move at ply p came back (for its opponent)
                    let value = f[p].score - child_value;
                    if f[p].probe && value > f[p].alpha && (p == 0 || value < f[p].beta) {
                        f[p].probe = false; // it beats alpha: search it again with the whole window
                        let q = p + 1;
                        if f[p].played {
                            f[q].passes = 0;
                            f[q].alpha = f[p].score - f[p].beta;
                        } else {
                            f[q].passes = f[p].passes + 1;
                            f[q].alpha = -f[p].beta;
                        }
                        f[q].beta = f[p].score - f[p].alpha;
                        f[q].side = 1 - f[p].side;
                        f[q].depth = f[p].depth - 1;
                        p = q;
                        step = Step::Enter;
                        continue;
                    }
                    if f[p].played {
                        let rec = store.records[lists.moves[f[p].start + f[p].move_index] as usize];
                        self.position.take_back(&self.game, f[p].side, &rec);
                        track(&rec, cols, &mut placed_squares, false);
                        f[p].played = false;
                    }
                    step = Step::Next;
                    if p == 0 {
                        let j = f[0].move_index;
                        root.values[j] = value;
                        root.exact[j] = value > f[0].alpha;
                        if value > top[keep - 1] {
                            let mut k = keep - 1;
                            while k > 0 && top[k - 1] < value {
                                top[k] = top[k - 1];
                                k -= 1;
                            }
                            top[k] = value;
                        }
                        continue;
                    }
                    if value > f[p].best {
                        f[p].best = value;
                        f[p].best_move = f[p].move_index;
                        if value > f[p].alpha {
                            f[p].alpha = value;
                            if value >= f[p].beta {
                                f[p].pending = false; // cut: no other move can change the parent's choice
                                f[p].next = f[p].count;
                                let at = f[p].start + f[p].move_index;
                                let m = lists.moves[at] as usize;
                                if store.records[m][LENGTH] > 0 {
                                    self.counters.history[history_entry(store.hashes[m])] += f[p].depth * f[p].depth;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Out of time: take back every move still on the board.
        for frame in f[..=p].iter_mut().rev() {
            if frame.played {
                let rec = store.records[lists.moves[frame.start + frame.move_index] as usize];
                self.position.take_back(&self.game, frame.side, &rec);
                frame.played = false;
            }
        }
    }
}

/// The bit set of the squares `placed`.
fn recent_squares(recent: &mut [u64], placed: &[usize]) {
    recent.fill(0);
    for &square in placed {
        set_bit(recent, square);
    }
}

/// Add the squares `rec` lays to the tiles laid since the root, or take them off (the squares
/// are a stack: moves are taken back in reverse order).
fn track(rec: &Record, cols: usize, placed: &mut Vec<usize>, laying: bool) {
    for k in 0..rec[LENGTH] as i64 {
        if rec[CELLS + k as usize] & BOARD_FLAG != 0 {
            continue;
        }
        if laying {
            let (r, c) = cell_square(rec, k);
            placed.push(r as usize * cols + c as usize);
        } else {
            placed.pop();
        }
    }
}

/// One iteration of the search on this thread with `helpers` threads beside it (Lazy SMP, as
/// Macondo and MAGPIE search endgames on several threads): each helper searches the same first
/// moves one ply deeper and deeper (to `limit`), on its own copy of the position, into the shared
/// table, until this thread's iteration ends; this thread's search then finds their nodes solved
/// in the table.  The answer is this thread's alone, and an exact one is the game's own value
/// whatever the helpers did (their entries are true values or bounds; an entry not solved to the
/// end counts as a depth limit met), so the values, the best moves and the line are the same on
/// any number of threads: only the nodes, the time and the depth at which the answer became exact
/// vary.  Returns the nodes the helpers searched.
#[allow(clippy::too_many_arguments)]
pub fn search_with_helpers(
    main: Searcher,
    root: RootMoves,
    depth: i64,
    keep: usize,
    side: usize,
    passes: i64,
    helpers: usize,
    limit: i64,
) -> i64 {
    let mut main = main;
    if helpers == 0 {
        main.search_root(root, depth, keep, side, passes);
        return 0;
    }
    let (deadline, nodes) = main.limits.get();
    let helper_limits: Vec<Limits> = (0..helpers).map(|_| Limits::new(deadline, nodes)).collect();
    let (game, table, clock) = (main.game, main.table, main.clock);
    let (moves, order) = (root.moves, root.order);
    std::thread::scope(|scope| {
        let running: Vec<_> = helper_limits
            .iter()
            .enumerate()
            .map(|(k, limits)| {
                let mut position = main.position.clone();
                scope.spawn(move || {
                    let mut counters = Counters { checks: 0, ..Default::default() };
                    let mut values = vec![-INFINITY; moves.len()];
                    let mut exact = vec![false; moves.len()];
                    for deeper in depth + 1 + k as i64..=limit {
                        counters.horizon = 0;
                        values.fill(-INFINITY);
                        exact.fill(false);
                        let mut helper = Searcher {
                            game,
                            table,
                            position: &mut position,
                            counters: &mut counters,
                            limits,
                            clock,
                            interrupted: None,
                        };
                        let root = RootMoves { moves, order, values: &mut values, exact: &mut exact };
                        helper.search_root(root, deeper, keep, side, passes);
                        if counters.aborted || counters.horizon == 0 {
                            break;
                        }
                    }
                    counters.nodes
                })
            })
            .collect();
        main.search_root(root, depth, keep, side, passes);
        for limits in &helper_limits {
            limits.stop_now();
        }
        running.into_iter().map(|helper| helper.join().unwrap_or_else(|fault| std::panic::resume_unwind(fault))).sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dawg::GraphBuilder;
    use crate::kwg::{graph_words, GraphWords};
    use crate::rules::CODE_SPACE;

    /// A 5x5 board of plain squares; letters 1..=5 worth their code.
    fn rules() -> Rules {
        let mut rules = Rules::plain(5, 5);
        for letter in 1..=5usize {
            rules.tile_value[letter] = letter as i64;
            for square in 0..25 {
                rules.new_value[square * CODE_SPACE + letter] = letter as i64;
            }
        }
        rules.classify()
    }

    /// A few words of letters 1..=5, their DAWG and GADDAG in one graph: (words, gaddag, dawg).
    fn graph() -> (GraphWords, usize, usize) {
        let mut words: Vec<Vec<u8>> =
            vec![vec![1, 2], vec![2, 1], vec![1, 3], vec![3, 1, 4], vec![4, 5], vec![1, 2, 5]];
        words.sort();
        let buffer: Vec<u8> = words.iter().flat_map(|w| w.iter().copied().chain([255])).collect();
        let mut builder = GraphBuilder::new();
        let dawg = builder.add_words(&buffer).unwrap() as usize;
        let gaddag = builder.add_gaddag(&buffer).unwrap() as usize;
        (graph_words(&builder.result()), gaddag, dawg)
    }

    /// What a test's `Game` borrows: the graph, the rules of `rules()`, keys, slot values 1..=5.
    struct Fixture {
        words: GraphWords,
        gaddag_root: usize,
        dawg_root: usize,
        rules: Rules,
        keys: Keys,
        slot_value: [i64; RACK_SLOTS],
    }

    impl Fixture {
        fn new() -> Fixture {
            let (words, gaddag_root, dawg_root) = graph();
            let mut slot_value = [0i64; RACK_SLOTS];
            slot_value[1..=5].copy_from_slice(&[1, 2, 3, 4, 5]);
            Fixture { words, gaddag_root, dawg_root, rules: rules(), keys: keys(25, 4), slot_value }
        }

        fn game(&self, playout: bool) -> Game<'_> {
            Game {
                kwg: Kwg { words: &self.words },
                gaddag_root: self.gaddag_root,
                dawg_root: self.dawg_root,
                rules: &self.rules,
                keys: &self.keys,
                slot_value: &self.slot_value,
                passes_to_end: 4,
                playout,
            }
        }
    }

    fn keys(squares: usize, passes_to_end: usize) -> Keys {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed | 1
        };
        Keys {
            square: (0..squares * SQUARE_KEYS).map(|_| next()).collect(),
            rack: (0..PLAYERS * RACK_SLOTS * MAX_COUNT).map(|_| next()).collect(),
            side: [next(), next()],
            pass: (0..passes_to_end).map(|_| next()).collect(),
        }
    }

    fn rack(tiles: &[usize]) -> Rack {
        let mut rack = [0; RACK_SLOTS];
        tiles.iter().for_each(|&t| rack[t] += 1);
        rack
    }

    /// The game's value for `side` to move by plain negamax over every move and the pass, with no
    /// table, no ordering and no pruning.
    fn negamax(game: &Game, position: &mut Position, side: usize, passes: i64) -> i64 {
        let mut best = -INFINITY;
        let mine = position.rack_tiles(side);
        for rec in position.generate(game, side) {
            let value = if rec[TILES] as i64 == mine {
                rec[SCORE] as i64 + 2 * position.rack_value(game, 1 - side)
            } else {
                position.play(game, side, &rec);
                let value = rec[SCORE] as i64 - negamax(game, position, 1 - side, 0);
                position.take_back(game, side, &rec);
                value
            };
            best = best.max(value);
        }
        let pass = if passes + 1 >= game.passes_to_end {
            position.rack_value(game, 1 - side) - position.rack_value(game, side)
        } else {
            -negamax(game, position, 1 - side, passes + 1)
        };
        best.max(pass)
    }

    #[test]
    fn the_search_values_every_first_move_as_plain_negamax_does_and_restores_the_position() {
        let fixture = Fixture::new();
        let game = fixture.game(false);
        let mut letters = vec![0u8; 25];
        letters[12] = 1; // a tile in the middle
        letters[13] = 2;
        let table = Table::new(10).unwrap();
        for racks in [[rack(&[3, 4]), rack(&[5, 1])], [rack(&[2, 1, 5]), rack(&[3, 4])], [rack(&[0, 4]), rack(&[1])]] {
            let mut position = Position::new(&game, &letters, &[false; 25], racks);
            let before = (position.key, position.views[0].letters.clone(), position.racks);
            let mut moves = position.generate(&game, 0);
            assert!(moves.len() >= 2, "{racks:?}: some moves to value");
            moves.push([0; movegen::RECORD_WIDTH]);
            let expected: Vec<i64> = moves
                .iter()
                .map(|rec| {
                    if rec[LENGTH] == 0 {
                        return -negamax(&game, &mut position, 1, 1);
                    }
                    if rec[TILES] as i64 == position.rack_tiles(0) {
                        return rec[SCORE] as i64 + 2 * position.rack_value(&game, 1);
                    }
                    position.play(&game, 0, rec);
                    let value = rec[SCORE] as i64 - negamax(&game, &mut position, 1, 0);
                    position.take_back(&game, 0, rec);
                    value
                })
                .collect();
            let (mut values, mut exact) = (vec![-INFINITY; moves.len()], vec![false; moves.len()]);
            let order: Vec<usize> = (0..moves.len()).collect();
            let mut counters = Counters::default();
            let limits = Limits::new(f64::INFINITY, f64::INFINITY);
            let mut searcher = Searcher {
                game,
                table: &table,
                position: &mut position,
                counters: &mut counters,
                limits: &limits,
                clock: Clock { origin: 0.0, since: Instant::now() },
                interrupted: None,
            };
            let root = RootMoves { moves: &moves, order: &order, values: &mut values, exact: &mut exact };
            searcher.search_root(root, 40, moves.len(), 0, 0);
            assert_eq!(counters.horizon, 0, "a search to depth 40 meets no depth limit");
            assert_eq!(values, expected);
            assert!(exact.iter().all(|&e| e));
            assert_eq!((position.key, position.views[0].letters.clone(), position.racks), before);
            assert_eq!(position.key, position.full_key(&game));
        }
    }

    #[test]
    fn a_lowered_limit_stops_the_search_and_the_board_is_restored() {
        let fixture = Fixture::new();
        let game = fixture.game(true);
        let mut letters = vec![0u8; 25];
        letters[12] = 1;
        let mut position = Position::new(&game, &letters, &[false; 25], [rack(&[2, 3, 4, 1]), rack(&[5, 1, 2])]);
        let before = position.views[1].letters.clone();
        let mut moves = position.generate(&game, 0);
        moves.push([0; movegen::RECORD_WIDTH]);
        let (mut values, mut exact) = (vec![-INFINITY; moves.len()], vec![false; moves.len()]);
        let order: Vec<usize> = (0..moves.len()).collect();
        let mut counters = Counters::default();
        let limits = Limits::new(f64::INFINITY, 5.0);
        let mut searcher = Searcher {
            game,
            table: &Table::new(8).unwrap(),
            position: &mut position,
            counters: &mut counters,
            limits: &limits,
            clock: Clock { origin: 0.0, since: Instant::now() },
            interrupted: None,
        };
        searcher.search_root(
            RootMoves { moves: &moves, order: &order, values: &mut values, exact: &mut exact },
            6,
            1,
            0,
            0,
        );
        assert!(counters.aborted && counters.nodes == 6);
        assert_eq!(position.views[1].letters, before);
    }

    #[test]
    fn a_cleared_table_holds_nothing() {
        let table = Table::new(12).unwrap();
        table.entry(5)[0].store(7, Relaxed);
        table.entry(4095)[2].store(9, Relaxed);
        table.clear();
        assert!(table.entries().iter().flatten().all(|word| word.load(Relaxed) == 0));
        table.entry(5)[1].store(3, Relaxed);
        assert_eq!(table.entry(5)[1].load(Relaxed), 3);
    }
}
