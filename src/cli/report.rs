//! `--report FILE`: a TSV line per input, written as the batch goes (to a
//! hidden temporary file, so memory does not grow with the number of
//! inputs), then put in place the way a shell redirection would: `-` is
//! standard output, a symbolic link, FIFO or device is written through, a
//! regular file is replaced whole by a rename.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

const HEADER: &str = "path\tstatus\tgames\tmoves\twarnings\tfirst_error\toutputs\n";

/// One input's line.
pub struct Line<'a> {
    pub path: &'a str,
    pub status: &'a str,
    pub games: usize,
    pub moves: usize,
    pub warnings: usize,
    pub error: &'a str,
    pub outputs: &'a [PathBuf],
}

/// The report being written.
pub struct Report {
    path: PathBuf,
    temp: PathBuf,
    /// Whether the temporary file is renamed into place (a regular file or
    /// a new one) or copied through (`-`, a link, a FIFO, a device).
    rename: bool,
    out: BufWriter<File>,
    /// The first failure to write a line, said at the end.
    failed: Option<std::io::Error>,
}

impl Report {
    /// Starts the report for `path`.
    pub fn create(path: &Path) -> std::io::Result<Report> {
        let rename = path.as_os_str() != "-"
            && path
                .symlink_metadata()
                .map_or(true, |m| m.file_type().is_file());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "report".into());
        let temp_name = format!(".{name}.kifconv-{}-report.tmp", std::process::id());
        let temp = if rename {
            path.with_file_name(temp_name)
        } else {
            std::env::temp_dir().join(temp_name)
        };
        let mut out = BufWriter::new(File::create_new(&temp)?);
        let failed = out.write_all(HEADER.as_bytes()).err();
        Ok(Report {
            path: path.to_path_buf(),
            temp,
            rename,
            out,
            failed,
        })
    }

    /// Writes one input's line (tabs and line breaks in fields become
    /// spaces; outputs are separated by ` | `).
    pub fn line(&mut self, line: Line) {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let outputs: Vec<String> = line
            .outputs
            .iter()
            .map(|p| clean(&p.to_string_lossy()))
            .collect();
        let text = format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            clean(line.path),
            line.status,
            line.games,
            line.moves,
            line.warnings,
            clean(line.error),
            outputs.join(" | ")
        );
        if self.failed.is_none() {
            self.failed = self.out.write_all(text.as_bytes()).err();
        }
    }

    /// Leaves the report unwritten (the run failed as a whole): its
    /// temporary file is removed.
    pub fn discard(self) {
        let _ = std::fs::remove_file(&self.temp);
    }

    /// Puts the report in place. A closed standard output is not an error.
    pub fn finish(self) -> std::io::Result<()> {
        let Report {
            path,
            temp,
            rename,
            out,
            failed,
        } = self;
        let done = (|| {
            if let Some(e) = failed {
                return Err(e);
            }
            out.into_inner().map_err(|e| e.into_error())?;
            if rename {
                return std::fs::rename(&temp, &path);
            }
            let mut from = File::open(&temp)?;
            if path.as_os_str() == "-" {
                let mut stdout = std::io::stdout().lock();
                std::io::copy(&mut from, &mut stdout)?;
                return stdout.flush();
            }
            let mut to = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .create(true)
                .open(&path)?;
            std::io::copy(&mut from, &mut to)?;
            to.flush()
        })();
        let _ = std::fs::remove_file(&temp);
        match done {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            done => done,
        }
    }
}
