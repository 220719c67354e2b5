//! Writing records: each record to its format's text, the texts to bytes in
//! the chosen encoding. The one entry point the binary and library users
//! need; the writers themselves are in `format::*::write`.
//!
//! Two layouts: [`write()`] gives one stream that kifconv reads back as the
//! same games (what the command prints to standard output), [`write_files`]
//! the files a folder of outputs gets (one per game in KIF and KI2, whose
//! files hold one game; a pretty JKF document for a single game).

use crate::format::training::{Data, TrainingError};
use crate::format::{
    csa::write as csa, jkf::write as jkf, ki2::write as ki2, kif::write as kif, usi::write as usi,
    western::write as western, Target,
};
use crate::record::Record;
use std::fmt;

pub use crate::format::csa::write::Version as CsaVersion;
pub use crate::format::OutputEncoding;

/// Which positions [`Target::Sfen`] writes for each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Positions {
    /// The position at the end of the mainline.
    #[default]
    Last,
    /// The position after this many plies of the mainline (0 is the start).
    AfterPlies(usize),
    /// Every position of the mainline, the start included, one a line.
    All,
}

/// How to write: what is not said by the [`Target`] itself.
///
/// ```
/// let mut options = kifconv::write::Options::default();
/// options.positions = kifconv::write::Positions::All;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The encoding; `None` is the target's own ([`Target::encoding`]).
    pub encoding: Option<OutputEncoding>,
    /// With [`Target::Sfen`]: which positions.
    pub positions: Positions,
    /// With [`Target::Csa`]: the CSA version.
    pub csa_version: CsaVersion,
    /// Write a character the encoding cannot hold as [`LOSSY_MARK`]
    /// instead of failing ([`WriteError::Unencodable`]).
    pub lossy: bool,
}

/// What a character the encoding cannot hold becomes in a lossy write:
/// 〓 (geta mark), the substitute JIS itself provides, which a KIF file
/// uses for nothing else (`?` marks a doubtful move in comments).
pub const LOSSY_MARK: char = '〓';

impl Options {
    /// The encoding written for `target`.
    pub fn encoding_for(&self, target: Target) -> OutputEncoding {
        self.encoding.unwrap_or(target.encoding())
    }
}

/// Why records could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteError {
    /// A character of the text (a name, a comment) that the encoding cannot
    /// hold: the first one.
    Unencodable {
        /// The character.
        character: char,
        /// The encoding that cannot hold it.
        encoding: OutputEncoding,
    },
    /// [`Positions::AfterPlies`] past the end of a game's mainline.
    PlyPastEnd {
        /// The plies asked for.
        ply: usize,
        /// The moves the mainline has.
        moves: usize,
    },
    /// A game that gives no training data (a position that cannot be
    /// packed, more moves than hcpe3 counts): which game (0 for the first)
    /// and why.
    Training {
        /// The game's index in the records given.
        game: usize,
        /// Why.
        error: TrainingError,
    },
    /// A record that cannot be written as it stands (see
    /// [`Record::check`]): which game (0 for the first) and why.
    Record {
        /// The game's index in the records given.
        game: usize,
        /// What is wrong with it.
        error: crate::record::RecordError,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Unencodable {
                character,
                encoding,
            } => {
                let name = match encoding {
                    OutputEncoding::ShiftJis => "Shift_JIS (CP932)",
                    OutputEncoding::Utf8 => "UTF-8",
                };
                write!(f, "`{character}` cannot be written in {name}")
            }
            WriteError::PlyPastEnd { ply, moves } => {
                write!(f, "ply {ply}: the mainline has only {moves} moves")
            }
            WriteError::Record { game, error } => write!(f, "game {}: {error}", game + 1),
            WriteError::Training { game, error } => write!(f, "game {}: {error}", game + 1),
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes `records` as `target`, in one stream that kifconv reads back as
/// the same games: KIF and KI2 games one after another (each starts with its
/// `#KIF`/`#KI2` line), CSA games separated by `/`, JKF as NDJSON (one game
/// a line), USI and SFEN one line a game (or a position), Western games each
/// ending with their result.
///
/// Whatever `target` cannot hold is left out (the command warns about
/// it: variations in USI, comments in CSA, …). Each record is checked first ([`Record::check`]), so a record
/// built by hand with a move against the rules is an error, not a panic.
///
/// ```
/// use kifconv::{read_bytes, write, Target};
///
/// let records = read_bytes("▲７六歩 △３四歩\n".as_bytes()).unwrap();
/// let usi = write(&records, Target::Usi, &Default::default()).unwrap();
/// assert_eq!(usi, b"position startpos moves 7g7f 3c3d\n");
///
/// // KIF is Shift_JIS unless asked otherwise.
/// let kif = write(&records, Target::Kif, &Default::default()).unwrap();
/// assert!(String::from_utf8(kif).is_err());
/// let kifu = write(&records, Target::Kifu, &Default::default()).unwrap();
/// assert!(String::from_utf8(kifu).unwrap().contains("７六歩(77)"));
/// ```
pub fn write(records: &[Record], target: Target, options: &Options) -> Result<Vec<u8>, WriteError> {
    check_all(records)?;
    write_read(records, target, options)
}

/// [`write()`] for records as a reader returned them, which were checked
/// move by move as they were built: the same bytes without checking them
/// again (a quarter of the time of reading and writing a KIF file). A
/// record built or changed by hand must go through [`write()`]: a move
/// against the rules here can make a writer panic.
pub fn write_read(
    records: &[Record],
    target: Target,
    options: &Options,
) -> Result<Vec<u8>, WriteError> {
    if let Some(data) = Data::of(target) {
        return training(records, data);
    }
    if target == Target::Usi {
        return Ok(usi_bytes(records));
    }
    if target == Target::Sfen {
        return sfen_bytes(records, options);
    }
    let texts = render(records, target, options, Layout::Stream)?;
    encode_as(&texts.concat(), options.encoding_for(target), options.lossy)
}

/// Writes `records` as `target` into the files a folder of outputs gets:
/// one file per game in KIF and KI2, one file of every game in the other
/// formats (JKF: a pretty document for one game, NDJSON for several). The
/// command writes these with `-o DIR`, naming the files of an input of
/// several games `name-01`, `name-02` and so on (zero-padded so that they
/// sort in game order).
pub fn write_files(
    records: &[Record],
    target: Target,
    options: &Options,
) -> Result<Vec<Vec<u8>>, WriteError> {
    check_all(records)?;
    write_files_read(records, target, options)
}

/// [`write_files`] for records as a reader returned them, without checking
/// them again (see [`write_read`]).
pub fn write_files_read(
    records: &[Record],
    target: Target,
    options: &Options,
) -> Result<Vec<Vec<u8>>, WriteError> {
    if let Some(data) = Data::of(target) {
        return training(records, data).map(|bytes| vec![bytes]);
    }
    if target == Target::Usi {
        return Ok(vec![usi_bytes(records)]);
    }
    if target == Target::Sfen {
        return sfen_bytes(records, options).map(|bytes| vec![bytes]);
    }
    let encoding = options.encoding_for(target);
    render(records, target, options, Layout::Files)?
        .iter()
        .map(|text| encode_as(text, encoding, options.lossy))
        .collect()
}

/// The training data of every record's mainline, one after another (one
/// file holds them all).
fn training(records: &[Record], data: Data) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    for (game, record) in records.iter().enumerate() {
        let fail = |error| WriteError::Training { game, error };
        data.push_read(record, &mut out, None).map_err(fail)?;
    }
    Ok(out)
}

/// Checks every record ([`Record::check`]) before it is written.
fn check_all(records: &[Record]) -> Result<(), WriteError> {
    for (game, record) in records.iter().enumerate() {
        record
            .check()
            .map_err(|error| WriteError::Record { game, error })?;
    }
    Ok(())
}

/// SFEN lines (the positions `options` asks for), written straight as
/// bytes: like [`usi_bytes`], the same bytes [`render`] and [`encode`]
/// give in either encoding, since a SFEN is ASCII.
fn sfen_bytes(records: &[Record], options: &Options) -> Result<Vec<u8>, WriteError> {
    let mut text = Vec::new();
    for record in records {
        match options.positions {
            Positions::Last => push_line(&mut text, &usi::final_sfen(record)),
            Positions::All => usi::push_all_plies(record, &mut text),
            Positions::AfterPlies(n) => match usi::sfen_after(record, n) {
                Some(sfen) => push_line(&mut text, &sfen),
                None => {
                    return Err(WriteError::PlyPastEnd {
                        ply: n,
                        moves: record.tree.mainline().count(),
                    })
                }
            },
        }
    }
    Ok(text)
}

/// The fast path of USI: one position line a game, written straight as
/// bytes. [`render`] and [`encode`] give the same bytes in either encoding
/// (a USI line is ASCII, and Shift_JIS writes ASCII as it is), through a
/// text per line, the texts joined and the whole copied.
fn usi_bytes(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for record in records {
        usi::push_position_line(record, &mut out);
        out.push(b'\n');
    }
    out
}

/// Which of the two layouts is rendered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Stream,
    Files,
}

/// The texts to write: one for line and multi-game formats, one per game
/// for KIF and KI2.
fn render(
    records: &[Record],
    target: Target,
    options: &Options,
    layout: Layout,
) -> Result<Vec<String>, WriteError> {
    let declared = options.encoding_for(target).declared();
    Ok(match target {
        Target::Usi => vec![lines(records.iter().map(usi::position_line))],
        Target::Sfen => vec![crate::position::ascii_text(sfen_bytes(records, options)?)],
        Target::Kif | Target::Kifu => records.iter().map(|r| kif::write(r, declared)).collect(),
        Target::Ki2 | Target::Ki2u => records
            .iter()
            .map(|r| ki2::write_declared(r, declared))
            .collect(),
        Target::Csa => vec![csa::write_all(records, options.csa_version, declared)],
        // A file of one game is a pretty document; several games, and a
        // stream (where inputs follow one another), are NDJSON: one game a
        // line.
        Target::Jkf if records.len() == 1 && layout == Layout::Files => {
            vec![jkf::write(&records[0])]
        }
        Target::Jkf => vec![jkf::write_all(records)],
        Target::Western => vec![western::write_all(records)],
        // Binary: `training` writes them, before any text would be.
        Target::Hcpe | Target::Hcpe3 | Target::Psv => Vec::new(),
    })
}

fn push_line(text: &mut Vec<u8>, line: &str) {
    text.extend_from_slice(line.as_bytes());
    text.push(b'\n');
}

fn lines(items: impl Iterator<Item = String>) -> String {
    let mut text = String::new();
    for line in items {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Encodes text. Shift_JIS refuses a character CP932 does not have (the
/// first one is the error) rather than writing it as `&#…;` and losing it.
///
/// ```
/// use kifconv::write::{encode, OutputEncoding};
///
/// assert_eq!(encode("▲７六歩", OutputEncoding::ShiftJis).unwrap(), b"\x81\xa3\x82\x56\x98\x5a\x95\xe0");
/// assert!(encode("☗", OutputEncoding::ShiftJis).is_err());
/// assert_eq!(encode("☗", OutputEncoding::Utf8).unwrap(), "☗".as_bytes());
/// ```
pub fn encode(text: &str, encoding: OutputEncoding) -> Result<Vec<u8>, WriteError> {
    encode_as(text, encoding, false)
}

/// [`encode`], or with `lossy` every character the encoding cannot hold
/// written as [`LOSSY_MARK`].
fn encode_as(text: &str, encoding: OutputEncoding, lossy: bool) -> Result<Vec<u8>, WriteError> {
    match encoding {
        OutputEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        OutputEncoding::ShiftJis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mut unencodable = text.chars().filter(|&c| !encoding.holds(c));
            if !lossy {
                let character = unencodable.next().unwrap_or('?');
                return Err(WriteError::Unencodable {
                    character,
                    encoding,
                });
            }
            let marked: String = text
                .chars()
                .map(|c| if encoding.holds(c) { c } else { LOSSY_MARK })
                .collect();
            Ok(encoding_rs::SHIFT_JIS.encode(&marked).0.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    fn games(text: &str) -> Vec<Record> {
        read_text(text, Format::Usi).unwrap()
    }

    /// A record built by hand is checked before any writer replays it: a
    /// move from an empty square, a drop of a piece not in hand, a move
    /// into check and a move after a legal one that breaks the rules are
    /// each an error naming the game, in every target and both layouts,
    /// never a panic. A start that is no position cannot be given to a
    /// record at all: no `Position` is made from it.
    #[test]
    fn a_record_that_breaks_the_rules_is_an_error_for_every_target() {
        use crate::record::{NodeId, RecordError};
        use crate::{Move, Position, Setup};
        let good = games("position startpos moves 7g7f").remove(0);
        let (empty, _) = Position::from_setup_lenient(Setup::empty()).unwrap();
        let mut empty_board = Record::new(empty);
        empty_board
            .tree
            .push(NodeId::ROOT, Move::from_usi("5i5h").unwrap());
        let mut two_kings = Setup::startpos();
        two_kings.set_piece(
            crate::Square::from_usi("5e").unwrap(),
            Some(crate::Piece::new(
                crate::Color::Black,
                crate::PieceKind::King,
            )),
        );
        assert!(matches!(
            Position::from_setup_lenient(two_kings),
            Err(crate::SetupError::ExtraKing { .. })
        ));
        let with = |moves: &[&str]| {
            let mut record = Record::new(Position::startpos());
            let mut at = NodeId::ROOT;
            for m in moves {
                at = record.tree.push(at, Move::from_usi(m).unwrap());
            }
            record
        };
        let bad = [
            ("a move from an empty square", with(&["5e5d"])),
            ("a drop of a piece not in hand", with(&["P*5e"])),
            ("a white move on black's turn", with(&["3c3d"])),
            (
                "a second move that breaks the rules",
                with(&["7g7f", "8h2b"]),
            ),
            ("a king's move on an empty board", empty_board),
        ];
        let targets = [
            Target::Kif,
            Target::Kifu,
            Target::Ki2,
            Target::Ki2u,
            Target::Csa,
            Target::Usi,
            Target::Sfen,
            Target::Jkf,
            Target::Western,
        ];
        for (what, record) in bad {
            let error = record.check().unwrap_err();
            let records = [good.clone(), record];
            for target in targets {
                let stream = write(&records, target, &Options::default());
                let files = write_files(&records, target, &Options::default());
                for result in [stream.map(|_| ()), files.map(|_| ())] {
                    match result {
                        Err(WriteError::Record { game: 1, error: e }) => assert_eq!(e, error),
                        other => panic!("{what} as {target:?}: {other:?}"),
                    }
                }
            }
            match (what, &error) {
                ("a second move that breaks the rules", RecordError::IllegalMove { ply, .. }) => {
                    assert_eq!(*ply, 2)
                }
                (_, RecordError::IllegalMove { ply: 1, .. }) => {}
                _ => panic!("{what}: {error:?}"),
            }
        }
        assert!(good.check().is_ok());
        assert!(write(&[good], Target::Kif, &Options::default()).is_ok());
    }

    #[test]
    fn the_stream_is_the_files_one_after_another_for_kif_and_ki2() {
        let records = games("position startpos moves 7g7f\nposition startpos moves 2g2f 8c8d\n");
        for target in [Target::Kif, Target::Kifu, Target::Ki2, Target::Ki2u] {
            let files = write_files(&records, target, &Options::default()).unwrap();
            assert_eq!(files.len(), 2, "{target:?}");
            let stream = write(&records, target, &Options::default()).unwrap();
            assert_eq!(stream, files.concat(), "{target:?}");
        }
        for target in [Target::Usi, Target::Csa, Target::Western, Target::Jkf] {
            let files = write_files(&records, target, &Options::default()).unwrap();
            assert_eq!(files.len(), 1, "{target:?}");
            let stream = write(&records, target, &Options::default()).unwrap();
            assert_eq!(stream, files[0], "{target:?}");
        }
    }

    /// The USI fast path writes what rendering and encoding the text give, in
    /// both encodings and both layouts, from the standard start and another;
    /// the SFEN one, every position's SFEN written whole.
    #[test]
    fn the_usi_bytes_are_the_rendered_text_encoded() {
        let records = games(concat!(
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n",
            "position startpos\n",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d\n",
        ));
        for encoding in [OutputEncoding::Utf8, OutputEncoding::ShiftJis] {
            let options = Options {
                encoding: Some(encoding),
                ..Options::default()
            };
            let text = render(&records, Target::Usi, &options, Layout::Stream).unwrap();
            let expected = encode(&text.concat(), encoding).unwrap();
            assert_eq!(usi_bytes(&records), expected);
            assert_eq!(write(&records, Target::Usi, &options).unwrap(), expected);
            assert_eq!(
                write_files(&records, Target::Usi, &options).unwrap(),
                [expected]
            );
            // SFEN's fast path: every position, each written whole.
            let options = Options {
                positions: Positions::All,
                ..options
            };
            // An empty line after each game's positions.
            let sfens: String = records
                .iter()
                .map(|r| {
                    let positions = r.positions().unwrap();
                    let lines: String = positions.iter().map(|p| p.sfen() + "\n").collect();
                    lines + "\n"
                })
                .collect();
            assert_eq!(
                write(&records, Target::Sfen, &options).unwrap(),
                sfens.as_bytes()
            );
            assert_eq!(
                write_files(&records, Target::Sfen, &options).unwrap(),
                [sfens.into_bytes()]
            );
        }
    }

    #[test]
    fn one_jkf_game_is_a_pretty_file_and_a_line_of_a_stream() {
        let records = games("position startpos moves 7g7f\n");
        let file = write_files(&records, Target::Jkf, &Options::default()).unwrap();
        let stream = write(&records, Target::Jkf, &Options::default()).unwrap();
        assert!(file[0].starts_with(b"{\n"));
        assert_eq!(stream.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(stream.starts_with(b"{\""));
    }

    #[test]
    fn the_encoding_is_the_targets_unless_asked() {
        let records = games("position startpos moves 7g7f\n");
        let with = |encoding| Options {
            encoding,
            ..Options::default()
        };
        let kif = write(&records, Target::Kif, &Options::default()).unwrap();
        let kifu = write(&records, Target::Kifu, &Options::default()).unwrap();
        assert!(std::str::from_utf8(&kif).is_err());
        assert!(String::from_utf8(kifu.clone())
            .unwrap()
            .contains("encoding=UTF-8"));
        let kifu_in_sjis = write(
            &records,
            Target::Kifu,
            &with(Some(OutputEncoding::ShiftJis)),
        );
        assert_eq!(kifu_in_sjis.unwrap(), kif);
        let kif_in_utf8 = write(&records, Target::Kif, &with(Some(OutputEncoding::Utf8)));
        assert_eq!(kif_in_utf8.unwrap(), kifu);
    }

    #[test]
    fn what_cannot_be_written_is_an_error() {
        let records = games("position startpos moves 7g7f\n");
        let mut options = Options {
            positions: Positions::AfterPlies(2),
            ..Options::default()
        };
        assert_eq!(
            write(&records, Target::Sfen, &options),
            Err(WriteError::PlyPastEnd { ply: 2, moves: 1 })
        );
        options.positions = Positions::AfterPlies(1);
        let sfen = write(&records, Target::Sfen, &options).unwrap();
        assert_eq!(
            sfen,
            b"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
        );
        let error = encode("７六歩☗", OutputEncoding::ShiftJis).unwrap_err();
        assert_eq!(
            error,
            WriteError::Unencodable {
                character: '☗',
                encoding: OutputEncoding::ShiftJis
            }
        );
        assert_eq!(
            error.to_string(),
            "`☗` cannot be written in Shift_JIS (CP932)"
        );
    }
}
