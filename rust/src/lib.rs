//! literaki's engine core, as the Python extension module `literaki_cli._core`.
//!
//! This file is only the glue: it takes numpy arrays and numbers from Python, hands them to the
//! modules that do the work as plain slices, and gives numpy arrays back.  Every search runs with
//! the GIL released, and every panic is caught here and becomes a `CoreError` with one line.

pub mod bingo;
pub mod board;
pub mod dawg;
mod dawg_py;
pub mod endgame;
mod endgame_py;
mod fit_py;
pub mod grid;
pub mod kwg;
pub mod leaves;
pub mod movegen;
pub mod rollout;
pub mod rules;
pub mod shadow;
pub mod study;
mod study_py;
pub mod wordprune;
pub mod words;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, Weak};

use numpy::ndarray::{Array2, Array3};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use crate::board::View;
use crate::kwg::Kwg;
use crate::movegen::{Leaves, Rack, Record, RACK_SLOTS, RECORD_WIDTH};
use crate::rollout::{Candidate, Future, LaidTile, RolloutRules};
use crate::rules::{Rules, CODE_SPACE};
use crate::shadow::{BestMoveQuery, Outcome};

create_exception!(
    _core,
    CoreError,
    PyException,
    "An input the engine core cannot use, or a fault inside it (one line)."
);

/// Runs `work`, turning a panic into a `CoreError` that names what was being done.
fn guarded<T>(what: &str, work: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        let detail = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown fault".to_string());
        CoreError::new_err(format!("internal error in the engine core ({what}): {detail}"))
    })
}

fn slice<'a, T: numpy::Element>(array: &'a PyReadonlyArray1<'_, T>, name: &str) -> PyResult<&'a [T]> {
    array.as_slice().map_err(|_| CoreError::new_err(format!("{name}: not a contiguous array")))
}

/// The move generator of one lexicon and one variant's rules (`MoveGenerator` in
/// `literaki_cli/engine/movegen.py` holds one).
#[pyclass(frozen, module = "literaki_cli._core")]
struct Generator {
    /// Held so that the arc array stays alive (and its address means it) while `words` is cached.
    _arcs: Py<PyArray1<u32>>,
    /// The graph as the walks read it (`kwg::graph_words`), shared by the generators of one
    /// lexicon array (see `shared_words`).
    words: Arc<kwg::GraphWords>,
    gaddag_root: usize,
    dawg_root: usize,
    rules: Rules,
    /// The words a bingo could make (`bingo::BingoIndex`), once the graph has them (see
    /// `kwg::SEARCHES_BEFORE_BINGO_INDEX`): they only tighten bounds, answers never depend on them.
    bingo: std::sync::OnceLock<Arc<bingo::BingoIndex>>,
}

impl Generator {
    fn bingo_tiles(&self) -> usize {
        self.rules.bingo_tiles.max(0) as usize
    }

    /// The bingo index of this generator's lexicon and rules, made now if need be.
    fn bingo_index(&self) -> &bingo::BingoIndex {
        self.bingo.get_or_init(|| self.words.bingo_index(self.dawg_root, self.bingo_tiles()))
    }

    /// The bingo index for one more search, when the graph has one or it is due.
    fn bingo_for_search(&self) -> Option<&bingo::BingoIndex> {
        if let Some(index) = self.bingo.get() {
            return Some(index);
        }
        let index = self.words.bingo_index_if_due(self.dawg_root, self.bingo_tiles())?;
        Some(self.bingo.get_or_init(|| index))
    }

    /// The board's letters and blanks as row-major slices (checked against the rules' board).
    fn board(
        &self,
        letters: &PyReadonlyArray2<'_, u8>,
        blanks: &PyReadonlyArray2<'_, bool>,
    ) -> PyResult<(Vec<u8>, Vec<bool>)> {
        let shape = [self.rules.rows, self.rules.cols];
        if letters.shape() != shape || blanks.shape() != shape {
            return Err(CoreError::new_err(format!(
                "a board of {:?} for rules of a {}x{} board",
                letters.shape(),
                shape[0],
                shape[1]
            )));
        }
        // a contiguous array is copied at once, any other element by element
        let letters = letters.as_slice().map_or_else(|_| letters.as_array().iter().copied().collect(), <[u8]>::to_vec);
        if let Some(bad) = letters.iter().find(|&&l| l as usize >= CODE_SPACE) {
            return Err(CoreError::new_err(format!("letter code {bad} on the board")));
        }
        let blanks = blanks.as_slice().map_or_else(|_| blanks.as_array().iter().copied().collect(), <[bool]>::to_vec);
        Ok((letters, blanks))
    }

    fn rack(rack: &PyReadonlyArray1<'_, i64>) -> PyResult<Rack> {
        let counts = slice(rack, "rack")?;
        if counts.len() != RACK_SLOTS || counts.iter().any(|&n| !(0..=MAX_RACK).contains(&n)) {
            return Err(CoreError::new_err(format!("a rack must be {RACK_SLOTS} counts of 0..{MAX_RACK}")));
        }
        let mut out = [0i64; RACK_SLOTS];
        out.copy_from_slice(counts);
        Ok(out)
    }
}

/// The best move's record (None: no move), the GADDAG states entered and the arcs examined.
type BestAnswer<'py> = (Option<Bound<'py, PyArray1<i32>>>, u64, u64);

/// Arc arrays (address, length) and the words made of them.
type WordsCache = Vec<(usize, usize, Weak<kwg::GraphWords>)>;

/// The graph's words of an arc array (arcs and their lists' letters): made once, with the GIL
/// released, and shared while a generator of the same array lives.  A generator keeps its arc
/// array alive, so an address in the cache always means the same array.
fn shared_words(py: Python<'_>, arcs: &[u32]) -> Arc<kwg::GraphWords> {
    static CACHE: Mutex<WordsCache> = Mutex::new(Vec::new());
    let key = (arcs.as_ptr() as usize, arcs.len());
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    cache.retain(|(_, _, weak)| weak.strong_count() > 0);
    if let Some(words) = cache.iter().find(|(p, n, _)| (*p, *n) == key).and_then(|(_, _, w)| w.upgrade()) {
        return words;
    }
    let words = Arc::new(py.detach(|| kwg::graph_words(arcs)));
    cache.push((key.0, key.1, Arc::downgrade(&words)));
    words
}

/// More tiles than any rack holds (a move lays at most a word's length of them).
const MAX_RACK: i64 = movegen::MAX_WORD as i64;

fn records_array<'py>(py: Python<'py>, records: &[Record]) -> Bound<'py, PyArray2<i32>> {
    let flat: Vec<i32> = records.iter().flat_map(|r| r.iter().copied()).collect();
    Array2::from_shape_vec((records.len(), RECORD_WIDTH), flat).expect("records are RECORD_WIDTH wide").into_pyarray(py)
}

#[pymethods]
impl Generator {
    #[new]
    #[pyo3(signature = (arcs, gaddag_root, dawg_root, rows, cols, new_value, tile_value, word_mult, end_mult,
                        bingo_tiles, bingo_bonus, min_word, max_word, first_move_min_tiles, start_row, start_col))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        arcs: Bound<'_, PyArray1<u32>>,
        gaddag_root: usize,
        dawg_root: usize,
        rows: usize,
        cols: usize,
        new_value: PyReadonlyArray2<'_, i64>,
        tile_value: PyReadonlyArray1<'_, i64>,
        word_mult: PyReadonlyArray1<'_, i64>,
        end_mult: PyReadonlyArray3<'_, i64>,
        bingo_tiles: i64,
        bingo_bonus: i64,
        min_word: i64,
        max_word: i64,
        first_move_min_tiles: i64,
        start_row: usize,
        start_col: usize,
    ) -> PyResult<Self> {
        let rules = Rules {
            rows,
            cols,
            new_value: new_value.as_array().iter().copied().collect(),
            tile_value: slice(&tile_value, "tile_value")?.to_vec(),
            word_mult: slice(&word_mult, "word_mult")?.to_vec(),
            end_mult: end_mult.as_array().iter().copied().collect(),
            bingo_tiles,
            bingo_bonus,
            min_word,
            max_word,
            first_move_min_tiles,
            start: (start_row, start_col),
            square_class: Vec::new(),
            class_square: Vec::new(),
            top_value: Vec::new(),
        };
        rules.check().map_err(CoreError::new_err)?;
        let rules = rules.classify();
        let len = arcs.len();
        if !arcs.is_contiguous() || len == 0 || gaddag_root >= len || dawg_root >= len {
            return Err(CoreError::new_err("the arcs must be one contiguous array holding both roots"));
        }
        let words = shared_words(arcs.py(), arcs.readonly().as_slice()?);
        Ok(Generator { _arcs: arcs.unbind(), words, gaddag_root, dawg_root, rules, bingo: Default::default() })
    }

    /// The word graph's arcs.
    #[getter]
    fn arcs(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        self._arcs.clone_ref(py)
    }

    /// Make the bingo index now (the best-move searches otherwise make it once they are many).
    fn prepare_bingo_index(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            guarded("bingo index", || {
                let _ = self.bingo_index();
            })
        })
    }

    /// Every legal move of `rack` (64 counts, slot 0 the blanks) on the board, as move records
    /// (one row each, RECORD_WIDTH columns), in the order of the former numba kernels.
    fn generate<'py>(
        &self,
        py: Python<'py>,
        letters: PyReadonlyArray2<'py, u8>,
        blanks: PyReadonlyArray2<'py, bool>,
        rack: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let (letters, blanks) = self.board(&letters, &blanks)?;
        let mut rack = Self::rack(&rack)?;
        let kwg = Kwg { words: &self.words };
        let (rules, gaddag, dawg) = (&self.rules, self.gaddag_root, self.dawg_root);
        let records = py.detach(|| {
            guarded("move generation", || {
                let views = View::pair(rules, &letters, &blanks);
                let views = [views.0, views.1];
                movegen::generate(kwg, gaddag, dawg, rules, &views, &mut rack).records
            })
        })?;
        Ok(records_array(py, &records))
    }

    /// The record of the best move by equity (None: no move).  `place`, `values`, `sizes`: the
    /// rack's leaves (`RackLeaves`); `rack_tiles`: the tiles on the rack.  With `ties_in_order`,
    /// equal equities go to the first in generate's order, else to the anchor of the best bound.
    /// Returns (record or None, GADDAG states entered, arcs examined; both 0 without counters).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (letters, blanks, rack, place, values, sizes, rack_tiles, ties_in_order=false))]
    fn best<'py>(
        &self,
        py: Python<'py>,
        letters: PyReadonlyArray2<'py, u8>,
        blanks: PyReadonlyArray2<'py, bool>,
        rack: PyReadonlyArray1<'py, i64>,
        place: PyReadonlyArray1<'py, i64>,
        values: PyReadonlyArray1<'py, f64>,
        sizes: PyReadonlyArray1<'py, i64>,
        rack_tiles: i64,
        ties_in_order: bool,
    ) -> PyResult<BestAnswer<'py>> {
        let (letters, blanks) = self.board(&letters, &blanks)?;
        let mut rack = Self::rack(&rack)?;
        let place_counts = slice(&place, "place")?;
        let values = slice(&values, "values")?;
        let sizes = slice(&sizes, "sizes")?;
        if place_counts.len() != RACK_SLOTS
            || place_counts.iter().zip(rack.iter()).any(|(&p, &n)| p < 0 || (n > 0 && p < 1))
            || values.is_empty()
            || sizes.len() != values.len()
            || sizes.iter().any(|&s| s < 0 || s > rack_tiles)
            || !(0..=MAX_RACK).contains(&rack_tiles)
            || rack.iter().sum::<i64>() != rack_tiles
        {
            return Err(CoreError::new_err("leave values that do not fit the rack"));
        }
        let mut place_array = [0i64; RACK_SLOTS];
        place_array.copy_from_slice(place_counts);
        let kwg = Kwg { words: &self.words };
        let (rules, gaddag, dawg) = (&self.rules, self.gaddag_root, self.dawg_root);
        let outcome: Outcome = py.detach(|| {
            guarded("best move", || {
                let bingo = self.bingo_for_search();
                let views = View::pair(rules, &letters, &blanks);
                let views = [views.0, views.1];
                let query = BestMoveQuery { kwg, gaddag_root: gaddag, dawg_root: dawg, rules, views: &views, bingo };
                let bound = shadow::leave_bounds(rack_tiles, values, sizes);
                shadow::best_move(&query, &mut rack, Leaves { place: place_array, values }, bound, ties_in_order)
            })
        })?;
        let record = outcome.record.map(|r| r.to_vec().into_pyarray(py));
        Ok((record, outcome.states, outcome.arcs))
    }
}

/// A leave file's arrays and the model's layout (`LeaveTable.core` in
/// `literaki_cli/equity/leaves.py` holds one).
#[pyclass(frozen, module = "literaki_cli._core")]
struct LeaveModel {
    layout: leaves::Layout,
    keys: Py<PyArray1<i64>>,
    values: Py<PyArray1<f64>>,
    coef: Py<PyArray1<f64>>,
    colour_of: Py<PyArray1<i64>>,
    vowel: Py<PyArray1<i64>>,
    /// The keys' directory (`leaves::KeyDirectory`), made once the model has valued
    /// RACKS_BEFORE_KEY_DIRECTORY racks: a few milliseconds that one `solve` does without.
    directory: std::sync::OnceLock<leaves::KeyDirectory>,
    racks: std::sync::atomic::AtomicU64,
}

/// Racks valued (`LeaveModel.subset_values`) before the keys' directory is made: it takes well
/// under a millisecond for the shipped file (some 30 ms for a file of 2.6 M leaves) and saves
/// some 2-5 us a rack of seven tiles.
const RACKS_BEFORE_KEY_DIRECTORY: u64 = 200;

/// The rack's place values, every sub-multiset's value and size (numpy arrays).
type SubsetValues<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>);

#[pymethods]
impl LeaveModel {
    /// `layout`: (n_slots, max_leave, max_colours, f_tile, f_extra, f_blank_pair, f_balance,
    /// f_colour_pairs) as `literaki_cli/equity/leaves.py` defines the model.
    #[new]
    fn new(
        layout: leaves::LayoutTuple,
        keys: Bound<'_, PyArray1<i64>>,
        values: Bound<'_, PyArray1<f64>>,
        coef: Bound<'_, PyArray1<f64>>,
        colour_of: Bound<'_, PyArray1<i64>>,
        vowel: Bound<'_, PyArray1<i64>>,
    ) -> PyResult<Self> {
        let layout = leaves::Layout::from(layout);
        let (n_slots, max_colours) = (layout.n_slots, layout.max_colours);
        let features = layout.f_colour_pairs + max_colours;
        let ok = keys.len() == values.len()
            && coef.len() == features
            && colour_of.len() == n_slots
            && vowel.len() == n_slots
            && n_slots <= RACK_SLOTS
            && max_colours <= 64
            && [
                keys.is_contiguous(),
                values.is_contiguous(),
                coef.is_contiguous(),
                colour_of.is_contiguous(),
                vowel.is_contiguous(),
            ]
            .iter()
            .all(|&c| c)
            && colour_of.readonly().as_slice()?.iter().all(|&c| c < max_colours as i64);
        if !ok {
            return Err(CoreError::new_err("leave arrays that do not fit the model's layout"));
        }
        Ok(LeaveModel {
            layout,
            keys: keys.unbind(),
            values: values.unbind(),
            coef: coef.unbind(),
            colour_of: colour_of.unbind(),
            vowel: vowel.unbind(),
            directory: Default::default(),
            racks: Default::default(),
        })
    }

    /// The value of the leave with these tile counts (64 counts, slot 0 the blanks): the learned
    /// one when the file has it, else the model's; 0 for the empty leave and one too long to keep.
    fn value(&self, py: Python<'_>, counts: PyReadonlyArray1<'_, i64>) -> PyResult<f64> {
        let counts = Generator::rack(&counts)?;
        self.with_model(py, |model| guarded("leave value", || model.lookup(&counts)))?
    }

    /// The parametric model's value of the leave with these tile counts (what rare leaves get).
    fn model(&self, py: Python<'_>, counts: PyReadonlyArray1<'_, i64>) -> PyResult<f64> {
        let counts = Generator::rack(&counts)?;
        self.with_model(py, |model| guarded("leave value", || model.model_value(&counts)))?
    }

    /// Every sub-multiset of `rack` (64 counts) valued: `weight` x its value - `kept_factor` x
    /// the points of its tiles (`tile_value` by letter code).  Returns (place, values, sizes).
    fn subset_values<'py>(
        &self,
        py: Python<'py>,
        rack: PyReadonlyArray1<'py, i64>,
        tile_value: PyReadonlyArray1<'py, i64>,
        weight: f64,
        kept_factor: f64,
    ) -> PyResult<SubsetValues<'py>> {
        let rack = Generator::rack(&rack)?;
        let tile_value = slice(&tile_value, "tile_value")?;
        if tile_value.len() < self.layout.n_slots {
            return Err(CoreError::new_err("tile_value shorter than the tile slots"));
        }
        if self.directory.get().is_none()
            && self.racks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= RACKS_BEFORE_KEY_DIRECTORY
        {
            self.prepare_directory(py)?;
        }
        let (place, values, sizes) = self.with_model(py, |model| {
            guarded("leave values", || model.subset_values(&rack, tile_value, weight, kept_factor))
        })??;
        Ok((place.to_vec().into_pyarray(py), values.into_pyarray(py), sizes.into_pyarray(py)))
    }
}

impl LeaveModel {
    /// Makes the keys' directory now (a simulation's rollouts value a rack every ply).
    fn prepare_directory(&self, py: Python<'_>) -> PyResult<()> {
        let keys = self.keys.bind(py).readonly();
        let keys = keys.as_slice()?;
        self.directory.get_or_init(|| leaves::KeyDirectory::of(keys));
        Ok(())
    }

    /// Runs `work` on the model's arrays, borrowed from Python.
    fn with_model<T>(&self, py: Python<'_>, work: impl FnOnce(&leaves::Model) -> T) -> PyResult<T> {
        let (keys, values, coef) =
            (self.keys.bind(py).readonly(), self.values.bind(py).readonly(), self.coef.bind(py).readonly());
        let (colour_of, vowel) = (self.colour_of.bind(py).readonly(), self.vowel.bind(py).readonly());
        let model = leaves::Model {
            layout: self.layout,
            keys: keys.as_slice()?,
            directory: self.directory.get(),
            values: values.as_slice()?,
            coef: coef.as_slice()?,
            colour_of: colour_of.as_slice()?,
            vowel: vowel.as_slice()?,
        };
        Ok(work(&model))
    }
}

/// The leave value of every move record: `values[number of its leave]` (see `RackLeaves`).
#[pyfunction]
fn move_leaves<'py>(
    py: Python<'py>,
    records: PyReadonlyArray2<'py, i32>,
    place: PyReadonlyArray1<'py, i64>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    if records.shape()[1] != RECORD_WIDTH || place.len() != RACK_SLOTS || values.is_empty() {
        return Err(CoreError::new_err("move records or leave values of the wrong shape"));
    }
    let records = records.as_slice().map_err(|_| CoreError::new_err("move records: not a contiguous array"))?;
    let mut place_array = [0i64; RACK_SLOTS];
    place_array.copy_from_slice(slice(&place, "place")?);
    let values = slice(&values, "values")?;
    let out = guarded("leave values", || leaves::move_leaves(records, &place_array, values))?;
    Ok(out.into_pyarray(py))
}

/// A candidate as `literaki_cli/montecarlo/simulation.py` hands it over: (kind, the tiles it
/// lays as (row, column, letter code, blank), the tiles it returns as codes, its score).
type CandidateTuple = (i64, Vec<LaidTile>, Vec<i64>, i64);

/// The equity's and the variant's rules of a simulation besides the move rules (see
/// `rollout::RolloutRules`): (shrink_below, kept_tile_factor, exchange_min_bag, exchanges,
/// forced-exchange squares row-major, forced_min_bag).
type SimRulesTuple = (i64, f64, i64, bool, Vec<bool>, i64);

/// One position's candidates played into futures (`Simulator` in
/// `literaki_cli/montecarlo/simulation.py` holds one).
#[pyclass(frozen, module = "literaki_cli._core")]
struct Simulation {
    generator: Py<Generator>,
    leaves: Py<LeaveModel>,
    tile_value: Vec<i64>,
    shrink_below: i64,
    kept_tile_factor: f64,
    exchange_min_bag: i64,
    exchanges: bool,
    forced: Vec<bool>,
    forced_min_bag: i64,
    simulation: rollout::Simulation,
    /// The threads the futures are shared among (None: one, the caller's).
    pool: Option<rayon::ThreadPool>,
}

/// Letter codes of a rack or bag (a blank 0), checked.
fn codes(tiles: Vec<i64>, what: &str) -> PyResult<Vec<i64>> {
    if tiles.iter().any(|&c| !(0..=32).contains(&c)) {
        return Err(CoreError::new_err(format!("{what}: a letter code outside 0..32")));
    }
    Ok(tiles)
}

impl Simulation {
    fn with_rules<T>(&self, py: Python<'_>, work: impl FnOnce(&RolloutRules) -> T) -> PyResult<T> {
        let generator = self.generator.get();
        self.leaves.get().with_model(py, |model| {
            let t = RolloutRules {
                kwg: Kwg { words: &generator.words },
                gaddag_root: generator.gaddag_root,
                dawg_root: generator.dawg_root,
                rules: &generator.rules,
                leaves: model,
                tile_value: &self.tile_value,
                shrink_below: self.shrink_below,
                kept_tile_factor: self.kept_tile_factor,
                exchange_min_bag: self.exchange_min_bag,
                exchanges: self.exchanges,
                forced: &self.forced,
                forced_min_bag: self.forced_min_bag,
                bingo: Some(generator.bingo_index()),
            };
            work(&t)
        })
    }
}

#[pymethods]
impl Simulation {
    /// `rules`: see `SimRulesTuple`; `letters`, `blanks`: the position's board; `rack`: the
    /// mover's tiles as codes in rack order; `candidates`: see `CandidateTuple`; `threads`: how
    /// many threads `run` shares the futures among.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        generator: Py<Generator>,
        leaves: Py<LeaveModel>,
        tile_value: PyReadonlyArray1<'_, i64>,
        rules: SimRulesTuple,
        letters: PyReadonlyArray2<'_, u8>,
        blanks: PyReadonlyArray2<'_, bool>,
        rack: Vec<i64>,
        candidates: Vec<CandidateTuple>,
        threads: usize,
    ) -> PyResult<Self> {
        let (letters, blanks) = generator.get().board(&letters, &blanks)?;
        // The bingo index, made now (once per lexicon) with the GIL released, for every rollout.
        py.detach(|| {
            guarded("bingo index", || {
                let _ = generator.get().bingo_index();
            })
        })?;
        leaves.get().prepare_directory(py)?; // and the leave keys' directory: a rack valued every ply
        let board_rules = &generator.get().rules;
        let (shrink_below, kept_tile_factor, exchange_min_bag, exchanges, forced, forced_min_bag) = rules;
        let tile_value = slice(&tile_value, "tile_value")?.to_vec();
        let n_slots = leaves.get().layout.n_slots;
        if forced.len() != board_rules.rows * board_rules.cols || tile_value.len() < n_slots.max(33) {
            return Err(CoreError::new_err("simulation rules that do not fit the board or the tiles"));
        }
        let rack = codes(rack, "the rack")?;
        let mut checked = Vec::new();
        for (kind, laid, returned, score) in candidates {
            let on_board = laid.iter().all(|&(r, c, l, _)| {
                r < board_rules.rows
                    && c < board_rules.cols
                    && (1..=32).contains(&l)
                    && letters[r * board_rules.cols + c] == 0
            });
            if !(rollout::PLACE_KIND..=rollout::PASS_KIND).contains(&kind) || !on_board {
                return Err(CoreError::new_err("a candidate that does not fit the board"));
            }
            checked.push(Candidate { kind, laid, returned: codes(returned, "an exchange")?, score });
        }
        let pool = match threads {
            0 | 1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| CoreError::new_err(format!("cannot start {n} threads: {e}")))?,
            ),
        };
        let simulation = rollout::Simulation::new(board_rules, &forced, letters, blanks, rack, checked);
        Ok(Simulation {
            generator,
            leaves,
            tile_value,
            shrink_below,
            kept_tile_factor,
            exchange_min_bag,
            exchanges,
            forced,
            forced_min_bag,
            simulation,
            pool,
        })
    }

    /// Each future, (opponent's rack, bag in drawing order) as codes, with the candidates
    /// numbered `active`, `plies` replies deep: an array [futures, active, PLY_SCORES + 2 plies]
    /// of (spread change, game over, last mover, bag left, plies played, then each ply's score and
    /// bingo).  The same numbers on any number of threads.
    fn run<'py>(
        &self,
        py: Python<'py>,
        futures: Vec<(Vec<i64>, Vec<i64>)>,
        active: Vec<usize>,
        plies: usize,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f64>>> {
        let mut checked = Vec::with_capacity(futures.len());
        for (opponent, bag) in futures {
            checked.push(Future { opponent: codes(opponent, "a future's rack")?, bag: codes(bag, "a future's bag")? });
        }
        let tiles = self.simulation.rack.len();
        if active.iter().any(|&c| c >= self.simulation.candidates.len())
            || tiles > MAX_RACK as usize
            || checked.iter().any(|f| f.opponent.len() > MAX_RACK as usize)
            || plies > 64
        {
            return Err(CoreError::new_err("futures or candidates that do not fit the simulation"));
        }
        let (sim, pool) = (&self.simulation, self.pool.as_ref());
        let flat = self
            .with_rules(py, |t| py.detach(|| guarded("simulation", || sim.run(t, &checked, &active, plies, pool))))??;
        let shape = (checked.len(), active.len(), rollout::answer_width(plies));
        Ok(Array3::from_shape_vec(shape, flat).expect("one answer per future and candidate").into_pyarray(py))
    }
}

/// The lexicon's arcs as the word searches off the board read them, with `root` checked to be one
/// of them (a corrupt graph beyond that is caught at the boundary: see `guarded`).
fn word_graph<'a>(arcs: &'a PyReadonlyArray1<'_, u32>, root: usize) -> PyResult<&'a [u32]> {
    let arcs = slice(arcs, "arcs")?;
    if root >= arcs.len() {
        return Err(CoreError::new_err("a word graph out of range"));
    }
    Ok(arcs)
}

/// A grid search's paths as numpy arrays: (cells, MAX_PATH a path; lengths; scores).
type GridPaths<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// Every path of a `size` x `size` letter grid (`codes`, row by row) that spells a word of the DAWG
/// at `root` with at least `min_len` letters (`grid::GridSearch`): (cells, MAX_PATH a path, unused
/// ones 0; lengths; scores), in the order found.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn grid_words<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    root: usize,
    codes: PyReadonlyArray1<'py, i64>,
    size: usize,
    premium: PyReadonlyArray1<'py, i64>,
    letter_points: i64,
    min_len: usize,
) -> PyResult<GridPaths<'py>> {
    let (arcs, codes, premium) = (word_graph(&arcs, root)?, slice(&codes, "codes")?, slice(&premium, "premium")?);
    if !(1..=8).contains(&size) || codes.len() != size * size || premium.len() != (size - 1) * (size - 1) {
        return Err(CoreError::new_err(format!(
            "a {size}x{size} grid needs {} letters and their premiums",
            size * size
        )));
    }
    if codes.iter().any(|&c| !(0..CODE_SPACE as i64).contains(&c)) {
        return Err(CoreError::new_err("grid letters out of range"));
    }
    let codes: Vec<u32> = codes.iter().map(|&c| c as u32).collect();
    let found = py.detach(|| {
        guarded("grid search", || {
            let search = grid::GridSearch::run(arcs, root, &codes, size, premium, letter_points, min_len);
            (search.cells, search.lengths, search.scores)
        })
    })?;
    Ok((found.0.into_pyarray(py), found.1.into_pyarray(py), found.2.into_pyarray(py)))
}

/// Every word of the DAWG at `root` a rack (64 counts, slot 0 the blanks) spells in at most
/// `max_len` letters (`grid::rack_words`): letter codes (a blank's + BLANK_FLAG), each word
/// followed by the byte 255.
#[pyfunction]
fn rack_words<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    root: usize,
    counts: PyReadonlyArray1<'py, i64>,
    max_len: usize,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let (arcs, counts) = (word_graph(&arcs, root)?, slice(&counts, "counts")?);
    if counts.len() != RACK_SLOTS || counts.iter().any(|&n| n < 0) {
        return Err(CoreError::new_err(format!("a rack must be {RACK_SLOTS} counts of 0 or more")));
    }
    let mut rack = [0i64; RACK_SLOTS];
    rack.copy_from_slice(counts);
    let max_len = max_len.min(crate::movegen::MAX_WORD);
    let out = py.detach(|| guarded("rack words", || grid::rack_words(arcs, root, &mut rack, max_len)))?;
    Ok(pyo3::types::PyBytes::new(py, &out))
}

/// For each word `codes[starts[i]..ends[i]]`: is it a word of the DAWG at `root` (`words::lookup`)?
#[pyfunction]
fn lookup_words<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    root: usize,
    codes: PyReadonlyArray1<'py, u8>,
    starts: PyReadonlyArray1<'py, i64>,
    ends: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let (arcs, codes) = (word_graph(&arcs, root)?, slice(&codes, "codes")?);
    let (starts, ends) = word_spans(codes, &starts, &ends)?;
    let found = py.detach(|| guarded("word lookup", || words::lookup(arcs, root, codes, starts, ends)))?;
    Ok(found.into_pyarray(py))
}

/// The words `codes[starts[i]..ends[i]]` of a batch, checked to lie in `codes` (an end at or
/// before its start is an empty word; `encode_few` gives one end more for no word at all).
fn word_spans<'a>(
    codes: &[u8],
    starts: &'a PyReadonlyArray1<'_, i64>,
    ends: &'a PyReadonlyArray1<'_, i64>,
) -> PyResult<(&'a [i64], &'a [i64])> {
    let (starts, ends) = (slice(starts, "starts")?, slice(ends, "ends")?);
    let fits = |&(&s, &e): &(&i64, &i64)| e <= s || (s >= 0 && e as usize <= codes.len());
    if ends.len() < starts.len() || !starts.iter().zip(ends).all(|pair| fits(&pair)) {
        return Err(CoreError::new_err("words or a word graph out of range"));
    }
    Ok((starts, &ends[..starts.len()]))
}

/// Every word of the DAWG at `root` (`words::enumerate`) as a numpy array of codes, each word
/// followed by 255; None when they take more than `capacity` bytes.
#[pyfunction]
fn enumerate_words<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    root: usize,
    max_len: usize,
    capacity: usize,
) -> PyResult<Option<Bound<'py, PyArray1<u8>>>> {
    let arcs = word_graph(&arcs, root)?;
    if max_len > 1 << 16 {
        return Err(CoreError::new_err(format!("words of {max_len} letters: too long for a word list")));
    }
    let out = py.detach(|| guarded("word list", || words::enumerate(arcs, root, max_len, capacity)))?;
    Ok(out.map(|out| out.into_pyarray(py)))
}

/// A board view as `wordprune` reads it (letters row-major, the length of a row).
fn board_lines<'a>(array: &'a PyReadonlyArray2<'_, u8>) -> PyResult<wordprune::Lines<'a>> {
    let letters = array.as_slice().map_err(|_| CoreError::new_err("board: not a contiguous array"))?;
    Ok(wordprune::Lines { letters, cols: array.shape()[1].max(1) })
}

/// The pruned word graph of one endgame (`wordprune`): the arcs of every word its moves could form
/// on the board (`across`, and `down` its transpose: letter codes, 0 empty) with the tiles of both
/// racks (`pool`: counts by slot, slot 0 blanks), laid out as a graph of their own: (arcs, its
/// GADDAG root, its DAWG root, word placements found).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn endgame_graph<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    gaddag_root: usize,
    dawg_root: usize,
    across: PyReadonlyArray2<'py, u8>,
    down: PyReadonlyArray2<'py, u8>,
    pool: PyReadonlyArray1<'py, i64>,
    min_word: usize,
    max_word: usize,
) -> PyResult<(Bound<'py, PyArray1<u32>>, usize, usize, u64)> {
    let arcs = word_graph(&arcs, gaddag_root.max(dawg_root))?;
    let (across, down) = (board_lines(&across)?, board_lines(&down)?);
    let mut pool = slice(&pool, "pool")?.to_vec();
    let (graph, roots, found) = py.detach(|| {
        guarded("endgame word graph", || {
            let (marks, found) = wordprune::mark_endgame_words(
                arcs,
                gaddag_root,
                dawg_root,
                [across, down],
                &mut pool,
                min_word,
                max_word,
            );
            let (graph, roots) = wordprune::compact_graph(arcs, &marks, &[gaddag_root, dawg_root]);
            (graph, roots, found)
        })
    })?;
    Ok((graph.into_pyarray(py), roots[0], roots[1], found))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A panic is caught at the boundary and reported as a CoreError: no message on stderr from the
    // default hook (this library's own copy of std, so other Rust libraries keep theirs).
    std::panic::set_hook(Box::new(|_| {}));
    m.add("CoreError", m.py().get_type::<CoreError>())?;
    m.add("RECORD_WIDTH", RECORD_WIDTH)?;
    m.add("BUILD", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    m.add("COUNTERS", cfg!(feature = "counters"))?;
    m.add_class::<Generator>()?;
    m.add_class::<LeaveModel>()?;
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(move_leaves, m)?)?;
    m.add_function(wrap_pyfunction!(grid_words, m)?)?;
    m.add_function(wrap_pyfunction!(rack_words, m)?)?;
    m.add_function(wrap_pyfunction!(lookup_words, m)?)?;
    m.add_function(wrap_pyfunction!(endgame_graph, m)?)?;
    study_py::register(m)?;
    dawg_py::register(m)?;
    endgame_py::register(m)?;
    fit_py::register(m)?;
    m.add_function(wrap_pyfunction!(enumerate_words, m)?)?;
    m.add("GRID_MAX_PATH", grid::MAX_PATH)?;
    Ok(())
}
