//! Deduction by look-ahead: a KI2 move whose text fits several legal moves
//! is decided by the later moves of the record, mainline and variations.
//! The fixtures `ki2/kifconv-deduced-gold-left.ki2u` and
//! `bad/ambiguous-gold-both-survive.ki2u` cover the mainline cases; these
//! cover a variation deciding, no candidate surviving, and a last move.

use kifconv::read::{read_text, Format};

/// Golds on 6g and 6h after move 12; `▲５七金左` fits both (cshogi's
/// exporter writes it so).
const OPENING: &str = "手合割：平手
▲５六歩    △３四歩    ▲６六歩    △８四歩    ▲６八金    △８五歩
▲６七金    △６二銀    ▲５八金    △５四歩    ▲６八金寄  △１四歩
▲５七金左  △１五歩
";

fn usi(text: &str) -> (Vec<String>, Vec<String>) {
    let records = read_text(text, Format::Ki2).expect("the record reads");
    assert_eq!(records.len(), 1);
    let moves = records[0]
        .tree
        .mainline_moves()
        .map(|m| m.to_string())
        .collect();
    let warnings = records[0]
        .warnings
        .iter()
        .map(|w| w.message.clone())
        .collect();
    (moves, warnings)
}

#[test]
fn a_move_in_a_variation_decides() {
    // The mainline goes on either way; the variation of move 15 needs 6h
    // empty for the silver, so the gold came from 6h.
    let text = format!("{OPENING}▲１六歩\n\n変化：15手\n▲６八銀    △９四歩\n");
    let (moves, warnings) = usi(&text);
    assert_eq!(moves[12], "6h5g");
    assert_eq!(moves.len(), 15);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("deduced 6h5g") && warnings[0].contains("with 6g5g, move 15 (line 8"),
        "{}",
        warnings[0]
    );
}

#[test]
fn a_later_move_of_the_other_gold_decides_too() {
    // ▲６八金引 (6g6h) needs the gold on 6g kept and 6h freed.
    let text = format!("{OPENING}▲６八金引  △９四歩\n");
    let (moves, warnings) = usi(&text);
    assert_eq!(moves[12], "6h5g");
    assert_eq!(moves[14], "6g6h");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn a_later_move_that_fails_with_every_candidate_is_the_error() {
    // No gold can reach 4e whichever moved: the error is at move 15.
    let text = format!("{OPENING}▲４五金    △９四歩\n");
    let error = read_text(&text, Format::Ki2).unwrap_err();
    assert_eq!(
        (error.location.line, error.location.ply),
        (5, Some(15)),
        "{error:?}"
    );
    assert_eq!(
        error.message,
        "no 金 (KI) can move to 4e (with each of 6g5g 6h5g for move 13 on line 4, whose text fits both)"
    );
}

#[test]
fn no_candidate_surviving_is_an_error_naming_each_failure() {
    // ▲６八銀 needs 6h empty; ▲７八金 then needs a gold still on 6h.
    let text = format!("{OPENING}▲６八銀    △９四歩    ▲７八金\n");
    let error = read_text(&text, Format::Ki2).unwrap_err();
    assert_eq!(error.location.line, 4, "{error:?}");
    assert_eq!(error.location.ply, Some(13));
    assert!(
        error
            .message
            .contains("none of them lets every later move be played")
            && error
                .message
                .contains("with 6g5g, move 15 (line 5, `▲６八銀`)")
            && error
                .message
                .contains("with 6h5g, move 17 (line 5, `▲７八金`)"),
        "{}",
        error.message
    );
}

/// The last move of the record fits two: nothing after it decides, so the
/// moves before it are kept, with a warning that says the plain ambiguity.
#[test]
fn a_last_move_that_fits_two_is_left_out_with_the_plain_ambiguity() {
    let text = OPENING.replace("  △１五歩", "");
    let records = read_text(&text, Format::Ki2).unwrap();
    let record = &records[0];
    let warning = record
        .warnings
        .iter()
        .find(|w| w.message.contains("cannot be read"))
        .expect("the last move is warned about");
    assert!(
        warning
            .message
            .contains("ambiguous: 2 moves of 金 (KI) to 5g fit the text: 6g5g 6h5g"),
        "{}",
        warning.message
    );
    let plies = record.tree.mainline().count() as u32;
    assert!(
        warning
            .message
            .starts_with(&format!("move {} cannot be read", plies + 1)),
        "{}",
        warning.message
    );
    assert!(record.ending().is_none());
}

#[test]
fn ambiguous_moves_pending_together_are_decided_together() {
    // Move 15 ▲５八金 fits one gold if 6h5g was played (5g5h) and two if
    // 6g5g was (5g5h, 6h5h); move 17 ▲６八銀 needs 6h empty; move 19
    // ▲６七金上 needs 6g empty and a gold below it. Only 6g5g, then 6h5h,
    // lets all of them be played: decided while both are pending.
    let text = format!("{OPENING}▲５八金    △９四歩    ▲６八銀    △９五歩    ▲６七金上  △１六歩\n");
    let (moves, warnings) = usi(&text);
    assert_eq!(
        moves[12..],
        ["6g5g", "1d1e", "6h5h", "9c9d", "7i6h", "9d9e", "5h6g", "1e1f"]
    );
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("deduced 6g5g"), "{}", warnings[0]);
    assert!(warnings[1].contains("deduced 6h5h"), "{}", warnings[1]);
}

#[test]
fn many_ambiguous_moves_each_decided_soon_after_leave_nothing_pending() {
    // After ▲５七金左 ▲６八金 (6h5g, 6g6h) the golds stand on 6h and 5g;
    // then ten times ▲６七金 (6h6g or 5g6g) followed by ▲６八金, which
    // only the gold from 6h leaves room for. Far more ambiguous moves than
    // the 8 that may be pending at once: each is decided before the next.
    let mut text = format!("{OPENING}▲６八金    △４二玉\n");
    for _ in 0..10 {
        text.push_str("▲６七金    △５一玉    ▲６八金    △４二玉\n");
    }
    let (moves, warnings) = usi(&text);
    assert_eq!(moves.len(), 16 + 40);
    assert_eq!(warnings.len(), 11, "{warnings:?}");
    assert!(moves[16..]
        .chunks(4)
        .all(|c| c[0] == "6h6g" && c[2] == "6g6h"));
    assert!(warnings[10].contains("deduced 6h6g"), "{}", warnings[10]);
}
