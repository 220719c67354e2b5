//! Western move notation, token by token: a move (`G6h-5h`, `Bx2b+`,
//! `N*5e`, `R*5a#!`) read into a [`MoveSpec`], a move number (`12.`,
//! `12...`), an annotation, a result, a Japanese terminal word. Pure
//! functions on text: no state, no board; a token that cannot be read says
//! where in it and what was expected ([`Bad`]).

use crate::resolve::spec::{CaptureClaim, CheckClaim, Destination, DropMark, MoveSpec, Promotion};
use crate::{PieceKind, Square};

/// Why a token could not be read: where (a byte offset into the token), how
/// much of it is wrong, and what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bad {
    pub offset: usize,
    pub len: usize,
    pub message: &'static str,
}

/// A move token, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrittenMove<'a> {
    pub spec: MoveSpec,
    /// The move without its annotation.
    pub text: &'a str,
    pub annotation: Option<&'a str>,
}

const PIECE_LETTERS: &str =
    "a piece letter (P L N S G B R K, +P +L +N +S +B +R, or T H D for tokin, horse, dragon)";
const SQUARE: &str = "a square: a file 1-9 then a rank a-i or 1-9 (7f or 76)";

/// The piece at the start of `text`: a letter, `+` and a letter, or one of
/// 81Dojo's `T` `H` `D`.
fn piece(text: &str) -> Result<(PieceKind, &str), Bad> {
    use PieceKind::*;
    let (promoted, rest) = match text.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let at = text.len() - rest.len();
    let bad = |message| {
        let len = rest.chars().next().map_or(0, char::len_utf8);
        Bad {
            offset: at,
            len,
            message,
        }
    };
    let kind = match rest.as_bytes().first() {
        Some(b'P') => Pawn,
        Some(b'L') => Lance,
        Some(b'N') => Knight,
        Some(b'S') => Silver,
        Some(b'G') => Gold,
        Some(b'B') => Bishop,
        Some(b'R') => Rook,
        Some(b'K') => King,
        Some(b'T') if !promoted => ProPawn,
        Some(b'H') if !promoted => Horse,
        Some(b'D') if !promoted => Dragon,
        _ => return Err(bad(PIECE_LETTERS)),
    };
    let kind = match promoted {
        false => kind,
        true => kind
            .promote()
            .ok_or_else(|| bad("a piece that promotes after `+` (P L N S B R)"))?,
    };
    Ok((kind, &rest[1..]))
}

/// A square at the start of `text`: `7f` or `76`.
fn square(text: &str) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    let file = match bytes.first()? {
        c @ b'1'..=b'9' => c - b'0',
        _ => return None,
    };
    let rank = match bytes.get(1)? {
        c @ b'a'..=b'i' => c - b'a' + 1,
        c @ b'1'..=b'9' => c - b'0',
        _ => return None,
    };
    Some((Square::new(file, rank)?, &text[2..]))
}

/// The separator at the start of `text`, if any.
fn separator(text: &str) -> Option<(u8, &str)> {
    match text.as_bytes().first() {
        Some(&c @ (b'-' | b'x' | b'*')) => Some((c, &text[1..])),
        _ => None,
    }
}

/// An annotation that is the whole of `text`.
pub(crate) fn is_annotation(text: &str) -> bool {
    matches!(text, "!" | "?" | "!!" | "??" | "!?" | "?!")
}

/// A terminal word as the Japanese formats write it (`投了`, `中断`,
/// `千日手`, …): a token of Japanese text, no ASCII in it. Which ending it
/// is, the game builder decides, as for KIF (a word it does not know is
/// kept as text, with a warning).
pub(crate) fn is_terminal_word(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_ascii() || c.is_whitespace() || c == '…')
}

/// A game result that is the whole of `text`.
pub(crate) fn is_result(text: &str) -> bool {
    matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads a whole move token (`G6h-5h`, `Bx2b+`, `N*5e`, `R*5a#!`).
pub(crate) fn move_token(token: &str) -> Result<WrittenMove<'_>, Bad> {
    let bad = |rest: &str, len: usize, message| Bad {
        offset: token.len() - rest.len(),
        len: len.min(rest.len()),
        message,
    };
    let (kind, rest) = piece(token)?;
    let to_square = |text| square(text).ok_or_else(|| bad(text, 2, SQUARE));
    let (from, sep, to, rest) = match separator(rest) {
        Some((sep, after)) => {
            let (to, after) = to_square(after)?;
            (None, Some(sep), to, after)
        }
        None => {
            let (first, after) = to_square(rest)?;
            match separator(after) {
                Some((sep, after)) => {
                    let (to, after) = to_square(after)?;
                    (Some(first), Some(sep), to, after)
                }
                // `S7283`: origin and destination with nothing between.
                None => match square(after) {
                    Some((to, after)) => (Some(first), None, to, after),
                    None => (None, None, first, after),
                },
            }
        }
    };
    let mut spec = MoveSpec::new(Destination::Square(to), kind);
    spec.from = from;
    match sep {
        Some(b'-') => spec.capture = CaptureClaim::NoCapture,
        Some(b'x') => spec.capture = CaptureClaim::Capture,
        Some(_) if from.is_some() => {
            return Err(Bad {
                offset: token.find('*').unwrap_or(0),
                len: 1,
                message:
                    "a drop (`*`) without an origin square: a dropped piece comes from the hand",
            })
        }
        Some(_) => spec.drop = DropMark::Drop,
        None => {}
    }
    let (promotion, after) = match rest.as_bytes().first() {
        Some(b'+') => (Promotion::Promote, &rest[1..]),
        Some(b'=') => (Promotion::Decline, &rest[1..]),
        _ => (Promotion::Unmarked, rest),
    };
    if promotion != Promotion::Unmarked && spec.drop == DropMark::Drop {
        return Err(bad(
            rest,
            1,
            "nothing after a drop's square but `#` or an annotation: a dropped piece cannot promote",
        ));
    }
    let rest = after;
    spec.promotion = promotion;
    let rest = match rest.strip_prefix('#') {
        Some(after) => {
            spec.check = CheckClaim::Mate;
            after
        }
        None => rest,
    };
    let text = &token[..token.len() - rest.len()];
    if rest.is_empty() || is_annotation(rest) {
        let annotation = (!rest.is_empty()).then_some(rest);
        return Ok(WrittenMove {
            spec,
            text,
            annotation,
        });
    }
    Err(bad(
        rest,
        rest.len(),
        "unexpected text after the move (expected `+`, `=`, `#`, or an annotation: ! ? !! ?? !? ?!)",
    ))
}

/// A move number at the start of `text`: `12.` or `12...` / `12…`. Returns
/// the number, whether it names the second move of a pair, and the rest.
pub(crate) fn move_number(text: &str) -> Result<(u32, bool, &str), Bad> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    let expected = "a move number such as 12. or 12..., or a result (1-0 0-1 1/2-1/2 *)";
    let number = text[..digits].parse::<u32>().map_err(|_| Bad {
        offset: 0,
        len: digits,
        message: "a move number below 4294967296",
    })?;
    let (ellipsis, rest) = if let Some(rest) = rest.strip_prefix("...") {
        (true, rest)
    } else if let Some(rest) = rest.strip_prefix('…') {
        (true, rest)
    } else if let Some(rest) = rest.strip_prefix('.') {
        (false, rest)
    } else {
        let len = rest.chars().next().map_or(0, char::len_utf8);
        return Err(Bad {
            offset: digits,
            len,
            message: expected,
        });
    };
    if rest.starts_with('.') {
        return Err(Bad {
            offset: text.len() - rest.len(),
            len: rest.bytes().take_while(|&b| b == b'.').count(),
            message: "one dot or three after a move number (12. or 12...)",
        });
    }
    Ok((number, ellipsis, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(usi: &str) -> Square {
        Square::from_usi(usi).unwrap()
    }

    fn spec(token: &str) -> MoveSpec {
        move_token(token).unwrap().spec
    }

    #[test]
    fn plain_moves_and_squares() {
        let s = spec("P-7f");
        assert_eq!(s.piece, PieceKind::Pawn);
        assert_eq!(s.to, Destination::Square(sq("7f")));
        assert_eq!(s.from, None);
        assert_eq!(s.capture, CaptureClaim::NoCapture);
        assert_eq!(s.color, None);
        assert_eq!(spec("P-76"), s);
        let bare = spec("P76");
        assert_eq!(bare.capture, CaptureClaim::Unmarked);
        assert_eq!(bare.to, s.to);
    }

    #[test]
    fn separators_and_origins() {
        let s = spec("Sx7d");
        assert_eq!(s.capture, CaptureClaim::Capture);
        let s = spec("N*5e");
        assert_eq!(s.drop, DropMark::Drop);
        assert_eq!(s.capture, CaptureClaim::Unmarked);
        let s = spec("G6h-5h");
        assert_eq!(s.from, Some(sq("6h")));
        assert_eq!(s.to, Destination::Square(sq("5h")));
        assert_eq!(spec("G68-58"), s);
        let s = spec("S72x83+");
        assert_eq!(s.from, Some(sq("7b")));
        assert_eq!(s.to, Destination::Square(sq("8c")));
        assert_eq!(s.promotion, Promotion::Promote);
        let s = spec("S7283");
        assert_eq!(s.from, Some(sq("7b")));
        assert_eq!(s.capture, CaptureClaim::Unmarked);
    }

    #[test]
    fn promotion_pieces_and_claims() {
        assert_eq!(spec("Bx2b+").promotion, Promotion::Promote);
        assert_eq!(spec("Bx2b=").promotion, Promotion::Decline);
        use PieceKind::*;
        for (token, piece) in [
            ("+Rx2b", Dragon),
            ("+B-5e", Horse),
            ("+P-5e", ProPawn),
            ("+L-5e", ProLance),
            ("+N-5e", ProKnight),
            ("+S-5e", ProSilver),
            ("T-5e", ProPawn),
            ("H-5e", Horse),
            ("D-5e", Dragon),
            ("K-5h", King),
        ] {
            assert_eq!(spec(token).piece, piece, "{token}");
        }
        assert_eq!(spec("R*5a#").check, CheckClaim::Mate);
        let m = move_token("Nx3c+#!?").unwrap();
        assert_eq!(m.text, "Nx3c+#");
        assert_eq!(m.annotation, Some("!?"));
        assert_eq!(m.spec.check, CheckClaim::Mate);
        assert_eq!(m.spec.promotion, Promotion::Promote);
        for a in ["!", "?", "!!", "??", "!?", "?!"] {
            let token = format!("P-7f{a}");
            assert_eq!(move_token(&token).unwrap().annotation, Some(a));
        }
    }

    #[test]
    fn bad_tokens_say_where_and_what() {
        // The token, where its fault is and how long, and part of what
        // was expected (empty where only the place is checked).
        let cases = [
            ("Q-5e", (0, 1), "piece letter"),
            ("+G-5e", (1, 1), ""),
            ("P-0f", (2, 2), "square"),
            ("P-7j", (2, 2), ""),
            ("P-7", (2, 1), ""),
            ("P", (1, 0), ""),
            ("P-7f!!!", (4, 3), ""),
            ("N*5e+", (4, 1), ""),
            ("N5g*5e", (3, 1), ""),
            ("Pé", (1, 2), ""),
        ];
        for (token, at, said) in cases {
            let bad = move_token(token).unwrap_err();
            assert_eq!((bad.offset, bad.len), at, "{token}");
            assert!(bad.message.contains(said), "{token}: {}", bad.message);
        }
        assert!(move_token("").is_err());
        assert!(move_token("+").is_err());
    }

    #[test]
    fn move_numbers() {
        assert_eq!(move_number("1.").unwrap(), (1, false, ""));
        assert_eq!(move_number("12...P-3d").unwrap(), (12, true, "P-3d"));
        assert_eq!(move_number("3…").unwrap(), (3, true, ""));
        assert_eq!(move_number("1.P-7f").unwrap(), (1, false, "P-7f"));
        assert_eq!(move_number("12").unwrap_err().offset, 2);
        assert_eq!(move_number("1..").unwrap_err().offset, 2);
        assert_eq!(move_number("1....").unwrap_err().offset, 4);
        assert!(move_number("99999999999.").is_err());
    }
}
