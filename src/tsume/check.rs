//! Whether a mate problem is sound, with its recorded answer: the shortest
//! mate, whether the answer is a mate of that length, rival moves of the
//! attacker (余詰), and pieces the attacker still holds at the end (駒余り).
//!
//! Lengths are counted as composers count them ([`super::length`]): a
//! futile interposition and its capture add nothing.

use super::checks::gives_check;
use super::dfpn::Prover;
use super::length::Counter;
use super::rules::{attacker_findings, defender_findings, Finding, Line, Rule, Severity};
use super::solver::{shortest, Limits, OutOfNodes};
use crate::record::{Ending, EndingKind};
use crate::{Hand, Move, Position, Record};

/// The attacker moves of a line that have rivals: other moves that mate
/// within what is left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rivals {
    /// The 1-based ply of the line's move.
    pub ply: usize,
    /// The other moves that mate in the plies left, or fewer.
    pub moves: Vec<Move>,
}

/// The recorded answer's first move that breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAnswer {
    /// The 1-based ply of the move.
    pub ply: usize,
    /// The move as the record writes it (USI when the record gave a move).
    pub text: String,
    /// Which rule it breaks, in words.
    pub reason: String,
}

/// What [`check`] concluded, worst first in the order the command's exit
/// code ranks them: unsound (1) before unknown or not proven (3), and
/// those before sound with flaws and sound (both 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Soundness {
    /// Something is wrong, whatever a longer search would find:
    /// [`Report::problems`] says what.
    Unsound,
    /// The node budget ran out before an answer.
    Unknown,
    /// No mate within the depth, and a longer one may exist.
    NotProven,
    /// A sound problem whose answer has flaws composers name (変同,
    /// 手順前後, 非限定): [`Report::flaws`] says which.
    Flawed,
    /// A sound problem with a sound answer.
    Sound,
}

/// What [`check`] found about one problem.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Report {
    /// The budget ran out: the rest of the report is incomplete.
    pub unknown: bool,
    /// The longest mate looked for, in plies.
    pub depth: u32,
    /// The recorded answer breaks the rules at this move (the moves before
    /// it are `answer`).
    pub illegal: Option<IllegalAnswer>,
    /// There is no mate at any depth: the defender has no king, or the
    /// attacker's checks run out on every line.
    pub no_mate: bool,
    /// The defender has no king (so no mate).
    pub no_king: bool,
    /// The shortest mate by the rules, in plies (futile interpositions
    /// counted), or `None` when there is none within the depth.
    pub rules_length: Option<u32>,
    /// The shortest mate as composers count it (futile interpositions not
    /// counted).
    pub length: Option<u32>,
    /// The main line the solver plays: attacker shortest, defender longest.
    pub main_line: Vec<Move>,
    /// Whether the problem came with an answer; when not, `answer` is the
    /// main line.
    pub recorded: bool,
    /// The answer checked: the record's mainline (or the main line).
    pub answer: Vec<Move>,
    /// Whether every attacker move of the answer checks and it ends in
    /// mate (or in a check only futile interpositions could answer).
    pub answer_mates: bool,
    /// The recorded answer, played out, does not even end in check: no
    /// mate, known without the solver, so unsound even when the search
    /// could not tell. (An answer ending in a check is left to the solver:
    /// composers leave out futile interpositions, so its last position
    /// need not be checkmate.)
    pub answer_falls_short: bool,
    /// The answer's length as counted (its futile interpositions and their
    /// captures left out).
    pub answer_length: u32,
    /// The 1-based plies of the answer's futile interpositions.
    pub futile: Vec<usize>,
    /// What the composition rules found, in ply order, attacker moves
    /// first ([`super::rules`]).
    pub findings: Vec<Finding>,
    /// Other first moves that mate as fast or faster (余詰, 早詰): unsound.
    pub first_rivals: Vec<Move>,
    /// Later attacker moves, before the last, with rivals that mate as
    /// fast or faster (余詰, 早詰): unsound.
    pub middle_rivals: Vec<Rivals>,
    /// Other mates in one at the answer's last move: tolerated, reported.
    pub last_rivals: Vec<Move>,
    /// The attacker's hand when the answer ends (駒余り when not empty).
    pub leftover: Hand,
}

impl Report {
    /// Whether the problem is sound, with flaws or without: a mate within
    /// the depth, an answer that mates in exactly the shortest length, no
    /// unsound finding, and nothing left in the attacker's hand.
    pub fn is_sound(&self) -> bool {
        matches!(self.soundness(), Soundness::Sound | Soundness::Flawed)
    }

    /// The verdict: unsound when [`Report::problems`] names anything (an
    /// illegal answer is unsound even when the budget ran out), else
    /// unknown when the budget ran out, else not proven when no mate was
    /// found within the depth, else sound with flaws when
    /// [`Report::flaws`] names any, else sound.
    pub fn soundness(&self) -> Soundness {
        if !self.problems().is_empty() {
            Soundness::Unsound
        } else if self.unknown {
            Soundness::Unknown
        } else if self.length.is_none() {
            Soundness::NotProven
        } else if !self.flaws().is_empty() {
            Soundness::Flawed
        } else {
            Soundness::Sound
        }
    }

    /// What makes the problem unsound, one phrase each.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(illegal) = &self.illegal {
            out.push(format!(
                "the recorded answer's move {} ({}) is illegal: {}",
                illegal.ply, illegal.text, illegal.reason
            ));
        }
        if self.answer_falls_short && (self.unknown || self.length.is_none()) {
            out.push("the recorded answer does not mate".to_string());
        }
        if self.unknown {
            return out;
        }
        let Some(length) = self.length else {
            if self.no_king {
                out.push("no mate: the defender has no king".to_string());
            } else if self.no_mate {
                out.push("no mate: the attacker's checks run out on every line".to_string());
            }
            return out;
        };
        if self.illegal.is_some() {
            // Said above: whether the legal moves before it mate is beside
            // the point.
        } else if !self.answer_mates {
            out.push("the recorded answer does not mate".to_string());
        } else if self.answer_length != length {
            out.push(format!(
                "the recorded answer mates in {}, the shortest mate is {}",
                self.answer_length, length
            ));
        }
        out.extend(self.texts(Severity::Unsound));
        if self.answer_mates && !self.leftover.is_empty() {
            out.push(format!(
                "pieces left in hand (駒余り): {}",
                hand_text(&self.leftover)
            ));
        }
        out
    }

    /// The flaws of a sound problem (変同, 手順前後, 非限定), one phrase
    /// each, ply first.
    pub fn flaws(&self) -> Vec<String> {
        self.texts(Severity::Flaw)
    }

    /// What is reported and accepted (最終手余詰, 迂回), one phrase each.
    pub fn notes(&self) -> Vec<String> {
        self.texts(Severity::Note)
    }

    fn texts(&self, severity: Severity) -> Vec<String> {
        self.findings
            .iter()
            .filter(|f| f.rule.severity() == severity)
            .map(Finding::text)
            .collect()
    }
}

/// A hand as SFEN writes one (`2GP`), for reports.
pub fn hand_text(hand: &Hand) -> String {
    let mut out = String::new();
    for (kind, n) in hand.kinds().collect::<Vec<_>>().into_iter().rev() {
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push(kind.usi_letter());
    }
    out
}

/// Checks a problem: `start` with the attacker to move, and its recorded
/// answer (empty when the problem has none). A move of the answer that
/// breaks the rules makes the problem unsound ([`Report::illegal`]).
pub fn check(start: &Position, answer: &[Move], limits: Limits) -> Report {
    let (legal, illegal) = legal_prefix(start, answer);
    check_answer(start, legal, illegal, limits)
}

/// Checks a problem read as a record: its start, its mainline as the
/// answer, and the illegal move a reader kept as the mainline's foul ending
/// (a record whose last move breaks the rules is read with that move as its
/// ending).
pub fn check_record(record: &Record, limits: Limits) -> Report {
    let answer: Vec<Move> = record.tree.mainline_moves().collect();
    let (legal, mut illegal) = legal_prefix(&record.start, &answer);
    if illegal.is_none() {
        let end = record.tree.node(record.tree.mainline_end());
        illegal = end.ending().and_then(|e| foul(e, answer.len() + 1));
    }
    check_answer(&record.start, legal, illegal, limits)
}

/// The illegal move a record's ending holds, at `ply`: the move a reader
/// kept as a foul (named, with the rule it breaks), or a foul the record
/// only declares (`反則負け`, `%ILLEGAL_MOVE`).
fn foul(ending: &Ending, ply: usize) -> Option<IllegalAnswer> {
    if let Some(foul) = &ending.foul {
        let text = foul
            .mv
            .map_or_else(|| foul.text.clone(), |mv| mv.to_string());
        // Some readers give the reason as their error says it.
        let reason = foul.reason.strip_prefix(&format!("illegal move {text}: "));
        return Some(IllegalAnswer {
            ply,
            reason: reason.unwrap_or(&foul.reason).to_string(),
            text,
        });
    }
    use EndingKind::{FoulLoss, FoulWin, IllegalMove};
    matches!(ending.kind, IllegalMove | FoulLoss | FoulWin).then(|| IllegalAnswer {
        ply,
        text: ending.text.clone(),
        reason: "the record ends in a foul".to_string(),
    })
}

/// The moves of `answer` up to its first illegal one, and that one.
fn legal_prefix<'a>(start: &Position, answer: &'a [Move]) -> (&'a [Move], Option<IllegalAnswer>) {
    let mut pos = start.clone();
    for (i, &mv) in answer.iter().enumerate() {
        if let Err(reason) = pos.check_legal(mv) {
            let illegal = IllegalAnswer {
                ply: i + 1,
                text: mv.to_string(),
                reason: reason.to_string(),
            };
            return (&answer[..i], Some(illegal));
        }
        pos.play_unchecked(mv);
    }
    (answer, None)
}

/// Whether `answer`, legal moves from `start`, ends with the defender in
/// check.
fn ends_in_check(start: &Position, answer: &[Move]) -> bool {
    let mut pos = start.clone();
    for &mv in answer {
        pos.play_unchecked(mv);
    }
    pos.is_check()
}

fn check_answer(
    start: &Position,
    answer: &[Move],
    illegal: Option<IllegalAnswer>,
    limits: Limits,
) -> Report {
    let mut prover = Prover::new(limits.nodes);
    let recorded = !answer.is_empty() || illegal.is_some();
    let mut report = match check_with(&mut prover, start, answer, limits.depth) {
        Ok(report) => report,
        Err(OutOfNodes) => Report {
            unknown: true,
            answer: answer.to_vec(),
            ..Report::default()
        },
    };
    report.depth = limits.depth;
    report.recorded = recorded;
    report.answer_falls_short = recorded && illegal.is_none() && !ends_in_check(start, answer);
    report.illegal = illegal;
    if report.illegal.is_some() {
        // The recorded moves before the illegal one, even none: not the
        // main line an unrecorded answer would get.
        report.answer = answer.to_vec();
        report.answer_mates = false;
    }
    report
}

fn check_with(
    prover: &mut Prover,
    start: &Position,
    answer: &[Move],
    depth: u32,
) -> Result<Report, OutOfNodes> {
    let mut report = Report {
        recorded: !answer.is_empty(),
        answer: answer.to_vec(),
        ..Report::default()
    };
    if start.king(!start.side_to_move()).is_none() {
        report.no_mate = true;
        report.no_king = true;
        return Ok(report);
    }
    let (rules_length, no_mate) = shortest(prover, start, depth)?;
    report.rules_length = rules_length;
    let Some(rules_length) = rules_length else {
        report.no_mate = no_mate;
        return Ok(report);
    };
    let mut counter = Counter::new(prover);
    report.length = counter.attacker(start, rules_length)?;
    if let Some((line, _)) = counter.main_line(start, rules_length)? {
        report.main_line = line;
    }
    if answer.is_empty() {
        report.answer = report.main_line.clone();
    }
    let answer = report.answer.clone();
    let bound = rules_length.max(answer.len() as u32);

    // Replay the answer: legal, every attacker move a check; which defender
    // replies are futile interpositions, captured at once.
    let mut positions = vec![start.clone()];
    let mut mates = true;
    for (i, &mv) in answer.iter().enumerate() {
        let pos = positions.last().expect("the start is there");
        if !pos.is_legal(mv) || (i % 2 == 0 && !gives_check(pos, mv)) {
            mates = false;
            break;
        }
        let mut next = pos.clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    let mut counted = vec![true; answer.len()];
    if mates {
        for i in (1..answer.len()).step_by(2) {
            let captured_next = answer.get(i + 1).is_some_and(|c| c.to() == answer[i].to());
            let left = bound.saturating_sub(i as u32);
            if captured_next
                && counter
                    .futile(&positions[i], answer[i], &positions[i + 1], left)?
                    .is_some()
            {
                counted[i] = false;
                counted[i + 1] = false;
                report.futile.push(i + 1);
            }
        }
        let end = positions.last().expect("the start is there");
        mates = answer.len() % 2 == 1 && mated_at_end(&mut counter, end)?;
        report.leftover = *end.hand(start.side_to_move());
    }
    report.answer_mates = mates;
    report.answer_length = counted.iter().filter(|&&c| c).count() as u32;
    if !mates {
        return Ok(report);
    }

    // The composition rules at each move of the answer; a detour is
    // looked for up to two plies longer, within the depth.
    let line = Line {
        answer: &answer,
        positions: &positions,
        counted: &counted,
        bound,
    };
    let detour = depth.saturating_sub(bound).min(2);
    report.findings = attacker_findings(&mut counter, &line, detour)?;
    report
        .findings
        .extend(defender_findings(&mut counter, &line)?);
    report.findings.sort_by_key(|f| (f.ply, f.rule));
    for finding in &report.findings {
        match finding.rule {
            Rule::Yozume | Rule::Hayazume if finding.ply == 1 => {
                report.first_rivals.extend(&finding.moves);
            }
            Rule::Yozume | Rule::Hayazume => report.middle_rivals.push(Rivals {
                ply: finding.ply,
                moves: finding.moves.clone(),
            }),
            Rule::LastMoveYozume => report.last_rivals.extend(&finding.moves),
            _ => {}
        }
    }
    Ok(report)
}

/// Whether the answer's last position is mate: checkmate, or a check that
/// only drops in between could answer, each of them futile. Each futile
/// drop and its capture take two plies of the bound: 17 allows eight.
fn mated_at_end(counter: &mut Counter, end: &Position) -> Result<bool, OutOfNodes> {
    let replies = end.legal_moves();
    if replies.is_empty() {
        return Ok(true);
    }
    if !end.is_check() || replies.iter().any(|&r| !r.is_drop()) {
        return Ok(false);
    }
    Ok(counter.defender(end, 17)? == Some(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    fn limits(depth: u32, nodes: u64) -> Limits {
        Limits { depth, nodes }
    }

    #[test]
    fn each_verdict_in_its_place() {
        let pos = problem("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let answer = [Move::from_usi("G*5b").unwrap()];
        let sound = check(&pos, &answer, Limits::default());
        assert_eq!(sound.soundness(), Soundness::Sound, "{sound:?}");
        // A budget of one node: unknown, and nothing called unsound.
        let unknown = check(
            &problem("2k6/s8/4+R4/9/9/9/9/9/9 b GB 1"),
            &[],
            limits(31, 1),
        );
        assert_eq!(unknown.soundness(), Soundness::Unknown, "{unknown:?}");
        assert!(unknown.problems().is_empty());
        // The same budget with a recorded answer that, played out, is not
        // even check: unsound whatever the search would find.
        let short = check(
            &problem("2k6/s8/4+R4/9/9/9/9/9/9 b GB 1"),
            &[Move::from_usi("G*3b").unwrap()],
            limits(31, 1),
        );
        assert_eq!(short.soundness(), Soundness::Unsound, "{short:?}");
        assert_eq!(short.problems(), ["the recorded answer does not mate"]);
        // Checks that run out: no mate at any depth, unsound.
        let none = check(
            &problem("4k4/9/9/9/9/9/9/9/4K4 b G 1"),
            &[],
            limits(1001, 100),
        );
        assert!(none.no_mate && !none.no_king, "{none:?}");
        assert_eq!(none.soundness(), Soundness::Unsound);
        // No king to mate.
        let kingless = check(
            &problem("9/9/9/9/9/9/9/9/4K4 b G 1"),
            &[],
            Limits::default(),
        );
        assert!(kingless.no_king, "{kingless:?}");
        assert_eq!(kingless.problems(), ["no mate: the defender has no king"]);
    }

    #[test]
    fn an_illegal_answer_is_unsound_even_when_the_budget_runs_out() {
        let pos = problem("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        // A gold dropped on the pawn.
        let answer = [Move::from_usi("G*5c").unwrap()];
        for budget in [1, 5_000_000] {
            let report = check(&pos, &answer, limits(31, budget));
            assert_eq!(report.soundness(), Soundness::Unsound, "{report:?}");
            let illegal = report.illegal.as_ref().unwrap();
            assert_eq!((illegal.ply, illegal.text.as_str()), (1, "G*5c"));
            assert!(report.answer.is_empty());
        }
    }
}
