//! Keyword arguments checked before use. Each check raises a ValueError
//! that names the keyword, says what it takes and what it was given, so a
//! Python caller sees `min_rating must be ≥ 0 (got -1)` and not an
//! overflow from deep inside a conversion. Every function of the package
//! that takes a number or a choice checks it here, one rule in one place.
//! (The crate's tests cannot link an extension module: these checks are
//! tested through the functions that use them, in `python/tests`.)

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use std::fmt::Display;

/// The error for keyword `name`: it must be `rule`, and was `got`.
fn bad(name: &str, rule: impl Display, got: impl Display) -> pyo3::PyErr {
    PyValueError::new_err(format!("{name} must be {rule} (got {got})"))
}

/// A count: `value` as an unsigned number, or a ValueError when negative.
pub fn non_negative(name: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| bad(name, "≥ 0", value))
}

/// A count of one or more: `value` as an unsigned number, or a ValueError
/// when below 1.
pub fn positive(name: &str, value: i64) -> PyResult<u64> {
    match u64::try_from(value) {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(bad(name, "≥ 1", value)),
    }
}

/// A number (a rating, a fraction) that is ≥ 0; NaN is refused too.
pub fn non_negative_number(name: &str, value: f64) -> PyResult<f64> {
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(bad(name, "a number ≥ 0", value))
    }
}

/// `value` within `low..=high`.
pub fn between(name: &str, value: i64, low: i64, high: i64) -> PyResult<i64> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(bad(name, format_args!("between {low} and {high}"), value))
    }
}

/// One of the names `choices` allows; the error lists them.
pub fn one_of<'a>(name: &str, value: &str, choices: &[&'a str]) -> PyResult<&'a str> {
    match choices.iter().find(|c| **c == value) {
        Some(choice) => Ok(choice),
        None => Err(bad(
            name,
            format_args!("one of {}", quoted(choices)),
            format_args!("{value:?}"),
        )),
    }
}

/// `"a", "b" or "c"`.
fn quoted(choices: &[&str]) -> String {
    let quoted: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The cores this process may use (1 when the system does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads a call takes: four per core. More would only
/// add switching; a caller asking for more has most likely mistyped.
pub fn max_jobs() -> usize {
    4 * cores()
}

/// The worker threads to run: `None` is one per core; a number must be
/// between 1 and [`max_jobs`].
pub fn jobs(value: Option<i64>) -> PyResult<usize> {
    let Some(value) = value else {
        return Ok(cores());
    };
    let cores = cores();
    let max = max_jobs();
    match usize::try_from(value) {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(bad(
            "jobs",
            format_args!("between 1 and {max} (4 × the {cores} cores)"),
            value,
        )),
    }
}

/// A keyword that takes one string or a list of strings
/// (`glob="*.csa"` or `glob=["*.csa", "!old"]`).
pub struct Names(pub Vec<String>);

impl Names {
    /// Every name split at commas, as the command splits `--results
    /// toryo,kachi`.
    pub fn split(self, at: char) -> Vec<String> {
        self.0
            .iter()
            .flat_map(|n| n.split(at))
            .map(|n| n.trim().to_string())
            .collect()
    }
}

impl<'py> pyo3::FromPyObject<'py> for Names {
    fn extract_bound(ob: &pyo3::Bound<'py, pyo3::PyAny>) -> PyResult<Self> {
        use pyo3::types::{PyAnyMethods, PyTypeMethods};
        if let Ok(one) = ob.extract::<String>() {
            return Ok(Names(vec![one]));
        }
        ob.extract::<Vec<String>>().map(Names).map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a string or a list of strings (got {})",
                ob.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })
    }
}
