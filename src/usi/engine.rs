//! One USI engine: the handshake, its options, positions and searches.
//! Every move it sends (best move, ponder move, each move of each PV, a
//! mate's moves) is played on kifconv's board before it is handed on: an
//! illegal one is an error that names the engine, the position and the
//! move.

use super::error::{EngineError, EngineErrorKind};
use super::info::{Info, Score};
use super::process::{self, Next, Process};
use crate::{Move, Position};
use std::time::{Duration, Instant};

/// How long kifconv waits for each reply before it calls the engine hung.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// `usi` to `usiok`.
    pub handshake: Duration,
    /// `isready` to `readyok` (an engine may load its evaluation here).
    pub ready: Duration,
    /// `go` to `bestmove` for a search bounded by nodes or depth; a timed
    /// search waits its time and [`Timeouts::stop`] more.
    pub search: Duration,
    /// `stop` to `bestmove`.
    pub stop: Duration,
    /// `quit` to the end of the process, after which it is killed.
    pub quit: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(30),
            ready: Duration::from_secs(120),
            search: Duration::from_secs(600),
            stop: Duration::from_secs(10),
            quit: Duration::from_secs(5),
        }
    }
}

/// An option the engine declared after `usi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name (it may hold spaces).
    pub name: String,
    /// Its type: `check`, `spin`, `combo`, `button`, `string`, `filename`.
    pub kind: String,
    /// Its default, when it has one.
    pub default: Option<String>,
}

/// What bounds a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go movetime MS`.
    MoveTime(Duration),
    /// `go btime … wtime … byoyomi …` (`binc`/`winc` when not zero).
    Clock {
        /// Black's time left.
        black: Duration,
        /// White's time left.
        white: Duration,
        /// The byoyomi per move.
        byoyomi: Duration,
        /// Black's increment (Fischer).
        black_inc: Duration,
        /// White's increment.
        white_inc: Duration,
    },
    /// `go infinite`: until [`Engine::stop`].
    Infinite,
}

impl Limit {
    /// The words after `go`.
    fn go(&self) -> String {
        let ms = |d: &Duration| d.as_millis();
        match self {
            Limit::Nodes(n) => format!("nodes {n}"),
            Limit::Depth(d) => format!("depth {d}"),
            Limit::MoveTime(t) => format!("movetime {}", ms(t)),
            Limit::Clock {
                black,
                white,
                byoyomi,
                black_inc,
                white_inc,
            } => {
                let mut go = format!("btime {} wtime {}", ms(black), ms(white));
                if black_inc.is_zero() && white_inc.is_zero() {
                    go.push_str(&format!(" byoyomi {}", ms(byoyomi)));
                } else {
                    go.push_str(&format!(" binc {} winc {}", ms(black_inc), ms(white_inc)));
                }
                go
            }
            Limit::Infinite => "infinite".to_string(),
        }
    }

    /// How long the search may take before the engine is called hung;
    /// `None` for an infinite search.
    fn allowed(&self, timeouts: &Timeouts, side_black: bool) -> Option<Duration> {
        match self {
            Limit::Nodes(_) | Limit::Depth(_) => Some(timeouts.search),
            Limit::MoveTime(t) => Some(*t + timeouts.stop),
            Limit::Clock {
                black,
                white,
                byoyomi,
                black_inc,
                white_inc,
            } => {
                let (left, inc) = if side_black {
                    (black, black_inc)
                } else {
                    (white, white_inc)
                };
                Some(*left + *byoyomi + *inc + timeouts.stop)
            }
            Limit::Infinite => None,
        }
    }
}

/// The engine's answer to `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, checked legal.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: the side to move declares a win (entering king).
    Win,
}

/// A principal variation as the search last reported it, its moves
/// checked legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pv {
    /// 1 for the best line, 2 for the next (MultiPV), ….
    pub multipv: u32,
    /// The value, for the side to move.
    pub score: Option<Score>,
    /// The depth reached.
    pub depth: Option<u32>,
    /// The selective depth.
    pub seldepth: Option<u32>,
    /// Nodes searched when it was sent.
    pub nodes: Option<u64>,
    /// The moves.
    pub moves: Vec<Move>,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The move chosen.
    pub best: BestMove,
    /// The move it expects in reply, checked legal after the best move.
    pub ponder: Option<Move>,
    /// The last line of each MultiPV rank, best first.
    pub pvs: Vec<Pv>,
    /// Every `info` line read, in order.
    pub infos: Vec<Info>,
    /// Lines read but not understood (an `info` line kifconv cannot
    /// read), with why.
    pub warnings: Vec<String>,
    /// How long the search took, from `go` to `bestmove`.
    pub elapsed: Duration,
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mate {
    /// `checkmate <moves>`: the mate, its moves checked legal.
    Found(Vec<Move>),
    /// `checkmate nomate`: there is none.
    NoMate,
    /// `checkmate timeout`: none found in time.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

/// A search under way.
struct Going {
    /// The `position` command sent.
    command: String,
    /// The position searched.
    position: Position,
    started: Instant,
    deadline: Option<Instant>,
    search: Search,
}

impl Going {
    /// A search started at `started`, nothing read yet.
    fn new(
        command: String,
        position: Position,
        started: Instant,
        deadline: Option<Instant>,
    ) -> Going {
        Going {
            command,
            position,
            started,
            deadline,
            search: Search {
                best: BestMove::Resign,
                ponder: None,
                pvs: Vec::new(),
                infos: Vec::new(),
                warnings: Vec::new(),
                elapsed: Duration::ZERO,
            },
        }
    }
}

/// A running USI engine. Dropping it ends the process (`quit`, then a kill
/// after [`Timeouts::quit`]).
pub struct Engine {
    process: Process,
    name: String,
    /// The engine's `id name`, when it sent one.
    id_name: Option<String>,
    author: Option<String>,
    options: Vec<EngineOption>,
    timeouts: Timeouts,
    going: Option<Going>,
}

impl Engine {
    /// Starts `command` (a command line: the program and its arguments,
    /// `ssh host engine` included; quotes group words), exchanges
    /// `usi`/`usiok`, sets `options` (each must be one the engine
    /// declared) and waits for `readyok`.
    pub fn start(
        command: &str,
        options: &[(String, String)],
        timeouts: Timeouts,
    ) -> Result<Engine, EngineError> {
        let mut engine = Engine::open(command, timeouts)?;
        for (name, value) in options {
            engine.set_option(name, value)?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Starts `command` (as [`Engine::start`] does) and exchanges
    /// `usi`/`usiok` only: no option is set and no `isready` sent yet.
    pub fn open(command: &str, timeouts: Timeouts) -> Result<Engine, EngineError> {
        let fail = |kind| EngineError {
            engine: command.to_string(),
            kind: Box::new(kind),
            transcript: Vec::new(),
            stderr: Vec::new(),
        };
        let words =
            process::words(command).map_err(|why| fail(EngineErrorKind::CommandLine(why)))?;
        let process = Process::start(&words).map_err(|e| fail(EngineErrorKind::Start(e)))?;
        let mut engine = Engine {
            process,
            name: command.to_string(),
            id_name: None,
            author: None,
            options: Vec::new(),
            timeouts,
            going: None,
        };
        engine.handshake()?;
        Ok(engine)
    }

    /// The engine's `id name`, or its command line when it gave none.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's `id name`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The engine's `id author`.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The process id of the engine (of `ssh`, for a remote one).
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// The options the engine declared.
    pub fn options(&self) -> &[EngineOption] {
        &self.options
    }

    /// The last lines exchanged, oldest first.
    pub fn transcript(&self) -> Vec<String> {
        self.process.transcript()
    }

    /// An error of this engine, with its transcript.
    fn error(&self, kind: EngineErrorKind) -> EngineError {
        EngineError {
            engine: self.name.clone(),
            kind: Box::new(kind),
            transcript: self.process.transcript(),
            stderr: self.process.stderr(),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process
            .send(line)
            .map_err(|e| self.error(EngineErrorKind::Send(e)))
    }

    /// The next line before `deadline` (`None`: no deadline).
    fn next(
        &mut self,
        waiting_for: &'static str,
        deadline: Option<Instant>,
        allowed: Duration,
    ) -> Result<String, EngineError> {
        // With no deadline, wake now and then to notice a dead engine.
        let until = deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        match self.process.next(until) {
            Next::Line(line) => Ok(line),
            Next::Timeout if deadline.is_none() => self.next(waiting_for, None, allowed),
            Next::Timeout => Err(self.error(EngineErrorKind::Timeout {
                waiting_for,
                after: allowed,
            })),
            Next::Ended => {
                // Give the process a moment to be reaped for its status,
                // and its standard error to be read to the end.
                let mut status = None;
                for _ in 0..250 {
                    status = status.or_else(|| self.process.exited());
                    if status.is_some() && self.process.stderr_read() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(self.error(EngineErrorKind::Ended {
                    waiting_for,
                    status: status.map(|s| s.to_string()),
                }))
            }
        }
    }

    /// Reads lines until one whose first word is `word`: that line.
    fn until(
        &mut self,
        word: &'static str,
        allowed: Duration,
        mut each: impl FnMut(&mut Engine, &str),
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + allowed;
        loop {
            let line = self.next(word, Some(deadline), allowed)?;
            if line.split_ascii_whitespace().next() == Some(word) {
                return Ok(line);
            }
            each(self, &line);
        }
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send("usi")?;
        self.until("usiok", self.timeouts.handshake, |engine, line| {
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
                engine.id_name = Some(engine.name.clone());
            } else if let Some(author) = line.strip_prefix("id author ") {
                engine.author = Some(author.trim().to_string());
            } else if let Some(option) = line.strip_prefix("option ") {
                engine.options.extend(parse_option(option));
            }
        })?;
        Ok(())
    }

    /// `setoption name NAME value VALUE` (no value for an empty one: a
    /// button), for an option the engine declared (names compared without
    /// case, as engines do).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        if !self
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
        {
            let known = self.options.iter().map(|o| o.name.clone()).collect();
            return Err(self.error(EngineErrorKind::NoOption {
                name: name.to_string(),
                known,
            }));
        }
        match value {
            // A button has no value.
            "" => self.send(&format!("setoption name {name}")),
            _ => self.send(&format!("setoption name {name} value {value}")),
        }
    }

    /// `isready`, then waits for `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.until("readyok", self.timeouts.ready, |_, _| {})?;
        Ok(())
    }

    /// `usinewgame`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("usinewgame")
    }

    /// `usinewgame`, then `isready` until `readyok`: engines forget what
    /// earlier searches left (YaneuraOu clears its hash at `isready`,
    /// Stockfish's kind at `usinewgame`), so a search gives the same answer
    /// whatever this engine searched before.
    pub fn forget(&mut self) -> Result<(), EngineError> {
        self.new_game()?;
        self.ready()
    }

    /// The `position` command for `start` and `moves`, and the position
    /// they reach; a move that is not legal is an error (the caller's).
    fn position(
        &self,
        start: &Position,
        moves: &[Move],
    ) -> Result<(String, Position), EngineError> {
        let mut command = if start.is_startpos() {
            "position startpos".to_string()
        } else {
            format!("position sfen {}", start.sfen())
        };
        let mut position = start.clone();
        if !moves.is_empty() {
            command.push_str(" moves");
        }
        for (i, &mv) in moves.iter().enumerate() {
            if let Err(reason) = position.play(mv) {
                return Err(self.error(EngineErrorKind::IllegalMove {
                    what: "position",
                    position: command.clone(),
                    line: moves[..=i]
                        .iter()
                        .map(Move::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    reason: reason.to_string(),
                }));
            }
            command.push(' ');
            command.push_str(&mv.to_string());
        }
        Ok((command, position))
    }

    /// Starts a search of the position `moves` reach from `start`.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: &Limit,
    ) -> Result<(), EngineError> {
        self.abandon()?;
        let (command, position) = self.position(start, moves)?;
        self.send(&command)?;
        self.send(&format!("go {}", limit.go()))?;
        let black = position.side_to_move() == crate::Color::Black;
        let started = Instant::now();
        let deadline = limit.allowed(&self.timeouts, black).map(|d| started + d);
        self.going = Some(Going::new(command, position, started, deadline));
        Ok(())
    }

    /// Waits for the search started by [`Engine::go`] to end.
    pub fn finish(&mut self) -> Result<Search, EngineError> {
        let going = self.going.as_ref().expect("a search was started");
        let deadline = going.deadline;
        let allowed = deadline.map_or(Duration::MAX, |d| d - going.started);
        self.collect(deadline, allowed)
    }

    /// Reads the search started by [`Engine::go`] for `wait` at most: its
    /// result if `bestmove` came, `None` if it is still searching. (A
    /// search of `go infinite` must not answer before [`Engine::stop`].)
    pub fn poll(&mut self, wait: Duration) -> Result<Option<Search>, EngineError> {
        assert!(self.going.is_some(), "a search was started");
        match self.collect(Some(Instant::now() + wait), wait) {
            Ok(search) => Ok(Some(search)),
            Err(e) if matches!(*e.kind, EngineErrorKind::Timeout { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `stop`, then the search's result.
    pub fn stop(&mut self) -> Result<Search, EngineError> {
        self.send("stop")?;
        let allowed = self.timeouts.stop;
        self.collect(Some(Instant::now() + allowed), allowed)
    }

    /// Ends the search under way, if any, and drops it: `stop`, then the
    /// lines up to its `bestmove`, unchecked. A search that failed on a
    /// bad move in its PV is still running; this lets the next one start
    /// clean. Nothing to do when no search is under way.
    pub fn abandon(&mut self) -> Result<(), EngineError> {
        if self.going.is_none() {
            return Ok(());
        }
        self.send("stop")?;
        let result = self.until("bestmove", self.timeouts.stop, |_, _| {});
        self.going = None;
        result.map(|_| ())
    }

    /// Searches the position `moves` reach from `start` and waits for the
    /// result.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: &Limit,
    ) -> Result<Search, EngineError> {
        self.go(start, moves, limit)?;
        self.finish()
    }

    /// Reads `info` lines up to `bestmove`.
    fn collect(
        &mut self,
        deadline: Option<Instant>,
        allowed: Duration,
    ) -> Result<Search, EngineError> {
        loop {
            let line = self.next("bestmove", deadline, allowed)?;
            let mut words = line.split_ascii_whitespace();
            match words.next() {
                Some("info") => {
                    let rest = line.trim_start()["info".len()..].to_string();
                    self.info(&rest)?;
                }
                Some("bestmove") => {
                    let best = words.next();
                    let ponder = match (words.next(), words.next()) {
                        (Some("ponder"), Some(p)) => Some(p),
                        _ => None,
                    };
                    let result = self.best(best, ponder, &line);
                    let mut going = self.going.take().expect("a search was started");
                    let (best, ponder) = result?;
                    going.search.best = best;
                    going.search.ponder = ponder;
                    going.search.elapsed = going.started.elapsed();
                    going.search.pvs.sort_by_key(|pv| pv.multipv);
                    return Ok(going.search);
                }
                _ => {}
            }
        }
    }

    /// Checks the moves of `texts` from the position searched; `what`
    /// names them in an error.
    fn checked(&self, what: &'static str, texts: &[&str]) -> Result<Vec<Move>, EngineError> {
        let going = self.going.as_ref().expect("a search was started");
        let mut position = going.position.clone();
        let mut moves = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            if what == "pv" && is_pv_end(text) {
                break;
            }
            if let Err(e) = position.play_usi(text, i as u32 + 1) {
                return Err(self.error(EngineErrorKind::IllegalMove {
                    what,
                    position: going.command.clone(),
                    line: texts[..=i].join(" "),
                    reason: e.to_string(),
                }));
            }
            moves.push(Move::from_usi(text).expect("played, so read"));
        }
        Ok(moves)
    }

    fn info(&mut self, rest: &str) -> Result<(), EngineError> {
        let info = match Info::parse(rest) {
            Ok(info) => info,
            Err(e) => {
                let going = self.going.as_mut().expect("a search was started");
                going
                    .search
                    .warnings
                    .push(format!("`info{rest}`: {e}; skipped"));
                return Ok(());
            }
        };
        if !info.pv.is_empty() {
            let texts: Vec<&str> = info.pv.iter().map(String::as_str).collect();
            let moves = self.checked("pv", &texts)?;
            let pv = Pv {
                multipv: info.multipv.unwrap_or(1),
                score: info.score,
                depth: info.depth,
                seldepth: info.seldepth,
                nodes: info.nodes,
                moves,
            };
            let pvs = &mut self
                .going
                .as_mut()
                .expect("a search was started")
                .search
                .pvs;
            match pvs.iter_mut().find(|p| p.multipv == pv.multipv) {
                Some(old) => *old = pv,
                None => pvs.push(pv),
            }
        }
        self.going
            .as_mut()
            .expect("a search was started")
            .search
            .infos
            .push(info);
        Ok(())
    }

    fn best(
        &self,
        best: Option<&str>,
        ponder: Option<&str>,
        line: &str,
    ) -> Result<(BestMove, Option<Move>), EngineError> {
        let best = match best {
            Some("resign") => return Ok((BestMove::Resign, None)),
            Some("win") => return Ok((BestMove::Win, None)),
            Some(text) => text,
            None => {
                return Err(self.error(EngineErrorKind::Garbled {
                    waiting_for: "bestmove",
                    line: line.to_string(),
                }))
            }
        };
        let mv = self.checked("bestmove", &[best])?[0];
        let ponder = match ponder {
            Some(p) => Some(self.checked("ponder", &[best, p])?[1]),
            None => None,
        };
        Ok((BestMove::Move(mv), ponder))
    }

    /// `go mate` (with a time in milliseconds, or `infinite`) on the
    /// position `moves` reach from `start`: the engine's answer, a mate's
    /// moves checked legal.
    pub fn mate(
        &mut self,
        start: &Position,
        moves: &[Move],
        time: Option<Duration>,
    ) -> Result<Mate, EngineError> {
        let (command, position) = self.position(start, moves)?;
        self.send(&command)?;
        let go = match time {
            Some(t) => format!("go mate {}", t.as_millis()),
            None => "go mate infinite".to_string(),
        };
        self.send(&go)?;
        let allowed = time.map_or(self.timeouts.search, |t| t + self.timeouts.stop);
        let started = Instant::now();
        self.going = Some(Going::new(
            command,
            position,
            started,
            Some(started + allowed),
        ));
        let line = self.until("checkmate", allowed, |_, _| {});
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                self.going = None;
                return Err(e);
            }
        };
        let words: Vec<&str> = line.split_ascii_whitespace().skip(1).collect();
        let answer = match words.as_slice() {
            ["nomate"] => Ok(Mate::NoMate),
            ["timeout"] => Ok(Mate::Timeout),
            ["notimplemented"] => Ok(Mate::NotImplemented),
            [] => Err(self.error(EngineErrorKind::Garbled {
                waiting_for: "checkmate",
                line: line.clone(),
            })),
            moves => self.checked("checkmate", moves).map(Mate::Found),
        };
        self.going = None;
        answer
    }

    /// Ends the engine: `quit`, then a kill when it has not ended within
    /// [`Timeouts::quit`]. Whether it ended by itself.
    pub fn quit(mut self) -> bool {
        let (_, killed) = self.process.end(self.timeouts.quit);
        !killed
    }
}

/// Words that end a PV without being moves: YaneuraOu's repetition and
/// declaration marks, and the share it gives a book move (`(50.00%)`).
fn is_pv_end(text: &str) -> bool {
    text.starts_with('(')
        || matches!(
            text,
            "rep_draw" | "rep_sup" | "rep_inf" | "rep_win" | "rep_lose" | "resign" | "win"
        )
}

/// An `option` line after its first word: `name N… type T [default D] …`.
fn parse_option(line: &str) -> Option<EngineOption> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let at = |key: &str| words.iter().position(|&w| w == key);
    let (name, kind) = (at("name")?, at("type")?);
    if kind <= name + 1 {
        return None;
    }
    let default = at("default").map(|d| {
        let end = words[d + 1..]
            .iter()
            .position(|w| matches!(*w, "min" | "max" | "var"))
            .map_or(words.len(), |e| d + 1 + e);
        words[d + 1..end].join(" ")
    });
    Some(EngineOption {
        name: words[name + 1..kind].join(" "),
        kind: words.get(kind + 1)?.to_string(),
        default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_option_lines() {
        let o = parse_option("name USI_Hash type spin default 1024 min 1 max 33554432").unwrap();
        assert_eq!(
            (o.name.as_str(), o.kind.as_str(), o.default.as_deref()),
            ("USI_Hash", "spin", Some("1024"))
        );
        let o =
            parse_option("name Book File type combo default no book var no book var a.db").unwrap();
        assert_eq!(
            (o.name.as_str(), o.default.as_deref()),
            ("Book File", Some("no book"))
        );
        let o = parse_option("name Clear Hash type button").unwrap();
        assert_eq!((o.kind.as_str(), o.default), ("button", None));
        assert_eq!(parse_option("name type spin"), None);
    }

    #[test]
    fn writes_go_for_each_limit() {
        let s = Duration::from_secs;
        assert_eq!(Limit::Nodes(2000).go(), "nodes 2000");
        assert_eq!(Limit::Depth(7).go(), "depth 7");
        assert_eq!(
            Limit::MoveTime(Duration::from_millis(250)).go(),
            "movetime 250"
        );
        let clock = Limit::Clock {
            black: s(60),
            white: s(30),
            byoyomi: s(10),
            black_inc: s(0),
            white_inc: s(0),
        };
        assert_eq!(clock.go(), "btime 60000 wtime 30000 byoyomi 10000");
        let fischer = Limit::Clock {
            black: s(60),
            white: s(30),
            byoyomi: s(0),
            black_inc: s(2),
            white_inc: s(2),
        };
        assert_eq!(fischer.go(), "btime 60000 wtime 30000 binc 2000 winc 2000");
        assert_eq!(Limit::Infinite.go(), "infinite");
    }
}
