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
    /// The GADDAG being fed group by group (`start_gaddag`).
    gaddag: Option<dawg::GaddagFeed>,
}

fn built(outcome: Result<u32, BuildError>) -> PyResult<u32> {
    outcome.map_err(fault)
}

/// A build error as the one line Python shows.
fn fault(error: BuildError) -> PyErr {
    {
        CoreError::new_err(match error {
            BuildError::TooManyArcs(arcs) => {
                format!("word list too large: {arcs} arcs exceed the {}-bit index", INDEX_MASK.count_ones())
            }
            BuildError::WordTooLong(letters) => {
                format!("a word of {letters} letters: longer than a word graph's strings may be")
            }
            BuildError::Unsorted => "the words are not sorted and unique".to_string(),
        })
    }
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
        GraphBuilder { builder: Some(dawg::GraphBuilder::new()), gaddag: None }
    }

    /// Add a sorted, unique list of words (letter codes, each word followed by 255) as a DAWG;
    /// returns its root.
    fn add_words(&mut self, py: Python<'_>, buffer: PyReadonlyArray1<'_, u8>) -> PyResult<u32> {
        self.add(py, buffer, "word graph", |builder, words| builder.add_words(words))
    }

    /// Start adding the GADDAG of such a list: its strings are fed one split letter's group a call
    /// (`feed_gaddag_group`, so that Python hears Ctrl-C between groups), then `finish_gaddag`.
    fn start_gaddag(&mut self, py: Python<'_>, buffer: PyReadonlyArray1<'_, u8>) -> PyResult<()> {
        let buffer = slice(&buffer, "words")?.to_vec();
        let feed = py.detach(|| guarded("GADDAG", || dawg::GaddagFeed::new(buffer)))?;
        self.gaddag = Some(feed.map_err(fault)?);
        Ok(())
    }

    /// Feed the GADDAG's next group; False once every group is in.
    fn feed_gaddag_group(&mut self, py: Python<'_>) -> PyResult<bool> {
        let (Some(builder), Some(feed)) = (self.builder.as_mut(), self.gaddag.as_mut()) else {
            return Err(CoreError::new_err("no GADDAG being added"));
        };
        py.detach(|| guarded("GADDAG", || feed.feed_next(builder)))?.map_err(fault)
    }

    /// Close the GADDAG fed so far; returns its root.
    fn finish_gaddag(&mut self, py: Python<'_>) -> PyResult<u32> {
        self.gaddag = None;
        let builder = self.builder.as_mut().ok_or_else(|| CoreError::new_err("the word graph was already taken"))?;
        built(py.detach(|| guarded("GADDAG", || builder.feed(std::iter::empty::<&[u8]>(), true)))?)
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
