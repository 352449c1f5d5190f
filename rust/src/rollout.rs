//! The simulation's rollouts: one candidate played into one future, then `plies` turns in which
//! each side plays its best move by static equity (or its best exchange).  A port of the compiled
//! rollout of `literaki_cli/montecarlo/rollout.py`, step for step, so that every number a
//! simulation reports stays what it was.
//!
//! The rules are the simulation's: a move's tiles leave the rack (the first of each letter), the
//! rack is refilled from the front of the bag, an exchange puts its tiles at the back, a tile on
//! a forced-exchange square swaps the next player's rack while the bag allows, the game ends when
//! a rack empties with the bag empty (the other's tiles count twice) or after two passes each.
//!
//! The futures of a simulation are independent of each other: `Simulation::run` plays them on as
//! many threads as asked, and every answer is the same whatever their number.

use rayon::prelude::*;

use crate::board::{View, ACROSS};
use crate::kwg::Kwg;
use crate::leaves::{leave_number, Model};
use crate::movegen::{Leaves, Rack, Record, BLANK_FLAG, BLANK_SLOT, BOARD_FLAG, CELLS, CODE_MASK, COL, DIR, LENGTH};
use crate::movegen::{RACK_SLOTS, ROW, SCORE, TILES};
use crate::rules::Rules;
use crate::shadow::{best_move, best_move_sharing, changed_lines, leave_bounds, AnchorTable};
use crate::shadow::{BestMoveQuery, Outcome};

/// What a candidate (or a ply) does.
pub const PLACE_KIND: i64 = 0;
pub const EXCHANGE_KIND: i64 = 1;
pub const PASS_KIND: i64 = 2;
/// Passes in a row that end a two-player game (two each).
const PASSES_TO_END: usize = 4;
/// The slots of a rollout's answer: the spread change, whether the game ended, who moved last,
/// the bag left, the plies played, then each ply's score and bingo (0/1).
pub const SPREAD: usize = 0;
pub const OVER: usize = 1;
pub const LAST: usize = 2;
pub const BAG_LEFT: usize = 3;
pub const PLAYED: usize = 4;
pub const PLY_SCORES: usize = 5;

/// The numbers of a rollout's answer for `plies` plies.
pub fn answer_width(plies: usize) -> usize {
    PLY_SCORES + 2 * plies
}

/// The equity's and the variant's rules a rollout follows besides the move rules.
pub struct RolloutRules<'a> {
    pub kwg: Kwg<'a>,
    pub gaddag_root: usize,
    pub dawg_root: usize,
    pub rules: &'a Rules,
    pub leaves: &'a Model<'a>,
    /// A tile's points by letter code (the blank slot 0 is 0).
    pub tile_value: &'a [i64],
    /// The equity's bag-end rule (`literaki_cli.equity.equity.EquityRules`).
    pub shrink_below: i64,
    pub kept_tile_factor: f64,
    pub exchange_min_bag: i64,
    /// The rules allow exchanges at all.
    pub exchanges: bool,
    /// Forced-exchange squares (row-major).
    pub forced: &'a [bool],
    pub forced_min_bag: i64,
    /// The words a bingo could make (tightens the searches' bounds; see `crate::bingo`).
    pub bingo: Option<&'a crate::bingo::BingoIndex>,
}

impl RolloutRules<'_> {
    /// (weight of the learned leave value, points lost per point of a kept tile) for a move made
    /// with `bag` tiles in the bag: `EquityRules.weights`.
    fn weights(&self, bag: i64) -> (f64, f64) {
        if bag <= 0 {
            return (0.0, self.kept_tile_factor);
        }
        if self.shrink_below > 0 {
            let share = bag as f64 / self.shrink_below as f64;
            return (if share < 1.0 { share } else { 1.0 }, 0.0);
        }
        (1.0, 0.0)
    }

    fn query<'q>(&'q self, views: &'q [View]) -> BestMoveQuery<'q> {
        BestMoveQuery {
            kwg: self.kwg,
            gaddag_root: self.gaddag_root,
            dawg_root: self.dawg_root,
            rules: self.rules,
            views,
            bingo: self.bingo,
        }
    }

    fn rack_value(&self, rack: &[i64]) -> i64 {
        rack.iter().map(|&code| self.tile_value[code as usize]).sum()
    }
}

/// A tile a candidate lays: board row and column, letter code, whether a blank.
pub type LaidTile = (usize, usize, u8, bool);

/// A move to simulate, as the Python layer hands it over.
pub struct Candidate {
    pub kind: i64,
    /// The tiles it lays (word order; PLACE_KIND).
    pub laid: Vec<LaidTile>,
    /// The tiles it returns (EXCHANGE_KIND), letter codes, a blank 0.
    pub returned: Vec<i64>,
    pub score: i64,
}

impl Candidate {
    /// The tiles taken off the rack: laid (a blank as code 0) or returned.
    fn tiles(&self) -> Vec<i64> {
        if self.kind == PLACE_KIND {
            self.laid
                .iter()
                .map(|&(_, _, letter, blank)| if blank { BLANK_SLOT as i64 } else { letter as i64 })
                .collect()
        } else {
            self.returned.clone()
        }
    }
}

/// The racks and the bag of one rollout: racks in the order the Python game keeps them (the
/// order decides which tiles are drawn and returned), the bag drawn from the front.
struct Tiles {
    racks: [Vec<i64>; 2],
    bag: Vec<i64>,
    front: usize,
}

impl Tiles {
    fn bag_left(&self) -> i64 {
        (self.bag.len() - self.front) as i64
    }

    /// Take `taken` off rack `who`: the first tile of each letter, the others keeping their order
    /// (as `list.remove` does).
    fn take(&mut self, who: usize, taken: &[i64]) {
        let rack = &mut self.racks[who];
        let mut used = vec![false; rack.len()];
        for &t in taken {
            if let Some(i) = (0..rack.len()).find(|&i| !used[i] && rack[i] == t) {
                used[i] = true;
            }
        }
        let mut i = 0;
        rack.retain(|_| {
            i += 1;
            !used[i - 1]
        });
    }

    /// Up to `n` tiles from the front of the bag onto the end of rack `who`.
    fn draw(&mut self, who: usize, n: usize) {
        let n = n.min(self.bag.len() - self.front);
        self.racks[who].extend_from_slice(&self.bag[self.front..self.front + n]);
        self.front += n;
    }

    /// Exchange `returned` (rack order): the rest stays, as many are drawn, then they go back.
    fn exchange(&mut self, who: usize, returned: &[i64]) {
        self.take(who, returned);
        self.draw(who, returned.len());
        self.bag.extend_from_slice(returned);
    }

    /// A new tile on a forced-exchange square swaps the victim's rack for as many tiles from the
    /// front of the bag, the old rack going to the back, while the bag holds enough.
    fn forced_exchange(&mut self, t: &RolloutRules, victim: usize, fired: bool) -> bool {
        if !fired || self.bag_left() < t.forced_min_bag {
            return false;
        }
        let old = std::mem::take(&mut self.racks[victim]);
        self.draw(victim, old.len());
        self.bag.extend_from_slice(&old);
        true
    }
}

/// The board of a rollout, row-major.
struct Board {
    letters: Vec<u8>,
    blanks: Vec<bool>,
}

impl Board {
    /// Lay a move record's new tiles; returns their codes (a blank: 0) in the word's order and
    /// whether one is on a forced-exchange square.
    fn lay(&mut self, t: &RolloutRules, record: &Record) -> (Vec<i64>, bool) {
        let cols = t.rules.cols;
        let (r, c) = (record[ROW] as usize, record[COL] as usize);
        let mut laid = Vec::new();
        let mut fired = false;
        for k in 0..record[LENGTH] as usize {
            let cell = record[CELLS + k];
            if cell & BOARD_FLAG != 0 {
                continue;
            }
            let (rr, cc) = if record[DIR] as usize == ACROSS { (r, c + k) } else { (r + k, c) };
            let blank = cell & BLANK_FLAG != 0;
            self.letters[rr * cols + cc] = (cell & CODE_MASK) as u8;
            self.blanks[rr * cols + cc] = blank;
            laid.push(if blank { BLANK_SLOT as i64 } else { (cell & CODE_MASK) as i64 });
            fired |= t.forced[rr * cols + cc];
        }
        (laid, fired)
    }
}

/// The opponent's first reply shared by the candidates of one future: the position's anchors
/// with their best moves for the opponent's rack (made for these leave weights), and the lines
/// the candidate changes; the reply then searches only those lines.
pub struct SharedReply<'a> {
    pub table: &'a mut AnchorTable,
    pub weight: f64,
    pub kept_factor: f64,
    pub changed: &'a [Vec<bool>; 2],
}

/// Every sub-multiset value of a rack's `counts` for a bag of `bag` tiles: (weights, place
/// values, values, sizes).
fn rack_leaves(t: &RolloutRules, counts: &Rack, bag: i64) -> ((f64, f64), [i64; RACK_SLOTS], Vec<f64>, Vec<i64>) {
    let weights = t.weights(bag);
    let (place, values, sizes) = t.leaves.subset_values(counts, t.tile_value, weights.0, weights.1);
    (weights, place, values, sizes)
}

fn counts_of(rack: &[i64]) -> Rack {
    let mut counts = [0i64; RACK_SLOTS];
    for &code in rack {
        counts[code as usize] += 1;
    }
    counts
}

/// Play `candidate` into one future, then `plies` best replies; the answer into `out` (see
/// SPREAD ...).  `board`: the board after the candidate; `racks`: the mover's rack before the
/// candidate and the opponent's; `bag`: the future's bag in drawing order; `forced`: whether the
/// candidate lays a tile on a forced-exchange square.  `reply`: the opponent's first reply shared
/// by the candidates of a future, used when the opponent's rack and leave weights are the ones it
/// was made for.
#[allow(clippy::too_many_arguments)]
fn rollout(
    t: &RolloutRules,
    mut board: Board,
    racks: [Vec<i64>; 2],
    bag: Vec<i64>,
    candidate: &Candidate,
    forced: bool,
    plies: usize,
    mut reply: Option<SharedReply>,
    out: &mut [f64],
) {
    let mut tiles = Tiles { racks, bag, front: 0 };
    let mut spread = candidate.score as f64;
    let mut passes = 0;
    let mut shared = reply.is_some();
    let taken = candidate.tiles();
    if candidate.kind == PASS_KIND {
        passes = 1;
    } else if candidate.kind == EXCHANGE_KIND {
        tiles.exchange(0, &taken);
    } else {
        tiles.take(0, &taken);
        tiles.draw(0, taken.len());
        if tiles.forced_exchange(t, 1, forced) {
            shared = false;
        }
    }
    let (mut last, mut leave_term, mut played) = (0usize, 0.0f64, 0usize);
    let mut over = tiles.racks[0].is_empty() && tiles.bag_left() == 0;
    if over {
        spread += (2 * t.rack_value(&tiles.racks[1])) as f64;
    }
    for ply in 0..plies {
        if over {
            break;
        }
        let mover = (ply + 1) % 2;
        let sign: i64 = if mover == 0 { 1 } else { -1 };
        let bag_now = tiles.bag_left();
        let (mut kind, mut score, mut bingo, mut leave_value) = (PASS_KIND, 0i64, false, 0.0f64);
        if !tiles.racks[mover].is_empty() {
            let mut counts = counts_of(&tiles.racks[mover]);
            let ((weight, kept_factor), place, values, leave_sizes) = rack_leaves(t, &counts, bag_now);
            let bound = leave_bounds(tiles.racks[mover].len() as i64, &values, &leave_sizes);
            let views = View::pair(t.rules, &board.letters, &board.blanks);
            let views = [views.0, views.1];
            let query = t.query(&views);
            let leaves = Leaves { place, values: &values };
            let outcome: Outcome = match &mut reply {
                Some(r) if shared && ply == 0 && weight == r.weight && kept_factor == r.kept_factor => {
                    best_move_sharing(&query, &mut counts, leaves, bound, r.table, r.changed)
                }
                _ => best_move(&query, &mut counts, leaves, bound, false),
            };
            let whole = values.len() - 1;
            let kept = outcome.record.map_or(whole as i64, |rec| leave_number(&rec, &place, whole as i64)) as usize;
            let mut exchange: Option<usize> = None;
            if t.exchanges && bag_now >= t.exchange_min_bag && values.len() > 1 {
                let top = values[1..whole].iter().fold(values[0], |a, &b| if b > a { b } else { a });
                if top > outcome.equity {
                    for i in 0..whole {
                        // the first best keep, the most tiles kept among equals
                        if values[i] == top && exchange.is_none_or(|e| leave_sizes[i] > leave_sizes[e]) {
                            exchange = Some(i);
                        }
                    }
                }
            }
            if let Some(e) = exchange {
                kind = EXCHANGE_KIND;
                let mut seen = [0i64; RACK_SLOTS];
                let mut returned = Vec::new();
                for &code in &tiles.racks[mover] {
                    // the rack less the first tiles of each letter kept
                    let c = code as usize;
                    let keep = (e as i64 / place[c]) % (counts[c] + 1);
                    if seen[c] < keep {
                        seen[c] += 1;
                    } else {
                        returned.push(code);
                    }
                }
                leave_value = values[e];
                tiles.exchange(mover, &returned);
            } else if let Some(record) = outcome.record {
                kind = PLACE_KIND;
                score = record[SCORE] as i64;
                bingo = record[TILES] as i64 == t.rules.bingo_tiles;
                leave_value = values[kept];
                let (laid, fired) = board.lay(t, &record);
                tiles.take(mover, &laid);
                tiles.draw(mover, laid.len());
                tiles.forced_exchange(t, 1 - mover, fired);
            } else {
                leave_value = values[whole];
            }
        }
        passes = if kind == PASS_KIND { passes + 1 } else { 0 };
        leave_term = leave_value;
        spread += (sign * score) as f64;
        out[PLY_SCORES + 2 * ply] = score as f64;
        out[PLY_SCORES + 2 * ply + 1] = if bingo { 1.0 } else { 0.0 };
        played += 1;
        last = mover;
        if tiles.racks[mover].is_empty() && tiles.bag_left() == 0 {
            // out: the other's tiles count twice
            spread += (sign * 2 * t.rack_value(&tiles.racks[1 - mover])) as f64;
            over = true;
        } else if passes >= PASSES_TO_END {
            // two passes each: everyone loses their own tiles
            spread += (t.rack_value(&tiles.racks[1]) - t.rack_value(&tiles.racks[0])) as f64;
            over = true;
        }
    }
    if !over {
        spread += if last == 0 { leave_term } else { -leave_term };
    }
    out[SPREAD] = spread;
    out[OVER] = if over { 1.0 } else { 0.0 };
    out[LAST] = last as f64;
    out[BAG_LEFT] = tiles.bag_left() as f64;
    out[PLAYED] = played as f64;
}

/// The random part of one iteration: the opponent's rack and the bag in drawing order.
pub struct Future {
    pub opponent: Vec<i64>,
    pub bag: Vec<i64>,
}

/// A position's candidates, ready to be played into futures.
pub struct Simulation {
    pub letters: Vec<u8>,
    pub blanks: Vec<bool>,
    /// The mover's rack, letter codes in rack order (a blank 0).
    pub rack: Vec<i64>,
    pub candidates: Vec<Candidate>,
    /// Per candidate: the board after it, whether it fires a forced exchange, the lines it changes.
    boards: Vec<(Vec<u8>, Vec<bool>)>,
    forced: Vec<bool>,
    changed: Vec<[Vec<bool>; 2]>,
}

impl Simulation {
    /// The candidates on the board `letters`, `blanks` (row-major, `rules`' board;
    /// `forced_squares`: its forced-exchange squares) for the mover's `rack`.
    pub fn new(
        rules: &Rules,
        forced_squares: &[bool],
        letters: Vec<u8>,
        blanks: Vec<bool>,
        rack: Vec<i64>,
        candidates: Vec<Candidate>,
    ) -> Self {
        let cols = rules.cols;
        let mut boards = Vec::new();
        let mut forced = Vec::new();
        let mut changed = Vec::new();
        for candidate in &candidates {
            let (mut after_letters, mut after_blanks) = (letters.clone(), blanks.clone());
            for &(r, c, letter, blank) in &candidate.laid {
                after_letters[r * cols + c] = letter;
                after_blanks[r * cols + c] = blank;
            }
            let squares: Vec<(usize, usize)> = candidate.laid.iter().map(|&(r, c, _, _)| (r, c)).collect();
            forced.push(candidate.kind == PLACE_KIND && squares.iter().any(|&(r, c)| forced_squares[r * cols + c]));
            changed.push(changed_lines(&after_letters, rules.rows, cols, &squares));
            boards.push((after_letters, after_blanks));
        }
        Simulation { letters, blanks, rack, candidates, boards, forced, changed }
    }

    /// The candidates numbered `active` in one future: their answers, one row of
    /// `answer_width(plies)` each, into `out`.
    fn play_future(&self, t: &RolloutRules, future: &Future, active: &[usize], plies: usize, out: &mut [f64]) {
        let width = answer_width(plies);
        let empty = self.letters.iter().all(|&l| l == 0);
        // The opponent's first reply, by leave weights: made once per future and weights, on the
        // position's board; not on an empty board that the candidate lays tiles on (the start
        // square is then no anchor any more).
        let mut tables: Vec<((f64, f64), AnchorTable)> = Vec::new();
        for (row, &c) in out.chunks_exact_mut(width).zip(active) {
            let candidate = &self.candidates[c];
            let drawn = if candidate.kind == PLACE_KIND { candidate.laid.len().min(future.bag.len()) } else { 0 };
            let bag = (future.bag.len() - drawn) as i64; // at the opponent's reply
            let weights = t.weights(bag);
            let shared = !(empty && candidate.kind == PLACE_KIND);
            if shared && !tables.iter().any(|(w, _)| *w == weights) {
                let views = View::pair(t.rules, &self.letters, &self.blanks);
                let counts = counts_of(&future.opponent);
                let (_, place, values, sizes) = rack_leaves(t, &counts, bag);
                let bound = leave_bounds(future.opponent.len() as i64, &values, &sizes);
                let leaves = Leaves { place, values: &values };
                let table = AnchorTable::new(&t.query(&[]), [views.0, views.1], &counts, &leaves, bound);
                tables.push((weights, table));
            }
            let reply = tables.iter_mut().find(|(w, _)| shared && *w == weights).map(|(w, table)| SharedReply {
                table,
                weight: w.0,
                kept_factor: w.1,
                changed: &self.changed[c],
            });
            let (letters, blanks) = self.boards[c].clone();
            let racks = [self.rack.clone(), future.opponent.clone()];
            row.fill(0.0);
            rollout(
                t,
                Board { letters, blanks },
                racks,
                future.bag.clone(),
                candidate,
                self.forced[c],
                plies,
                reply,
                row,
            );
        }
    }

    /// Every future with the candidates numbered `active`: [futures][active][answer_width]
    /// numbers, flat.  `pool`: the threads to share the futures among (None: this thread); the
    /// answer does not depend on it.
    pub fn run(
        &self,
        t: &RolloutRules,
        futures: &[Future],
        active: &[usize],
        plies: usize,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<f64> {
        let per_future = active.len() * answer_width(plies);
        let mut out = vec![0.0; futures.len() * per_future];
        if per_future == 0 {
            return out;
        }
        let play = |(row, future): (&mut [f64], &Future)| self.play_future(t, future, active, plies, row);
        match pool {
            None => out.chunks_exact_mut(per_future).zip(futures).for_each(play),
            Some(pool) => pool.install(|| out.par_chunks_exact_mut(per_future).zip(futures).for_each(play)),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(mover: &[i64], opponent: &[i64], bag: &[i64]) -> Tiles {
        Tiles { racks: [mover.to_vec(), opponent.to_vec()], bag: bag.to_vec(), front: 0 }
    }

    fn rules_with(forced_min_bag: i64, model: &Model, rules: &Rules) -> bool {
        let t = RolloutRules {
            kwg: Kwg { words: &[] },
            gaddag_root: 0,
            dawg_root: 0,
            rules,
            leaves: model,
            tile_value: &[],
            shrink_below: 0,
            kept_tile_factor: 0.0,
            exchange_min_bag: 0,
            exchanges: false,
            forced: &[],
            forced_min_bag,
            bingo: None,
        };
        let mut after = tiles(&[1, 2], &[3, 4, 5, 6, 7, 8, 9], &[10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
        let swapped = after.forced_exchange(&t, 1, true);
        if swapped {
            // the victim's rack comes from the front of the bag, the old rack goes to the back
            assert_eq!(after.racks, [vec![1, 2], vec![10, 11, 12, 13, 14, 15, 16]]);
            assert_eq!(after.bag[after.front..], [17, 18, 19, 20, 3, 4, 5, 6, 7, 8, 9]);
        } else {
            assert_eq!(after.racks[1], vec![3, 4, 5, 6, 7, 8, 9]);
            assert_eq!(after.bag_left(), 11);
        }
        let mut not_fired = tiles(&[1, 2], &[3, 4], &[10, 11]);
        assert!(!not_fired.forced_exchange(&t, 1, false));
        swapped
    }

    #[test]
    fn a_forced_exchange_swaps_the_next_rack_while_the_bag_allows() {
        let rules = Rules::plain(1, 1);
        let layout = crate::leaves::Layout::from((64, 6, 1, 0, 0, 0, 0, 0));
        let model = Model { layout, keys: &[], directory: None, values: &[], coef: &[], colour_of: &[], vowel: &[] };
        assert!(rules_with(7, &model, &rules));
        assert!(!rules_with(12, &model, &rules)); // fewer tiles in the bag than the rule needs
    }

    #[test]
    fn tiles_leave_a_rack_first_of_each_letter_and_return_to_the_back() {
        let mut t = tiles(&[5, 3, 5, 0, 7], &[], &[1, 2, 3]);
        t.take(0, &[5, 0]);
        assert_eq!(t.racks[0], vec![3, 5, 7]);
        t.exchange(0, &[3, 7]);
        assert_eq!(t.racks[0], vec![5, 1, 2]);
        assert_eq!(t.bag[t.front..], [3, 3, 7]);
        t.draw(0, 5); // only what the bag holds
        assert_eq!(t.racks[0], vec![5, 1, 2, 3, 3, 7]);
        assert_eq!(t.bag_left(), 0);
    }
}
