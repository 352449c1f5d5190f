//! Leave training's fitting kernels as Python sees them (`literaki_cli/equity/train.py`): the
//! normal equations of the leave model and its predictions, over numpy arrays.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::leaves::{self, Layout, LayoutTuple};
use crate::{guarded, slice, CoreError};

/// X'WX and X'Wy as numpy arrays.
type NormalEquations<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>);

/// The model's layout, the leaves' tile counts (one row of `layout.n_slots` a leave, as one slice)
/// and the tiles' colours and vowels, as both kernels take them.
type LeavesIn<'a> = (Layout, &'a [i64], (&'a [i64], &'a [i64]));

fn leaves_in<'a>(
    layout: LayoutTuple,
    counts: &'a PyReadonlyArray2<'_, i64>,
    colour_of: &'a PyReadonlyArray1<'_, i64>,
    vowel: &'a PyReadonlyArray1<'_, i64>,
) -> PyResult<LeavesIn<'a>> {
    let layout = Layout::from(layout);
    if counts.shape()[1] != layout.n_slots {
        return Err(CoreError::new_err(format!("leave counts: {} columns, not {}", counts.shape()[1], layout.n_slots)));
    }
    let counts = counts.as_slice().map_err(|_| CoreError::new_err("leave counts: not a contiguous array"))?;
    Ok((layout, counts, (slice(colour_of, "colour_of")?, slice(vowel, "vowel")?)))
}

/// (X'WX, X'Wy) of the leave model's features over the leaves (`leaves::normal_equations`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn leave_normal_equations<'py>(
    py: Python<'py>,
    layout: LayoutTuple,
    counts: PyReadonlyArray2<'py, i64>,
    weights: PyReadonlyArray1<'py, f64>,
    targets: PyReadonlyArray1<'py, f64>,
    colour_of: PyReadonlyArray1<'py, i64>,
    vowel: PyReadonlyArray1<'py, i64>,
    n_features: usize,
) -> PyResult<NormalEquations<'py>> {
    let (layout, counts, tiles) = leaves_in(layout, &counts, &colour_of, &vowel)?;
    let rows = counts.len() / layout.n_slots;
    let (weights, targets) = (slice(&weights, "weights")?, slice(&targets, "targets")?);
    if weights.len() != rows || targets.len() != rows {
        return Err(CoreError::new_err("leave training: one weight and one target a leave"));
    }
    let (xtwx, xtwy) = py.detach(|| {
        guarded("leave training", || leaves::normal_equations(&layout, counts, weights, targets, tiles, n_features))
    })?;
    let xtwx = Array2::from_shape_vec((n_features, n_features), xtwx).map_err(|e| CoreError::new_err(e.to_string()))?;
    Ok((xtwx.into_pyarray(py), xtwy.into_pyarray(py)))
}

/// The leave model's value of each leave with the coefficients `coef` (`leaves::predict`).
#[pyfunction]
fn leave_predict<'py>(
    py: Python<'py>,
    layout: LayoutTuple,
    counts: PyReadonlyArray2<'py, i64>,
    coef: PyReadonlyArray1<'py, f64>,
    colour_of: PyReadonlyArray1<'py, i64>,
    vowel: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (layout, counts, tiles) = leaves_in(layout, &counts, &colour_of, &vowel)?;
    let coef = slice(&coef, "coef")?;
    let out = py.detach(|| guarded("leave model", || leaves::predict(&layout, counts, coef, tiles)))?;
    Ok(out.into_pyarray(py))
}

/// Adds the fitting kernels to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(leave_normal_equations, m)?)?;
    m.add_function(wrap_pyfunction!(leave_predict, m)?)
}
