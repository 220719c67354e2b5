//! Resolver cases from the JSA notation rules (日本将棋連盟「棋譜の表記方法」),
//! worked out by hand, never by calling the resolver.
//!
//! Each row gives a position, a move text (without ▲/△), the destination of
//! the previous move (for 同), and what must come of it:
//!
//! - `Jsa(usi)`: the text means this move, and it is exactly what the JSA
//!   rules write for it, so `MoveSpec::from_move` must give the same spec back;
//! - `Reads(usi)`: the text means this move, but is not the minimal JSA form
//!   (a redundant marker, 生 / 行 / 入 / 龍 / 全, an unmarked non-promotion);
//! - `Ambiguous([usi…])`: several moves fit; the error lists exactly these;
//! - `NoCandidate`: no move fits; the error lists every legal move of that
//!   piece kind to that square, each with a reason;
//! - `NoPrevious`: 同 with no previous move.
//!
//! Positions are written as piece placements, which are easier to check by
//! eye than SFEN: `K9i G6i k1a / b G` is Black's king on 9i, a Black gold on
//! 6i, White's king on 1a, Black to move, a gold in Black's hand. Upper case
//! is Black, lower case White, `+` a promoted piece; squares are USI (file
//! 1–9, rank a–i). Every position is built with `Position::from_sfen`, which
//! validates it (both kings, no check on the side not to move).
//!
//! Reminders for checking rows by hand: Black's left is file 9, White's left
//! is file 1 (White's right is toward file 9); Black's "up" is toward rank a,
//! White's toward rank i. Candidates are generated in square-index order:
//! file 1 first, then by rank (`4i` before `5i` before `6i`).
//!
//! Every row is also run mirrored (board rotated 180°, colors swapped, the
//! text's square and the expected moves rotated), which must give the
//! mirrored answer: the rules are the same for both players.

use crate::format::japanese::read::move_text;
use crate::resolve::spec::{Destination, MoveSpec, Vertical};
use crate::resolve::{Mismatch, ResolveError};
use crate::{Move, PieceKind, Position, Square};

#[derive(Clone, Copy, Debug)]
enum Want {
    /// Resolves to this move, and the text is the minimal JSA form for it.
    Jsa(&'static str),
    /// Resolves to this move; the text is accepted but not the JSA form.
    Reads(&'static str),
    /// Several candidates fit; exactly these (in any order).
    Ambiguous(&'static [&'static str]),
    /// No candidate fits.
    NoCandidate,
    /// 同 without a previous move.
    NoPrevious,
}

use Want::*;

/// (setup, move text, previous destination, expected, what the row checks)
type Case = (
    &'static str,
    &'static str,
    Option<&'static str>,
    Want,
    &'static str,
);

// Black positions.
const B_GOLDS3: &str = "K9i k1a G6i G5i G4i / b -";
const B_GOLDS_LEFT_SIDEWAYS: &str = "K9i k1a G6h G6i G4h / b -";
const B_GOLDS_LEFT_UP: &str = "K9i k1a G6i G6h G4i / b -";
const B_SILVERS_RIGHT_BACK: &str = "K9i k1a S4g S4i S6g / b -";
const B_SILVERS_STRAIGHT: &str = "K9i k1a S5i S4i / b -";
const B_SILVERS_DIAGONAL: &str = "K9i k1a S6i S4i / b -";
const B_GOLD_BACK: &str = "K9i k1a G5g G4h / b -";
const B_KNIGHTS: &str = "K9i k1a N7i N5i / b -";
const B_KNIGHTS_ZONE: &str = "K9i k1a N7e N5e / b -";
const B_DRAGONS_WIKI: &str = "K9i k9a +R1c +R2b / b -";
const B_DRAGONS_SIDEWAYS: &str = "K9i k5a +R9e +R1e / b -";
const B_DRAGONS_UP: &str = "K9i k9a +R2h +R1g / b -";
const B_DRAGONS_MOTION: &str = "K9i k9a +R5d +R1e / b -";
const B_HORSES_UP: &str = "K9i k9a +B2c +B4d / b -";
const B_HORSES_BACK: &str = "K9i k1a +B9a +B8a / b -";
const B_ROOKS_SIDEWAYS: &str = "K9i k5a R9e R1e / b -";
const B_ROOKS_BACK: &str = "K9i k1a R5d R9e / b -";
const B_ROOKS_UP: &str = "K9i k9a R5h R1e / b -";
const B_BISHOPS_UP: &str = "K9i k5a B8h B2h / b -";
const B_BISHOPS_BACK: &str = "K9i k5a B8b B8h / b -";
const B_LANCE: &str = "K5i k5a L1d / b -";
const B_SILVER_ZONE: &str = "K9i k1a S4d / b -";
const B_SILVER_LEAVING: &str = "K9i k1a S4c / b -";
const B_SILVER_LOW: &str = "K9i k1a S5i / b -";
const B_SILVERS3_ZONE: &str = "K9i k1a S6d S5d S4d / b -";
const B_GOLD_AND_HAND: &str = "K9i k1a G4i / b G";
const B_PRO_SILVERS: &str = "K9i k1a +S5f +S4e / b -";
const B_TOKINS: &str = "K9i k1a +P6d +P4d / b -";
const B_PAWNS: &str = "K9i k1a P5f p5e / b -";
const B_PINNED_UP: &str = "K5i k1a G5h G3i r5a / b -";
const B_PINNED_SIDEWAYS: &str = "K5i k1a G5h G3h r5a / b -";
const B_PINNED_DROP: &str = "K5i k1a G5h r5a / b G";

// White positions: the same ideas, built for White by hand.
const W_GOLDS3: &str = "k1a K9i g4a g5a g6a / w -";
const W_GOLDS_LEFT_SIDEWAYS: &str = "k1a K9i g4b g4a g6b / w -";
const W_GOLDS_LEFT_UP: &str = "k1a K9i g4a g4b g6a / w -";
const W_SILVERS_RIGHT_BACK: &str = "k1a K9i s6c s6a s4c / w -";
const W_SILVERS_STRAIGHT: &str = "k1a K9i s5a s6a / w -";
const W_SILVERS_DIAGONAL: &str = "k1a K9i s4a s6a / w -";
const W_GOLD_BACK: &str = "k1a K9i g5c g6b / w -";
const W_KNIGHTS: &str = "k1a K9i n3a n5a / w -";
const W_KNIGHTS_ZONE: &str = "k1a K9i n3e n5e / w -";
const W_DRAGONS_WIKI: &str = "k1a K1i +r9g +r8h / w -";
const W_DRAGONS_SIDEWAYS: &str = "k1a K5i +r1e +r9e / w -";
const W_DRAGONS_UP: &str = "k1a K1i +r8b +r9c / w -";
const W_HORSES_UP: &str = "k1a K1i +b8g +b6f / w -";
const W_HORSES_BACK: &str = "k1a K9i +b1i +b2i / w -";
const W_ROOKS_SIDEWAYS: &str = "k1a K5i r1e r9e / w -";
const W_ROOKS_BACK: &str = "k1a K9i r5f r1e / w -";
const W_ROOKS_UP: &str = "k1a K1i r5b r9e / w -";
const W_BISHOPS_UP: &str = "k1a K5i b2b b8b / w -";
const W_BISHOPS_BACK: &str = "k1a K5i b2h b2b / w -";
const W_LANCE: &str = "k5a K5i l9f / w -";
const W_SILVER_ZONE: &str = "k1a K9i s6f / w -";
const W_SILVER_LEAVING: &str = "k1a K9i s6g / w -";
const W_SILVER_LOW: &str = "k1a K9i s5a / w -";
const W_SILVERS3_ZONE: &str = "k1a K9i s4f s5f s6f / w -";
const W_GOLD_AND_HAND: &str = "k1a K9i g6a / w g";
const W_PRO_SILVERS: &str = "k1a K9i +s5d +s6e / w -";
const W_TOKINS: &str = "k1a K9i +p4f +p6f / w -";
const W_PAWNS: &str = "k1a K9i p5d P5e / w -";
const W_PINNED_UP: &str = "k5a K9i g5b g7a R5i / w -";
const W_PINNED_SIDEWAYS: &str = "k5a K9i g5b g7b R5i / w -";
const W_PINNED_DROP: &str = "k5a K9i g5b R5i / w g";

#[rustfmt::skip]
const CASES: &[Case] = &[
    // ---- Black to move ------------------------------------------------------------------
    // Three golds side by side on 6i 5i 4i, all reaching 5h.
    (B_GOLDS3, "５八金左", None, Jsa("6i5h"), "three golds: 左 is the leftmost (file 6)"),
    (B_GOLDS3, "５八金直", None, Jsa("5i5h"), "three golds: 直 is the one straight below"),
    (B_GOLDS3, "５八金右", None, Jsa("4i5h"), "three golds: 右 is the rightmost (file 4)"),
    (B_GOLDS3, "５八金", None, Ambiguous(&["4i5h", "5i5h", "6i5h"]), "three golds, no marker"),
    (B_GOLDS3, "５八金上", None, Ambiguous(&["4i5h", "5i5h", "6i5h"]), "all three move up: 上 alone does not decide"),
    (B_GOLDS3, "５八金左上", None, Reads("6i5h"), "redundant 上 next to 左 is accepted"),
    (B_GOLDS3, "５八金引", None, NoCandidate, "no gold moves back to 5h"),
    (B_GOLDS3, "５八金寄", None, NoCandidate, "no gold moves sideways to 5h"),
    (B_GOLDS3, "同　金左", Some("5h"), Jsa("6i5h"), "同 with a side marker"),
    (B_GOLDS3, "同金直", Some("5h"), Reads("5i5h"), "同 without the space"),
    (B_GOLDS3, "同　金", None, NoPrevious, "同 on the first move"),
    (B_GOLDS3, "５五飛", None, NoCandidate, "no rook anywhere"),
    (B_GOLDS3, "５八金打", None, NoCandidate, "打 with no gold in hand"),
    // Golds on 6h 6i 4h: 寄 is shared (6h, 4h), 左 is shared (6h, 6i).
    (B_GOLDS_LEFT_SIDEWAYS, "５八金左寄", None, Jsa("6h5h"), "two markers needed: 左寄"),
    (B_GOLDS_LEFT_SIDEWAYS, "５八金上", None, Jsa("6i5h"), "the only one moving up: 上 alone"),
    (B_GOLDS_LEFT_SIDEWAYS, "５八金右", None, Jsa("4h5h"), "the only one on the right: 右 alone"),
    (B_GOLDS_LEFT_SIDEWAYS, "５八金左", None, Ambiguous(&["6h5h", "6i5h"]), "左 fits both golds on file 6"),
    (B_GOLDS_LEFT_SIDEWAYS, "５八金寄", None, Ambiguous(&["4h5h", "6h5h"]), "寄 fits both golds on rank h"),
    // Golds on 6i 6h 4i: 上 is shared (6i, 4i), 左 is shared (6i, 6h).
    (B_GOLDS_LEFT_UP, "５八金左上", None, Jsa("6i5h"), "two markers needed: 左上"),
    (B_GOLDS_LEFT_UP, "５八金寄", None, Jsa("6h5h"), "the only one moving sideways: 寄"),
    (B_GOLDS_LEFT_UP, "５八金右", None, Jsa("4i5h"), "the only one on the right: 右"),
    (B_GOLDS_LEFT_UP, "５八金上左", None, Reads("6i5h"), "markers in the other order"),
    // Silvers on 4g 4i 6g: 引 is shared (4g, 6g), 右 is shared (4g, 4i).
    (B_SILVERS_RIGHT_BACK, "５八銀右引", None, Jsa("4g5h"), "two markers needed: 右引"),
    (B_SILVERS_RIGHT_BACK, "５八銀上", None, Jsa("4i5h"), "the only one moving up: 上"),
    (B_SILVERS_RIGHT_BACK, "５八銀左", None, Jsa("6g5h"), "the only one on the left: 左"),
    (B_SILVERS_RIGHT_BACK, "５八銀引", None, Ambiguous(&["4g5h", "6g5h"]), "引 fits both diagonal retreats"),
    (B_SILVERS_RIGHT_BACK, "５八銀右", None, Ambiguous(&["4g5h", "4i5h"]), "右 fits both silvers on file 4"),
    // 直 only for a straight move forward.
    (B_SILVERS_STRAIGHT, "５八銀直", None, Jsa("5i5h"), "silver straight up: 直"),
    (B_SILVERS_STRAIGHT, "５八銀右", None, Jsa("4i5h"), "the other silver: 右"),
    (B_SILVERS_STRAIGHT, "５八銀左", None, Reads("5i5h"), "lenient: 左 = leftmost candidate (JSA says 直)"),
    (B_SILVERS_DIAGONAL, "５八銀直", None, NoCandidate, "直 on diagonal moves only: error"),
    (B_SILVERS_DIAGONAL, "５八銀左", None, Jsa("6i5h"), "two diagonal silvers: 左"),
    (B_SILVERS_DIAGONAL, "５八銀右", None, Jsa("4i5h"), "two diagonal silvers: 右"),
    (B_GOLD_BACK, "５八金引", None, Jsa("5g5h"), "gold straight back: 引"),
    (B_GOLD_BACK, "５八金寄", None, Jsa("4h5h"), "gold sideways: 寄"),
    (B_GOLD_BACK, "５八金直", None, NoCandidate, "straight back is not 直"),
    // Knights.
    (B_KNIGHTS, "６七桂左", None, Jsa("7i6g"), "knights: 左"),
    (B_KNIGHTS, "６七桂右", None, Jsa("5i6g"), "knights: 右"),
    (B_KNIGHTS, "６七桂", None, Ambiguous(&["5i6g", "7i6g"]), "two knights, no marker"),
    (B_KNIGHTS_ZONE, "６三桂左成", None, Jsa("7e6c+"), "knight into the zone: 左成"),
    (B_KNIGHTS_ZONE, "６三桂右不成", None, Jsa("5e6c"), "knight into the zone: 右不成"),
    (B_KNIGHTS_ZONE, "６三桂右生", None, Reads("5e6c"), "生 = 不成"),
    (B_KNIGHTS_ZONE, "６三桂右", None, Reads("5e6c"), "no promotion mark: does not promote"),
    (B_KNIGHTS_ZONE, "６三桂成", None, Ambiguous(&["5e6c+", "7e6c+"]), "成 alone: both knights"),
    // Dragons: left and right judged against each other, never 直.
    (B_DRAGONS_WIKI, "２四竜右", None, Jsa("1c2d"), "Wikipedia example: 1三→2四 is 右"),
    (B_DRAGONS_WIKI, "２四竜左", None, Jsa("2b2d"), "Wikipedia example: 2二→2四 (same file) is 左"),
    (B_DRAGONS_WIKI, "２四龍右", None, Reads("1c2d"), "龍 spelling"),
    (B_DRAGONS_WIKI, "２四竜引", None, Ambiguous(&["1c2d", "2b2d"]), "both dragons move back"),
    (B_DRAGONS_WIKI, "２四竜直", None, NoCandidate, "neither dragon moves straight forward"),
    (B_DRAGONS_SIDEWAYS, "５五竜左", None, Jsa("9e5e"), "dragons both sideways: 左"),
    (B_DRAGONS_SIDEWAYS, "５五竜右", None, Jsa("1e5e"), "dragons both sideways: 右"),
    (B_DRAGONS_UP, "２六竜左", None, Jsa("2h2f"), "dragon straight forward is 左, not 直"),
    (B_DRAGONS_UP, "２六竜右", None, Jsa("1g2f"), "the other dragon: 右"),
    (B_DRAGONS_UP, "２六竜直", None, Reads("2h2f"), "reader accepts 直 for a straight move"),
    (B_DRAGONS_MOTION, "５五竜引", None, Jsa("5d5e"), "dragons told apart by motion: 引"),
    (B_DRAGONS_MOTION, "５五竜寄", None, Jsa("1e5e"), "dragons told apart by motion: 寄"),
    // Horses.
    (B_HORSES_UP, "２二馬右", None, Jsa("2c2b"), "horse on the destination's file is 右 of the other"),
    (B_HORSES_UP, "２二馬左", None, Jsa("4d2b"), "the other horse: 左"),
    (B_HORSES_UP, "２二馬直", None, Reads("2c2b"), "reader accepts 直 for a straight move"),
    (B_HORSES_BACK, "８二馬左", None, Jsa("9a8b"), "horses both moving back: 左"),
    (B_HORSES_BACK, "８二馬右", None, Jsa("8a8b"), "horse straight back, right of the other: 右"),
    (B_HORSES_BACK, "８二馬", None, Ambiguous(&["8a8b", "9a8b"]), "two horses, no marker"),
    // Rooks and bishops.
    (B_ROOKS_SIDEWAYS, "５五飛左", None, Jsa("9e5e"), "rooks both sideways: 左"),
    (B_ROOKS_SIDEWAYS, "５五飛右", None, Jsa("1e5e"), "rooks both sideways: 右"),
    (B_ROOKS_SIDEWAYS, "５五飛寄", None, Ambiguous(&["1e5e", "9e5e"]), "寄 fits both rooks"),
    (B_ROOKS_BACK, "５五飛引", None, Jsa("5d5e"), "rook back: 引"),
    (B_ROOKS_BACK, "５五飛寄", None, Jsa("9e5e"), "rook sideways: 寄"),
    (B_ROOKS_UP, "５五飛上", None, Jsa("5h5e"), "rook up: 上 (not 直)"),
    (B_ROOKS_UP, "５五飛寄", None, Jsa("1e5e"), "rook sideways: 寄"),
    (B_BISHOPS_UP, "５五角左", None, Jsa("8h5e"), "bishops both up: 左"),
    (B_BISHOPS_UP, "５五角右", None, Jsa("2h5e"), "bishops both up: 右"),
    (B_BISHOPS_BACK, "５五角引不成", None, Jsa("8b5e"), "bishop leaving the zone: 引不成"),
    (B_BISHOPS_BACK, "５五角引成", None, Jsa("8b5e+"), "bishop leaving the zone: 引成"),
    (B_BISHOPS_BACK, "５五角上", None, Jsa("8h5e"), "the other bishop: 上"),
    (B_BISHOPS_BACK, "５五角成", None, Reads("8b5e+"), "成 alone picks the only bishop that can promote"),
    // Promotion marks.
    (B_LANCE, "１二香成", None, Jsa("1d1b+"), "成"),
    (B_LANCE, "１二香不成", None, Jsa("1d1b"), "不成"),
    (B_LANCE, "１二香生", None, Reads("1d1b"), "生 = 不成"),
    (B_LANCE, "１二香", None, Reads("1d1b"), "unmarked: does not promote"),
    (B_LANCE, "１一香成", None, Jsa("1d1a+"), "forced promotion is written 成"),
    (B_LANCE, "１一香", None, NoCandidate, "unmarked means not promoting, which is illegal on the last rank"),
    (B_SILVER_ZONE, "４三銀成", None, Jsa("4d4c+"), "silver entering the zone: 成"),
    (B_SILVER_ZONE, "４三銀不成", None, Jsa("4d4c"), "silver entering the zone: 不成"),
    (B_SILVER_LEAVING, "５四銀成", None, Jsa("4c5d+"), "silver leaving the zone: 成"),
    (B_SILVER_LEAVING, "５四銀不成", None, Jsa("4c5d"), "silver leaving the zone: 不成"),
    (B_SILVER_LOW, "５八銀成", None, NoCandidate, "成 where promotion is impossible"),
    (B_SILVER_LOW, "５八銀", None, Jsa("5i5h"), "no promotion possible: no mark"),
    (B_SILVERS3_ZONE, "５三銀左成", None, Jsa("6d5c+"), "three silvers into the zone: 左成"),
    (B_SILVERS3_ZONE, "５三銀直成", None, Jsa("5d5c+"), "three silvers into the zone: 直成"),
    (B_SILVERS3_ZONE, "５三銀右不成", None, Jsa("4d5c"), "three silvers into the zone: 右不成"),
    (B_SILVERS3_ZONE, "５三銀左", None, Reads("6d5c"), "unmarked promotion: 左 among the non-promoting moves"),
    (B_SILVERS3_ZONE, "５三銀成", None, Ambiguous(&["4d5c+", "5d5c+", "6d5c+"]), "成 alone: three silvers"),
    // Drops.
    (B_GOLD_AND_HAND, "５八金打", None, Jsa("G*5h"), "打 because the gold on 4i could also go there"),
    (B_GOLD_AND_HAND, "５八金", None, Jsa("4i5h"), "no 打 and a board gold fits: the board move"),
    (B_GOLD_AND_HAND, "５五金", None, Jsa("G*5e"), "no board gold reaches 5e: the drop, no 打"),
    (B_GOLD_AND_HAND, "５五金打", None, Reads("G*5e"), "redundant 打 accepted"),
    (B_GOLD_AND_HAND, "５八金打上", None, NoCandidate, "打 with a direction fits nothing"),
    // Promoted pieces; 行 and 入 mean 上.
    (B_PRO_SILVERS, "５五成銀上", None, Jsa("5f5e"), "promoted silver: 上"),
    (B_PRO_SILVERS, "５五成銀行", None, Reads("5f5e"), "行 = 上"),
    (B_PRO_SILVERS, "５五成銀入", None, Reads("5f5e"), "入 = 上"),
    (B_PRO_SILVERS, "５五成銀寄", None, Jsa("4e5e"), "promoted silver: 寄"),
    (B_PRO_SILVERS, "５五全寄", None, Reads("4e5e"), "全 spelling"),
    (B_PRO_SILVERS, "５五銀", None, NoCandidate, "a silver is not a promoted silver"),
    (B_TOKINS, "５三と左", None, Jsa("6d5c"), "tokins: 左"),
    (B_TOKINS, "５三と右", None, Jsa("4d5c"), "tokins: 右"),
    // 同.
    (B_PAWNS, "同　歩", Some("5e"), Jsa("5f5e"), "同 takes the previous destination"),
    (B_PAWNS, "同歩", Some("5e"), Reads("5f5e"), "同 without a space"),
    (B_PAWNS, "５五歩", None, Jsa("5f5e"), "the same capture written with its square"),
    // A twin pinned to its king: the writer counts it, the reader must cope.
    (B_PINNED_UP, "４八金上", None, Jsa("3i4h"), "上 is written because the pinned 5h gold could go sideways"),
    (B_PINNED_UP, "４八金", None, Reads("3i4h"), "without the marker: the pinned gold has no legal move there"),
    (B_PINNED_UP, "４八金右", None, Reads("3i4h"), "redundant 右"),
    (B_PINNED_UP, "４八金寄", None, NoCandidate, "only the pinned gold moves sideways: error"),
    (B_PINNED_SIDEWAYS, "４八金右", None, Jsa("3h4h"), "both sideways, the left one pinned: 右"),
    (B_PINNED_SIDEWAYS, "４八金", None, Reads("3h4h"), "without the marker"),
    (B_PINNED_SIDEWAYS, "４八金寄", None, Reads("3h4h"), "寄 fits the legal gold"),
    (B_PINNED_SIDEWAYS, "４八金直", None, NoCandidate, "no gold moves straight up"),
    (B_PINNED_DROP, "４八金打", None, Jsa("G*4h"), "打 because the pinned gold could reach 4h (ignoring pins)"),
    (B_PINNED_DROP, "４八金", None, Reads("G*4h"), "no legal board move: the drop"),
    // ---- White to move ------------------------------------------------------------------
    // Three golds on 4a 5a 6a reaching 5b; White's left is file 4.
    (W_GOLDS3, "５二金左", None, Jsa("4a5b"), "White, three golds: 左 is toward file 1"),
    (W_GOLDS3, "５二金直", None, Jsa("5a5b"), "White, three golds: 直"),
    (W_GOLDS3, "５二金右", None, Jsa("6a5b"), "White, three golds: 右 is toward file 9"),
    (W_GOLDS3, "５二金", None, Ambiguous(&["4a5b", "5a5b", "6a5b"]), "White, three golds, no marker"),
    (W_GOLDS3, "５二金引", None, NoCandidate, "White: no gold moves back"),
    (W_GOLDS3, "同　金右", Some("5b"), Jsa("6a5b"), "White: 同 with a side marker"),
    (W_GOLDS3, "同　金", None, NoPrevious, "White: 同 on the first move"),
    (W_GOLDS3, "５五飛", None, NoCandidate, "White: no rook anywhere"),
    (W_GOLDS_LEFT_SIDEWAYS, "５二金左寄", None, Jsa("4b5b"), "White: 左寄"),
    (W_GOLDS_LEFT_SIDEWAYS, "５二金上", None, Jsa("4a5b"), "White: 上 alone"),
    (W_GOLDS_LEFT_SIDEWAYS, "５二金右", None, Jsa("6b5b"), "White: 右 alone"),
    (W_GOLDS_LEFT_SIDEWAYS, "５二金寄", None, Ambiguous(&["4b5b", "6b5b"]), "White: 寄 fits two"),
    (W_GOLDS_LEFT_UP, "５二金左上", None, Jsa("4a5b"), "White: 左上"),
    (W_GOLDS_LEFT_UP, "５二金寄", None, Jsa("4b5b"), "White: 寄"),
    (W_GOLDS_LEFT_UP, "５二金右", None, Jsa("6a5b"), "White: 右"),
    (W_SILVERS_RIGHT_BACK, "５二銀右引", None, Jsa("6c5b"), "White: 右引"),
    (W_SILVERS_RIGHT_BACK, "５二銀上", None, Jsa("6a5b"), "White: 上"),
    (W_SILVERS_RIGHT_BACK, "５二銀左", None, Jsa("4c5b"), "White: 左"),
    (W_SILVERS_RIGHT_BACK, "５二銀引", None, Ambiguous(&["4c5b", "6c5b"]), "White: 引 fits two"),
    (W_SILVERS_STRAIGHT, "５二銀直", None, Jsa("5a5b"), "White: 直"),
    (W_SILVERS_STRAIGHT, "５二銀右", None, Jsa("6a5b"), "White: the other silver is 右"),
    (W_SILVERS_DIAGONAL, "５二銀直", None, NoCandidate, "White: 直 on diagonal moves only"),
    (W_SILVERS_DIAGONAL, "５二銀左", None, Jsa("4a5b"), "White: diagonal 左"),
    (W_SILVERS_DIAGONAL, "５二銀右", None, Jsa("6a5b"), "White: diagonal 右"),
    (W_GOLD_BACK, "５二金引", None, Jsa("5c5b"), "White: gold straight back is 引"),
    (W_GOLD_BACK, "５二金直", None, NoCandidate, "White: straight back is not 直"),
    (W_KNIGHTS, "４三桂左", None, Jsa("3a4c"), "White knights: 左"),
    (W_KNIGHTS, "４三桂右", None, Jsa("5a4c"), "White knights: 右"),
    (W_KNIGHTS_ZONE, "４七桂左成", None, Jsa("3e4g+"), "White knight: 左成"),
    (W_KNIGHTS_ZONE, "４七桂右不成", None, Jsa("5e4g"), "White knight: 右不成"),
    (W_KNIGHTS_ZONE, "４七桂右生", None, Reads("5e4g"), "White: 生"),
    (W_DRAGONS_WIKI, "８六竜右", None, Jsa("9g8f"), "White, Wikipedia example mirrored: 右"),
    (W_DRAGONS_WIKI, "８六竜左", None, Jsa("8h8f"), "White, Wikipedia example mirrored: 左 (same file)"),
    (W_DRAGONS_WIKI, "８六竜引", None, Ambiguous(&["8h8f", "9g8f"]), "White: both dragons move back"),
    (W_DRAGONS_SIDEWAYS, "５五竜左", None, Jsa("1e5e"), "White dragons sideways: 左"),
    (W_DRAGONS_SIDEWAYS, "５五竜右", None, Jsa("9e5e"), "White dragons sideways: 右"),
    (W_DRAGONS_UP, "８四竜左", None, Jsa("8b8d"), "White dragon straight forward: 左, not 直"),
    (W_DRAGONS_UP, "８四竜右", None, Jsa("9c8d"), "White: the other dragon is 右"),
    (W_HORSES_UP, "８八馬右", None, Jsa("8g8h"), "White horses: 右"),
    (W_HORSES_UP, "８八馬左", None, Jsa("6f8h"), "White horses: 左"),
    (W_HORSES_BACK, "２八馬左", None, Jsa("1i2h"), "White horses back: 左"),
    (W_HORSES_BACK, "２八馬右", None, Jsa("2i2h"), "White horses back: 右"),
    (W_ROOKS_SIDEWAYS, "５五飛左", None, Jsa("1e5e"), "White rooks: 左"),
    (W_ROOKS_SIDEWAYS, "５五飛右", None, Jsa("9e5e"), "White rooks: 右"),
    (W_ROOKS_BACK, "５五飛引", None, Jsa("5f5e"), "White rook: 引"),
    (W_ROOKS_BACK, "５五飛寄", None, Jsa("1e5e"), "White rook: 寄"),
    (W_ROOKS_UP, "５五飛上", None, Jsa("5b5e"), "White rook: 上"),
    (W_ROOKS_UP, "５五飛寄", None, Jsa("9e5e"), "White rook: 寄"),
    (W_BISHOPS_UP, "５五角左", None, Jsa("2b5e"), "White bishops: 左"),
    (W_BISHOPS_UP, "５五角右", None, Jsa("8b5e"), "White bishops: 右"),
    (W_BISHOPS_BACK, "５五角引不成", None, Jsa("2h5e"), "White bishop: 引不成"),
    (W_BISHOPS_BACK, "５五角引成", None, Jsa("2h5e+"), "White bishop: 引成"),
    (W_BISHOPS_BACK, "５五角上", None, Jsa("2b5e"), "White bishop: 上"),
    (W_LANCE, "９八香成", None, Jsa("9f9h+"), "White: 成"),
    (W_LANCE, "９八香不成", None, Jsa("9f9h"), "White: 不成"),
    (W_LANCE, "９八香生", None, Reads("9f9h"), "White: 生"),
    (W_LANCE, "９八香", None, Reads("9f9h"), "White: unmarked does not promote"),
    (W_LANCE, "９九香成", None, Jsa("9f9i+"), "White: forced promotion"),
    (W_LANCE, "９九香", None, NoCandidate, "White: unmarked on the last rank"),
    (W_SILVER_ZONE, "６七銀成", None, Jsa("6f6g+"), "White silver entering the zone: 成"),
    (W_SILVER_ZONE, "６七銀不成", None, Jsa("6f6g"), "White silver entering the zone: 不成"),
    (W_SILVER_LEAVING, "５六銀成", None, Jsa("6g5f+"), "White silver leaving the zone: 成"),
    (W_SILVER_LEAVING, "５六銀不成", None, Jsa("6g5f"), "White silver leaving the zone: 不成"),
    (W_SILVER_LOW, "５二銀成", None, NoCandidate, "White: 成 where impossible"),
    (W_SILVERS3_ZONE, "５七銀左成", None, Jsa("4f5g+"), "White, three silvers: 左成"),
    (W_SILVERS3_ZONE, "５七銀直成", None, Jsa("5f5g+"), "White, three silvers: 直成"),
    (W_SILVERS3_ZONE, "５七銀右不成", None, Jsa("6f5g"), "White, three silvers: 右不成"),
    (W_GOLD_AND_HAND, "５二金打", None, Jsa("G*5b"), "White: 打 when a board gold could go there"),
    (W_GOLD_AND_HAND, "５二金", None, Jsa("6a5b"), "White: no 打, the board move"),
    (W_GOLD_AND_HAND, "５五金", None, Jsa("G*5e"), "White: only a drop reaches 5e"),
    (W_GOLD_AND_HAND, "５五金打", None, Reads("G*5e"), "White: redundant 打"),
    (W_GOLD_AND_HAND, "５二金打上", None, NoCandidate, "White: 打 with a direction"),
    (W_PRO_SILVERS, "５五成銀上", None, Jsa("5d5e"), "White promoted silver: 上"),
    (W_PRO_SILVERS, "５五成銀行", None, Reads("5d5e"), "White: 行 = 上"),
    (W_PRO_SILVERS, "５五成銀入", None, Reads("5d5e"), "White: 入 = 上"),
    (W_PRO_SILVERS, "５五成銀寄", None, Jsa("6e5e"), "White promoted silver: 寄"),
    (W_TOKINS, "５七と左", None, Jsa("4f5g"), "White tokins: 左"),
    (W_TOKINS, "５七と右", None, Jsa("6f5g"), "White tokins: 右"),
    (W_PAWNS, "同　歩", Some("5e"), Jsa("5d5e"), "White: 同"),
    (W_PINNED_UP, "６二金上", None, Jsa("7a6b"), "White pinned twin: 上 counts the pinned gold"),
    (W_PINNED_UP, "６二金", None, Reads("7a6b"), "White pinned twin: no marker"),
    (W_PINNED_UP, "６二金右", None, Reads("7a6b"), "White pinned twin: redundant 右"),
    (W_PINNED_UP, "６二金寄", None, NoCandidate, "White: only the pinned gold moves sideways"),
    (W_PINNED_SIDEWAYS, "６二金右", None, Jsa("7b6b"), "White pinned twin sideways: 右"),
    (W_PINNED_SIDEWAYS, "６二金", None, Reads("7b6b"), "White pinned twin sideways: no marker"),
    (W_PINNED_DROP, "６二金打", None, Jsa("G*6b"), "White: 打 because the pinned gold could reach it"),
    (W_PINNED_DROP, "６二金", None, Reads("G*6b"), "White: no legal board move, the drop"),
];

// ---- helpers ------------------------------------------------------------------------------

fn sq(usi: &str) -> Square {
    Square::from_usi(usi).unwrap_or_else(|| panic!("bad square {usi}"))
}

fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap_or_else(|_| panic!("bad move {usi}"))
}

/// `K9i +R2b k1a / b G` → SFEN.
fn sfen(setup: &str) -> String {
    let (pieces, rest) = setup.split_once(" / ").expect("setup has ' / '");
    let mut board = [[""; 9]; 9]; // [rank - 1][9 - file]
    for token in pieces.split_whitespace() {
        let (piece, square) = token.split_at(token.len() - 2);
        let s = sq(square);
        let cell = &mut board[usize::from(s.rank() - 1)][usize::from(9 - s.file())];
        assert!(cell.is_empty(), "two pieces on {square} in {setup}");
        *cell = piece;
    }
    let rows: Vec<String> = board
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(cell);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} {rest} 1", rows.join("/"))
}

fn position(setup: &str) -> Position {
    let text = sfen(setup);
    Position::from_sfen(&text).unwrap_or_else(|e| panic!("{setup} ({text}): {e}"))
}

fn sorted_usi(moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

/// The kind of piece a legal move moves (the dropped kind for a drop).
fn moving_kind(pos: &Position, m: Move) -> PieceKind {
    match m {
        Move::Drop { kind, .. } => kind,
        Move::Normal { from, .. } => pos.piece_at(from).expect("a piece on the origin").kind,
    }
}

/// Runs one row; returns a description of the failure, if any.
fn check(case: &Case) -> Result<(), String> {
    let &(setup, text, previous, want, why) = case;
    let pos = position(setup);
    let ctx = format!("{setup} [{}] `{text}` ({why})", pos.sfen());
    let (spec, rest) = move_text(text).map_err(|e| format!("{ctx}: unreadable: {e:?}"))?;
    if !rest.is_empty() {
        return Err(format!("{ctx}: text left unread: {rest:?}"));
    }
    let previous = previous.map(sq);
    let got = spec.to_move(&pos, previous);
    match want {
        Jsa(usi) | Reads(usi) => {
            let expected = mv(usi);
            if got != Ok(expected) {
                return Err(format!("{ctx}: expected {usi}, got {got:?}"));
            }
            if let Jsa(_) = want {
                let written = MoveSpec::from_move(&pos, expected, previous);
                if written != spec {
                    return Err(format!(
                        "{ctx}: from_move({usi}) gave {written:?}, JSA form is {spec:?}"
                    ));
                }
            }
        }
        Ambiguous(expected) => match &got {
            Err(ResolveError::Ambiguous {
                piece,
                to,
                candidates,
            }) => {
                let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
                want.sort();
                if sorted_usi(candidates) != want || *piece != spec.piece {
                    return Err(format!("{ctx}: expected ambiguity {want:?}, got {got:?}"));
                }
                if let Destination::Square(dest) = spec.to {
                    if *to != dest {
                        return Err(format!("{ctx}: ambiguity names square {to}"));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "{ctx}: expected ambiguity {expected:?}, got {got:?}"
                ))
            }
        },
        NoCandidate => match &got {
            Err(ResolveError::NoCandidate {
                piece,
                to,
                rejected,
            }) => {
                // Every legal move of that kind to that square is listed,
                // once, with its reason.
                let all: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| m.to() == *to && moving_kind(&pos, m) == spec.piece)
                    .collect();
                let listed: Vec<Move> = rejected.iter().map(|&(m, _)| m).collect();
                if *piece != spec.piece || sorted_usi(&all) != sorted_usi(&listed) {
                    return Err(format!(
                        "{ctx}: rejected list {rejected:?}, legal candidates {:?}",
                        sorted_usi(&all)
                    ));
                }
            }
            _ => return Err(format!("{ctx}: expected no candidate, got {got:?}")),
        },
        NoPrevious => {
            if got != Err(ResolveError::NoPreviousMove) {
                return Err(format!("{ctx}: expected NoPreviousMove, got {got:?}"));
            }
        }
    }
    Ok(())
}

fn run_all(cases: &[Case]) {
    let failures: Vec<String> = cases.iter().filter_map(|c| check(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

// ---- mirroring (our own, not the library's flip) ------------------------------------------

fn flip_square(usi: &str) -> String {
    let s = sq(usi);
    let file = 10 - s.file();
    let rank = (b'a' + (9 - s.rank())) as char;
    format!("{file}{rank}")
}

fn flip_move(usi: &str) -> String {
    if let Some((kind, to)) = usi.split_once('*') {
        format!("{kind}*{}", flip_square(to))
    } else {
        let (squares, promote) = usi.split_at(4);
        format!(
            "{}{}{promote}",
            flip_square(&squares[..2]),
            flip_square(&squares[2..])
        )
    }
}

fn swap_case(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

fn flip_setup(setup: &str) -> String {
    let (pieces, rest) = setup.split_once(" / ").unwrap();
    let (side, hand) = rest.split_once(' ').unwrap();
    let pieces: Vec<String> = pieces
        .split_whitespace()
        .map(|t| {
            let (piece, square) = t.split_at(t.len() - 2);
            format!("{}{}", swap_case(piece), flip_square(square))
        })
        .collect();
    let side = if side == "b" { "w" } else { "b" };
    let hand = if hand == "-" {
        hand.to_string()
    } else {
        swap_case(hand)
    };
    format!("{} / {side} {hand}", pieces.join(" "))
}

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn flip_text(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().unwrap();
    let Some(file) = FILES.iter().position(|&c| c == first) else {
        return text.to_string(); // 同
    };
    let second = chars.next().unwrap();
    let rank = RANKS.iter().position(|&c| c == second).unwrap();
    format!("{}{}{}", FILES[8 - file], RANKS[8 - rank], chars.as_str())
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn flip_case(case: &Case) -> Case {
    let &(setup, text, previous, want, why) = case;
    let flip_list = |list: &[&str]| -> &'static [&'static str] {
        let v: Vec<&'static str> = list.iter().map(|m| leak(flip_move(m))).collect();
        Box::leak(v.into_boxed_slice())
    };
    let want = match want {
        Jsa(m) => Jsa(leak(flip_move(m))),
        Reads(m) => Reads(leak(flip_move(m))),
        Ambiguous(list) => Ambiguous(flip_list(list)),
        other => other,
    };
    (
        leak(flip_setup(setup)),
        leak(flip_text(text)),
        previous.map(|p| leak(flip_square(p))),
        want,
        leak(format!("mirrored: {why}")),
    )
}

// ---- tests -------------------------------------------------------------------------------

#[test]
fn table() {
    assert!(CASES.len() >= 60);
    run_all(CASES);
}

#[test]
fn table_mirrored() {
    let mirrored: Vec<Case> = CASES.iter().map(flip_case).collect();
    run_all(&mirrored);
}

#[test]
fn mirroring_helpers() {
    assert_eq!(flip_square("7g"), "3c");
    assert_eq!(flip_move("6i5h"), "4a5b");
    assert_eq!(flip_move("7e6c+"), "3e4g+");
    assert_eq!(flip_move("G*5h"), "G*5b");
    assert_eq!(flip_text("５八金左上"), "５二金左上");
    assert_eq!(flip_text("同　金"), "同　金");
    // Our hand-built White rows are the mirror of the Black ones.
    assert_eq!(flip_setup(B_GOLDS3), W_GOLDS3);
    assert_eq!(flip_setup(B_DRAGONS_WIKI), W_DRAGONS_WIKI);
    assert_eq!(flip_setup(B_PINNED_UP), W_PINNED_UP);
    assert_eq!(
        sfen(B_GOLDS3),
        "8k/9/9/9/9/9/9/9/K2GGG3 b - 1",
        "the placement notation"
    );
}

/// Regression for the index-skipping bug: a loop that deletes from a list
/// while walking it by index skips the element after each deletion, so two
/// consecutive candidates rejected by one marker let the second through.
#[test]
fn consecutive_candidates_rejected_by_one_marker() {
    for (setup, all, text, single) in [
        // Generation order 4i, 5i, 6i: 左 rejects 4i and 5i (consecutive).
        (B_GOLDS3, "５八金", "５八金左", "6i5h"),
        // 右 rejects 5i and 6i (consecutive, the last two).
        (B_GOLDS3, "５八金", "５八金右", "4i5h"),
        // White, order 4a, 5a, 6a: 左 (toward file 1) rejects 5a and 6a.
        (W_GOLDS3, "５二金", "５二金左", "4a5b"),
        // 右 (toward file 9) rejects 4a and 5a.
        (W_GOLDS3, "５二金", "５二金右", "6a5b"),
    ] {
        let pos = position(setup);
        // The premise: the candidates come in this order, so the rejected
        // pair really is adjacent in the list.
        let (spec, _) = move_text(all).unwrap();
        match spec.to_move(&pos, None) {
            Err(ResolveError::Ambiguous { candidates, .. }) => {
                let order: Vec<String> = candidates.iter().map(|m| m.to_string()).collect();
                let expected: Vec<String> = if setup == B_GOLDS3 {
                    vec!["4i5h".into(), "5i5h".into(), "6i5h".into()]
                } else {
                    vec!["4a5b".into(), "5a5b".into(), "6a5b".into()]
                };
                assert_eq!(order, expected, "generation order in {setup}");
                // And a buggy index-deleting filter would indeed fail here.
                let keep = |m: &Move| m.to_string() == single;
                let mut buggy = candidates.clone();
                let mut i = 0;
                while i < buggy.len() {
                    if !keep(&buggy[i]) {
                        buggy.remove(i);
                    }
                    i += 1;
                }
                assert!(buggy.len() > 1, "the position must trip the buggy loop");
            }
            other => panic!("{setup}: expected ambiguity, got {other:?}"),
        }
        let (spec, _) = move_text(text).unwrap();
        assert_eq!(spec.to_move(&pos, None), Ok(mv(single)), "{setup} {text}");
    }

    // Three silvers entering the zone: six candidates, each non-promoting
    // move followed by its promotion. 成 keeps 4d5c+ 5d5c+ 6d5c+; 左 then
    // rejects the adjacent 4d5c+ and 5d5c+.
    let pos = position(B_SILVERS3_ZONE);
    let (spec, _) = move_text("５三銀左成").unwrap();
    assert_eq!(spec.to_move(&pos, None), Ok(mv("6d5c+")));
    let (spec, _) = move_text("５三銀右").unwrap();
    assert_eq!(spec.to_move(&pos, None), Ok(mv("4d5c")));
}

/// When nothing fits, every candidate is listed with its reason, including
/// consecutive ones.
#[test]
fn no_candidate_lists_every_rejection() {
    let pos = position(B_GOLDS3);
    let (spec, _) = move_text("５八金引").unwrap();
    match spec.to_move(&pos, None) {
        Err(ResolveError::NoCandidate {
            piece,
            to,
            rejected,
        }) => {
            assert_eq!(piece, PieceKind::Gold);
            assert_eq!(to, sq("5h"));
            let mut listed: Vec<(String, Mismatch)> = rejected
                .iter()
                .map(|&(m, why)| (m.to_string(), why))
                .collect();
            listed.sort_by(|a, b| a.0.cmp(&b.0));
            let down = Mismatch::Direction(Vertical::Down);
            assert_eq!(
                listed,
                vec![
                    ("4i5h".to_string(), down),
                    ("5i5h".to_string(), down),
                    ("6i5h".to_string(), down),
                ]
            );
        }
        other => panic!("expected NoCandidate, got {other:?}"),
    }

    // Six candidates (three silvers, promoting or not), all moving up: 引
    // rejects every one of them.
    let pos = position(B_SILVERS3_ZONE);
    let (spec, _) = move_text("５三銀引").unwrap();
    match spec.to_move(&pos, None) {
        Err(ResolveError::NoCandidate { rejected, .. }) => {
            let listed: Vec<String> = rejected.iter().map(|(m, _)| m.to_string()).collect();
            let mut sorted = listed.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                ["4d5c", "4d5c+", "5d5c", "5d5c+", "6d5c", "6d5c+"],
                "{rejected:?}"
            );
            // Each with a true reason: the non-promoting moves go up, not
            // back; the promoting ones also promote without 成 (whichever
            // the resolver tests first).
            for &(m, why) in &rejected {
                let down = Mismatch::Direction(Vertical::Down);
                if m.is_promotion() {
                    assert!(why == down || why == Mismatch::Promotes, "{m}: {why:?}");
                } else {
                    assert_eq!(why, down, "{m}");
                }
            }
        }
        other => panic!("expected NoCandidate, got {other:?}"),
    }

    // Several reasons at once: 直 on two diagonal silvers, and a 打 with
    // nothing in hand.
    let pos = position(B_SILVERS_DIAGONAL);
    let (spec, _) = move_text("５八銀直").unwrap();
    match spec.to_move(&pos, None) {
        Err(ResolveError::NoCandidate { rejected, .. }) => {
            assert_eq!(rejected.len(), 2, "{rejected:?}");
            assert!(rejected
                .iter()
                .all(|&(_, why)| matches!(why, Mismatch::Side(_))));
        }
        other => panic!("expected NoCandidate, got {other:?}"),
    }
    let pos = position(B_GOLDS3);
    let (spec, _) = move_text("５八金打").unwrap();
    match spec.to_move(&pos, None) {
        Err(ResolveError::NoCandidate { rejected, .. }) => {
            assert_eq!(rejected.len(), 3, "{rejected:?}");
            assert!(rejected.iter().all(|&(_, why)| why == Mismatch::NotADrop));
        }
        other => panic!("expected NoCandidate, got {other:?}"),
    }

    // No piece of that kind can reach the square at all: an empty list.
    let (spec, _) = move_text("５五飛").unwrap();
    match spec.to_move(&pos, None) {
        Err(ResolveError::NoCandidate { rejected, .. }) => assert!(rejected.is_empty()),
        other => panic!("expected NoCandidate, got {other:?}"),
    }
}

#[test]
fn ambiguity_lists_candidates_in_usi() {
    let pos = position(B_DRAGONS_WIKI);
    let (spec, _) = move_text("２四竜").unwrap();
    let err = spec.to_move(&pos, None).unwrap_err();
    match &err {
        ResolveError::Ambiguous {
            piece,
            to,
            candidates,
        } => {
            assert_eq!(*piece, PieceKind::Dragon);
            assert_eq!(*to, sq("2d"));
            assert_eq!(sorted_usi(candidates), ["1c2d", "2b2d"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let message = err.to_string();
    assert!(
        message.contains("1c2d") && message.contains("2b2d"),
        "{message}"
    );
}

#[test]
fn same_square_needs_a_previous_move() {
    for setup in [B_PAWNS, W_PAWNS] {
        let pos = position(setup);
        let (spec, _) = move_text("同　歩").unwrap();
        assert_eq!(spec.to_move(&pos, None), Err(ResolveError::NoPreviousMove));
        // With a previous move it is that square.
        let expected = if setup == B_PAWNS { "5f5e" } else { "5d5e" };
        assert_eq!(spec.to_move(&pos, Some(sq("5e"))), Ok(mv(expected)));
    }
}

/// The pinned twin: the writer counts it (JSA, ignoring pins), the reader
/// needs no marker but accepts the writer's, and the pinned gold's own
/// motion (寄) is an error.
#[test]
fn pinned_twin() {
    let pos = position(B_PINNED_UP);
    let legal = mv("3i4h");
    assert!(!pos.legal_moves().contains(&mv("5h4h")), "5h is pinned");
    let written = MoveSpec::from_move(&pos, legal, None);
    assert_eq!(written.vertical, Some(Vertical::Up));
    assert_eq!(written.horizontal, None);
    for text in ["４八金上", "４八金", "４八金右", "４八金右上"] {
        let (spec, _) = move_text(text).unwrap();
        assert_eq!(spec.to_move(&pos, None), Ok(legal), "{text}");
    }
    let (spec, _) = move_text("４八金寄").unwrap();
    assert!(matches!(
        spec.to_move(&pos, None),
        Err(ResolveError::NoCandidate { .. })
    ));
}

/// 左 where only the pinned twin is on the left. Writers count the pinned
/// gold on 5h, so for it (and only it) the text would be ４八金左; that move
/// is illegal, so the text names no legal move and is an error. (左/右 are
/// judged among the pieces that could move there ignoring pins.)
#[test]
fn pinned_twin_wrong_side_marker_is_an_error() {
    for (setup, text) in [
        (B_PINNED_SIDEWAYS, "４八金左"),
        (W_PINNED_SIDEWAYS, "６二金左"),
    ] {
        let pos = position(setup);
        let (spec, _) = move_text(text).unwrap();
        let got = spec.to_move(&pos, None);
        assert!(
            matches!(got, Err(ResolveError::NoCandidate { .. })),
            "{setup} {text}: got {got:?}"
        );
    }
}

/// Dragons and horses take 左/右 against each other, never 直, even when
/// one moves straight along the destination's file; golds and silvers take
/// 直 for the same geometry.
#[test]
fn dragons_and_horses_never_take_straight() {
    let cases = [
        (B_DRAGONS_UP, "2h2f", "２六竜左"),
        (B_DRAGONS_WIKI, "2b2d", "２四竜左"),
        (B_HORSES_UP, "2c2b", "２二馬右"),
        (B_HORSES_BACK, "8a8b", "８二馬右"),
        (W_DRAGONS_UP, "8b8d", "８四竜左"),
        (W_HORSES_UP, "8g8h", "８八馬右"),
    ];
    for (setup, usi, text) in cases {
        let pos = position(setup);
        let (spec, _) = move_text(text).unwrap();
        assert_eq!(
            MoveSpec::from_move(&pos, mv(usi), None),
            spec,
            "{setup} {usi}"
        );
    }
    // The same geometry for a silver: straight up is 直.
    let pos = position(B_SILVERS_STRAIGHT);
    let (spec, _) = move_text("５八銀直").unwrap();
    assert_eq!(MoveSpec::from_move(&pos, mv("5i5h"), None), spec);
}

/// Left and right are mirrored for White: the same three golds, seen from
/// each side.
#[test]
fn white_left_is_toward_file_one() {
    let pos = position(W_GOLDS3);
    for (text, usi) in [
        ("５二金左", "4a5b"),
        ("５二金右", "6a5b"),
        ("５二金直", "5a5b"),
    ] {
        let (spec, _) = move_text(text).unwrap();
        assert_eq!(spec.to_move(&pos, None), Ok(mv(usi)), "{text}");
    }
    // And a White dragon pair: the one nearer file 9 is 右.
    let pos = position(W_DRAGONS_WIKI);
    let (spec, _) = move_text("８六竜右").unwrap();
    assert_eq!(spec.to_move(&pos, None), Ok(mv("9g8f")));
}

/// The row checker itself rejects wrong rows (so a passing table means
/// something).
#[test]
fn checker_catches_wrong_rows() {
    let wrong: &[Case] = &[
        (B_GOLDS3, "５八金左", None, Jsa("4i5h"), "wrong move"),
        (
            B_GOLDS3,
            "５八金左上",
            None,
            Jsa("6i5h"),
            "not the minimal form",
        ),
        (
            B_GOLDS3,
            "５八金",
            None,
            Ambiguous(&["4i5h", "6i5h"]),
            "wrong list",
        ),
        (B_GOLDS3, "５八金", None, NoCandidate, "wrong kind of error"),
        (
            B_GOLDS3,
            "５八金左",
            Some("5h"),
            Jsa("6i5h"),
            "JSA would write 同",
        ),
        (B_LANCE, "１二香", None, Jsa("1d1b"), "JSA writes 不成"),
        (
            B_GOLD_AND_HAND,
            "５五金打",
            None,
            Jsa("G*5e"),
            "打 not needed",
        ),
    ];
    for case in wrong {
        assert!(check(case).is_err(), "{case:?} passed");
    }
}
