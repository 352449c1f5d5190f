//! The endgame search (`endgame`) as Python sees it: the end rules and keys of one solver
//! (`EndgameRules`), its transposition table (`EndgameTable`), and the search of one endgame
//! position (`EndgameSearch`), which `literaki_cli/endgame/solver.py` deepens.

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use numpy::PyUntypedArrayMethods;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3, PyReadwriteArray1};
use pyo3::prelude::*;

use crate::endgame::{
    self, Clock, Counters, Game, Keys, Limits, Position, RootMoves, Searcher, Table, MAX_COUNT, MAX_PLY, PLAYERS,
    SQUARE_KEYS,
};
use crate::kwg::Kwg;
use crate::movegen::{Rack, Record, CELLS, CODE_MASK, COL, DIR, LENGTH, MAX_WORD, RACK_SLOTS, RECORD_WIDTH, ROW};
use crate::{guarded, records_array, slice, CoreError, Generator};

/// The end rules and hash keys of one solver (the same for all its endgames).
#[pyclass(frozen, module = "literaki_cli._core")]
pub struct EndgameRules {
    keys: Keys,
    slot_value: [i64; RACK_SLOTS],
    passes_to_end: i64,
    playout: bool,
}

#[pymethods]
impl EndgameRules {
    /// `square_keys` [squares, 128], `rack_keys` [2, 64, 16], `side_keys` [2], `pass_keys`
    /// [passes_to_end]: the Zobrist keys; `slot_value` [64]: a rack slot's value at the end of
    /// the game; `playout`: value the nodes at the depth limit by a greedy playout.
    #[new]
    fn new(
        square_keys: PyReadonlyArray2<'_, u64>,
        rack_keys: PyReadonlyArray3<'_, u64>,
        side_keys: PyReadonlyArray1<'_, u64>,
        pass_keys: PyReadonlyArray1<'_, u64>,
        slot_value: PyReadonlyArray1<'_, i64>,
        playout: bool,
    ) -> PyResult<Self> {
        let pass = slice(&pass_keys, "pass_keys")?.to_vec();
        let values = slice(&slot_value, "slot_value")?;
        if square_keys.shape()[1] != SQUARE_KEYS
            || rack_keys.shape() != [PLAYERS, RACK_SLOTS, MAX_COUNT]
            || side_keys.len() != PLAYERS
            || pass.is_empty()
            || values.len() != RACK_SLOTS
        {
            return Err(CoreError::new_err("endgame keys or slot values of the wrong shape"));
        }
        let side = slice(&side_keys, "side_keys")?;
        let mut slot_value = [0i64; RACK_SLOTS];
        slot_value.copy_from_slice(values);
        Ok(EndgameRules {
            keys: Keys {
                square: square_keys.as_array().iter().copied().collect(),
                rack: rack_keys.as_array().iter().copied().collect(),
                side: [side[0], side[1]],
                pass: pass.clone(),
            },
            slot_value,
            passes_to_end: pass.len() as i64,
            playout,
        })
    }
}

/// A transposition table, kept by a solver from one endgame to the next.
#[pyclass(frozen, module = "literaki_cli._core")]
pub struct EndgameTable {
    table: Table,
}

#[pymethods]
impl EndgameTable {
    /// 2**bits entries of 24 bytes.
    #[new]
    fn new(py: Python<'_>, bits: u32) -> PyResult<Self> {
        if !(1..=30).contains(&bits) {
            return Err(CoreError::new_err(format!("a table of 2**{bits} entries (1 to 30 bits)")));
        }
        let table = py.detach(|| Table::new(bits));
        let table =
            table.map_err(|e| CoreError::new_err(format!("no memory for a table of 2**{bits} entries: {e}")))?;
        Ok(EndgameTable { table })
    }

    /// Forget every entry.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.table.clear());
    }
}

/// The search of one endgame position: the board and racks (changed and restored in place by
/// every search), the counters and move history it keeps from one search to the next, and its
/// limits (lowered by `stop` from a Ctrl-C handler while a search runs).
#[pyclass(frozen, module = "literaki_cli._core")]
pub struct EndgameSearch {
    rules: Py<EndgameRules>,
    graph: Py<Generator>,
    table: Py<EndgameTable>,
    state: Mutex<(Position, Counters)>,
    limits: Limits,
}

fn game<'a>(rules: &'a EndgameRules, graph: &'a Generator) -> Game<'a> {
    Game {
        kwg: Kwg { words: &graph.words },
        gaddag_root: graph.gaddag_root,
        dawg_root: graph.dawg_root,
        rules: &graph.rules,
        keys: &rules.keys,
        slot_value: &rules.slot_value,
        passes_to_end: rules.passes_to_end,
        playout: rules.playout,
    }
}

/// Python's clock now (the deadlines are `time.perf_counter` times).
fn perf_counter(py: Python<'_>) -> PyResult<f64> {
    py.import("time")?.getattr("perf_counter")?.call0()?.extract()
}

fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    Ok(threading.call_method0("current_thread")?.is(&threading.call_method0("main_thread")?))
}

impl EndgameSearch {
    fn state(&self) -> PyResult<MutexGuard<'_, (Position, Counters)>> {
        match self.state.try_lock() {
            Ok(guard) => Ok(guard),
            Err(std::sync::TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => Err(CoreError::new_err("the endgame search is busy")),
        }
    }

    fn side(side: usize) -> PyResult<usize> {
        if side < PLAYERS {
            Ok(side)
        } else {
            Err(CoreError::new_err(format!("side {side}: an endgame has sides 0 and 1")))
        }
    }

    /// Move records from Python, checked to lie on the board.
    fn records(&self, array: &PyReadonlyArray2<'_, i32>) -> PyResult<Vec<Record>> {
        if array.shape()[1] != RECORD_WIDTH {
            return Err(CoreError::new_err(format!("move records must be {RECORD_WIDTH} wide")));
        }
        let rules = &self.graph.get().rules;
        array.as_array().rows().into_iter().map(|row| checked_record(rules, row.iter().copied())).collect()
    }

    fn record(&self, record: &PyReadonlyArray1<'_, i32>) -> PyResult<Record> {
        let cells = slice(record, "record")?;
        if cells.len() != RECORD_WIDTH {
            return Err(CoreError::new_err(format!("a move record must be {RECORD_WIDTH} wide")));
        }
        checked_record(&self.graph.get().rules, cells.iter().copied())
    }
}

/// A move record whose word lies on the board (or a pass: no cells).
fn checked_record(rules: &crate::rules::Rules, cells: impl Iterator<Item = i32>) -> PyResult<Record> {
    let mut rec: Record = [0; RECORD_WIDTH];
    rec.iter_mut().zip(cells).for_each(|(a, b)| *a = b);
    let n = rec[LENGTH] as i64;
    let (r, c) = (rec[ROW] as i64, rec[COL] as i64);
    let (last_r, last_c) = if rec[DIR] == 0 { (r, c + n - 1) } else { (r + n - 1, c) };
    let fits = n == 0
        || ((0..=1).contains(&rec[DIR])
            && (1..=MAX_WORD as i64).contains(&n)
            && r >= 0
            && c >= 0
            && last_r < rules.rows as i64
            && last_c < rules.cols as i64
            && rec[CELLS..CELLS + n as usize].iter().all(|&cell| (0..256).contains(&cell) && cell & CODE_MASK > 0));
    if fits {
        Ok(rec)
    } else {
        Err(CoreError::new_err("a move record that does not fit the board"))
    }
}

#[pymethods]
impl EndgameSearch {
    /// The search of the endgame on the board (`letters`, `blanks`) with `racks` (2 x 64 counts,
    /// slot 0 blanks; `racks[0]` belongs to side 0), on the word graph of `graph` (a `Generator`:
    /// the endgame's pruned lexicon or the whole one), sharing `table`; it stops at the
    /// perf_counter time `deadline` or after `nodes` nodes (inf: no limit).
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Py<EndgameRules>,
        graph: Py<Generator>,
        table: Py<EndgameTable>,
        letters: PyReadonlyArray2<'_, u8>,
        blanks: PyReadonlyArray2<'_, bool>,
        racks: PyReadonlyArray2<'_, i64>,
        deadline: f64,
        nodes: f64,
    ) -> PyResult<Self> {
        let generator = graph.get();
        let (letters, blanks) = generator.board(&letters, &blanks)?;
        let squares = generator.rules.rows * generator.rules.cols;
        if rules.get().keys.square.len() != squares * SQUARE_KEYS {
            return Err(CoreError::new_err("endgame keys for another board"));
        }
        if racks.shape() != [PLAYERS, RACK_SLOTS]
            || racks.as_array().iter().any(|&n| !(0..MAX_COUNT as i64).contains(&n))
            || racks.as_array().rows().into_iter().any(|rack| rack.sum() >= 63)
        {
            return Err(CoreError::new_err(format!(
                "endgame racks must be {PLAYERS} x {RACK_SLOTS} counts of 0..{} (fewer than 63 tiles)",
                MAX_COUNT - 1
            )));
        }
        let mut two: [Rack; PLAYERS] = [[0; RACK_SLOTS]; PLAYERS];
        for (side, rack) in racks.as_array().rows().into_iter().enumerate() {
            two[side].iter_mut().zip(rack.iter()).for_each(|(a, &b)| *a = b);
        }
        let position = Position::new(&game(rules.get(), generator), &letters, &blanks, two);
        Ok(EndgameSearch {
            rules,
            graph,
            table,
            state: Mutex::new((position, Counters::default())),
            limits: Limits::new(deadline, nodes),
        })
    }

    /// Every placement of `side` in the position now, as move records.
    fn placements<'py>(&self, py: Python<'py>, side: usize) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let side = Self::side(side)?;
        let game = game(self.rules.get(), self.graph.get());
        let mut state = self.state()?;
        let position = &mut state.0;
        let records = py.detach(|| guarded("endgame moves", || position.generate(&game, side)))?;
        Ok(records_array(py, &records))
    }

    /// The order to try `moves` in for `side` (the last, the pass, last; the search's order of a
    /// node's moves, by its history so far).
    fn order_moves<'py>(
        &self,
        py: Python<'py>,
        moves: PyReadonlyArray2<'py, i32>,
        side: usize,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let side = Self::side(side)?;
        let moves = self.records(&moves)?;
        let game = game(self.rules.get(), self.graph.get());
        let state = self.state()?;
        let (position, counters) = (&state.0, &state.1);
        let cols = position.views[0].cols;
        let (mine, their_value) = (position.rack_tiles(side), position.rack_value(&game, 1 - side));
        let order = endgame::order_moves(&game, cols, &moves, mine, their_value, counters.history());
        Ok(order.into_iter().map(|i| i as i64).collect::<Vec<_>>().into_pyarray(py))
    }

    /// Value the first `moves` in `order` to `depth` plies for `side` to move after `passes`
    /// passes in a row (`values`, `exact`: filled in as the search reaches them; the best `keep`
    /// exactly), with `helpers` threads searching deeper (up to `limit` plies) beside it.  A
    /// Ctrl-C handler on Python's main thread runs while it searches.  Returns the helpers'
    /// nodes.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (moves, order, depth, keep, side, passes, values, exact, helpers=0, limit=0))]
    fn search_root(
        &self,
        py: Python<'_>,
        moves: PyReadonlyArray2<'_, i32>,
        order: PyReadonlyArray1<'_, i64>,
        depth: i64,
        keep: usize,
        side: usize,
        passes: i64,
        mut values: PyReadwriteArray1<'_, i64>,
        mut exact: PyReadwriteArray1<'_, bool>,
        helpers: usize,
        limit: i64,
    ) -> PyResult<i64> {
        let side = Self::side(side)?;
        let moves = self.records(&moves)?;
        let n = moves.len();
        let order: Vec<usize> = slice(&order, "order")?.iter().map(|&i| i as usize).collect();
        let mut seen = vec![false; n];
        let rules = self.rules.get();
        if n == 0
            || order.len() != n
            || order.iter().any(|&i| i >= n || std::mem::replace(&mut seen[i], true))
            || values.len() != n
            || exact.len() != n
            || !(1..=n).contains(&keep)
            || !(0..MAX_PLY as i64).contains(&depth)
            || !(0..rules.passes_to_end).contains(&passes)
            || limit >= MAX_PLY as i64
        {
            return Err(CoreError::new_err("an endgame search's first moves, order or limits out of range"));
        }
        let values = values.as_slice_mut().map_err(|_| CoreError::new_err("values: not contiguous"))?;
        let exact = exact.as_slice_mut().map_err(|_| CoreError::new_err("exact: not contiguous"))?;
        let game = game(rules, self.graph.get());
        let table = &self.table.get().table;
        let clock = Clock { origin: perf_counter(py)?, since: Instant::now() };
        let main_thread = is_main_thread(py)?;
        let mut state = self.state()?;
        let (position, counters) = &mut *state;
        let mut heard: Option<PyErr> = None;
        let helper_nodes = py.detach(|| {
            guarded("endgame search", || {
                // Python runs its signal handlers here (a Ctrl-C handler calls `stop`); one that
                // raises stops the search, and its exception is raised once the board is restored.
                let mut listen =
                    || Python::attach(|py| py.check_signals()).map_err(|error| heard = Some(error)).is_err();
                let searcher = Searcher {
                    game,
                    table,
                    position,
                    counters,
                    limits: &self.limits,
                    clock,
                    interrupted: if main_thread { Some(&mut listen) } else { None },
                };
                let root = RootMoves { moves: &moves, order: &order, values, exact };
                endgame::search_with_helpers(searcher, root, depth, keep, side, passes, helpers, limit)
            })
        })?;
        match heard {
            Some(error) => Err(error),
            None => Ok(helper_nodes),
        }
    }

    /// Lay the new tiles of `record` from the rack of `side`.
    fn play(&self, side: usize, record: PyReadonlyArray1<'_, i32>) -> PyResult<()> {
        let (side, rec) = (Self::side(side)?, self.record(&record)?);
        let game = game(self.rules.get(), self.graph.get());
        let mut state = self.state()?;
        guarded("endgame move", || state.0.play(&game, side, &rec))
    }

    /// Take the new tiles of `record` back to the rack of `side`.
    fn take_back(&self, side: usize, record: PyReadonlyArray1<'_, i32>) -> PyResult<()> {
        let (side, rec) = (Self::side(side)?, self.record(&record)?);
        let game = game(self.rules.get(), self.graph.get());
        let mut state = self.state()?;
        guarded("endgame move", || state.0.take_back(&game, side, &rec))
    }

    /// What the rack of `side` counts at the end of the game.
    fn rack_value(&self, side: usize) -> PyResult<i64> {
        let side = Self::side(side)?;
        Ok(self.state()?.0.rack_value(&game(self.rules.get(), self.graph.get()), side))
    }

    fn rack_tiles(&self, side: usize) -> PyResult<i64> {
        let side = Self::side(side)?;
        Ok(self.state()?.0.rack_tiles(side))
    }

    /// The spread for `side` (to move after `passes` passes in a row) when both sides play
    /// greedily to the end (the depth limit's estimate with playouts).
    fn playout_value(&self, py: Python<'_>, side: usize, passes: i64) -> PyResult<i64> {
        let side = Self::side(side)?;
        let game = game(self.rules.get(), self.graph.get());
        let mut state = self.state()?;
        let position = &mut state.0;
        py.detach(|| guarded("endgame playout", || position.playout_value(&game, side, passes)))
    }

    /// The word graph searched (a `Generator`: the endgame's pruned lexicon or the whole one).
    #[getter]
    fn graph(&self, py: Python<'_>) -> Py<Generator> {
        self.graph.clone_ref(py)
    }

    /// The position now: (its hash, the board's letters, the transposed board's, the racks).
    #[allow(clippy::type_complexity)]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(u64, Bound<'py, PyArray2<u8>>, Bound<'py, PyArray2<u8>>, Bound<'py, PyArray2<i64>>)> {
        let state = self.state()?;
        let position = &state.0;
        let grid = |view: &crate::board::View| {
            numpy::ndarray::Array2::from_shape_vec((view.rows, view.cols), view.letters.clone())
                .expect("a view holds rows x cols letters")
                .into_pyarray(py)
        };
        let racks: Vec<i64> = position.racks.iter().flatten().copied().collect();
        let racks = numpy::ndarray::Array2::from_shape_vec((PLAYERS, RACK_SLOTS), racks).expect("two racks");
        Ok((position.key, grid(&position.views[0]), grid(&position.views[1]), racks.into_pyarray(py)))
    }

    /// Nodes searched so far (this thread's).
    #[getter]
    fn nodes(&self) -> PyResult<i64> {
        Ok(self.state()?.1.nodes)
    }

    /// Nodes valued at the depth limit (or by a table entry that was) since it was last cleared.
    #[getter]
    fn horizon(&self) -> PyResult<i64> {
        Ok(self.state()?.1.horizon)
    }

    #[setter]
    fn set_horizon(&self, horizon: i64) -> PyResult<()> {
        self.state()?.1.horizon = horizon;
        Ok(())
    }

    /// Whether a search stopped at its limits (until cleared).
    #[getter]
    fn aborted(&self) -> PyResult<bool> {
        Ok(self.state()?.1.aborted)
    }

    #[setter]
    fn set_aborted(&self, aborted: bool) -> PyResult<()> {
        self.state()?.1.aborted = aborted;
        Ok(())
    }

    /// (deadline, nodes): the perf_counter time and the node count to stop at.
    #[getter]
    fn limits(&self) -> (f64, f64) {
        self.limits.get()
    }

    #[setter]
    fn set_limits(&self, limits: (f64, f64)) {
        self.limits.set(limits.0, limits.1);
    }

    /// Stop the search at its next look at the clock (safe to call from a signal handler while
    /// it runs).
    fn stop(&self) {
        self.limits.stop();
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EndgameRules>()?;
    m.add_class::<EndgameTable>()?;
    m.add_class::<EndgameSearch>()?;
    m.add("ENDGAME_CLOCK_EVERY", endgame::CLOCK_EVERY)?;
    m.add("ENDGAME_MAX_PLY", MAX_PLY)?;
    m.add("ENDGAME_INFINITY", endgame::INFINITY)?;
    m.add("ENDGAME_MAX_COUNT", MAX_COUNT)?;
    m.add("RACK_SLOTS", RACK_SLOTS)?;
    Ok(())
}
