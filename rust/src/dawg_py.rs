//! The word graph's builder as Python sees it (`lexicon_build/dawg.py` holds one per build):
//! word buffers in, the arc array out, the GIL released while it works.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::dawg::{self, BuildError};
use crate::kwg::INDEX_MASK;
use crate::{guarded, slice, CoreError};

/// Accumulates word sets and their GADDAGs into one arc array (`dawg::GraphBuilder`).
#[pyclass(module = "literaki_cli._core")]
struct GraphBuilder {
    builder: Option<dawg::GraphBuilder>,
}

fn built(outcome: Result<u32, BuildError>) -> PyResult<u32> {
    outcome.map_err(|error| {
        CoreError::new_err(match error {
            BuildError::TooManyArcs(arcs) => {
                format!("word list too large: {arcs} arcs exceed the {}-bit index", INDEX_MASK.count_ones())
            }
            BuildError::WordTooLong(letters) => {
                format!("a word of {letters} letters: longer than a word graph's strings may be")
            }
            BuildError::Unsorted => "the words are not sorted and unique".to_string(),
        })
    })
}

impl GraphBuilder {
    fn add(
        &mut self,
        py: Python<'_>,
        buffer: PyReadonlyArray1<'_, u8>,
        what: &str,
        add: impl FnOnce(&mut dawg::GraphBuilder, &[u8]) -> Result<u32, BuildError> + Send,
    ) -> PyResult<u32> {
        let buffer = slice(&buffer, "words")?;
        let builder = self.builder.as_mut().ok_or_else(|| CoreError::new_err("the word graph was already taken"))?;
        built(py.detach(|| guarded(what, || add(builder, buffer)))?)
    }
}

#[pymethods]
impl GraphBuilder {
    #[new]
    fn new() -> Self {
        GraphBuilder { builder: Some(dawg::GraphBuilder::new()) }
    }

    /// Add a sorted, unique list of words (letter codes, each word followed by 255) as a DAWG;
    /// returns its root.
    fn add_words(&mut self, py: Python<'_>, buffer: PyReadonlyArray1<'_, u8>) -> PyResult<u32> {
        self.add(py, buffer, "word graph", |builder, words| builder.add_words(words))
    }

    /// Add the GADDAG of such a list; returns its root.
    fn add_gaddag(&mut self, py: Python<'_>, buffer: PyReadonlyArray1<'_, u8>) -> PyResult<u32> {
        self.add(py, buffer, "GADDAG", |builder, words| builder.add_gaddag(words))
    }

    /// The arc array (the builder is spent).
    fn result<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let builder = self.builder.take().ok_or_else(|| CoreError::new_err("the word graph was already taken"))?;
        Ok(builder.result().into_pyarray(py))
    }
}

/// The words of `text` (one per line) as sorted letter codes, each followed by 255
/// (`dawg::sorted_code_words`; `code_of`: the code of each code point below its length).
#[pyfunction]
fn sorted_code_words<'py>(
    py: Python<'py>,
    text: &str,
    code_of: PyReadonlyArray1<'py, u8>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let code_of = slice(&code_of, "code_of")?;
    let sorted = py.detach(|| guarded("sorting words", || dawg::sorted_code_words(text, code_of)))?;
    let sorted =
        sorted.map_err(|line| CoreError::new_err(format!("word {}: a character with no letter code", line + 1)))?;
    Ok(sorted.into_pyarray(py))
}

/// Adds the builder to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GraphBuilder>()?;
    m.add_function(wrap_pyfunction!(sorted_code_words, m)?)
}
