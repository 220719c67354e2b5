//! `kifconv._kifconv`, the extension module behind the Python package
//! `kifconv`: the library's readers, writers, training data and books,
//! and the command's batch runner, for Python. Each file holds one part of
//! the API; the package's `__init__.py` re-exports them.

mod batch;
mod book;
pub mod check;
mod compat;
mod engine;
mod error;
mod names;
mod read;
mod record;
mod tools;
mod train;

use pyo3::prelude::*;

/// The module's functions and classes (see the package's documentation).
#[pymodule]
fn _kifconv(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KifError", py.get_type::<error::KifError>())?;
    m.add("KifWarning", py.get_type::<error::KifWarning>())?;
    m.add_class::<record::Record>()?;
    m.add_class::<batch::Summary>()?;
    m.add_class::<batch::InputResult>()?;
    m.add("EngineError", py.get_type::<engine::EngineError>())?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Search>()?;
    m.add_class::<engine::Info>()?;
    m.add_function(wrap_pyfunction!(engine::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(engine::book_mine, m)?)?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(read::read_text, m)?)?;
    m.add_function(wrap_pyfunction!(batch::convert, m)?)?;
    m.add_function(wrap_pyfunction!(batch::training, m)?)?;
    m.add_function(wrap_pyfunction!(batch::book_build, m)?)?;
    m.add_function(wrap_pyfunction!(batch::tsume_check, m)?)?;
    m.add_function(wrap_pyfunction!(tools::flip, m)?)?;
    m.add_function(wrap_pyfunction!(tools::mate, m)?)?;
    m.add_function(wrap_pyfunction!(tools::book_query, m)?)?;
    m.add_function(wrap_pyfunction!(book::book_convert, m)?)?;
    m.add_function(wrap_pyfunction!(book::book_check, m)?)?;
    m.add_function(wrap_pyfunction!(book::book_peta_shock, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_split, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_uniq, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_filter, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_convert, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_check, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_check_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_uniq_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_filter_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_read, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_records, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
