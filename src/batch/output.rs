//! Where outputs go, and how they get there without loss.
//!
//! Workers write each input's outputs to hidden temporary files beside
//! where they will go ([`stage`]). The main thread then names them, in
//! input order, so the names never depend on how many threads ran
//! ([`Outputs::commit`]): an output name another input of this run already
//! took gets the next free `~N` suffix (and a warning), a file that existed
//! before is replaced only with `--force`, an input is never replaced, and
//! the final rename never replaces a file that appeared meanwhile (another
//! process): losing that race fails the input. An input's outputs are
//! placed all or none.

use super::inputs;
use super::plan::Overwrite;
use std::collections::HashSet;
use std::io::{Error, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The files and folders named as inputs, resolved, so that an output
/// path can be checked against them without a list of every input.
#[derive(Debug, Default)]
pub struct InputRoots {
    files: HashSet<PathBuf>,
    folders: Vec<PathBuf>,
}

impl InputRoots {
    /// The roots of the command-line inputs (`-` and missing paths have
    /// none).
    pub fn new(paths: &[PathBuf]) -> InputRoots {
        let mut roots = InputRoots::default();
        for path in paths {
            let Ok(canonical) = std::fs::canonicalize(path) else {
                continue;
            };
            if canonical.is_dir() {
                roots.folders.push(canonical);
            } else {
                roots.files.insert(canonical);
            }
        }
        roots
    }

    /// Whether `path` (an existing file) is, or would be read as, an input:
    /// a file named on the command line, or a file of a readable kind inside
    /// a folder named there.
    pub fn contains(&self, path: &Path) -> bool {
        let Ok(canonical) = std::fs::canonicalize(path) else {
            return false;
        };
        self.files.contains(&canonical)
            || (inputs::is_input_kind(&canonical)
                && self.folders.iter().any(|f| canonical.starts_with(f)))
    }
}

/// An input's outputs written to temporary files, not yet named: removed
/// when dropped unless [`Outputs::commit`] placed them.
#[derive(Debug, Default)]
pub struct Staged(Vec<PathBuf>);

impl std::ops::Deref for Staged {
    type Target = [PathBuf];
    fn deref(&self) -> &[PathBuf] {
        &self.0
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for temp in &self.0 {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// The name of a new temporary file in the folder where `base` goes.
fn temp_name(base: &Path, counter: &AtomicU64) -> Result<PathBuf, String> {
    let folder = base.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let name = base
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = counter.fetch_add(1, Ordering::Relaxed);
    Ok(folder.join(format!(".{name}.kifconv-{}-{n}.tmp", std::process::id())))
}

/// Writes one input's outputs to temporary files in the folder where
/// `base` (the first output's name) goes. On failure no temporary file is
/// left.
pub fn stage(base: &Path, outputs: &[Vec<u8>], counter: &AtomicU64) -> Result<Staged, String> {
    let mut temps = Staged(Vec::with_capacity(outputs.len()));
    for bytes in outputs {
        let temp = temp_name(base, counter)?;
        write_file(&temp, bytes, |p| std::fs::File::create_new(p))
            .map_err(|e| format!("{}: {e}", base.display()))?;
        temps.0.push(temp);
    }
    Ok(temps)
}

/// One temporary file for the output `base`, opened to be written as the
/// output is made.
pub fn stage_open(
    base: &Path,
    counter: &AtomicU64,
) -> Result<(Staged, std::io::BufWriter<std::fs::File>), String> {
    let temp = temp_name(base, counter)?;
    let file = std::fs::File::create_new(&temp).map_err(|e| format!("{}: {e}", base.display()))?;
    Ok((Staged(vec![temp]), std::io::BufWriter::new(file)))
}

/// Writes `bytes` to a new file at `path` through the writer `create`
/// opens; on failure the file is removed.
fn write_file<W: Write>(
    path: &Path,
    bytes: &[u8],
    create: impl FnOnce(&Path) -> std::io::Result<W>,
) -> std::io::Result<()> {
    let written = (|| {
        let mut file = create(path)?;
        file.write_all(bytes)?;
        // No fsync: the rename alone keeps a killed run from leaving half a
        // file under the final name; syncing each of thousands of small
        // files would triple the run time for a power-loss guarantee.
        file.flush()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(path);
    }
    written
}

/// The outputs placed so far in this run, and the rules for placing more.
pub struct Outputs<'a> {
    /// Every output name this run has placed, as a 64-bit hash of the
    /// path: 8 bytes an output, so a run of millions of files stays small.
    /// Two paths sharing a hash (odds about 1 in 10^7 for a million
    /// outputs) would only give the later one a `-N` name and a warning.
    claimed: HashSet<u64>,
    overwrite: Overwrite,
    inputs: &'a InputRoots,
}

/// What placing one input's outputs did.
#[derive(Debug, Default)]
pub struct Placed {
    /// The names the outputs got, in order.
    pub paths: Vec<PathBuf>,
    /// Names that differ from the planned ones, and why.
    pub warnings: Vec<String>,
    /// With `--skip-existing`: every output existed already, and nothing
    /// was placed.
    pub existed: bool,
}

impl<'a> Outputs<'a> {
    /// No outputs placed yet; existing files treated as `overwrite` says, never an input.
    pub fn new(overwrite: Overwrite, inputs: &'a InputRoots) -> Outputs<'a> {
        Outputs {
            claimed: HashSet::new(),
            overwrite,
            inputs,
        }
    }

    /// Names and places the staged outputs of one input: one is planned
    /// as `base`, several as `base-01`, `base-02`… ([`game_name`]). A name
    /// an earlier output of the run took gets the next free `~N`
    /// ([`clash_name`]). All are placed, or none (an error says why, and
    /// the temporary files are removed).
    pub fn commit(&mut self, base: &Path, mut temps: Staged) -> Result<Placed, String> {
        let mut placed = Placed::default();
        let mut plan: Vec<(PathBuf, bool)> = Vec::with_capacity(temps.len());
        let mut this_input: HashSet<PathBuf> = HashSet::new();
        let count = temps.len();
        for i in 0..count {
            let planned = if count == 1 {
                base.to_path_buf()
            } else {
                game_name(base, i + 1, count)
            };
            let taken = |p: &Path| self.claimed.contains(&key(p)) || this_input.contains(p);
            let path = if taken(&planned) {
                let free = (2..)
                    .map(|k| clash_name(&planned, k))
                    .find(|p| !taken(p))
                    .expect("some suffix is free");
                let by = if this_input.contains(&planned) {
                    "this input"
                } else {
                    "an earlier input"
                };
                placed.warnings.push(format!(
                    "{} is already an output of {by} in this run; written as {}",
                    planned.display(),
                    free.display()
                ));
                free
            } else {
                planned
            };
            let exists = path.symlink_metadata().is_ok();
            if exists && self.inputs.contains(&path) {
                return Err(format!(
                    "{}: this output would overwrite an input; refused",
                    path.display()
                ));
            }
            this_input.insert(path.clone());
            plan.push((path, exists));
        }
        // A batch resumed: an input whose outputs are all there already is
        // skipped, its names still claimed (a later input is named as in
        // the run that wrote them).
        if self.overwrite == Overwrite::SkipExisting && plan.iter().all(|(_, exists)| *exists) {
            for (path, _) in plan {
                self.claimed.insert(key(&path));
            }
            placed.existed = true;
            return Ok(placed);
        }
        if self.overwrite != Overwrite::Replace {
            if let Some((path, _)) = plan.iter().find(|(_, exists)| *exists) {
                let what = if self.overwrite == Overwrite::SkipExisting {
                    "the output exists, but not all of this input's outputs do (use --force to write them all again)"
                } else {
                    "the output exists (use --force to replace it, or --skip-existing to skip it)"
                };
                return Err(format!("{}: {what}", path.display()));
            }
        }
        for (i, ((path, replace), temp)) in plan.iter().zip(temps.iter()).enumerate() {
            let moved = if *replace {
                std::fs::rename(temp, path)
            } else {
                rename_no_replace(temp, path)
            };
            if let Err(e) = moved {
                // All or none: take back what this input placed (files that
                // were replaced cannot be given back, and are said).
                for (done, replaced) in &plan[..i] {
                    if !replaced {
                        let _ = std::fs::remove_file(done);
                    }
                }
                // The first `i` were renamed; the drop removes the rest.
                temps.0.drain(..i);
                let why = if e.kind() == ErrorKind::AlreadyExists {
                    "a file of that name appeared while converting (another process?); not replaced"
                        .to_string()
                } else {
                    e.to_string()
                };
                let replaced: Vec<String> = plan[..i]
                    .iter()
                    .filter(|(_, r)| *r)
                    .map(|(p, _)| p.display().to_string())
                    .collect();
                let also = if replaced.is_empty() {
                    String::new()
                } else {
                    format!(" (already replaced: {})", replaced.join(", "))
                };
                return Err(format!("{}: {why}{also}", path.display()));
            }
        }
        temps.0.clear();
        for (path, _) in plan {
            self.claimed.insert(key(&path));
            placed.paths.push(path);
        }
        Ok(placed)
    }
}

/// The claimed-set key of a path: a hash fixed across runs and threads.
fn key(path: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut hasher);
    hasher.finish()
}

/// The name of game `n` (from 1) of `count` of one input: `x.kif` →
/// `x-01.kif` … `x-16.kif`, zero-padded to two digits or as many as
/// `count` has, so that names sort in game order.
pub fn game_name(path: &Path, n: usize, count: usize) -> PathBuf {
    let width = count.to_string().len().max(2);
    suffixed(path, &format!("-{n:0width$}"))
}

/// The name an output takes when an earlier output of the run has its
/// name: `x.kif` → `x~2.kif` (a mark of its own, never a game's number).
pub fn clash_name(path: &Path, n: usize) -> PathBuf {
    suffixed(path, &format!("~{n}"))
}

/// `path` with `suffix` after its stem, before its extension.
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match path.extension() {
        Some(ext) => path.with_file_name(format!("{stem}{suffix}.{}", ext.to_string_lossy())),
        None => path.with_file_name(format!("{stem}{suffix}")),
    }
}

/// One output file written as it is made: a temporary file beside `path`
/// until [`NewFile::place`] names it, removed if dropped before. Placing
/// never replaces a file that is there (whether it was there before or
/// appeared meanwhile) unless `force` was given; an input is never
/// replaced (the caller checks with [`InputRoots::contains`] first).
pub struct NewFile {
    path: PathBuf,
    force: bool,
    // Dropped before the temporary file is removed.
    out: std::io::BufWriter<std::fs::File>,
    staged: Staged,
}

impl NewFile {
    /// Starts the output `path`; refused at once when a file is there
    /// and `force` was not given.
    pub fn create(path: &Path, force: bool) -> Result<NewFile, String> {
        if !force && path.symlink_metadata().is_ok() {
            return Err(format!(
                "{} exists; give --force to replace it",
                path.display()
            ));
        }
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let (staged, out) = stage_open(path, &COUNTER)?;
        Ok(NewFile {
            path: path.to_path_buf(),
            force,
            out,
            staged,
        })
    }

    /// Writes what is buffered and gives the file its name.
    pub fn place(mut self) -> Result<(), String> {
        let said = |e: Error| format!("{}: {e}", self.path.display());
        self.out.flush().map_err(said)?;
        let temp = &self.staged[0];
        if self.force {
            std::fs::rename(temp, &self.path).map_err(said)?;
        } else {
            rename_no_replace(temp, &self.path).map_err(|e| {
                if e.kind() == ErrorKind::AlreadyExists {
                    format!("{} exists; give --force to replace it", self.path.display())
                } else {
                    said(e)
                }
            })?;
        }
        // Placed: nothing left to remove.
        self.staged.0.clear();
        Ok(())
    }
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Renames `from` to `to` unless something is at `to` already (then
/// `AlreadyExists`): a hard link, which fails if the name exists, in one
/// step, and then the temporary name is removed. (std has no no-replace
/// rename, and the library holds no `unsafe` to call the system's.)
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => {
            let _ = std::fs::remove_file(from);
            Ok(())
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Err(e),
        Err(_) => {
            // A file system without hard links: check, then rename (a
            // short race remains there).
            if to.symlink_metadata().is_ok() {
                return Err(Error::from(ErrorKind::AlreadyExists));
            }
            std::fs::rename(from, to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::scratch::scratch;

    /// A file on a disk that fills up after `room` bytes.
    struct FillingDisk {
        file: std::fs::File,
        room: usize,
    }

    impl Write for FillingDisk {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(Error::new(
                    ErrorKind::StorageFull,
                    "no space left on device",
                ));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.file.write(&buf[..n])
        }

        fn flush(&mut self) -> std::io::Result<()> {
            self.file.flush()
        }
    }

    fn files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_full_disk_leaves_no_partial_file() {
        let dir = scratch("full");
        let temp = dir.join(".game.usi.tmp");
        let full = |room: usize| {
            move |p: &Path| {
                Ok(FillingDisk {
                    file: std::fs::File::create_new(p)?,
                    room,
                })
            }
        };
        let e = write_file(&temp, &[b'x'; 100], full(10)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::StorageFull);
        assert!(files(&dir).is_empty());
        write_file(&temp, b"whole\n", full(1000)).unwrap();
        assert_eq!(std::fs::read(&temp).unwrap(), b"whole\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clashing_names_get_the_next_free_suffix_and_a_warning() {
        let dir = scratch("clash");
        let roots = InputRoots::default();
        let counter = AtomicU64::new(0);
        let mut outputs = Outputs::new(Overwrite::Refuse, &roots);
        let base = dir.join("a.usi");
        // The games of a multi-game input take `a-01.usi` and `a-02.usi`;
        // two inputs planned as `a.usi` then get `a.usi` and `a~2.usi`.
        let temps = stage(&base, &[b"one\n".to_vec(), b"two\n".to_vec()], &counter).unwrap();
        let placed = outputs.commit(&base, temps).unwrap();
        assert!(placed.warnings.is_empty());
        let temps = stage(&base, &[b"zero\n".to_vec()], &counter).unwrap();
        let placed = outputs.commit(&base, temps).unwrap();
        assert!(placed.warnings.is_empty());
        let temps = stage(&base, &[b"three\n".to_vec()], &counter).unwrap();
        let placed = outputs.commit(&base, temps).unwrap();
        assert_eq!(placed.paths, vec![dir.join("a~2.usi")]);
        assert_eq!(placed.warnings.len(), 1);
        assert!(
            placed.warnings[0].contains("already an output of an earlier input"),
            "{:?}",
            placed.warnings
        );
        assert_eq!(files(&dir), ["a-01.usi", "a-02.usi", "a.usi", "a~2.usi"]);
        assert_eq!(std::fs::read(dir.join("a~2.usi")).unwrap(), b"three\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn existing_files_are_refused_or_replaced_as_asked_and_never_raced() {
        let dir = scratch("exists");
        let roots = InputRoots::default();
        let counter = AtomicU64::new(0);
        let base = dir.join("g.usi");
        std::fs::write(dir.join("g-02.usi"), b"older\n").unwrap();
        // Without --force: the input fails whole; neither of its outputs is
        // placed, no temporary file is left, the older file is untouched.
        let mut refusing = Outputs::new(Overwrite::Refuse, &roots);
        let temps = stage(&base, &[b"1\n".to_vec(), b"2\n".to_vec()], &counter).unwrap();
        let e = refusing.commit(&base, temps).unwrap_err();
        assert!(e.contains("g-02.usi: the output exists"), "{e}");
        assert_eq!(files(&dir), ["g-02.usi"]);
        // With --force: a file that was there when the names were planned
        // is replaced.
        let mut replacing = Outputs::new(Overwrite::Replace, &roots);
        let temps = stage(&base, &[b"1\n".to_vec(), b"2\n".to_vec()], &counter).unwrap();
        replacing.commit(&base, temps).unwrap();
        assert_eq!(files(&dir), ["g-01.usi", "g-02.usi"]);
        assert_eq!(std::fs::read(dir.join("g-02.usi")).unwrap(), b"2\n");
        // A name free when planned and taken before the rename (another
        // process) is not replaced: the rename says so.
        let other = dir.join("h.usi");
        let temps = stage(&other, &[b"ours\n".to_vec()], &counter).unwrap();
        std::fs::write(&other, b"theirs\n").unwrap();
        let e = rename_no_replace(&temps[0], &other).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&other).unwrap(), b"theirs\n");
        drop(temps);
        assert_eq!(files(&dir), ["g-01.usi", "g-02.usi", "h.usi"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn game_names_sort_in_game_order_and_clashes_have_their_own_mark() {
        let base = Path::new("out/x.kif");
        let names: Vec<PathBuf> = (1..=16).map(|n| game_name(base, n, 16)).collect();
        assert_eq!(names[0], Path::new("out/x-01.kif"));
        assert_eq!(names[15], Path::new("out/x-16.kif"));
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, names);
        assert_eq!(game_name(base, 7, 120), Path::new("out/x-007.kif"));
        assert_eq!(game_name(Path::new("x"), 2, 3), Path::new("x-02"));
        assert_eq!(clash_name(base, 2), Path::new("out/x~2.kif"));
    }
}
