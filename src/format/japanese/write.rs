//! Japanese notation shared by the KIF and KI2 writers: squares, piece
//! names, counts, hands, board diagrams, header names, terminal words and
//! the `まで…` summary.

use crate::record::{Ending, EndingKind, Header, Record};
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::{Color, Hand, PieceKind, Setup, Square};
use std::fmt::Write as _;

/// The name a move gives a piece: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
pub fn move_piece_name(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "歩",
        Lance => "香",
        Knight => "桂",
        Silver => "銀",
        Gold => "金",
        Bishop => "角",
        Rook => "飛",
        King => "玉",
        ProPawn => "と",
        ProLance => "成香",
        ProKnight => "成桂",
        ProSilver => "成銀",
        Horse => "馬",
        Dragon => "龍",
    }
}

/// 一 to 十八, as hands count pieces.
pub fn kanji_number(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => DIGITS[n as usize].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", DIGITS[(n % 10) as usize]),
    }
}

/// `飛　角　金四　` or `なし`: a hand as board diagrams write it.
pub fn hand_text(hand: &Hand) -> String {
    if hand.is_empty() {
        return "なし".to_string();
    }
    let mut out = String::new();
    for &kind in PieceKind::HAND.iter().rev() {
        let n = hand.count(kind);
        if n > 0 {
            out.push(kind.kanji());
            if n > 1 {
                out.push_str(&kanji_number(n));
            }
            out.push('\u{3000}');
        }
    }
    out
}

/// A board diagram with both hands and, for White to move, `後手番`;
/// above it `手数＝N` when the start comes after N moves (SFEN move number
/// N + 1), as Kifu for Windows writes it. `handicap` selects 上手/下手 for
/// the labels.
pub fn board_diagram(setup: &Setup, handicap_labels: bool) -> String {
    let (black, white) = if handicap_labels {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let mut out = String::new();
    if setup.move_number != 1 {
        writeln!(out, "手数＝{}", setup.move_number.saturating_sub(1)).unwrap();
    }
    writeln!(out, "{white}の持駒：{}", hand_text(&setup.hands[1])).unwrap();
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match setup.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(piece) => {
                    out.push(if piece.color == Color::White {
                        'v'
                    } else {
                        ' '
                    });
                    out.push(piece.kind.kanji());
                }
            }
        }
        out.push('|');
        out.push_str(&kanji_number(rank));
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    writeln!(out, "{black}の持駒：{}", hand_text(&setup.hands[0])).unwrap();
    if setup.side_to_move == Color::White {
        writeln!(out, "{white}番").unwrap();
    } else if handicap_labels {
        writeln!(out, "{black}番").unwrap();
    }
    out
}

/// The KIF name for a header key from another format (CSA `N+`, `$EVENT`);
/// `None` for keys that only mean something to their format (`V`).
pub fn header_key(key: &str) -> Option<&str> {
    Some(match key {
        "N+" => "先手",
        "N-" => "後手",
        "$EVENT" => "棋戦",
        "$SITE" => "場所",
        "$START_TIME" => "開始日時",
        "$END_TIME" => "終了日時",
        "$TIME_LIMIT" => "持ち時間",
        "$OPENING" => "戦型",
        "V" => return None,
        other => other,
    })
}

/// The headers a Japanese writer prints, with the 手合割 line: in input
/// order, CSA keys renamed, 手合割 set from the record's start (or left
/// out when a board diagram follows).
pub fn headers(record: &Record) -> Vec<Header> {
    let mut out: Vec<Header> = Vec::with_capacity(record.headers.len() + 1);
    let preset = record.handicap.filter(|h| {
        h.setup_ref().board == record.start.board
            && h.setup_ref().side_to_move == record.start.side_to_move
    });
    let mut wrote_handicap = false;
    for header in &record.headers {
        let Some(key) = header_key(&header.key) else {
            continue;
        };
        if key == "手合割" {
            if let Some(h) = preset {
                out.push(Header {
                    key: key.to_string(),
                    value: h.japanese().to_string(),
                });
                wrote_handicap = true;
            }
            continue;
        }
        out.push(Header {
            key: key.to_string(),
            value: header.value.clone(),
        });
    }
    if let (Some(h), false) = (preset, wrote_handicap) {
        out.push(Header {
            key: "手合割".to_string(),
            value: h.japanese().to_string(),
        });
    }
    out
}

/// Whether a header key reads back as a header in KIF and KI2: not one
/// that starts like a move, a comment, a bookmark, a diagram, a variation,
/// the summary or the move-list line, and with no colon or line break.
pub fn is_safe_header_key(key: &str) -> bool {
    let Some(first) = key.chars().next() else {
        return false;
    };
    !(crate::format::japanese::read::digit(first).is_some()
        || first.is_ascii_digit()
        || ('０'..='９').contains(&first)
        || crate::format::japanese::read::side_mark(first).is_some()
        || "*&#|+同".contains(first)
        || crate::format::japanese::read::is_space(first)
        || key.starts_with("変化")
        || key.starts_with("まで")
        || key.starts_with("手数-")
        || key.starts_with("手数＝")
        || key.starts_with("手数=")
        || key.contains(['：', ':', '\n', '\r']))
}

/// Whether the record needs a board diagram: its start is no preset, or
/// comes after moves already played (only a diagram's `手数＝N` says so).
pub fn needs_diagram(record: &Record) -> bool {
    let preset = record.handicap.filter(|h| {
        h.setup_ref().board == record.start.board
            && h.setup_ref().side_to_move == record.start.side_to_move
    });
    preset.is_none()
        || record.start.hands.iter().any(|h| !h.is_empty())
        || record.start.move_number != 1
}

/// The word a KIF terminal line writes for an ending, with `to_move` the
/// player to move there (the words speak of that player: 反則勝ち is the
/// player to move winning by the other's foul).
pub fn ending_word(ending: &Ending, to_move: Color) -> &str {
    use EndingKind::*;
    match ending.kind {
        FoulWin | FoulLoss | IllegalMove | PerpetualCheck if ending.winner == Some(to_move) => {
            "反則勝ち"
        }
        Resign => "投了",
        Abort => "中断",
        Repetition => "千日手",
        Impasse => "持将棋",
        Checkmate => "詰み",
        NoMate => "不詰",
        TimeUp => "切れ負け",
        FoulWin => "反則勝ち",
        FoulLoss | IllegalMove | PerpetualCheck => "反則負け",
        EnteringKing => "入玉勝ち",
        DefaultWin => "不戦勝",
        DefaultLoss => "不戦敗",
        Sealed => "封じ手",
        Try => "トライ",
        Draw => "持将棋",
        MaxMoves | Matta | Error => "中断",
        Other => ending.text.as_str(),
    }
}

/// The number of move `ply` of a record (1 for its first move), counted on
/// from the start's move number as Kifu for Windows counts after a
/// `手数＝N` line: the first move after `手数＝36` is move 37.
pub fn move_number(record: &Record, ply: u32) -> u64 {
    u64::from(ply) + u64::from(record.start.move_number.saturating_sub(1))
}

/// The `まで…` summary: `まで77手で先手の勝ち`, `まで12手で中断`, …
pub fn trailer(moves: u64, ending: &Ending, handicap_labels: bool) -> String {
    let side = |c: Color| match (c, handicap_labels) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    };
    use EndingKind::*;
    let what = match (ending.kind, ending.winner) {
        (Abort | MaxMoves | Matta | Error, _) => "中断".to_string(),
        (Repetition, _) => "千日手".to_string(),
        (Impasse | Draw, _) => "持将棋".to_string(),
        (NoMate, _) => "不詰".to_string(),
        (Sealed, _) => "封じ手".to_string(),
        (Checkmate, _) => return format!("まで{moves}手で詰み"),
        (TimeUp, Some(w)) => format!("時間切れにより{}の勝ち", side(w)),
        (FoulWin, Some(w)) => format!("{}の反則勝ち", side(w)),
        (FoulLoss | IllegalMove | PerpetualCheck, Some(w)) => format!("{}の反則負け", side(!w)),
        (EnteringKing, Some(w)) => format!("{}の入玉勝ち", side(w)),
        (_, Some(w)) => format!("{}の勝ち", side(w)),
        (_, None) => ending_word(ending, Color::Black).to_string(),
    };
    format!("まで{moves}手で{what}")
}

/// Writes a move spec in Japanese notation, without the side mark:
/// destination (or `同　`), piece, relative markers, 成 / 不成 / 打.
pub fn write_spec(out: &mut String, spec: &MoveSpec) {
    match spec.to {
        Destination::Same => out.push_str("同\u{3000}"),
        Destination::Square(sq) => {
            write!(out, "{}", sq.japanese()).unwrap();
        }
    }
    out.push_str(move_piece_name(spec.piece));
    match spec.horizontal {
        Some(Horizontal::Left) => out.push('左'),
        Some(Horizontal::Right) => out.push('右'),
        Some(Horizontal::Straight) => out.push('直'),
        None => {}
    }
    match spec.vertical {
        Some(Vertical::Up) => out.push('上'),
        Some(Vertical::Down) => out.push('引'),
        Some(Vertical::Sideways) => out.push('寄'),
        None => {}
    }
    match spec.promotion {
        Promotion::Promote => out.push('成'),
        Promotion::Decline => out.push_str("不成"),
        Promotion::Unmarked | Promotion::ByName => {}
    }
    if spec.drop == DropMark::Drop {
        out.push('打');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_hands() {
        assert_eq!(kanji_number(1), "一");
        assert_eq!(kanji_number(10), "十");
        assert_eq!(kanji_number(18), "十八");
        let setup = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R2G18P 1").unwrap();
        assert_eq!(
            hand_text(&setup.hands[0]),
            "飛\u{3000}金二\u{3000}歩十八\u{3000}"
        );
        assert_eq!(hand_text(&setup.hands[1]), "なし");
    }
}
