//! The word study's functions as Python sees them (`literaki_cli/wordstudy/kernels.py` calls
//! them): numpy arrays in and out, the GIL released while they run, a fault a one-line error.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::study::{self, Automaton, Tiles};
use crate::{guarded, slice, word_graph, word_spans, CoreError};

type Offsets<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

fn writable<'a, T: numpy::Element>(array: &'a mut PyReadwriteArray1<'_, T>, name: &str) -> PyResult<&'a mut [T]> {
    array.as_slice_mut().map_err(|_| CoreError::new_err(format!("{name}: not a contiguous array")))
}

/// Every word of the graph at `root` the automaton (`table`, `accepting`) accepts, written to
/// `out` (`study::search`); (words found, bytes they take).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    arcs: PyReadonlyArray1<'_, u32>,
    root: usize,
    table: PyReadonlyArray2<'_, i32>,
    accepting: PyReadonlyArray1<'_, bool>,
    min_len: i64,
    max_len: i64,
    rack: PyReadonlyArray1<'_, i64>,
    blanks: i64,
    use_rack: bool,
    limit: i64,
    mut out: PyReadwriteArray1<'_, u8>,
) -> PyResult<(u64, u64)> {
    let (arcs, accepting, rack) = (word_graph(&arcs, root)?, slice(&accepting, "accepting")?, slice(&rack, "rack")?);
    let width = table.shape()[1];
    let table = table.as_slice().map_err(|_| CoreError::new_err("table: not a contiguous array"))?;
    let out = writable(&mut out, "out")?;
    let automaton = Automaton { table, width, accepting };
    let tiles = Tiles { rack, blanks };
    let tiles = use_rack.then_some(&tiles);
    py.detach(|| {
        guarded("word search", || {
            study::search(arcs, root, &automaton, min_len, max_len, tiles, limit.max(0) as u64, out)
        })
    })
}

/// The front and back hooks of each word `codes[starts[i]..ends[i]]`, as letter bit sets.
#[pyfunction]
fn hook_masks<'py>(
    py: Python<'py>,
    arcs: PyReadonlyArray1<'py, u32>,
    root: usize,
    codes: PyReadonlyArray1<'py, u8>,
    starts: PyReadonlyArray1<'py, i64>,
    ends: PyReadonlyArray1<'py, i64>,
) -> PyResult<Offsets<'py>> {
    let (arcs, codes) = (word_graph(&arcs, root)?, slice(&codes, "codes")?);
    let (starts, ends) = word_spans(codes, &starts, &ends)?;
    let (front, back) = py.detach(|| guarded("hooks", || study::hook_masks(arcs, root, codes, starts, ends)))?;
    Ok((front.into_pyarray(py), back.into_pyarray(py)))
}

/// How many draws of tiles from the bag spell each word (`study::tile_combinations`).
#[pyfunction]
fn tile_combinations<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray1<'py, u8>,
    starts: PyReadonlyArray1<'py, i64>,
    ends: PyReadonlyArray1<'py, i64>,
    bag: PyReadonlyArray1<'py, i64>,
    blanks: usize,
    binomial: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (codes, bag) = (slice(&codes, "codes")?, slice(&bag, "bag")?);
    let (starts, ends) = word_spans(codes, &starts, &ends)?;
    let columns = binomial.shape()[1];
    let binomial = binomial.as_slice().map_err(|_| CoreError::new_err("binomial: not a contiguous array"))?;
    let combos = py.detach(|| {
        guarded("tile combinations", || study::tile_combinations(codes, starts, ends, bag, blanks, binomial, columns))
    })?;
    Ok(combos.into_pyarray(py))
}

/// The offsets of the words only in `a` and only in `b`, two sorted word buffers.
#[pyfunction]
fn diff_sorted<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u8>,
    b: PyReadonlyArray1<'py, u8>,
) -> PyResult<Offsets<'py>> {
    let (a, b) = (slice(&a, "a")?, slice(&b, "b")?);
    let (only_a, only_b) = py.detach(|| guarded("word list merge", || study::diff_sorted(a, b)))?;
    Ok((only_a.into_pyarray(py), only_b.into_pyarray(py)))
}

/// Two sorted (high, low) key arrays of one list.
fn keys<'a>(
    high: &'a PyReadonlyArray1<'_, u64>,
    low: &'a PyReadonlyArray1<'_, u64>,
) -> PyResult<(&'a [u64], &'a [u64])> {
    let (high, low) = (slice(high, "high")?, slice(low, "low")?);
    if high.len() != low.len() {
        return Err(CoreError::new_err("packed words: high and low keys of different lengths"));
    }
    Ok((high, low))
}

/// The positions of the keys only in `a` and only in `b`.
#[pyfunction]
fn diff_keys<'py>(
    py: Python<'py>,
    a_high: PyReadonlyArray1<'py, u64>,
    a_low: PyReadonlyArray1<'py, u64>,
    b_high: PyReadonlyArray1<'py, u64>,
    b_low: PyReadonlyArray1<'py, u64>,
) -> PyResult<Offsets<'py>> {
    let (a, b) = (keys(&a_high, &a_low)?, keys(&b_high, &b_low)?);
    let (only_a, only_b) = py.detach(|| guarded("packed word merge", || study::diff_keys(a, b)))?;
    Ok((only_a.into_pyarray(py), only_b.into_pyarray(py)))
}

/// For each asked key: is it among the sorted keys (high, low)?
#[pyfunction]
fn member_keys<'py>(
    py: Python<'py>,
    high: PyReadonlyArray1<'py, u64>,
    low: PyReadonlyArray1<'py, u64>,
    q_high: PyReadonlyArray1<'py, u64>,
    q_low: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let (known, asked) = (keys(&high, &low)?, keys(&q_high, &q_low)?);
    let found = py.detach(|| guarded("packed word lookup", || study::member_keys(known, asked)))?;
    Ok(found.into_pyarray(py))
}

/// The lines of `points` (uint8 letter codes or uint32 code points) packed into `high` and `low`
/// (`study::pack_lines`): (lines packed, whether one fitting the rules was too long to pack).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn pack_lines(
    py: Python<'_>,
    points: &Bound<'_, PyAny>,
    code_of: PyReadonlyArray1<'_, u8>,
    allowed: PyReadonlyArray1<'_, bool>,
    separator: u32,
    min_len: usize,
    max_len: usize,
    mut high: PyReadwriteArray1<'_, u64>,
    mut low: PyReadwriteArray1<'_, u64>,
) -> PyResult<(usize, bool)> {
    let (code_of, allowed) = (slice(&code_of, "code_of")?, slice(&allowed, "allowed")?);
    let (high, low) = (writable(&mut high, "high")?, writable(&mut low, "low")?);
    if let Ok(points) = points.extract::<PyReadonlyArray1<'_, u8>>() {
        let points = slice(&points, "points")?;
        return py.detach(|| {
            guarded("packing words", || {
                study::pack_lines(points, code_of, allowed, separator, min_len, max_len, high, low)
            })
        });
    }
    let points = points.extract::<PyReadonlyArray1<'_, u32>>()?;
    let points = slice(&points, "points")?;
    py.detach(|| {
        guarded("packing words", || study::pack_lines(points, code_of, allowed, separator, min_len, max_len, high, low))
    })
}

/// Adds the word study's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(hook_masks, m)?)?;
    m.add_function(wrap_pyfunction!(tile_combinations, m)?)?;
    m.add_function(wrap_pyfunction!(diff_sorted, m)?)?;
    m.add_function(wrap_pyfunction!(diff_keys, m)?)?;
    m.add_function(wrap_pyfunction!(member_keys, m)?)?;
    m.add_function(wrap_pyfunction!(pack_lines, m)?)?;
    Ok(())
}
