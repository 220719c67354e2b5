//! The command line as clap reads it: the definitions only. Each command's
//! file (convert.rs, book.rs, tsume.rs, …) checks its arguments into a
//! plan and a job.

use crate::book::file::BookFormat;
use crate::decode::EncodingChoice;
use crate::format::names::{self, Name, Source};
use crate::format::OutputEncoding;
use crate::Target;
use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  kifconv game.kif --to usi                 one game, printed as a USI position line
  kifconv game.kif --to sfen --all-plies    every position of the game, one SFEN a line
  kifconv old-records/ -o converted/ --to kifu
                                            a folder of Shift_JIS KIF/KI2/CSA files to UTF-8 KIF
  kifconv archive.zip --to usi > games.usi  every game in a zip, in archive order
  kifconv a.csa b.ki2 --to csa              several inputs as one multi-game CSA stream
  cat game.ki2 | kifconv - --from ki2       standard input
  kifconv game.kif --to kif --flip          the game rotated 180° (colours swapped)
  kifconv flip 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' 7g7f
  kifconv mate '4k4/9/4P4/9/9/9/9/9/4K4 b G 1'
  kifconv wdoor2024.7z --to hcpe --min-rating 3500 --min-moves 50 --uniq > train.hcpe
                                            training data from floodgate's archive, filtered as dlshogi does
  kifconv train.hcpe --to sfen              training data read back, one position a line

Exit status: 0 when every input converted, 1 when some failed, 2 for a usage
or fatal error.";

const ANALYZE_HELP: &str = "\
Examples:
  kifconv analyze games/ -o analysed/ --to kif --engine ./YaneuraOu --nodes 100000 \\
      --option Threads=1 --option USI_Hash=256
  kifconv analyze wdoor/ -o out/ --to csa --engine 'ssh box ./engine' --engines 4 --movetime 500
  kifconv out/ --to hcpe > train.hcpe    the analysed games as training data, with their values

The output is the same for the same engine, limit and inputs when the engine
searches with one thread: each game starts with usinewgame and isready, where
engines clear what earlier searches left.";

#[derive(Parser, Debug)]
#[command(
    name = "kifconv",
    version,
    about = "Convert shogi game records (KIF, KI2, CSA, USI, SFEN, JKF, Western) between formats",
    after_long_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub convert: ConvertArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a position rotated 180° (and moves, rotated): how a book that
    /// stores one side only is queried, and its answers mapped back.
    Flip {
        /// The position: an SFEN, `startpos`, or `position … moves …`
        /// (quote it).
        sfen: String,
        /// USI moves of that position to rotate (7g7f, 8h2b+, P*5e): each
        /// one a legal move there, as a book's moves for a position are.
        moves: Vec<String>,
    },
    /// List every mate in one of a position and say whether it is unique;
    /// with --depth, find the shortest forced mate and its main line.
    #[command(after_long_help = MATE_HELP)]
    Mate {
        /// The position: an SFEN, `startpos`, or `position … moves …`
        /// (quote it). The side to move attacks.
        sfen: String,
        /// Look for the shortest forced mate up to this many plies (a mate
        /// in three is 3; at least 1) and print its main line.
        #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
        depth: Option<u32>,
        /// The most nodes the search may expand before it answers
        /// "unknown" (with --depth).
        #[arg(
            long,
            value_name = "N",
            requires = "depth",
            default_value_t = 5_000_000
        )]
        nodes: u64,
        /// For benchmarks (scripts/bench-tsume.sh): POSITION is `-`, the
        /// positions are read from standard input one a line, each solved
        /// in this one process with its own budget, and a line printed for
        /// each: the microseconds it took, a tab, the answer's first line.
        #[arg(long, hide = true, requires = "depth")]
        timed: bool,
    },
    /// Mate problems (詰将棋): check their soundness, or generate them.
    Tsume {
        #[command(subcommand)]
        action: TsumeCommand,
    },
    /// Analyse records with a USI engine: the position after every move
    /// searched, and the move annotated with the value and best line
    /// (KIF, KI2 and JKF as ShogiHome writes them, CSA as floodgate does),
    /// which --to hcpe and `book build` read back as evaluations.
    #[command(after_long_help = ANALYZE_HELP)]
    Analyze(AnalyzeArgs),
    /// Opening books in YaneuraOu's text format (DB2016).
    Book {
        #[command(subcommand)]
        action: BookCommand,
    },
    /// Training files (.hcpe, .hcpe3, .psv/.pack): shuffle, split, remove
    /// repeats, filter, convert and check them, streaming.
    #[command(after_long_help = TRAIN_HELP)]
    Train {
        #[command(subcommand)]
        action: TrainCommand,
    },
    /// USI engines: check one's conformance.
    Engine {
        #[command(subcommand)]
        action: EngineCommand,
    },
    /// Serve a page that shows books and records on a board, and the JSON
    /// API it is built on, until Ctrl-C.
    #[cfg(feature = "serve")]
    #[command(after_long_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// Print a shell completion script.
    Completions { shell: Shell },
    /// Print the manual page (roff) of kifconv or of a subcommand
    /// (`kifconv man book build`), or write one for each into a folder.
    Man {
        /// The subcommand whose page to print (`book build`).
        #[arg(value_name = "SUBCOMMAND")]
        command: Vec<String>,
        /// Write a page for kifconv and for each subcommand into DIR
        /// (`kifconv.1`, `kifconv-book-build.1`, …).
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
        /// With --dir: replace pages already there.
        #[arg(long, requires = "dir")]
        force: bool,
    },
}

const TRAIN_HELP: &str = "\
Each file's kind is its extension's: .hcpe (38 bytes an entry), .hcpe3 (a
block a game), .psv or .pack (PackedSfenValue, 40 bytes an entry); --format
names it for other names (YaneuraOu's .bin teacher files: --format psv).
A record is an entry, or an hcpe3 game. Outputs never replace a file unless
--force. Exit 0 when every record read, 1 when some input had faults, 2 for a
usage or fatal error.

Examples:
  kifconv train shuffle a.hcpe b.hcpe -o mixed.hcpe --seed 1 --memory 256
  kifconv train split mixed.hcpe -o part --parts 10      part-0.hcpe … part-9.hcpe
  kifconv train uniq teacher.psv -o uniq.psv --by position --flip-fold
  kifconv train filter teacher.psv -o kept.psv --max-abs-eval 3000 --min-ply 16
  kifconv train convert games.hcpe3 -o games.hcpe --to hcpe
  kifconv train check teacher.pack";

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Shuffle the records of training files: an external, bucketed
    /// shuffle, seeded, within the memory given.
    Shuffle(TrainShuffleArgs),
    /// Cut a training file into parts, in order.
    Split(TrainSplitArgs),
    /// Leave out repeated records (the first kept): the same bytes, or the
    /// same position (also rotated, with --flip-fold).
    Uniq(TrainUniqArgs),
    /// Keep the entries that pass every test given.
    Filter(TrainFilterArgs),
    /// Rewrite a training file as another kind; what the target cannot
    /// hold is said.
    Convert(TrainConvertArgs),
    /// Decode every record: position legal, move legal, result code
    /// valid; for PackedSfenValue, which Move16 convention the file uses.
    Check(TrainCheckArgs),
}

#[derive(ClapArgs, Debug)]
pub struct TrainInputs {
    /// The kind of every input (hcpe, hcpe3, psv); by default each
    /// file's extension says.
    #[arg(long, value_name = "KIND", value_parser = training_kind)]
    pub format: Option<crate::training::Data>,
}

#[derive(ClapArgs, Debug)]
pub struct TrainShuffleArgs {
    /// The files to shuffle together, all of one kind.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The shuffled file.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The seed of the random order: the same seed, inputs and --memory
    /// give the same order.
    #[arg(long, value_name = "N")]
    pub seed: u64,
    /// The memory the records may take, in MiB (at least 1); beyond it,
    /// buckets on disk beside the output.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = mebibytes)]
    pub memory: usize,
    #[command(flatten)]
    pub kind: TrainInputs,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
#[command(group(clap::ArgGroup::new("how").required(true).args(["positions", "parts"])))]
pub struct TrainSplitArgs {
    /// The file to cut.
    pub input: PathBuf,
    /// The parts' prefix: PREFIX-0.hcpe, PREFIX-1.hcpe, … (numbers
    /// padded to the last one's width).
    #[arg(short, long, value_name = "PREFIX")]
    pub output: String,
    /// This many positions a part (an hcpe3 game is never cut: a part
    /// ends with the game that reaches it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// This many parts, as even as the records allow.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub parts: Option<u64>,
    #[command(flatten)]
    pub kind: TrainInputs,
    /// Replace parts that exist.
    #[arg(long)]
    pub force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TrainUniqBy {
    /// The same bytes: exact duplicates.
    Record,
    /// The same position (board, hands, side to move), whatever is stored
    /// with it.
    Position,
}

#[derive(ClapArgs, Debug)]
pub struct TrainUniqArgs {
    /// The files, all of one kind, read in order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// What counts as a repeat.
    #[arg(long, value_enum, default_value_t = TrainUniqBy::Record)]
    pub by: TrainUniqBy,
    /// With --by position: a position rotated 180° (colours swapped)
    /// counts as the same.
    #[arg(long)]
    pub flip_fold: bool,
    #[command(flatten)]
    pub kind: TrainInputs,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
pub struct TrainFilterArgs {
    /// The files, all of one kind, read in order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Keep entries whose evaluation is at most N in absolute value
    /// (HCPE, PackedSfenValue).
    #[arg(long, value_name = "N")]
    pub max_abs_eval: Option<u16>,
    /// Leave out draws (and records with no winner).
    #[arg(long)]
    pub drop_draws: bool,
    /// Keep entries whose gamePly is at least N (PackedSfenValue only:
    /// HCPE and hcpe3 store no move number).
    #[arg(long, value_name = "N")]
    pub min_ply: Option<u16>,
    #[command(flatten)]
    pub kind: TrainInputs,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
pub struct TrainConvertArgs {
    /// The file to convert.
    pub input: PathBuf,
    /// The file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The kind to write (hcpe, hcpe3, psv).
    #[arg(long = "to", value_name = "KIND", value_parser = training_kind)]
    pub to: crate::training::Data,
    /// How a PackedSfenValue input's moves are read: YaneuraOu's Move16
    /// (the format's own) or cshogi's move16, which `train check` tells;
    /// the output's are always the target's own.
    #[arg(long, value_enum, default_value_t = TrainMove16::Yaneuraou)]
    pub move16: TrainMove16,
    #[command(flatten)]
    pub kind: TrainInputs,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TrainMove16 {
    /// YaneuraOu's Move16: bit 14 a drop, bit 15 a promotion.
    Yaneuraou,
    /// cshogi's move16 (Apery's layout): bit 14 a promotion, a drop's
    /// origin 80 plus the piece.
    Cshogi,
}

#[derive(ClapArgs, Debug)]
pub struct TrainCheckArgs {
    /// The files to check.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub kind: TrainInputs,
}

/// A kind of training data by name (`hcpe`, `hcpe3`, `psv`, `pack`).
fn training_kind(text: &str) -> Result<crate::training::Data, String> {
    use crate::training::Data;
    match text.to_ascii_lowercase().as_str() {
        "hcpe" => Ok(Data::Hcpe),
        "hcpe3" => Ok(Data::Hcpe3),
        "psv" | "pack" => Ok(Data::Psv),
        _ => Err(format!(
            "`{text}` is no kind of training data (expected hcpe, hcpe3, psv)"
        )),
    }
}

#[derive(Subcommand, Debug)]
pub enum EngineCommand {
    /// Run a USI conformance report on an engine: handshake, options,
    /// isready, usinewgame, searches of positions that stress `position`
    /// (handicaps, ten pawns in hand, promoted pieces), each `go` limit,
    /// `go infinite` and `stop`, and `quit`. Each check prints PASS or FAIL
    /// with its evidence. Exit 0 when all pass, 1 when any fails, 2 when
    /// the engine cannot be started.
    #[command(after_long_help = ENGINE_CHECK_HELP)]
    Check(EngineCheckArgs),
}

const ENGINE_CHECK_HELP: &str = "\
Every move the engine sends (best move, ponder move, each PV move) is played
on kifconv's board; an illegal one fails its row, naming the move. Limits are
judged with a tolerance: `go depth D` no info deeper than D; `go nodes N` no
more than 2·N + 10000 nodes reported; timed searches answer within their time
and one second; `stop` brings bestmove within two seconds. An engine that
hangs (no reply within --timeout) or dies is ended, and the rows after say
they were not run.
Example:
  kifconv engine check ./YaneuraOu --option Threads=1 --option USI_Hash=16";

#[derive(ClapArgs, Debug)]
pub struct EngineCheckArgs {
    /// The engine's command line (the program and its arguments, quoted
    /// as one argument: 'ssh host ./engine').
    pub command: String,
    /// An option to set after the handshake, NAME=VALUE (NAME= for a
    /// button); repeat for more.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = engine_option)]
    pub options: Vec<(String, String)>,
    /// How long to wait for any reply before the engine is called hung.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub timeout: std::time::Duration,
}

/// `NAME=VALUE`, split at the first `=`.
fn engine_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// A positive number of seconds (`10`, `0.5`).
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| format!("`{text}` is not a positive number of seconds"))
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Count every mainline position of the inputs and the move played
    /// from it into a book.
    Build(BookBuildArgs),
    /// Print a book's moves for a position, looking up its rotation when
    /// the position itself is absent (as YaneuraOu's FlippedBook does).
    Query(BookQueryArgs),
    /// Merge books into one: the counts of a position's same move added,
    /// the smaller ply kept.
    Merge(BookMergeArgs),
    /// Find every fault of a book, each with its line: not sorted, a
    /// position twice, a position beside its rotation (with --flip-fold),
    /// an impossible position, a position not in canonical form, no ply, a
    /// `none` line, a line that is no move, an illegal move, missing
    /// columns, a value beyond the mate value. Exit 1 when any is found.
    Check(BookCheckArgs),
    /// Write a sorted, merged, canonical copy of a book, in bounded memory:
    /// every fault `book check` finds mended or dropped, with a warning.
    #[command(visible_alias = "fix")]
    Sort(BookSortArgs),
    /// Convert a book between formats (db, ybb, bin), each told by its
    /// extension; what the output's format cannot hold is said.
    Convert(BookConvertArgs),
    /// Back the values of a book's leaves up to its root by min-max over
    /// the book's positions, as YaneuraOu's `makebook peta_shock` does.
    PetaShock(BookPetaShockArgs),
    /// Dig a book with USI engines: walk from start lines through the
    /// book's moves and the engines', searching each new position and
    /// storing its candidate moves (flip-folded, resumable).
    #[command(after_long_help = BOOK_MINE_HELP)]
    Mine(BookMineArgs),
}

const MATE_HELP: &str = "\
Without --depth: every mate in one (USI, then JSA notation) and whether it is
unique; exit 0, or 1 when there is none.
With --depth N: the shortest forced mate of at most N plies: `mate in K`, the
main line in USI and in JSA notation (the attacker's shortest mate against
the defender's longest resistance), and whether the first move is unique;
exit 0. `no mate within N plies` exits 1; `unknown` (the --nodes budget ran
out first) exits 3; a bad position exits 2.";

#[derive(Subcommand, Debug)]
pub enum TsumeCommand {
    /// Check mate problems and their recorded answers: shortest mate,
    /// alternative first moves (余詰), pieces left over (駒余り).
    #[command(after_long_help = TSUME_CHECK_HELP)]
    Check(TsumeCheckArgs),
    /// Generate sound mate problems (mate in one or three) from a seed.
    Generate(TsumeGenerateArgs),
    /// Mine games for mate problems: the last positions of the winner in
    /// games ended by mate or resignation, made problems where the mate
    /// is forced and, once the pieces it does not need are removed, sound.
    Extract(TsumeExtractArgs),
}

const TSUME_CHECK_HELP: &str = "\
Each problem gets a verdict: sound, unsound (what is wrong is listed: no mate,
an illegal or non-mating answer, another mate as fast (余詰), pieces left in
hand (駒余り)), unknown (the --nodes budget ran out) or not proven (no mate
within --depth; a longer one may exist). Every problem of every input is
checked; an input or game that cannot be read is an error naming it, and the
others are still checked. Reading warnings go to standard error.
Exit 0 when every problem is sound; 1 when any is unsound or anything could
not be read (1 wins over 3); 3 when none is unsound but some are unknown or
not proven; 2 for a usage error.";

#[derive(ClapArgs, Debug)]
pub struct TsumeCheckArgs {
    /// Problem records: KIF (手合割：詰将棋, or a board diagram), BOD, KI2, CSA
    /// (P-00AL), USI lines; folders (searched recursively for known
    /// extensions) and archives, as conversion reads them; `-` reads
    /// standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The longest mate looked for, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 31)]
    pub depth: u32,
    /// The most nodes the search may expand per problem.
    #[arg(long, value_name = "N", default_value_t = 5_000_000)]
    pub nodes: u64,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// How `tsume generate` makes problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TsumeMethod {
    /// The position before the end of a random game that ends in mate.
    Random,
    /// Grown backwards from a mate in one, two plies at a time (逆算法).
    Reverse,
}

/// What `tsume generate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TsumeOutput {
    /// A tsume KIF per problem (into -o DIR, or all to standard output)
    /// in Shift_JIS, as `--to kif` writes everywhere.
    Kif,
    /// The same in UTF-8 (`.kifu`).
    Kifu,
    /// One problem a line: its SFEN.
    Sfen,
}

#[derive(ClapArgs, Debug)]
pub struct TsumeGenerateArgs {
    /// The length of the problems in plies: 1, 3, 5, 7, 9 or 11.
    #[arg(long, value_name = "1|3|5|7|9|11", value_parser = clap::value_parser!(u32).range(1..=11))]
    pub moves: u32,
    /// How problems are made: from random games (1 and 3 plies; the default
    /// there) or grown backwards from a mate (the default from 5 plies, and
    /// with --from).
    #[arg(long, value_enum)]
    pub method: Option<TsumeMethod>,
    /// Grow the problems from the mates of these games (reverse method):
    /// records, folders and archives, as conversion reads them; every game
    /// that ends with the side to move checkmated gives its mate.
    #[arg(long, value_name = "INPUT", num_args = 1..)]
    pub from: Vec<PathBuf>,
    /// Keep only problems whose quality score reaches S (reverse method).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub min_score: Option<i64>,
    /// How many distinct problems to write.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: u32,
    /// The seed: the same seed gives the same problems.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// A folder to write the KIF files `tsume-0001.kifu` (or `.kif`), …
    /// into (created if missing); standard output when absent or `-`. SFEN
    /// lines always go to standard output.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// The output: tsume KIF in UTF-8 (kifu) or Shift_JIS (kif), or one
    /// SFEN a line.
    #[arg(long = "to", value_enum, default_value_t = TsumeOutput::Kifu)]
    pub to: TsumeOutput,
    /// Replace the problems an earlier run left in DIR: its
    /// `tsume-NNNN.kifu` and `.kif` files are replaced, and those beyond this run's
    /// count removed (no other file is touched). Without it, a DIR holding
    /// any is refused.
    #[arg(long)]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
pub struct TsumeExtractArgs {
    /// Game records in any format kifconv reads; folders and archives as
    /// conversion reads them; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A folder for the problems: each input's as `NAME.kifu`, `NAME-2.kifu`,
    /// … in input order, mirroring the inputs' paths; standard output when
    /// absent or `-`.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Try the last K positions with the winner to move in each game
    /// (1: only the one before the last move).
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub last: usize,
    /// The longest mate looked for, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 9)]
    pub depth: u32,
    /// The most nodes each search may expand.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub nodes: u64,
    /// The problems as tsume KIF in UTF-8 (kifu) or Shift_JIS (kif).
    #[arg(long = "to", value_enum, default_value_t = TsumeOutput::Kifu)]
    pub to: TsumeOutput,
    /// Replace problem files that exist in DIR.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

#[derive(ClapArgs, Debug)]
pub struct BookMergeArgs {
    /// The books to merge, each in the format its extension says (`.ybb`,
    /// `.bin`, else DB2016 text in any order; comments, CRLF and missing
    /// fields are read).
    #[arg(required = true)]
    pub books: Vec<PathBuf>,
    /// The book to write.
    #[arg(short, long, value_name = "BOOK")]
    pub output: PathBuf,
    /// The output's format (db, ybb or bin); by default its extension says.
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub book_format: Option<BookFormat>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// End a text book's lines with CRLF, as YaneuraOu writes them.
    #[arg(long)]
    pub crlf: bool,
}

#[derive(ClapArgs, Debug)]
pub struct BookConvertArgs {
    /// The book to read (`.ybb`, `.bin`, else DB2016 text; an Apery `.bin`
    /// is read by walking it from the start position).
    pub input: PathBuf,
    /// The book to write.
    pub output: PathBuf,
    /// The input's format (db, ybb or bin); by default its extension says.
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub from: Option<BookFormat>,
    /// The output's format (db, ybb or bin); by default its extension says.
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub book_format: Option<BookFormat>,
    /// Fold white-to-move positions into their rotations (black to move
    /// only, as FlippedBook reads); without it the positions are kept.
    #[arg(long)]
    pub flip_fold: bool,
    /// The memory the conversion may take, in MiB (at least 1); beyond it,
    /// sorted runs on disk beside the output.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = mebibytes)]
    pub memory: usize,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// End a text book's lines with CRLF, as YaneuraOu writes them.
    #[arg(long)]
    pub crlf: bool,
}

/// A book format's name (`db`, `ybb`, `bin`).
fn book_format(text: &str) -> Result<BookFormat, String> {
    BookFormat::of_name(text).ok_or_else(|| {
        let names: Vec<&str> = crate::book::file::NAMES
            .iter()
            .map(|(n, _, _)| *n)
            .collect();
        format!("`{text}` is no book format (expected {})", names.join(", "))
    })
}

#[derive(ClapArgs, Debug)]
pub struct BookCheckArgs {
    /// The book: DB2016 text, checked line by line; a `.ybb` or `.bin` is
    /// read whole, and what reading refuses or leaves out is a fault.
    pub book: PathBuf,
    /// The book's format (db, ybb or bin); by default its extension says.
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub book_format: Option<BookFormat>,
    /// The book is meant for FlippedBook (black-to-move positions only): a
    /// white-to-move position whose rotation is in the book too is a fault.
    #[arg(long)]
    pub flip_fold: bool,
}

#[derive(ClapArgs, Debug)]
pub struct BookSortArgs {
    /// The book to sort (DB2016 text; never written over).
    pub book: PathBuf,
    /// The sorted book to write.
    #[arg(short, long, value_name = "BOOK")]
    pub output: PathBuf,
    /// Store black-to-move positions only: a white-to-move position and its
    /// moves are rotated 180° and merged into its rotation.
    #[arg(long)]
    pub flip_fold: bool,
    /// The memory the positions may take, in MiB (at least 1); beyond it
    /// they go to sorted runs on disk beside the output, merged at the end.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = mebibytes)]
    pub memory: usize,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// End a text book's lines with CRLF, as YaneuraOu writes them.
    #[arg(long)]
    pub crlf: bool,
}

#[derive(ClapArgs, Debug)]
pub struct BookPetaShockArgs {
    /// The book to read: DB2016 text (read three times, never held whole),
    /// or a `.ybb` (read whole), as YaneuraOu's command takes them.
    pub input: PathBuf,
    /// The book to write, in the input's format and the engine's order and
    /// columns (text: `move none value depth`, a `# NOE:` line after the
    /// header).
    pub output: PathBuf,
    /// Keep only each position's moves of the best value.
    #[arg(long)]
    pub shrink: bool,
    /// End lines with CRLF, as YaneuraOu writes them.
    #[arg(long)]
    pub crlf: bool,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
pub struct BookBuildArgs {
    /// Files, folders and archives to read, as for conversion.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The book to write.
    #[arg(short, long, value_name = "BOOK")]
    pub output: PathBuf,
    /// Store black-to-move positions only: a white-to-move position and
    /// its move are rotated 180° first.
    #[arg(long)]
    pub flip_fold: bool,
    /// The book's format: db (YaneuraOu's text), ybb (YaneuraOu's binary
    /// book) or bin (Apery's); by default the output's extension says
    /// (`.ybb`, `.bin`; anything else is db).
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub book_format: Option<BookFormat>,
    /// Positions from this ply on (1 is a game's first position).
    #[arg(long, value_name = "N")]
    pub min_ply: Option<u32>,
    /// Positions up to this ply.
    #[arg(long, value_name = "N")]
    pub max_ply: Option<u32>,
    /// Moves played at least N times.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_count: u64,
    /// Whose moves go in.
    #[arg(long, value_enum, default_value_t = BookSide::Both)]
    pub side: BookSide,
    /// The memory the counts may take, in MiB (at least 1); beyond it they
    /// go to sorted runs on disk beside the book, merged at the end.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = mebibytes)]
    pub memory: usize,
    /// Count the moves of variations too, not only of mainlines.
    #[arg(long)]
    pub variations: bool,
    /// Count a game whose moves repeat one counted before (in input order)
    /// only once.
    #[arg(long)]
    pub uniq: bool,
    #[command(flatten)]
    pub games: GameFilterArgs,
    /// Replace the book if it exists.
    #[arg(long)]
    pub force: bool,
    /// End a text book's lines with CRLF, as YaneuraOu writes them.
    #[arg(long)]
    pub crlf: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// A size in MiB: at least 1, and small enough to count in bytes.
fn mebibytes(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number of MiB"))?;
    if n == 0 {
        return Err("must be at least 1 (MiB)".to_string());
    }
    if n.checked_mul(1 << 20).is_none() {
        return Err(format!(
            "{n} MiB is more bytes than this machine can count (at most {} MiB)",
            usize::MAX >> 20
        ));
    }
    Ok(n)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BookSide {
    Both,
    Black,
    White,
}

#[derive(ClapArgs, Debug)]
pub struct BookQueryArgs {
    /// The book (sorted, as kifconv writes them; `.ybb`, `.bin` or DB2016
    /// text, as its extension says).
    pub book: PathBuf,
    /// The book's format (db, ybb or bin); by default its extension says.
    #[arg(long, value_name = "FORMAT", value_parser = book_format)]
    pub book_format: Option<BookFormat>,
    /// The position: an SFEN, `startpos`, or `position … moves …` (quote it).
    pub position: String,
    /// Print JSON for programs.
    #[arg(long)]
    pub json: bool,
}

#[cfg(feature = "serve")]
const SERVE_HELP: &str = "\
The page and the API answer on the address given (loopback, 127.0.0.1:8080,
unless another is asked for; port 0 takes any free port). The first line
printed is the page's URL.

API (JSON; a position is `startpos`, an SFEN or `position … moves …`):
  GET  /api/books                     the books served, the default first
  GET  /api/book?position=P&book=NAME a book's moves, as `book query --json`
  GET  /api/moves?position=P          every legal move and the position after it
  GET  /api/formats                   the formats /api/convert writes
  POST /api/record                    a record's moves (body: its bytes)
  POST /api/convert?to=FORMAT         a record converted (body: its bytes)
An error is a 4xx or 5xx with {\"error\": {\"line\", \"column\", \"message\", \"text\"}}.

Examples:
  kifconv serve --book book.db
  kifconv serve --book yaneura.db=standard --book mine.ybb --addr 0.0.0.0:8080";

#[cfg(feature = "serve")]
#[derive(ClapArgs, Debug)]
pub struct ServeArgs {
    /// A book to serve (DB2016 text sorted as kifconv writes them, `.ybb`
    /// or `.bin`, as its extension says), named by its file name without
    /// the extension or by NAME; give several to choose among them. It is
    /// opened read-only and searched, never read whole.
    #[arg(long, value_name = "PATH[=NAME]")]
    pub book: Vec<String>,
    /// The address to listen on: loopback unless another is given.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// The largest record a request may send, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_input_size: u64,
    /// How long a client may take to send a request's headers, and then
    /// its body, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub client_timeout: f64,
}

#[derive(ClapArgs, Debug)]
pub struct ConvertArgs {
    /// Files, folders (searched recursively for known extensions) and
    /// archives to read; `-` reads standard input, as does naming no input
    /// when standard input is not a terminal.
    pub inputs: Vec<PathBuf>,
    /// The format to write.
    #[arg(short, long, value_parser = named(&names::TARGETS), default_value = "usi", ignore_case = true)]
    pub to: Target,
    /// The format to read (default: from the content, then the
    /// extension); hcpe, hcpe3 and psv read training data under any name
    /// (a `.bin`, a `.dat`).
    #[arg(short, long, value_parser = named(&names::SOURCES), ignore_case = true)]
    pub from: Option<Source>,
    /// The input encoding.
    #[arg(long, value_parser = named(&names::INPUT_ENCODINGS), default_value = "auto", ignore_case = true)]
    pub encoding: EncodingChoice,
    /// The output encoding (default: Shift_JIS for kif/ki2, UTF-8 otherwise).
    #[arg(long, value_parser = named(&names::OUTPUT_ENCODINGS), ignore_case = true)]
    pub out_encoding: Option<OutputEncoding>,
    /// Write a character the output encoding cannot hold as 〓, with a
    /// warning at its line and column, instead of failing the input.
    #[arg(long)]
    pub lossy: bool,
    /// Rotate every record 180°: positions, moves, hands, side to move.
    #[arg(long)]
    pub flip: bool,
    /// With --to sfen: the position before move N+1 (0 is the start).
    #[arg(long, value_name = "N", conflicts_with = "all_plies")]
    pub ply: Option<usize>,
    /// With --to sfen: every position of the mainline, one a line.
    #[arg(long)]
    pub all_plies: bool,
    /// Drop variations: write the mainline only.
    #[arg(long)]
    pub mainline: bool,
    /// Write one output file per input into DIR, mirroring relative paths
    /// (`-`, as without this option: everything to standard output).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// With -o DIR: skip an input whose outputs all exist already (a batch
    /// resumed), counted in one line instead of an error each.
    #[arg(long, conflicts_with = "force")]
    pub skip_existing: bool,
    /// With --to csa: the CSA version to write.
    #[arg(long, value_enum, default_value_t = CsaVersion::V3)]
    pub csa_version: CsaVersion,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub training: TrainingArgs,
}

/// How a command that reads many inputs walks them and says how it went:
/// the same flags, meaning the same, for conversion, `book build` and
/// `tsume check`.
/// `kifconv analyze`: conversion's arguments, and the engine's.
#[derive(ClapArgs, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub convert: ConvertArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Search each position this many nodes (the default: 100000).
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, value_name = "D", group = "limit")]
    pub depth: Option<u32>,
    /// Write this many best lines per position (the engine's MultiPV);
    /// the first gives the value read back.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub multipv: u32,
    /// Analyse the moves of variations too (by default the mainline's).
    #[arg(long)]
    pub variations: bool,
}

/// How to run a USI engine (for `analyze` and `book mine`).
#[derive(ClapArgs, Debug)]
pub struct EngineArgs {
    /// The engine's command line: the program and its arguments (`ssh
    /// host ./engine` runs a remote one); quotes group words.
    #[arg(long, value_name = "CMD", required = true)]
    pub engine: String,
    /// Run this many engines at once, each on other work.
    #[arg(long, value_name = "E", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub engines: u32,
    /// Set an engine option after `usi`, NAME=VALUE (repeat it; `NAME=`
    /// for a button): `--option Threads=1`, `--option USI_Hash=256`.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = engine_option)]
    pub options: Vec<(String, String)>,
    /// Seconds an engine may take to answer a search bounded by nodes or
    /// depth (and to start) before it is called hung.
    #[arg(long, value_name = "SECS", default_value = "600", value_parser = seconds)]
    pub timeout: std::time::Duration,
}

#[derive(ClapArgs, Debug, Default)]
pub struct BatchArgs {
    /// Work with N threads (default: every core).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar, no summary, no warnings: errors only.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// The summary line (files, games, moves, warnings, failures, time)
    /// even when standard error is not a terminal.
    #[arg(short, long)]
    pub verbose: bool,
    /// Write a TSV report of the inputs (path, status, games, moves,
    /// warnings, first error, outputs); `-` is standard output.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Refuse archive entries and files larger than this many bytes once
    /// decompressed (a guard against zip bombs).
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_input_size: u64,
    /// Refuse the rest of an archive once this many bytes of it have been
    /// decompressed (archives inside it count on their own).
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 30)]
    pub max_total_size: u64,
    /// Follow symbolic links found in folders (each folder and file is
    /// still taken once).
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Walk hidden files and folders (names starting with `.`) found in
    /// folders; without it they are skipped. A hidden file named on the
    /// command line is always read.
    #[arg(long)]
    pub hidden: bool,
    /// Take only the files of folders and archives whose path matches the
    /// glob; `!GLOB` leaves matching files out, and prunes a matching folder
    /// (`!v3`: nothing under any folder named v3). Repeatable; a glob
    /// without `/` matches a name at any depth (`--glob '*.csa' --glob
    /// '!*old*'`).
    #[arg(short, long, value_name = "GLOB")]
    pub glob: Vec<String>,
}

/// Which games are read at all, for training data and books: the game
/// filters of dlshogi's csa_to_hcpe scripts.
#[derive(ClapArgs, Debug, Default)]
pub struct GameFilterArgs {
    /// Keep only games whose players are rated at least R (floodgate's
    /// 'black_rate / 'white_rate comments; a missing rating is 0).
    #[arg(long, value_name = "R")]
    pub min_rating: Option<f64>,
    /// Whose rating --min-rating looks at: both players or the loser, both
    /// in a draw (dlshogi's scripts leave a game out only when both
    /// players are under R).
    #[arg(long, value_enum, default_value_t = RatingOf::Both)]
    pub rating_of: RatingOf,
    /// Keep only games of at least N moves.
    #[arg(long, value_name = "N")]
    pub min_moves: Option<usize>,
    /// Keep only games that ended so: CSA's words in lower case,
    /// comma-separated (toryo,tsumi,kachi,sennichite,jishogi,max_moves,
    /// time_up,illegal_move,chudan,…; `none` for no ending).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub results: Option<Vec<String>>,
    /// Keep only games in which both players' moves carry an evaluation.
    #[arg(long)]
    pub require_eval: bool,
}

/// What goes into training data (--to hcpe, hcpe3, psv): the filters of
/// dlshogi's csa_to_hcpe scripts.
#[derive(ClapArgs, Debug, Default)]
#[command(next_help_heading = "Training data (--to hcpe, hcpe3, psv)")]
pub struct TrainingArgs {
    #[command(flatten)]
    pub games: GameFilterArgs,
    /// End a game after the first move whose evaluation reaches N in
    /// absolute value (a mate score; dlshogi uses 100000); with --to hcpe3
    /// not a win by entering king (as csa_to_hcpe3; csa_to_hcpe cuts it).
    #[arg(long, value_name = "N")]
    pub max_eval: Option<i32>,
    /// Leave out repeats, in input order: games with the same moves
    /// (`--uniq` or `--uniq=games`) or positions played the same way again
    /// (`--uniq=positions`). The value takes `=`, so that `--uniq
    /// games.zip` reads games.zip.
    #[arg(long, value_enum, value_name = "WHAT", num_args = 0..=1, require_equals = true, default_missing_value = "games")]
    pub uniq: Option<Uniq>,
    /// With --uniq=positions: a position rotated 180° (colours swapped)
    /// counts as the same.
    #[arg(long, requires = "uniq")]
    pub flip_fold: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RatingOf {
    #[default]
    Both,
    Loser,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Uniq {
    Games,
    Positions,
}

/// A value read by its name in one of the library's tables of names
/// ([`crate::format::names`]), which also give the help's list (aliases
/// hidden).
fn named<T: Copy + Send + Sync + 'static>(
    table: &'static [Name<T>],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = table.iter().map(|&(name, _, help)| {
        let value = PossibleValue::new(name);
        if help.is_empty() {
            value.hide(true)
        } else {
            value.help(help)
        }
    });
    PossibleValuesParser::new(values)
        .map(move |name| names::find(table, "", &name).expect("clap took a listed name"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CsaVersion {
    #[value(name = "3.0")]
    V3,
    #[value(name = "2.2")]
    V2,
}

const BOOK_MINE_HELP: &str = "\
The walk is breadth-first, in ply order: the same start lines and the same book
always give the same queue. A position in the book (or whose rotation is) is
not searched again: its book moves are followed. The book is saved (a temporary
file renamed over it) every --save-every positions, at the end and on Ctrl-C;
run the same command again to go on. Each engine forgets its hash before each
search, so the book does not depend on which engine searched what.
Exit 0 when the walk ended with no engine error; 1 when it was interrupted or
an engine failed on some position (never written); 2 for a usage or fatal
error (an engine that does not start, a book that cannot be read or saved).

Example:
  kifconv book mine mined.db --engine ./YaneuraOu --nodes 100000 --multipv 2 \\
      --engines 2 --option Threads=1 --option USI_Hash=256 --option BookFile=no_book";

#[derive(ClapArgs, Debug)]
pub struct BookMineArgs {
    /// The book (DB2016 text): read when it exists, created when not, and
    /// saved in place.
    pub book: PathBuf,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Nodes per search (`go nodes N`).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Candidate moves per position (MultiPV).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub multipv: u32,
    /// Start lines, one a line: `position startpos moves …`, `position
    /// sfen … moves …` or an SFEN (`#` lines are comments); by default the
    /// starting position.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Positions up to this ply are searched (a game's first position is
    /// ply 1).
    #[arg(long, value_name = "P", default_value_t = 16)]
    pub max_ply: u32,
    /// Do not follow a line past a position whose best value is beyond ±V
    /// centipawns.
    #[arg(long, value_name = "V", value_parser = clap::value_parser!(i32).range(0..))]
    pub eval_limit: Option<i32>,
    /// Save the book after every N positions searched.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub save_every: u64,
}
