//! An engine's process: started from a command line, written to line by
//! line, its output read by a thread of its own so that every wait has a
//! deadline, and always ended.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How many lines the transcript and the standard error keep.
const KEPT: usize = 24;
/// The longest line kept whole; the rest of a longer one is dropped.
const LONGEST_LINE: usize = 1 << 16;

/// What waiting for a line gave.
pub(crate) enum Next {
    Line(String),
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output: it has ended.
    Ended,
}

/// A running engine process.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines sent (`> `) and received (`< `).
    transcript: VecDeque<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    readers: Vec<JoinHandle<()>>,
}

/// Splits a command line into words as a shell would for plain words:
/// spaces separate them, single and double quotes group, a backslash
/// escapes the next character (outside single quotes). No other shell
/// syntax: a pipeline or a variable needs `sh -c '…'`.
pub(crate) fn words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                words.extend(word.take());
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => w.extend(chars.next()),
                        Some(c) => w.push(c),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err("the command line is empty".into());
    }
    Ok(words)
}

impl Process {
    /// Starts `words` (the program, then its arguments).
    pub(crate) fn start(words: &[String]) -> std::io::Result<Process> {
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (send, lines) = mpsc::channel();
        let stdout_reader = std::thread::spawn(move || {
            read_lines(stdout, |line| send.send(line).is_ok());
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            read_lines(stderr_pipe, |line| {
                if let Ok(mut kept) = kept.lock() {
                    keep(&mut kept, line);
                }
                true
            });
        });
        Ok(Process {
            child,
            stdin,
            lines,
            transcript: VecDeque::new(),
            stderr,
            readers: vec![stdout_reader, stderr_reader],
        })
    }

    /// Sends one line. A failure means the engine no longer reads.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        keep(&mut self.transcript, format!("> {line}"));
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(format!("{line}\n").as_bytes())?;
        stdin.flush()
    }

    /// The next line, waiting until `deadline` at most.
    pub(crate) fn next(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                keep(&mut self.transcript, format!("< {line}"));
                Next::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Ended,
        }
    }

    /// The last lines exchanged, oldest first.
    pub(crate) fn transcript(&self) -> Vec<String> {
        self.transcript.iter().cloned().collect()
    }

    /// The last lines the engine wrote to its standard error.
    pub(crate) fn stderr(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|kept| kept.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether the engine's standard error has been read to its end.
    pub(crate) fn stderr_read(&self) -> bool {
        self.readers.get(1).is_none_or(JoinHandle::is_finished)
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// The exit status, if the process has ended.
    pub(crate) fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Ends the process: `quit`, its input closed, then a wait of `grace`
    /// at most before it is killed. The status it ended with, and whether
    /// it had to be killed.
    pub(crate) fn end(&mut self, grace: Duration) -> (Option<ExitStatus>, bool) {
        if self.stdin.is_some() && self.exited().is_none() {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let deadline = Instant::now() + grace;
        let mut killed = false;
        let status = loop {
            if let Some(status) = self.exited() {
                break Some(status);
            }
            if Instant::now() >= deadline {
                killed = true;
                let _ = self.child.kill();
                break self.child.wait().ok();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        for reader in self.readers.drain(..) {
            // The pipes close with the process (unless it left children
            // that hold them: then the thread is left to end with them).
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
        (status, killed)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.exited().is_none() {
            self.end(Duration::from_secs(2));
        }
    }
}

/// Keeps `line` among the last [`KEPT`].
fn keep(kept: &mut VecDeque<String>, line: String) {
    if kept.len() == KEPT {
        kept.pop_front();
    }
    kept.push_back(line);
}

/// Reads `from` line by line (`\n` or `\r\n`; bytes that are not UTF-8
/// replaced, a line past [`LONGEST_LINE`] cut there) and hands each to
/// `each` until it returns false or the input ends.
fn read_lines(from: impl Read, mut each: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut cut = false;
        // Read up to the newline, keeping at most LONGEST_LINE bytes.
        let ended = loop {
            let buffer = match reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break true,
            };
            if buffer.is_empty() {
                break true;
            }
            let (take, found) = match memchr::memchr(b'\n', buffer) {
                Some(i) => (i + 1, true),
                None => (buffer.len(), false),
            };
            let room = LONGEST_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buffer[..take.min(room)]);
            cut |= take > room;
            reader.consume(take);
            if found {
                break false;
            }
        };
        if ended && line.is_empty() {
            return;
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        let mut text = String::from_utf8_lossy(&line).into_owned();
        if cut {
            text.push_str(" …");
        }
        if !each(text) || ended {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_command_lines_as_a_shell_does_plain_words() {
        let w = |line: &str| words(line).unwrap();
        assert_eq!(w("engine"), ["engine"]);
        assert_eq!(
            w("  ssh host  ./engine -x "),
            ["ssh", "host", "./engine", "-x"]
        );
        assert_eq!(
            w(r#"'/a b/engine' "c \"d\"" e\ f"#),
            ["/a b/engine", "c \"d\"", "e f"]
        );
        assert_eq!(w("a ''"), ["a", ""]);
        assert!(words("'open").is_err());
        assert!(words("   ").is_err());
    }

    #[test]
    fn reads_lines_of_any_bytes() {
        let mut lines = Vec::new();
        let input: Vec<u8> = [
            &b"usiok\r\nid \xff\n"[..],
            &vec![b'x'; LONGEST_LINE + 5],
            b"\nlast",
        ]
        .concat();
        read_lines(&input[..], |line| {
            lines.push(line);
            true
        });
        assert_eq!(lines[0], "usiok");
        assert_eq!(lines[1], "id \u{fffd}");
        assert_eq!(lines[2].len(), LONGEST_LINE + " …".len());
        assert_eq!(lines[3], "last");
        assert_eq!(lines.len(), 4);
    }
}
