//! The best move by equity: anchors ranked by upper bounds of the equity of every move from them
//! ("shadow" bounds, as wolges and MAGPIE prune top-move searches), searched best bound first,
//! stopping when no anchor left can beat the best found.  A port of `_best_move` and its helpers
//! in `literaki_cli/engine/movegen.py`, with the same tie order.

use crate::bingo::{BingoCheck, BingoIndex, MAX_THROUGH};
use crate::board::{CrossChecks, View};
use crate::kwg::Kwg;
use crate::movegen::{
    at, bit, letters_on, rack_letters, Leaves, Rack, Rank, Record, Sink, Walk, BLANK_SLOT, LANE, MAX_WORD,
};
use crate::rules::{Rules, END, MAX_CLASSES, START};

const NEG_INF: f64 = f64::NEG_INFINITY;

/// An anchor with its bounds (see `anchor_bound`).
#[derive(Clone, Copy, Debug)]
pub struct Anchor {
    pub view: usize,
    pub row: usize,
    pub col: usize,
    /// The anchor before it in its row (-1: none).
    pub last: i64,
    /// Square by square: the anchor's rank for ties.
    pub bound: f64,
    /// The tighter bound: the search's order and cut.
    pub tight: f64,
    /// The bound of its moves that lay a blank.
    pub blank: f64,
}

/// For each number of tiles laid from a rack of `tiles`, the best value of the leaves left
/// (-inf: impossible); `sizes`: the tiles in each leave of `values`.
pub fn leave_bounds(tiles: i64, values: &[f64], sizes: &[i64]) -> [f64; MAX_WORD + 1] {
    let mut out = [NEG_INF; MAX_WORD + 1];
    for (value, size) in values.iter().zip(sizes) {
        let laid = (tiles - size) as usize;
        if *value > out[laid] {
            out[laid] = *value;
        }
    }
    out
}

/// For each number of tiles laid: the best leave that keeps fewer blanks than the rack holds (the
/// leave of a move that lays a blank); -inf for none, and everywhere without a blank.
fn blank_leave_bounds(rack: &Rack, tiles_on_rack: i64, leaves: &Leaves) -> [f64; MAX_WORD + 1] {
    let mut out = [NEG_INF; MAX_WORD + 1];
    if rack[BLANK_SLOT] == 0 || leaves.values.is_empty() {
        return out;
    }
    for (index, value) in leaves.values.iter().enumerate() {
        let index = index as i64;
        let mut size = 0;
        for (count, place) in rack.iter().zip(leaves.place.iter()) {
            if *count > 0 {
                size += (index / place) % (count + 1);
            }
        }
        if (index / leaves.place[BLANK_SLOT]) % (rack[BLANK_SLOT] + 1) < rack[BLANK_SLOT] {
            let laid = (tiles_on_rack - size) as usize;
            if *value > out[laid] {
                out[laid] = *value;
            }
        }
    }
    out
}

/// For k = 0 .. the rack's tiles: the most k of its tiles can be worth as new tiles, each on its
/// best square of the board (the k largest; a blank is worth 0).
fn tile_cap(rules: &Rules, rack: &Rack) -> [i64; MAX_WORD + 1] {
    let mut best = Vec::new();
    for (letter, &count) in rack.iter().enumerate().skip(1) {
        if count > 0 {
            best.extend(std::iter::repeat_n(rules.top_value[letter], count as usize));
        }
    }
    best.sort_unstable_by(|a, b| b.cmp(a));
    let mut cap = [0i64; MAX_WORD + 1];
    for k in 1..=MAX_WORD {
        cap[k] = cap[k - 1] + best.get(k - 1).copied().unwrap_or(0);
    }
    cap
}

/// The most a new tile from the rack can score on view square (r, c) in the main word (-1: no
/// rack tile may stand there), and the most its cross word can score.
fn square_best(rules: &Rules, view: &View, cross: &CrossChecks, rack: &RackLetters, r: usize, c: usize) -> (i64, i64) {
    let i = r * view.cols + c;
    let sq = view.sqmap[i];
    let allowed = cross.mask[i];
    let mut best = -1i64;
    if rack.blank && allowed != 0 {
        best = 0;
    }
    if allowed & rack.on == rack.on && !rack.class_best.is_empty() {
        best = best.max(rack.class_best[rules.square_class[sq] as usize]); // any rack letter fits here
    } else {
        for &letter in &rack.present {
            if allowed & bit(letter as u32) != 0 {
                best = best.max(rules.new_value(sq, letter));
            }
        }
    }
    let mut cross_best = 0;
    if best >= 0 && cross.base[i] >= 0 {
        cross_best = (cross.base[i] + best) * cross.mult[i];
    }
    (best, cross_best)
}

/// The rack's letters as `square_best` reads them.
struct RackLetters {
    /// The letters held as tiles (blanks aside): codes, and as a cross-check mask.
    present: Vec<usize>,
    on: u32,
    blank: bool,
    /// Per square class: the most a tile of `present` is worth there (-1: none); empty without
    /// classes.  A square whose cross-check lets every rack letter through takes its class's.
    class_best: Vec<i64>,
}

impl RackLetters {
    fn of(rules: &Rules, rack: &Rack) -> RackLetters {
        let present: Vec<usize> = (1..=32).filter(|&l| rack[l] > 0).collect();
        let class_best = (rules.class_square.iter())
            .map(|&sq| present.iter().map(|&letter| rules.new_value(sq, letter)).fold(-1, i64::max))
            .collect();
        RackLetters { on: letters_on(rack), blank: rack[BLANK_SLOT] > 0, present, class_best }
    }
}

/// What every anchor bound of a rack shares.
struct RackBounds {
    tiles_on_rack: i64,
    tile_cap: [i64; MAX_WORD + 1],
    leave_bound: [f64; MAX_WORD + 1],
    blank_leave_bound: [f64; MAX_WORD + 1],
    classes: ClassCaps,
}

/// What k new tiles can be worth on a span's squares, counted per square class: each tile's value
/// splits into its least value on any class (`base`) and what a class adds to it (`bonus`); k
/// tiles on a span holding n_c squares of class c are worth at most the k largest bases plus, for
/// each class, the n_c largest bonuses there.  In Literaki a tile's bonus is on its own colour's
/// squares only, so a span with one red square counts one red tile triple, where the rack-wide cap
/// counted every tile triple and the square-by-square sum the same red tile on every square.
struct ClassCaps {
    /// No classes (more than MAX_CLASSES): no cap.
    on: bool,
    /// The k largest bases: of every rack tile (a blank's is 0), and of the tiles other than blanks.
    base: [i64; MAX_WORD + 1],
    base_natural: [i64; MAX_WORD + 1],
    /// Per class, the j largest bonuses of the rack's tiles there.
    bonus: [[i64; MAX_WORD + 1]; MAX_CLASSES],
}

impl ClassCaps {
    fn of(rules: &Rules, rack: &Rack) -> ClassCaps {
        let mut caps = ClassCaps {
            on: !rules.class_square.is_empty(),
            base: [0; MAX_WORD + 1],
            base_natural: [0; MAX_WORD + 1],
            bonus: [[0; MAX_WORD + 1]; MAX_CLASSES],
        };
        if !caps.on {
            return caps;
        }
        let classes = &rules.class_square;
        let mut bases = Vec::new();
        let mut bonuses: Vec<Vec<i64>> = vec![Vec::new(); classes.len()];
        for (letter, &count) in rack.iter().enumerate().skip(1) {
            for _ in 0..count {
                let values: Vec<i64> = classes.iter().map(|&sq| rules.new_value(sq, letter)).collect();
                let base = values.iter().copied().min().unwrap_or(0);
                bases.push(base);
                for (c, v) in values.iter().enumerate() {
                    bonuses[c].push(v - base);
                }
            }
        }
        let prefix = |mut values: Vec<i64>| {
            values.sort_unstable_by(|a, b| b.cmp(a));
            let mut out = [0i64; MAX_WORD + 1];
            for k in 1..=MAX_WORD {
                out[k] = out[k - 1] + values.get(k - 1).copied().unwrap_or(0);
            }
            out
        };
        caps.base_natural = prefix(bases.clone());
        bases.extend(std::iter::repeat_n(0, rack[BLANK_SLOT] as usize));
        caps.base = prefix(bases);
        for (c, values) in bonuses.into_iter().enumerate() {
            caps.bonus[c] = prefix(values);
        }
        caps
    }

    /// Count one more new square of `class` in a span: `counts` per class, `bonus` the sum of
    /// each class's largest bonuses for its count (kept as the span grows: O(1) a square).
    #[inline]
    fn add(&self, class: usize, counts: &mut [u8; MAX_CLASSES], bonus: &mut i64) {
        if self.on {
            let n = counts[class] as usize;
            *bonus += self.bonus[class][n + 1] - self.bonus[class][n];
            counts[class] += 1;
        }
    }

    /// The most `k` new tiles are worth on a span whose class bonuses sum to `bonus` (see `add`;
    /// `natural`: no blank among them); i64::MAX without classes.
    #[inline]
    fn cap(&self, k: usize, bonus: i64, natural: bool) -> i64 {
        if !self.on {
            return i64::MAX;
        }
        bonus + if natural { self.base_natural[k] } else { self.base[k] }
    }
}

/// A span's squares as the bounds count them: its board tiles' values, its new squares' best values,
/// word multipliers and cross words, and per class (`ClassCaps`).
#[derive(Clone, Copy)]
struct Span {
    board_sum: i64,
    new_sum: i64,
    /// The word multipliers of the new squares.
    mult: i64,
    cross_sum: i64,
    /// New squares, and their count per class with the classes' largest bonuses.
    new: i64,
    classes: [u8; MAX_CLASSES],
    bonus: i64,
    /// The span's first board tiles' letters (0: none yet), and how many board tiles it holds.
    through: [u8; MAX_THROUGH],
    passed: usize,
}

impl Span {
    const EMPTY: Span = Span {
        board_sum: 0,
        new_sum: 0,
        mult: 1,
        cross_sum: 0,
        new: 0,
        classes: [0; MAX_CLASSES],
        bonus: 0,
        through: [0; MAX_THROUGH],
        passed: 0,
    };

    /// The span with column `c` of `row` too (an empty square must allow a rack tile: its `best` >= 0).
    #[inline(always)]
    fn add(&mut self, row: &BoundRow, rb: &RackBounds, c: usize) {
        let c = at(c);
        let letter = row.letter[c];
        if letter != 0 {
            if self.passed < MAX_THROUGH {
                self.through[self.passed] = letter;
            }
            self.passed += 1;
            self.board_sum += row.board_value[c];
        } else {
            self.new += 1;
            rb.classes.add(row.class[c] as usize, &mut self.classes, &mut self.bonus);
            self.new_sum += row.best[c];
            self.mult *= row.word_mult[c];
            self.cross_sum += row.cross[c];
        }
    }
}

/// One view row as the bounds read it, filled once per row with anchors and shared by its anchors:
/// per column what `Span::add` and `anchor_bound` read, in small arrays indexed by column (as the
/// walk's lane), instead of row-major offsets into the view's and the rules' tables.
struct BoundRow {
    cols: usize,
    /// Letter codes (0: empty).
    letter: [u8; LANE],
    /// A board tile's value in the main word (0: a blank, or an empty square).
    board_value: [i64; LANE],
    /// An empty square: the most a rack tile is worth there (-1: none may stand there), and the
    /// most its cross word scores (`square_best`).
    best: [i64; LANE],
    cross: [i64; LANE],
    /// The square's word multiplier, class, and multipliers as the main word's first and last square.
    word_mult: [i64; LANE],
    class: [u8; LANE],
    start_mult: [i64; LANE],
    end_mult: [i64; LANE],
}

impl BoundRow {
    const EMPTY: BoundRow = BoundRow {
        cols: 0,
        letter: [0; LANE],
        board_value: [0; LANE],
        best: [-1; LANE],
        cross: [0; LANE],
        word_mult: [1; LANE],
        class: [0; LANE],
        start_mult: [1; LANE],
        end_mult: [1; LANE],
    };

    /// Row `r` of `view` with its cross-checks, for the rack's letters.
    fn fill(&mut self, rules: &Rules, view: &View, cross: &CrossChecks, rack: &RackLetters, r: usize) {
        self.cols = view.cols;
        for c in 0..view.cols {
            let i = r * view.cols + c;
            let sq = view.sqmap[i];
            let letter = view.letters[i];
            self.letter[c] = letter;
            if letter != 0 {
                self.board_value[c] = if view.blanks[i] { 0 } else { rules.tile_value[letter as usize] };
                (self.best[c], self.cross[c]) = (-1, 0);
            } else {
                self.board_value[c] = 0;
                (self.best[c], self.cross[c]) = square_best(rules, view, cross, rack, r, c);
            }
            self.word_mult[c] = rules.word_mult[sq];
            self.class[c] = rules.square_class.get(sq).copied().unwrap_or(0);
            self.start_mult[c] = rules.end_mult(view.main_dir, START, sq);
            self.end_mult[c] = rules.end_mult(view.main_dir, END, sq);
        }
    }
}

/// Upper bounds of the equity of every move `Walk::search_anchor` finds from this anchor: over
/// every span the main word could cover, the board tiles' values plus the best value each new
/// square can take, times the span's multipliers, plus each new square's best cross word, the
/// bingo bonus, and the best leave after laying that many tiles.  Returns (the square-by-square
/// bound, the tighter bound with each rack tile counted once, the bound of moves laying a blank).
fn anchor_bound(
    rules: &Rules,
    row: &BoundRow,
    rb: &RackBounds,
    bingo: &mut Option<BingoCheck>,
    anchor: usize,
    last_anchor: i64,
) -> (f64, f64, f64) {
    let cols = row.cols;
    let letter = |c: usize| row.letter[at(c)];
    let mut lowest = anchor; // the leftmost square the search may reach
    while lowest > 0 && (letter(lowest - 1) != 0 || lowest as i64 - 1 > last_anchor) {
        lowest -= 1;
    }
    let (mut bound, mut tight, mut with_blank) = (NEG_INF, NEG_INF, NEG_INF);
    let mut left_part = Span::EMPTY; // the squares left..anchor, grown a square a left
    for left in (lowest..=anchor).rev() {
        if left < anchor {
            if letter(left) == 0 && row.best[at(left)] < 0 {
                break; // no rack tile may stand there: no span from here or further left
            }
            left_part.add(row, rb, left);
            if left_part.new > rb.tiles_on_rack {
                break;
            }
        }
        if left > 0 && letter(left - 1) != 0 {
            continue; // the word would not start here
        }
        let mut span = left_part;
        for right in anchor..cols {
            if letter(right) == 0 && (row.best[at(right)] < 0 || span.new == rb.tiles_on_rack) {
                break;
            }
            span.add(row, rb, right);
            let Span { board_sum, new_sum, mult, cross_sum, new, bonus, through, passed, .. } = span;
            if right + 1 < cols && letter(right + 1) != 0 {
                continue; // the word would not end here
            }
            let length = (right - left + 1) as i64;
            if length > rules.max_word {
                break;
            }
            if length < rules.min_word || new == 0 {
                continue;
            }
            let mut m = mult;
            if letter(left) == 0 {
                m *= row.start_mult[at(left)];
            }
            if letter(right) == 0 {
                m *= row.end_mult[at(right)];
            }
            let mut score = (board_sum + new_sum) * m + cross_sum;
            if new == rules.bingo_tiles {
                score += rules.bingo_bonus;
            }
            let k = new as usize;
            let mut value = score as f64 + rb.leave_bound[k];
            if value > bound {
                bound = value;
            }
            if new == rules.bingo_tiles && passed <= MAX_THROUGH {
                // all the rack's tiles, alone or with the span's board tiles: a word of those
                // letters must exist, or no move covers this span (the ranks' bound counts it)
                if let Some(check) = bingo.as_mut() {
                    if !check.possible(through) {
                        continue;
                    }
                }
            }
            let cap = rb.tile_cap[k].min(rb.classes.cap(k, bonus, false));
            if cap < new_sum {
                value = (score - (new_sum - cap) * m) as f64 + rb.leave_bound[k];
            }
            if value > tight {
                tight = value;
            }
            if rb.blank_leave_bound[k] > NEG_INF {
                let cap = rb.tile_cap[k - 1].min(rb.classes.cap(k - 1, bonus, true));
                let value = (score - (new_sum - new_sum.min(cap)) * m) as f64 + rb.blank_leave_bound[k];
                if value > with_blank {
                    with_blank = value;
                }
            }
        }
    }
    (bound, tight, with_blank)
}

/// Every anchor of the `wanted[view][row]` rows from which a move is possible, with its bounds,
/// in the order `generate` visits them.
#[allow(clippy::too_many_arguments)]
fn list_anchors(
    rules: &Rules,
    bingo: Option<&BingoIndex>,
    views: &[View],
    crosses: &[CrossChecks; 2],
    rack: &Rack,
    leaves: &Leaves,
    leave_bound: [f64; MAX_WORD + 1],
    wanted: &[Vec<bool>; 2],
) -> Vec<Anchor> {
    let tiles_on_rack: i64 = rack.iter().sum();
    let rb = RackBounds {
        tiles_on_rack,
        tile_cap: tile_cap(rules, rack),
        leave_bound,
        blank_leave_bound: blank_leave_bounds(rack, tiles_on_rack, leaves),
        classes: ClassCaps::of(rules, rack),
    };
    let letters = RackLetters::of(rules, rack);
    let mut bingo = bingo.and_then(|index| BingoCheck::of(index, rack));
    let mut anchors = Vec::new();
    for v in 0..2 {
        let (view, cross) = (&views[v], &crosses[v]);
        let mut row = BoundRow::EMPTY;
        for (r, _) in wanted[v].iter().enumerate().take(view.rows).filter(|(_, &w)| w) {
            if !(0..view.cols).any(|c| view.is_anchor(r, c)) {
                continue; // the bounds read a row's squares only from its own anchors
            }
            row.fill(rules, view, cross, &letters, r);
            let mut last_anchor = -1i64;
            for c in 0..view.cols {
                if !view.is_anchor(r, c) {
                    continue;
                }
                let (bound, tight, blank) = anchor_bound(rules, &row, &rb, &mut bingo, c, last_anchor);
                if bound > NEG_INF {
                    anchors.push(Anchor { view: v, row: r, col: c, last: last_anchor, bound, tight, blank });
                }
                last_anchor = c as i64;
            }
        }
    }
    anchors
}

/// Indices of `keys` in descending order, equal keys in index order (numpy's stable argsort of
/// the negated keys): the pairs (key, index) sorted, where no two are equal, so that an unstable
/// sort gives the stable order (the keys are never NaN: leave values are checked finite).
fn descending(keys: &[f64]) -> Vec<usize> {
    let mut order: Vec<(f64, u32)> = keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
    order.sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
    order.into_iter().map(|(_, i)| i as usize).collect()
}

/// The inputs of one best-move search.
pub struct BestMoveQuery<'a> {
    pub kwg: Kwg<'a>,
    pub gaddag_root: usize,
    pub dawg_root: usize,
    pub rules: &'a Rules,
    /// The across and the down view (empty where only the lexicon and the rules are wanted).
    pub views: &'a [View],
    /// The words a bingo could make, when the generator has them (bounds only: see `bingo`).
    pub bingo: Option<&'a BingoIndex>,
}

impl BestMoveQuery<'_> {
    /// The cross-checks of the `wanted` rows of both views.  Only the rack's letters are ever read
    /// from a cross-check (every letter with a blank): the other letters' DAWG walks are skipped,
    /// as generate skips them.
    fn crosses(&self, rack: &Rack, wanted: &[Vec<bool>; 2]) -> [CrossChecks; 2] {
        let fits = rack_letters(rack);
        [0, 1].map(|v| CrossChecks::of_rows(&self.kwg, self.dawg_root, self.rules, &self.views[v], &wanted[v], fits))
    }

    /// Every row of both views.
    fn every_row(&self) -> [Vec<bool>; 2] {
        [vec![true; self.views[0].rows], vec![true; self.views[1].rows]]
    }

    /// A walk of this board's anchors into `sink` (one for a whole search: its lane and buffers
    /// are reused from anchor to anchor).
    fn walk<'w, 's, 'l>(
        &'w self,
        crosses: &'w [CrossChecks; 2],
        sink: &'s mut Sink<'l>,
        rack: &'s mut Rack,
    ) -> Walk<'w, 's, 'l> {
        Walk::new(self.kwg, self.gaddag_root, self.rules, &self.views[0], &crosses[0], sink, rack)
    }

    /// One anchor's walk (see `walk`).
    fn search<'w>(&'w self, walk: &mut Walk<'w, '_, '_>, crosses: &'w [CrossChecks; 2], a: &Anchor, blank_bound: f64) {
        walk.on_view(&self.views[a.view], &crosses[a.view]);
        walk.search_anchor(a.row, a.col, a.last, blank_bound);
    }
}

/// What a search found, and (with the `counters` feature) the effort it took.
pub struct Outcome {
    pub record: Option<Record>,
    /// The record's equity (-inf: no move).
    pub equity: f64,
    pub states: u64,
    pub arcs: u64,
}

impl Outcome {
    fn of(sink: &Sink) -> Outcome {
        let record = sink.records.first().copied();
        let equity = if record.is_some() { sink.best_equity } else { NEG_INF };
        Outcome { record, equity, states: sink.states(), arcs: sink.arcs() }
    }
}

/// Each anchor's rank for ties: its place in the order of the square-by-square bounds (ties by
/// view, row, column), or with `ties_in_order` in generate's order (as a `Rank`: no sort).
fn ranks(anchors: &[Anchor], ties_in_order: bool) -> Vec<Rank> {
    let bound = |a: &Anchor| if ties_in_order { 0.0 } else { a.bound };
    anchors.iter().enumerate().map(|(i, a)| Rank { bound: bound(a), index: i as u32 }).collect()
}

/// Visit the anchors in the order of their tighter bounds, until none left can beat the best found
/// in the walk's sink (see `best_move` for the ties); `visit(walk, i)` searches anchor i into it.
fn search_anchors<'w>(
    anchors: &[Anchor],
    rank: &[Rank],
    walk: &mut Walk<'w, '_, '_>,
    mut visit: impl FnMut(&mut Walk<'w, '_, '_>, usize),
) {
    let tight: Vec<f64> = anchors.iter().map(|a| a.tight).collect();
    for i in descending(&tight) {
        let sink = &mut *walk.sink;
        if sink.count > 0 {
            if tight[i] < sink.best_equity {
                break; // every anchor left is bounded by this one's bound: none can do better
            }
            if tight[i] == sink.best_equity && sink.best_rank.precedes(rank[i]) {
                continue; // at best a tie, which the best's anchor wins
            }
        }
        sink.anchor_rank = rank[i];
        visit(walk, i);
    }
}

/// The best move by equity over both views (None: no move).  Among moves of equal equity the
/// answer is the one first found when anchors are taken in the order of their square-by-square
/// bounds (ties by view, row, column) and each anchor's walk in its own order; with
/// `ties_in_order`, in generate's order instead.  The tighter bounds reorder and cut the search
/// without changing a tie: a move equal to the best replaces it only from an anchor of a lower rank.
pub fn best_move(
    q: &BestMoveQuery,
    rack: &mut Rack,
    leaves: Leaves,
    leave_bound: [f64; MAX_WORD + 1],
    ties_in_order: bool,
) -> Outcome {
    let wanted = q.every_row();
    let crosses = q.crosses(rack, &wanted);
    let anchors = list_anchors(q.rules, q.bingo, q.views, &crosses, rack, &leaves, leave_bound, &wanted);
    let rank = ranks(&anchors, ties_in_order);
    let mut sink = Sink::best(leaves);
    let mut walk = q.walk(&crosses, &mut sink, rack);
    search_anchors(&anchors, &rank, &mut walk, |walk, i| q.search(walk, &crosses, &anchors[i], anchors[i].blank));
    Outcome::of(&sink)
}

/// A board's anchors for one rack, each with the best move found from it alone, searched when a
/// search first needs it: what `best_move_sharing` reuses on boards that differ from this one
/// in a few lines (the candidates of one future, seen by the opponent's first reply).
pub struct AnchorTable {
    views: [View; 2],
    crosses: [CrossChecks; 2],
    anchors: Vec<Anchor>,
    /// View v's row r holds anchors first[v][r] .. first[v][r + 1].
    first: [Vec<usize>; 2],
    /// Per anchor, once searched: its best equity and move (the first of equals in the walk's
    /// order; None: no move).
    best: Vec<Option<(f64, Option<Record>)>>,
}

impl AnchorTable {
    /// The anchors of the board of `views` with their bounds, for `rack` and its leave values;
    /// no anchor searched yet.
    pub fn new(
        graph: &BestMoveQuery,
        views: [View; 2],
        rack: &Rack,
        leaves: &Leaves,
        leave_bound: [f64; MAX_WORD + 1],
    ) -> AnchorTable {
        // `graph`: the lexicon and the rules (its views are another board's)
        let board = BestMoveQuery { views: &views, ..*graph };
        let wanted = board.every_row();
        let crosses = board.crosses(rack, &wanted);
        let anchors = list_anchors(graph.rules, graph.bingo, &views, &crosses, rack, leaves, leave_bound, &wanted);
        let first = [0, 1].map(|v| {
            (0..=views[v].rows)
                .map(|r| anchors.iter().take_while(|a| a.view < v || (a.view == v && a.row < r)).count())
                .collect()
        });
        let best = vec![None; anchors.len()];
        AnchorTable { views, crosses, anchors, first, best }
    }

    /// Anchor `j`'s best move (searched to the end, on the table's board, on first use).
    fn best_of(&mut self, q: &BestMoveQuery, j: usize, rack: &mut Rack, leaves: &Leaves) -> (f64, Option<Record>) {
        if let Some(known) = self.best[j] {
            return known;
        }
        let board = BestMoveQuery { views: &self.views, ..*q };
        let mut sink = Sink::best(Leaves { place: leaves.place, values: leaves.values });
        let mut walk = board.walk(&self.crosses, &mut sink, rack);
        board.search(&mut walk, &self.crosses, &self.anchors[j], f64::INFINITY);
        let found = Outcome::of(&sink);
        self.best[j] = Some((found.equity, found.record));
        (found.equity, found.record)
    }
}

/// The view rows (`[0][r]`: board row r; `[1][c]`: board column c) whose anchors, letters or
/// cross-checks change when tiles are laid on `squares`, given the board *with* those tiles
/// (row-major, `rows` x `cols`): each tile's row and column with their neighbours, and the
/// squares that close the runs of tiles through it (their cross words change).
pub fn changed_lines(letters: &[u8], rows: usize, cols: usize, squares: &[(usize, usize)]) -> [Vec<bool>; 2] {
    let mut out = [vec![false; rows], vec![false; cols]];
    let on = |r: i64, c: i64| r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols;
    for &(r, c) in squares {
        for d in -1i64..=1 {
            let (rr, cc) = (r as i64 + d, c as i64 + d);
            if rr >= 0 && (rr as usize) < rows {
                out[0][rr as usize] = true;
            }
            if cc >= 0 && (cc as usize) < cols {
                out[1][cc as usize] = true;
            }
        }
        // the column's run (its end squares: across rows), the row's run (down columns)
        for (view, dr, dc) in [(0usize, 1i64, 0i64), (1, 0, 1)] {
            for step in [-1i64, 1] {
                let (mut rr, mut cc) = (r as i64, c as i64);
                while on(rr, cc) && letters[rr as usize * cols + cc as usize] != 0 {
                    rr += step * dr;
                    cc += step * dc;
                }
                if on(rr, cc) {
                    out[view][if view == 0 { rr } else { cc } as usize] = true;
                }
            }
        }
    }
    out
}

/// `best_move` (square-by-square ties) on a board that differs from the board of `table` (same
/// rack and leave values) only in the view rows of `changed` (`changed_lines`): the other rows'
/// anchors and bounds are the table's, and so is each one's best move, searched once for all the
/// boards that share the table.  The anchors are taken in the order of their tighter bounds as
/// `best_move` takes them, a reused one by its best move: the same answer as `best_move` on the
/// new board (the greatest equity, among equals the anchor of the lowest rank, then the walk's
/// first), since an anchor passed over could neither beat nor tie-win.
pub fn best_move_sharing(
    q: &BestMoveQuery,
    rack: &mut Rack,
    leaves: Leaves,
    leave_bound: [f64; MAX_WORD + 1],
    table: &mut AnchorTable,
    changed: &[Vec<bool>; 2],
) -> Outcome {
    let crosses = q.crosses(rack, changed);
    let fresh = list_anchors(q.rules, q.bingo, q.views, &crosses, rack, &leaves, leave_bound, changed);
    let mut anchors = Vec::with_capacity(table.anchors.len() + fresh.len());
    let mut kept: Vec<Option<usize>> = Vec::with_capacity(anchors.capacity()); // the table's anchor reused
    let mut k = 0;
    for (v, lines) in changed.iter().enumerate() {
        for (r, &line_changed) in lines.iter().enumerate().take(q.views[v].rows) {
            if line_changed {
                while k < fresh.len() && fresh[k].view == v && fresh[k].row == r {
                    anchors.push(fresh[k]);
                    kept.push(None);
                    k += 1;
                }
            } else {
                for j in table.first[v][r]..table.first[v][r + 1] {
                    anchors.push(table.anchors[j]);
                    kept.push(Some(j));
                }
            }
        }
    }
    let rank = ranks(&anchors, false);
    let mut sink = Sink::best(leaves);
    let mut walk = q.walk(&crosses, &mut sink, rack);
    search_anchors(&anchors, &rank, &mut walk, |walk, i| match kept[i] {
        None => q.search(walk, &crosses, &anchors[i], anchors[i].blank),
        Some(j) => {
            let leaves = walk.sink.leaves.as_ref().expect("a best-only sink");
            let leaves = Leaves { place: leaves.place, values: leaves.values };
            if let (e, Some(record)) = table.best_of(q, j, walk.rack, &leaves) {
                let sink = &mut *walk.sink;
                if sink.count == 0
                    || e > sink.best_equity
                    || (e == sink.best_equity && rank[i].precedes(sink.best_rank))
                {
                    sink.best_equity = e;
                    sink.best_rank = rank[i];
                    sink.records.clear();
                    sink.records.push(record);
                    sink.count = 1;
                }
            }
        }
    });
    Outcome::of(&sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::CODE_SPACE;

    /// A 1x4 board: a plain square and one square of each of three colours; letters 1..=6 worth
    /// their code, letter l of colour l % 3, tripled on its colour's square.
    fn coloured_rules() -> Rules {
        let mut new_value = vec![0i64; 4 * CODE_SPACE];
        for sq in 0..4 {
            for letter in 1..=6usize {
                let colour_square = sq > 0 && letter % 3 == sq - 1;
                new_value[sq * CODE_SPACE + letter] = letter as i64 * if colour_square { 3 } else { 1 };
            }
        }
        Rules { new_value, tile_value: (0..CODE_SPACE as i64).collect(), ..Rules::plain(1, 4) }.classify()
    }

    /// The best any `k`-tile choice of `tiles` is worth on the squares `squares`, by trying every
    /// assignment.
    fn best_assignment(rules: &Rules, tiles: &[usize], squares: &[usize]) -> i64 {
        fn go(rules: &Rules, tiles: &[usize], used: &mut Vec<bool>, squares: &[usize]) -> i64 {
            let Some((&sq, rest)) = squares.split_first() else { return 0 };
            let mut best = i64::MIN;
            for t in 0..tiles.len() {
                if !used[t] {
                    used[t] = true;
                    let value = if tiles[t] == 0 { 0 } else { rules.new_value(sq, tiles[t]) };
                    let more = go(rules, tiles, used, rest);
                    if more > i64::MIN {
                        best = best.max(value + more);
                    }
                    used[t] = false;
                }
            }
            best
        }
        go(rules, tiles, &mut vec![false; tiles.len()], squares)
    }

    #[test]
    fn squares_are_classed_by_what_a_tile_is_worth_there() {
        let rules = coloured_rules();
        assert_eq!(rules.square_class, vec![0, 1, 2, 3]);
        assert_eq!(rules.class_square, vec![0, 1, 2, 3]);
    }

    #[test]
    fn the_class_cap_bounds_every_assignment_and_is_tighter_than_the_rack_wide_one() {
        let rules = coloured_rules();
        let racks: [&[usize]; 4] = [&[1, 2, 3, 4, 5, 6], &[3, 3, 6, 0], &[1, 1, 4, 4, 2], &[6, 6, 6, 5]];
        let mut tighter = 0;
        for tiles in racks {
            let mut rack = [0i64; crate::movegen::RACK_SLOTS];
            for &t in tiles {
                rack[t] += 1;
            }
            let caps = ClassCaps::of(&rules, &rack);
            let rack_wide = tile_cap(&rules, &rack);
            // every multiset of squares of up to four (squares may repeat: spans hold several of a class)
            for mask in 0..256usize {
                let squares: Vec<usize> = (0..4).map(|i| (mask >> (2 * i)) & 3).collect();
                for k in 1..=squares.len().min(tiles.len()) {
                    let chosen = &squares[..k];
                    let (mut counts, mut bonus) = ([0u8; MAX_CLASSES], 0);
                    for &sq in chosen {
                        caps.add(rules.square_class[sq] as usize, &mut counts, &mut bonus);
                    }
                    let exact = best_assignment(&rules, tiles, chosen);
                    let cap = caps.cap(k, bonus, false);
                    assert!(cap >= exact, "{tiles:?} on {chosen:?}: cap {cap} < {exact}");
                    tighter += (cap < rack_wide[k]) as usize;
                }
            }
        }
        assert!(tighter > 0);
    }

    /// A small xorshift generator (the test's boards, racks and leave values).
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn a_reply_shared_by_candidates_is_the_best_move_on_each_board() {
        use crate::board::View;
        use crate::dawg::GraphBuilder;
        use crate::kwg::{graph_words, Kwg};
        use crate::movegen::{generate, BLANK_FLAG, BOARD_FLAG, CELLS, CODE_MASK, COL, DIR, LENGTH, RACK_SLOTS, ROW};

        // 7x7, letters 1..=6 worth their code, a double-letter diagonal; 40 words of 2-5 letters
        let (rows, cols) = (7, 7);
        let mut rules = Rules { tile_value: (0..CODE_SPACE as i64).collect(), ..Rules::plain(rows, cols) };
        for sq in 0..rows * cols {
            for letter in 1..=6usize {
                rules.new_value[sq * CODE_SPACE + letter] = letter as i64 * if sq % 8 == 0 { 2 } else { 1 };
            }
        }
        let rules = rules.classify();
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        let mut words: Vec<Vec<u8>> =
            (0..40).map(|_| (0..2 + random.below(4)).map(|_| 1 + random.below(6) as u8).collect()).collect();
        words.sort();
        words.dedup();
        let buffer: Vec<u8> = words.iter().flat_map(|w| w.iter().copied().chain([255])).collect();
        let mut builder = GraphBuilder::new();
        let dawg_root = builder.add_words(&buffer).unwrap() as usize;
        let gaddag_root = builder.add_gaddag(&buffer).unwrap() as usize;
        let graph = graph_words(&builder.result());
        let kwg = Kwg { words: &graph };
        let lay = |letters: &mut Vec<u8>, blanks: &mut Vec<bool>, rec: &Record| -> Vec<(usize, usize)> {
            let mut squares = Vec::new();
            for k in 0..rec[LENGTH] as usize {
                let cell = rec[CELLS + k];
                let (r, c) = if rec[DIR] == 0 {
                    (rec[ROW] as usize, rec[COL] as usize + k)
                } else {
                    (rec[ROW] as usize + k, rec[COL] as usize)
                };
                if cell & BOARD_FLAG == 0 {
                    letters[r * cols + c] = (cell & CODE_MASK) as u8;
                    blanks[r * cols + c] = cell & BLANK_FLAG != 0;
                    squares.push((r, c));
                }
            }
            squares
        };
        let mut compared = 0;
        for _ in 0..60 {
            let (mut letters, mut blanks) = (vec![0u8; rows * cols], vec![false; rows * cols]);
            let rack_of = |random: &mut Random| {
                let mut rack = [0i64; RACK_SLOTS];
                (0..7).for_each(|_| rack[random.below(7)] += 1); // slot 0: blanks
                rack
            };
            for _ in 0..1 + random.below(4) {
                let views = View::pair(&rules, &letters, &blanks);
                let moves =
                    generate(kwg, gaddag_root, dawg_root, &rules, &[views.0, views.1], &mut rack_of(&mut random))
                        .records;
                if !moves.is_empty() {
                    lay(&mut letters, &mut blanks, &moves[random.below(moves.len())]);
                }
            }
            let views = View::pair(&rules, &letters, &blanks);
            let candidates = generate(
                kwg,
                gaddag_root,
                dawg_root,
                &rules,
                &[views.0.clone(), views.1.clone()],
                &mut rack_of(&mut random),
            )
            .records;
            if candidates.is_empty() || letters.iter().all(|&l| l == 0) {
                continue;
            }
            // the reply's rack and leave values (small integers: many ties)
            let mut rack = rack_of(&mut random);
            let mut place = [0i64; RACK_SLOTS];
            let mut numbers = 1i64;
            for slot in 0..RACK_SLOTS {
                place[slot] = numbers;
                numbers *= rack[slot] + 1;
            }
            let sizes: Vec<i64> = (0..numbers)
                .map(|n| (0..RACK_SLOTS).filter(|&s| rack[s] > 0).map(|s| n / place[s] % (rack[s] + 1)).sum())
                .collect();
            let values: Vec<f64> = (0..numbers).map(|_| random.below(7) as f64 - 3.0).collect();
            let bound = leave_bounds(7, &values, &sizes);
            let leaves = || Leaves { place, values: &values };
            let query = BestMoveQuery { kwg, gaddag_root, dawg_root, rules: &rules, views: &[], bingo: None };
            let mut table = AnchorTable::new(&query, [views.0, views.1], &rack, &leaves(), bound);
            for _ in 0..3 {
                let candidate = candidates[random.below(candidates.len())];
                let (mut after, mut after_blanks) = (letters.clone(), blanks.clone());
                let squares = lay(&mut after, &mut after_blanks, &candidate);
                let views = View::pair(&rules, &after, &after_blanks);
                let views = [views.0, views.1];
                let query = BestMoveQuery { views: &views, ..query };
                let expected = best_move(&query, &mut rack, leaves(), bound, false);
                let changed = changed_lines(&after, rows, cols, &squares);
                let shared = best_move_sharing(&query, &mut rack, leaves(), bound, &mut table, &changed);
                assert_eq!(shared.record, expected.record);
                assert_eq!(shared.equity, expected.equity);
                compared += expected.record.is_some() as usize;
            }
        }
        assert!(compared > 50, "only {compared} replies compared");
    }
}
