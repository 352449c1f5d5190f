//! The GADDAG walk (Gordon 1994): every legal move of a rack on a board, or the best one by
//! equity.  A port of the numba kernels of `literaki_cli/engine/movegen.py`, move for move and in
//! the same order, so that every answer (tie order included) stays what it was.
//!
//! From each anchor the walk reads the GADDAG leftwards, placing rack tiles or passing over board
//! tiles, then crosses the separator and reads rightwards.  A play is generated only from its
//! leftmost anchor, and a single tile that forms words both ways only in the across view, so
//! every move appears once.  Scores are summed as the move is built.

use crate::board::{CrossChecks, View, ALL_LETTERS};
use crate::kwg::{Kwg, SEPARATOR};
use crate::rules::{Rules, END, START};

/// Columns of a move record: score, row, col, direction, length, tiles, then one cell per square
/// of the main word: letter code | BLANK_FLAG | BOARD_FLAG.
pub const SCORE: usize = 0;
pub const ROW: usize = 1;
pub const COL: usize = 2;
pub const DIR: usize = 3;
pub const LENGTH: usize = 4;
pub const TILES: usize = 5;
pub const CELLS: usize = 6;
pub const MAX_WORD: usize = 32;
pub const RECORD_WIDTH: usize = CELLS + MAX_WORD;
pub const BLANK_FLAG: i32 = 64;
pub const BOARD_FLAG: i32 = 128;
pub const CODE_MASK: i32 = 63;
/// The rack-count slot of blanks (letter codes start at 1).
pub const BLANK_SLOT: usize = 0;
pub const RACK_SLOTS: usize = 64;

pub type Record = [i32; RECORD_WIDTH];
pub type Rack = [i64; RACK_SLOTS];

#[inline(always)]
pub fn bit(letter: u32) -> u32 {
    1u32.checked_shl(letter.wrapping_sub(1)).unwrap_or(0)
}

/// The letters a rack tile can stand for, as a cross-check mask (a blank: every letter).
pub fn rack_letters(rack: &Rack) -> u32 {
    if rack[BLANK_SLOT] > 0 {
        return ALL_LETTERS;
    }
    letters_on(rack)
}

/// The letters the rack holds as tiles (blanks aside), as a cross-check mask.
pub fn letters_on(rack: &Rack) -> u32 {
    (1..=32u32).filter(|&l| rack[l as usize] > 0).fold(0, |m, l| m | bit(l))
}

/// Leave values for a best-only search: a move's equity is its score plus the value of its leave,
/// numbered among the rack's sub-multisets (the whole rack's number minus `place` of every tile
/// laid; see `literaki_cli.equity.leaves.rack_places`).
pub struct Leaves<'a> {
    pub place: [i64; RACK_SLOTS],
    pub values: &'a [f64],
}

/// An anchor's rank for ties among moves of equal equity (see `shadow::ranks`): anchors in
/// descending order of `bound`, equal bounds by `index`; the anchor that comes first wins a tie.
/// Compared as the pair, so no sort is needed to know which of two anchors comes first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rank {
    pub bound: f64,
    pub index: u32,
}

impl Rank {
    pub const FIRST: Rank = Rank { bound: f64::INFINITY, index: 0 };

    /// Whether this anchor comes before `other` (bounds are never NaN: leave values are finite).
    #[inline(always)]
    pub fn precedes(self, other: Rank) -> bool {
        self.bound > other.bound || (self.bound == other.bound && self.index < other.index)
    }
}

/// Where moves go: every move in order, or only the best by equity (first found among equals,
/// by anchor rank; see `best_move`).
pub struct Sink<'a> {
    pub records: Vec<Record>,
    pub count: usize,
    pub leaves: Option<Leaves<'a>>,
    pub best_equity: f64,
    pub best_rank: Rank,
    pub anchor_rank: Rank,
    #[cfg(feature = "counters")]
    pub states: u64,
    #[cfg(feature = "counters")]
    pub arcs: u64,
}

impl<'a> Sink<'a> {
    pub fn every() -> Sink<'static> {
        Sink::new(None)
    }

    pub fn best(leaves: Leaves<'a>) -> Sink<'a> {
        Sink::new(Some(leaves))
    }

    /// GADDAG states entered so far (0 without the `counters` feature).
    pub fn states(&self) -> u64 {
        #[cfg(feature = "counters")]
        return self.states;
        #[cfg(not(feature = "counters"))]
        0
    }

    /// Arcs examined so far (0 without the `counters` feature).
    pub fn arcs(&self) -> u64 {
        #[cfg(feature = "counters")]
        return self.arcs;
        #[cfg(not(feature = "counters"))]
        0
    }

    fn new(leaves: Option<Leaves<'a>>) -> Sink<'a> {
        Sink {
            records: Vec::new(),
            count: 0,
            leaves,
            best_equity: f64::NEG_INFINITY,
            best_rank: Rank::FIRST,
            anchor_rank: Rank::FIRST,
            #[cfg(feature = "counters")]
            states: 0,
            #[cfg(feature = "counters")]
            arcs: 0,
        }
    }
}

/// The most squares a board line may have (`Rules::check`): a lane holds one line.
pub const LANE: usize = 32;

/// The line of the anchor being searched, as the walk reads it square by square (MAGPIE's lane
/// cache): the view's letters, blanks, cross-checks and squares copied once per anchor into small
/// arrays indexed by column, instead of computed row-major offsets into the board's tables.
struct Lane {
    letter: [u8; LANE],
    blank: [bool; LANE],
    mask: [u32; LANE],
    cross_base: [i64; LANE],
    cross_mult: [i64; LANE],
    square: [usize; LANE],
}

impl Lane {
    const EMPTY: Lane = Lane {
        letter: [0; LANE],
        blank: [false; LANE],
        mask: [0; LANE],
        cross_base: [-1; LANE],
        cross_mult: [1; LANE],
        square: [0; LANE],
    };

    /// Row `r` of `view` with its cross-checks.
    fn load(&mut self, view: &View, cross: &CrossChecks, r: usize) {
        let (cols, row) = (view.cols, r * view.cols);
        self.letter[..cols].copy_from_slice(&view.letters[row..row + cols]);
        self.blank[..cols].copy_from_slice(&view.blanks[row..row + cols]);
        self.mask[..cols].copy_from_slice(&cross.mask[row..row + cols]);
        self.cross_base[..cols].copy_from_slice(&cross.base[row..row + cols]);
        self.cross_mult[..cols].copy_from_slice(&cross.mult[row..row + cols]);
        self.square[..cols].copy_from_slice(&view.sqmap[row..row + cols]);
    }
}

/// A column as a lane index (columns are below LANE: the mask only lets the compiler know it).
#[inline(always)]
pub fn at(col: usize) -> usize {
    col & (LANE - 1)
}

/// One anchor's walk: the board view, its cross-checks and the rack, with the walk's state.
pub struct Walk<'w, 's, 'a> {
    pub kwg: Kwg<'w>,
    pub gaddag_root: usize,
    pub rules: &'w Rules,
    pub view: &'w View,
    pub cross: &'w CrossChecks,
    pub sink: &'s mut Sink<'a>,
    pub rack: &'s mut Rack,
    pub cells: [i32; 2 * MAX_WORD + 64],
    r: usize,
    anchor: usize,
    last_anchor: i64,
    blank_bound: f64,
    cut_blanks: bool,
    leave: i64,
    on_rack: u32,
    /// Per anchor: whether the square right of it is free (a word may end at the anchor), and
    /// whether a single tile there forms words both ways in the down view (left to the across).
    anchor_right_free: bool,
    single_is_across: bool,
    /// The leave numbers' place values (zeros when every move is wanted: no leave is read).
    place: [i64; RACK_SLOTS],
    /// The anchor's line, and which row of the view it holds (None: none yet).
    lane: Lane,
    lane_row: Option<usize>,
}

impl<'w, 's, 'a> Walk<'w, 's, 'a> {
    pub fn new(
        kwg: Kwg<'w>,
        gaddag_root: usize,
        rules: &'w Rules,
        view: &'w View,
        cross: &'w CrossChecks,
        sink: &'s mut Sink<'a>,
        rack: &'s mut Rack,
    ) -> Self {
        // the leave numbers' place values: the sink's leaves stay the same for the whole walk
        let place = sink.leaves.as_ref().map_or([0; RACK_SLOTS], |l| l.place);
        Walk {
            kwg,
            gaddag_root,
            rules,
            view,
            cross,
            sink,
            rack,
            cells: [0; 2 * MAX_WORD + 64],
            r: 0,
            anchor: 0,
            last_anchor: -1,
            blank_bound: f64::INFINITY,
            cut_blanks: false,
            leave: 0,
            on_rack: 0,
            anchor_right_free: false,
            single_is_across: false,
            place,
            lane: Lane::EMPTY,
            lane_row: None,
        }
    }

    /// Search the anchors of another view of the same board (with its cross-checks) from now on.
    pub fn on_view(&mut self, view: &'w View, cross: &'w CrossChecks) {
        if !std::ptr::eq(self.view, view) {
            (self.view, self.cross, self.lane_row) = (view, cross, None);
        }
    }

    /// Every play through the anchor (r, anchor) whose left part stays right of `last_anchor`
    /// (the anchor before it in the row).  `blank_bound` bounds the equity of every move from
    /// here that lays a blank (+inf: no bound): in best-only mode, once the best found beats it
    /// (or ties it from an anchor of a lower rank), the walk stops trying blanks.
    pub fn search_anchor(&mut self, r: usize, anchor: usize, last_anchor: i64, blank_bound: f64) {
        self.r = r;
        self.anchor = anchor;
        self.last_anchor = last_anchor;
        self.blank_bound = blank_bound;
        self.cut_blanks = self.sink.leaves.is_some() && blank_bound < f64::INFINITY;
        self.leave = self.sink.leaves.as_ref().map_or(-1, |l| l.values.len() as i64 - 1);
        self.on_rack = letters_on(self.rack);
        let view = self.view;
        if self.lane_row != Some(r) {
            self.lane.load(view, self.cross, r);
            self.lane_row = Some(r);
        }
        self.anchor_right_free = anchor == view.cols - 1 || view.at(r, anchor + 1) == 0;
        self.single_is_across = view.transposed && self.cross.base[r * view.cols + anchor] >= 0;
        self.walk(anchor, self.gaddag_root, anchor, Partial { tiles: 0, sum: 0, mult: 1, cross: 0 });
    }

    #[inline]
    fn blank_refused(&self) -> bool {
        let s = &*self.sink;
        self.cut_blanks
            && s.count > 0
            && (self.blank_bound < s.best_equity
                || (self.blank_bound == s.best_equity && s.best_rank.precedes(s.anchor_rank)))
    }

    /// The square `col` read with the GADDAG list `list`; `left`: the leftmost column of the
    /// word so far (read on the right side of the anchor).
    fn walk(&mut self, col: usize, list: usize, left: usize, so_far: Partial) {
        #[cfg(feature = "counters")]
        {
            self.sink.states += 1;
        }
        let on_board = self.lane.letter[at(col)] as u32;
        if on_board != 0 {
            if list > 0 {
                if let Some(cand) = self.kwg.find(list, on_board) {
                    self.step::<BOARD>(col, cand, left, so_far);
                }
            }
            return;
        }
        let mask = self.lane.mask[at(col)];
        let allowed = if self.rack[BLANK_SLOT] > 0 { mask } else { mask & self.on_rack };
        // The letters both the square and the list allow, in letter order (the order of the
        // list's arcs), each arc found at once from the list's letter mask.
        let letters = self.kwg.letters(list);
        let mut todo = allowed & letters;
        if todo == 0 {
            return;
        }
        let base = self.kwg.letters_base(list);
        while todo != 0 {
            let letter = todo.trailing_zeros() + 1;
            todo &= todo - 1;
            let Some(p) = self.kwg.find_from(list, letters, base, letter) else {
                continue;
            };
            #[cfg(feature = "counters")]
            {
                self.sink.arcs += 1;
            }
            if self.rack[letter as usize] > 0 {
                self.step::<TILE>(col, p, left, so_far);
            }
            if self.rack[BLANK_SLOT] > 0 && !self.blank_refused() {
                self.step::<BLANK>(col, p, left, so_far);
            }
        }
    }

    /// Lay (or pass over) the letter of arc `cand` on `col`, record the word if it ends here, and
    /// go on leftwards, across the separator, or rightwards.
    fn step<const WAY: u8>(&mut self, col: usize, cand: usize, left: usize, so_far: Partial) {
        let anchor = self.anchor;
        let view = self.view;
        let rules = self.rules;
        let cols = view.cols;
        let arc = self.kwg.arc(cand);
        let letter = Kwg::letter(arc) as usize;
        let mut n = so_far;
        let mut taken = None;
        let c = at(col);
        match WAY {
            BOARD => {
                let blank = self.lane.blank[c];
                if !blank {
                    n.sum += rules.tile_value[letter];
                }
                self.cells[c] = letter as i32 | BOARD_FLAG | if blank { BLANK_FLAG } else { 0 };
            }
            _ => {
                let sq = self.lane.square[c];
                let value = if WAY == TILE { rules.new_value(sq, letter) } else { 0 };
                self.cells[c] = letter as i32 | if WAY == BLANK { BLANK_FLAG } else { 0 };
                n.sum += value;
                n.mult *= rules.word_mult[sq];
                if self.lane.cross_base[c] >= 0 {
                    n.cross += (self.lane.cross_base[c] + value) * self.lane.cross_mult[c];
                }
                n.tiles += 1;
                let code = if WAY == TILE { letter } else { BLANK_SLOT };
                self.take(code);
                taken = Some(code);
            }
        }
        let accepts = Kwg::accepts(arc);
        let next = Kwg::target(arc);
        let single_both_ways = self.single_is_across && n.tiles == 1;
        let max_word = rules.max_word as usize;
        if col <= anchor {
            let left_free = col == 0 || self.lane.letter[at(col - 1)] == 0;
            if accepts && left_free && self.anchor_right_free && n.tiles > 0 && !single_both_ways {
                self.record(col, anchor, n);
            }
            if next != 0 {
                // leftwards first, then across the separator (the order of the numba kernel's stack)
                if col > 0
                    && (self.lane.letter[at(col - 1)] != 0 || col as i64 - 1 > self.last_anchor)
                    && anchor - col + 1 < max_word
                    && self.can_enter(col - 1, next)
                {
                    self.walk(col - 1, next, col - 1, n);
                }
                if left_free && anchor + 1 < cols && anchor + 1 - col < max_word {
                    if let Some(sep) = self.kwg.find(next, SEPARATOR) {
                        let target = Kwg::target(self.kwg.arc(sep));
                        if sep > 0 && target != 0 && self.can_enter(anchor + 1, target) {
                            self.walk(anchor + 1, target, col, n);
                        }
                    }
                }
            }
        } else {
            let right_free = col == cols - 1 || self.lane.letter[at(col + 1)] == 0;
            if accepts && right_free && n.tiles > 0 && !single_both_ways {
                self.record(left, col, n);
            }
            if next != 0 && col + 1 < cols && col + 1 - left < max_word && self.can_enter(col + 1, next) {
                self.walk(col + 1, next, left, n);
            }
        }
        if let Some(code) = taken {
            self.give_back(code);
        }
    }

    /// Whether the walk can do anything on `col` with the GADDAG list `list`: the board tile
    /// there is one of the list's letters, or the empty square allows a letter that the list has
    /// and a tile left on the rack may take (its cross-check meets the rack and the list).  The
    /// walk would find nothing on a square that fails this, so not entering it changes no answer.
    #[inline(always)]
    fn can_enter(&self, col: usize, list: usize) -> bool {
        let on_board = self.lane.letter[at(col)] as u32;
        if on_board != 0 {
            return on_board > 32 || self.kwg.letters(list) & bit(on_board) != 0;
        }
        let mask = self.lane.mask[at(col)];
        let allowed = if self.rack[BLANK_SLOT] > 0 { mask } else { mask & self.on_rack };
        allowed & self.kwg.letters(list) != 0
    }

    #[inline(always)]
    fn take(&mut self, code: usize) {
        self.rack[code] -= 1;
        self.leave -= self.place[code];
        if code != BLANK_SLOT && self.rack[code] == 0 {
            self.on_rack &= !bit(code as u32);
        }
    }

    #[inline(always)]
    fn give_back(&mut self, code: usize) {
        if code != BLANK_SLOT && self.rack[code] == 0 {
            self.on_rack |= bit(code as u32);
        }
        self.rack[code] += 1;
        self.leave += self.place[code];
    }

    /// Write one move (the main word spans `left..=right` of view row r) if the rules allow it.
    fn record(&mut self, left: usize, right: usize, n: Partial) {
        let rules = self.rules;
        let view = self.view;
        let r = self.r;
        let length = (right - left + 1) as i64;
        if length < rules.min_word || length > rules.max_word {
            return;
        }
        if view.start.is_some() && n.tiles < rules.first_move_min_tiles {
            return;
        }
        let mut mult = n.mult;
        if self.cells[left] & BOARD_FLAG == 0 {
            mult *= rules.end_mult(view.main_dir, START, view.square(r, left));
        }
        if self.cells[right] & BOARD_FLAG == 0 {
            mult *= rules.end_mult(view.main_dir, END, view.square(r, right));
        }
        let mut score = n.sum * mult + n.cross;
        if n.tiles == rules.bingo_tiles {
            score += rules.bingo_bonus;
        }
        let sink = &mut *self.sink;
        if let Some(leaves) = &sink.leaves {
            // best only: keep this move if its equity beats the best so far
            let equity = score as f64 + leaves.values[self.leave as usize];
            if sink.count > 0
                && (equity < sink.best_equity
                    || (equity == sink.best_equity && !sink.anchor_rank.precedes(sink.best_rank)))
            {
                return;
            }
            sink.best_equity = equity;
            sink.best_rank = sink.anchor_rank;
            sink.count = 0;
            sink.records.clear();
        }
        let mut rec: Record = [0; RECORD_WIDTH];
        rec[SCORE] = score as i32;
        if view.transposed {
            rec[ROW] = left as i32;
            rec[COL] = r as i32;
        } else {
            rec[ROW] = r as i32;
            rec[COL] = left as i32;
        }
        rec[DIR] = view.main_dir as i32;
        rec[LENGTH] = length as i32;
        rec[TILES] = n.tiles as i32;
        rec[CELLS..CELLS + (right - left + 1)].copy_from_slice(&self.cells[left..=right]);
        sink.records.push(rec);
        sink.count += 1;
    }
}

/// How a step takes its square (`Walk::step`'s WAY, one specialised step each): passing over a
/// board tile, laying a tile of that letter, laying a blank as it.
const BOARD: u8 = 0;
const TILE: u8 = 1;
const BLANK: u8 = 2;

/// The score of a word so far: tiles laid, the main word's sum and multiplier, the cross words.
#[derive(Clone, Copy)]
struct Partial {
    tiles: i64,
    sum: i64,
    mult: i64,
    cross: i64,
}

/// Every move of the rack on the board, in the order of the numba kernels (across view first,
/// rows top to bottom, anchors left to right).
pub fn generate(
    kwg: Kwg,
    gaddag_root: usize,
    dawg_root: usize,
    rules: &Rules,
    views: &[View; 2],
    rack: &mut Rack,
) -> Sink<'static> {
    let mut sink = Sink::every();
    for view in views {
        let last_anchors = vec![view.cols as i64 - 1; view.rows];
        generate_rows(kwg, gaddag_root, dawg_root, rules, view, rack, &mut sink, &last_anchors);
    }
    sink
}

/// Every move whose main word runs along a row of `view` and whose first anchor (the move is
/// found from it) lies at most at column `last_anchors[row]` (-1: none on that row), appended to
/// `sink` in `generate`'s order.  The endgame search asks only for the rows its last moves
/// changed, and on each only for the anchors from which a move can reach the new tiles.
#[allow(clippy::too_many_arguments)]
pub fn generate_rows(
    kwg: Kwg,
    gaddag_root: usize,
    dawg_root: usize,
    rules: &Rules,
    view: &View,
    rack: &mut Rack,
    sink: &mut Sink<'_>,
    last_anchors: &[i64],
) {
    let fits = rack_letters(rack);
    let wanted: Vec<bool> = last_anchors.iter().map(|&last| last >= 0).collect();
    let cross = CrossChecks::of_rows(&kwg, dawg_root, rules, view, &wanted, fits);
    let mut walk = Walk::new(kwg, gaddag_root, rules, view, &cross, sink, rack);
    for (r, &last) in last_anchors.iter().enumerate().take(view.rows) {
        let mut last_anchor = -1i64;
        for c in 0..(last + 1).clamp(0, view.cols as i64) as usize {
            if !view.is_anchor(r, c) {
                continue;
            }
            if cross.mask[r * view.cols + c] & fits != 0 {
                walk.search_anchor(r, c, last_anchor, f64::INFINITY);
            }
            last_anchor = c as i64;
        }
    }
}
