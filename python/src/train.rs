//! The training-file toolkit (`kifconv train`) for Python: `train_shuffle`,
//! `train_split`, `train_uniq`, `train_filter`, `train_convert` and
//! `train_check` over files, each through the library calls the command
//! makes (`kifconv::batch::jobs::train_file`), with the command's options
//! as keywords; and `train_read`, `train_check_bytes`, `train_uniq_bytes`
//! and `train_filter_bytes` over bytes held in memory, which the package's
//! `kifconv.train` turns into and from numpy arrays.
//!
//! Errors: an option the command would refuse is a ValueError; an input
//! that cannot be opened, what `open()` raises; an output there already,
//! FileExistsError (without `force`); anything else the run refuses, a
//! KifError. Faults of the inputs (an entry that does not read, a file
//! cut short) do not stop a run: they come back in the result, listed
//! and counted as the command says them ([`Listing`]).

use crate::error::{os_error, plain_error, warn};
use kifconv::batch::jobs::train_file::{self, Target, Uniq};
use kifconv::training::move16::Layout;
use kifconv::training::read::Unit;
use kifconv::training::toolkit::check::{self, Checked, Convention};
use kifconv::training::toolkit::{dedup, filter, kind_of_all, split, Fault, Listed, Listing};
use kifconv::training::Data;
use pyo3::exceptions::{PyFileExistsError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::path::{Path, PathBuf};

/// A kind of training data by name (`hcpe`, `hcpe3`, `psv`, `pack`), as
/// the command's `--format` and `--to` take it.
fn kind(name: &str, what: &str) -> PyResult<Data> {
    match name.to_ascii_lowercase().as_str() {
        "hcpe" => Ok(Data::Hcpe),
        "hcpe3" => Ok(Data::Hcpe3),
        "psv" | "pack" => Ok(Data::Psv),
        _ => Err(PyValueError::new_err(format!(
            "{what}={name:?}: training data is hcpe, hcpe3 or psv (pack)"
        ))),
    }
}

/// The name Python sees for a kind.
fn kind_name(data: Data) -> &'static str {
    match data {
        Data::Hcpe => "hcpe",
        Data::Hcpe3 => "hcpe3",
        Data::Psv => "psv",
    }
}

/// The faults of a run as the command lists them (see [`Listing`]): the
/// listed ones kept, all counted.
#[derive(Default)]
struct Faults {
    listed: Vec<Fault>,
    count: u64,
    listing: Listing,
}

impl Faults {
    fn take(&mut self, fault: Fault) {
        if self.listing.take(&fault) == Listed::Yes {
            self.listed.push(fault);
        }
        self.count = self.listing.count();
    }

    /// Sets `faults` (a list of dicts: `path`, `unit` ("entry" or
    /// "game"), `index`, `offset`, `ply`, `reason`, `message`) and
    /// `fault_count` in `dict`.
    fn set(&self, py: Python<'_>, dict: &Bound<'_, PyDict>) -> PyResult<()> {
        let list = PyList::empty(py);
        for fault in &self.listed {
            let item = PyDict::new(py);
            item.set_item("path", fault.path.to_string_lossy())?;
            item.set_item(
                "unit",
                match fault.error.unit {
                    Unit::Entry => "entry",
                    Unit::Game => "game",
                },
            )?;
            item.set_item("index", fault.error.index)?;
            item.set_item("offset", fault.error.offset)?;
            item.set_item("ply", fault.error.ply)?;
            item.set_item("reason", fault.error.kind.to_string())?;
            item.set_item("message", fault.to_string())?;
            list.append(item)?;
        }
        dict.set_item("faults", list)?;
        dict.set_item("fault_count", self.count)
    }
}

/// Raises what `open()` raises for an input that cannot be read.
fn readable(py: Python<'_>, inputs: &[PathBuf]) -> PyResult<()> {
    for path in inputs {
        std::fs::File::open(path).map_err(|e| os_error(py, &e, path))?;
    }
    Ok(())
}

/// The target of a run, its inputs readable and its kind told; an
/// output there already is refused unless `force`.
fn target(
    py: Python<'_>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    format: Option<&str>,
    force: bool,
    outputs: &[PathBuf],
) -> PyResult<(Target, Data)> {
    if inputs.is_empty() {
        return Err(PyValueError::new_err("inputs: give one file or more"));
    }
    readable(py, &inputs)?;
    let format = format.map(|f| kind(f, "format")).transpose()?;
    let data = kind_of_all(&inputs, format).map_err(PyValueError::new_err)?;
    for path in outputs {
        if !force && path.symlink_metadata().is_ok() {
            return Err(PyFileExistsError::new_err(format!(
                "{} exists; give force=True to replace it",
                path.display()
            )));
        }
    }
    let target = Target {
        inputs,
        format,
        output,
        force,
    };
    Ok((target, data))
}

/// A run's error that is not one of the inputs' faults.
fn failed(py: Python<'_>, target: &Target, message: &str) -> PyErr {
    let path = target.inputs.first().map(|p| p.to_string_lossy());
    plain_error(py, path.as_deref(), message)
}

/// Runs `work` on `target` with the interpreter's lock released, taking
/// its faults (its error is [`failed`]'s); the dict `fill` makes of what
/// it did, with the faults.
fn run<'py, T: Send>(
    py: Python<'py>,
    target: &Target,
    work: impl FnOnce(&mut dyn FnMut(Fault)) -> Result<T, String> + Send,
    fill: impl FnOnce(&Bound<'py, PyDict>, T) -> PyResult<()>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut faults = Faults::default();
    let done = py
        .detach(|| work(&mut |f| faults.take(f)))
        .map_err(|e| failed(py, target, &e))?;
    let dict = PyDict::new(py);
    fill(&dict, done)?;
    faults.set(py, &dict)?;
    Ok(dict)
}

/// The records of the files `inputs` (all of one kind: `format`, or their
/// extensions') in an order the `seed` gives, written to `output`, in
/// about `memory` MiB; as `kifconv train shuffle`. Returns `records`,
/// `buckets`, `faults` and `fault_count`.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, seed, memory = 256, format = None, force = false))]
pub fn train_shuffle<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    seed: u64,
    memory: i64,
    format: Option<&str>,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let memory = crate::check::positive("memory", memory)?;
    let memory = usize::try_from(memory)
        .ok()
        .and_then(|m| m.checked_mul(1 << 20))
        .ok_or_else(|| PyValueError::new_err(format!("memory={memory}: too many MiB")))?;
    let (target, _) = target(py, inputs, output.clone(), format, force, &[output])?;
    run(
        py,
        &target,
        |faults| train_file::shuffle(&target, seed, memory, faults),
        |dict, done| {
            dict.set_item("records", done.records)?;
            dict.set_item("buckets", done.buckets)
        },
    )
}

/// What counts as a repeat, by the command's name.
fn by(name: &str) -> PyResult<dedup::By> {
    match crate::check::one_of("by", name, &["record", "position"])? {
        "record" => Ok(dedup::By::Record),
        _ => Ok(dedup::By::Position),
    }
}

/// The records of `inputs` without repeats, the first kept, written to
/// `output`; as `kifconv train uniq`. Returns `read`, `kept`, `faults`
/// and `fault_count`.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, by = "record", flip_fold = false, format = None,
    force = false))]
pub fn train_uniq<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    by: &str,
    flip_fold: bool,
    format: Option<&str>,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let how = Uniq {
        by: self::by(by)?,
        flip_fold,
    };
    let (target, data) = target(py, inputs, output.clone(), format, force, &[output])?;
    if let Some(why) = how.refusal(data) {
        return Err(PyValueError::new_err(why));
    }
    run(
        py,
        &target,
        |faults| train_file::uniq(&target, how, faults),
        |dict, done| {
            dict.set_item("read", done.read)?;
            dict.set_item("kept", done.kept)
        },
    )
}

/// The filter's tests from its keywords.
fn tests(max_abs_eval: Option<u16>, drop_draws: bool, min_ply: Option<u16>) -> filter::Tests {
    filter::Tests {
        max_abs_eval,
        drop_draws,
        min_ply,
    }
}

/// The records of `inputs` that pass every test given, written to
/// `output`; as `kifconv train filter`. Returns `read`, `kept`, `faults`
/// and `fault_count`.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, max_abs_eval = None, drop_draws = false, min_ply = None,
    format = None, force = false))]
#[allow(clippy::too_many_arguments)]
pub fn train_filter<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    max_abs_eval: Option<u16>,
    drop_draws: bool,
    min_ply: Option<u16>,
    format: Option<&str>,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let tests = tests(max_abs_eval, drop_draws, min_ply);
    let (target, data) = target(py, inputs, output.clone(), format, force, &[output])?;
    if let Some(why) = tests.refusal(data) {
        return Err(PyValueError::new_err(why));
    }
    run(
        py,
        &target,
        |faults| train_file::filter(&target, &tests, faults),
        |dict, done| {
            dict.set_item("read", done.read)?;
            dict.set_item("kept", done.kept)
        },
    )
}

/// `input` rewritten as `to` into `output`, a PackedSfenValue input's
/// moves read as `move16` says ("yaneuraou", the format's own, or
/// "cshogi"); as `kifconv train convert`. What the target cannot hold is
/// given to `warnings.warn` and returned in `losses`. Returns `read`,
/// `written`, `losses`, `errors` (records that read but could not be
/// written), `faults` and `fault_count`.
#[pyfunction]
#[pyo3(signature = (input, output, *, to, move16 = "yaneuraou", format = None, force = false))]
pub fn train_convert<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    to: &str,
    move16: &str,
    format: Option<&str>,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let to = kind(to, "to")?;
    let layout = match crate::check::one_of("move16", move16, &["yaneuraou", "cshogi"])? {
        "yaneuraou" => Layout::YaneuraOu,
        _ => Layout::Apery,
    };
    let (target, from) = target(py, vec![input], output.clone(), format, force, &[output])?;
    if layout == Layout::Apery && from != Data::Psv {
        return Err(PyValueError::new_err(
            "move16=\"cshogi\" reads PackedSfenValue input only",
        ));
    }
    run(
        py,
        &target,
        |faults| train_file::convert(&target, to, layout, faults),
        |dict, done| {
            for loss in &done.losses {
                warn(py, &format!("{}: {loss}", target.output.display()))?;
            }
            dict.set_item("read", done.read)?;
            dict.set_item("written", done.written)?;
            dict.set_item("losses", &done.losses)?;
            dict.set_item("errors", &done.errors)
        },
    )
}

/// `input` cut into parts named from the prefix `output` (`PREFIX-0.hcpe`,
/// …, numbers padded to the last one's width), `positions` a part or into
/// `parts` parts (one of the two); as `kifconv train split`. Returns
/// `records`, `positions`, `parts` (the files written, in order),
/// `faults` and `fault_count`.
#[pyfunction]
#[pyo3(signature = (input, output, *, positions = None, parts = None, format = None,
    force = false))]
pub fn train_split<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    positions: Option<i64>,
    parts: Option<i64>,
    format: Option<&str>,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let how = match (positions, parts) {
        (Some(n), None) => split::How::Positions(crate::check::positive("positions", n)?),
        (None, Some(n)) => split::How::Parts(crate::check::between("parts", n, 1, 100_000)? as u64),
        _ => {
            return Err(PyValueError::new_err(
                "give positions=N or parts=N, one of the two",
            ))
        }
    };
    let (target, _) = target(py, vec![input], output, format, force, &[])?;
    let mut faults = Faults::default();
    let done = py
        .detach(|| train_file::split(&target, how, &mut |f| faults.take(f)))
        .map_err(|e| {
            if e.contains("exists; give --force") {
                PyFileExistsError::new_err(e.replace("--force", "force=True"))
            } else {
                failed(py, &target, &e)
            }
        })?;
    let dict = PyDict::new(py);
    dict.set_item("records", done.records)?;
    dict.set_item("positions", done.positions)?;
    let names: Vec<String> = done
        .names
        .iter()
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    dict.set_item("parts", names)?;
    faults.set(py, &dict)?;
    Ok(dict)
}

/// The convention's name in Python.
fn convention(convention: Convention) -> &'static str {
    match convention {
        Convention::YaneuraOu => "yaneuraou",
        Convention::Cshogi => "cshogi",
        Convention::Mixed => "mixed",
        Convention::Unknown => "unknown",
    }
}

/// The dict of a check: `path`, `kind`, `records`, `faults`,
/// `fault_count`, `sound`, `summary` (the command's line), and for
/// PackedSfenValue `move16` (the convention) and `layouts` (its counts),
/// both None for the others.
fn checked<'py>(
    py: Python<'py>,
    path: &Path,
    data: Data,
    done: &Checked,
    faults: &Faults,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("path", path.to_string_lossy())?;
    dict.set_item("kind", kind_name(data))?;
    dict.set_item("records", done.records)?;
    faults.set(py, &dict)?;
    dict.set_item("sound", done.sound())?;
    dict.set_item("summary", done.summary(path))?;
    match &done.layouts {
        Some(layouts) => {
            dict.set_item("move16", convention(layouts.convention()))?;
            let counts = PyDict::new(py);
            counts.set_item("yaneuraou_only", layouts.yaneuraou_only)?;
            counts.set_item("cshogi_only", layouts.cshogi_only)?;
            counts.set_item("both", layouts.both)?;
            counts.set_item("first_yaneuraou", layouts.first_yaneuraou)?;
            counts.set_item("first_cshogi", layouts.first_cshogi)?;
            dict.set_item("layouts", counts)?;
        }
        None => {
            dict.set_item("move16", py.None())?;
            dict.set_item("layouts", py.None())?;
        }
    }
    Ok(dict)
}

/// Every record of the file `path` decoded, as `kifconv train check`
/// does: see [`checked`] for the dict returned.
#[pyfunction]
#[pyo3(signature = (path, *, format = None))]
pub fn train_check<'py>(
    py: Python<'py>,
    path: PathBuf,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    readable(py, std::slice::from_ref(&path))?;
    let format = format.map(|f| kind(f, "format")).transpose()?;
    let data = train_file::check_kinds(std::slice::from_ref(&path), format)
        .map_err(PyValueError::new_err)?[0];
    let mut faults = Faults::default();
    let done = py
        .detach(|| check::check(&path, data, &mut |f| faults.take(f)))
        .map_err(|e| plain_error(py, Some(&path.to_string_lossy()), &e))?;
    checked(py, &path, data, &done, &faults)
}

/// [`train_check`] of training data in memory, of the kind `kind`; faults
/// name the data `<bytes>` and count bytes from its start.
#[pyfunction]
pub fn train_check_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    kind: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = self::kind(kind, "kind")?;
    let name = Path::new("<bytes>");
    let mut faults = Faults::default();
    let done = check::check_reader(data, name, kind, &mut |f| faults.take(f));
    checked(py, name, kind, &done, &faults)
}

/// Gives each fault to `warnings.warn`.
fn warn_faults(py: Python<'_>, faults: &Faults) -> PyResult<()> {
    for fault in &faults.listed {
        warn(py, &fault.to_string())?;
    }
    if faults.count > faults.listed.len() as u64 {
        warn(
            py,
            &format!(
                "<bytes>: {} more faults not listed",
                faults.count - faults.listed.len() as u64
            ),
        )?;
    }
    Ok(())
}

/// [`train_uniq`] of training data in memory, of the kind `kind`: the
/// records kept, as bytes. A fault (a position that does not unpack,
/// kept) goes to `warnings.warn`.
#[pyfunction]
#[pyo3(signature = (data, kind, *, by = "record", flip_fold = false))]
pub fn train_uniq_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    kind: &str,
    by: &str,
    flip_fold: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let kind = self::kind(kind, "kind")?;
    let how = Uniq {
        by: self::by(by)?,
        flip_fold,
    };
    if let Some(why) = how.refusal(kind) {
        return Err(PyValueError::new_err(why));
    }
    let mut seen = dedup::Seen::new(kind, how.by, how.flip_fold).map_err(PyValueError::new_err)?;
    let mut out = Vec::new();
    let mut faults = Faults::default();
    seen.take(data, Path::new("<bytes>"), &mut out, &mut |f| {
        faults.take(f)
    })
    .map_err(|e| plain_error(py, None, &e))?;
    warn_faults(py, &faults)?;
    Ok(PyBytes::new(py, &out))
}

/// [`train_filter`] of training data in memory, of the kind `kind`: the
/// records kept, as bytes.
#[pyfunction]
#[pyo3(signature = (data, kind, *, max_abs_eval = None, drop_draws = false, min_ply = None))]
pub fn train_filter_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    kind: &str,
    max_abs_eval: Option<u16>,
    drop_draws: bool,
    min_ply: Option<u16>,
) -> PyResult<Bound<'py, PyBytes>> {
    let kind = self::kind(kind, "kind")?;
    let tests = tests(max_abs_eval, drop_draws, min_ply);
    if let Some(why) = tests.refusal(kind) {
        return Err(PyValueError::new_err(why));
    }
    let mut out = Vec::new();
    let mut faults = Faults::default();
    filter::filter_reader(
        data,
        Path::new("<bytes>"),
        kind,
        &tests,
        &mut out,
        &mut |f| faults.take(f),
    )
    .map_err(|e| plain_error(py, None, &e))?;
    warn_faults(py, &faults)?;
    Ok(PyBytes::new(py, &out))
}

/// The records of `bytes` (of the kind `data`), each a slice of it; a
/// cut record raises KifError naming it and its byte offset in `name`.
fn records<'a>(
    py: Python<'_>,
    bytes: &'a [u8],
    data: Data,
    name: &Path,
) -> PyResult<Vec<&'a [u8]>> {
    let mut records = Vec::new();
    let mut at = 0;
    let mut blocks = kifconv::training::toolkit::Blocks::new(bytes, data);
    while let Some(next) = blocks.next_block() {
        match next {
            Ok(block) => {
                records.push(&bytes[at..at + block.len()]);
                at += block.len();
            }
            Err(error) => {
                let fault = Fault {
                    path: name.to_path_buf(),
                    error,
                };
                return Err(plain_error(
                    py,
                    Some(&name.to_string_lossy()),
                    &fault.to_string(),
                ));
            }
        }
    }
    Ok(records)
}

/// The file `path` read whole as training data of its kind (`format`, or
/// its extension's): `(kind, data)`, its bytes. A file that ends inside a
/// record raises KifError naming the record and its byte offset; the
/// records are not decoded (`train_check` does that).
#[pyfunction]
#[pyo3(signature = (path, *, format = None))]
pub fn train_read<'py>(
    py: Python<'py>,
    path: PathBuf,
    format: Option<&str>,
) -> PyResult<(&'static str, Bound<'py, PyBytes>)> {
    let format = format.map(|f| kind(f, "format")).transpose()?;
    let data = kind_of_all(std::slice::from_ref(&path), format).map_err(PyValueError::new_err)?;
    let bytes = std::fs::read(&path).map_err(|e| os_error(py, &e, &path))?;
    records(py, &bytes, data, &path)?;
    Ok((kind_name(data), PyBytes::new(py, &bytes)))
}

/// Training data in memory cut into its records' bytes (an entry, or an
/// hcpe3 game); KifError for data that ends inside one.
#[pyfunction]
pub fn train_records<'py>(
    py: Python<'py>,
    data: &[u8],
    kind: &str,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let kind = self::kind(kind, "kind")?;
    let records = records(py, data, kind, Path::new("<bytes>"))?;
    Ok(records.into_iter().map(|r| PyBytes::new(py, r)).collect())
}
