//! `tsume check` and the composition rules: one fixture per rule (made by
//! us; each finding confirmed with cshogi's mate search and YaneuraOu's
//! mate engine), its verdict, exit code and the exact finding with its ply.

use crate::util::bin::{run, stdout};

/// Checks `fixtures/tsume/<name>`: the exit code, the verdict, and the
/// only line that names `rule` is `finding`.
fn assert_finding(name: &str, code: i32, verdict: &str, rule: &str, finding: &str) {
    let path = format!("fixtures/tsume/{name}");
    let out = run(&["tsume", "check", &path]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(code), "{name}: {text}");
    assert!(
        text.starts_with(&format!("{path}: game 1: {verdict}\n")),
        "{name}: {text}"
    );
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(rule)).collect();
    assert_eq!(lines, [finding], "{name}: {text}");
}

#[test]
fn yozume_at_a_middle_move_is_unsound() {
    assert_finding(
        "unsound-yozume.kifu",
        1,
        "unsound",
        "余詰",
        "  unsound: ply 3: 余詰 (another move mates in 3, as the answer does): ▲８三金 (G*8c)",
    );
}

#[test]
fn a_faster_mate_is_hayazume_and_unsound() {
    assert_finding(
        "unsound-hayazume.kifu",
        1,
        "unsound",
        "早詰",
        "  unsound: ply 1: 早詰 (another move mates in 3, the answer in 5): ▲４三龍 (4a4c)",
    );
}

#[test]
fn another_mate_on_the_last_move_is_tolerated() {
    assert_finding(
        "note-last-move-yozume.kifu",
        0,
        "sound",
        "余詰",
        "  note: ply 5: 最終手余詰 (other mates on the last move, tolerated): ▲８二銀成 (9c8b+)",
    );
}

#[test]
fn a_drop_at_another_distance_is_higentei() {
    assert_finding(
        "flaw-higentei-drop.kifu",
        0,
        "sound with flaws",
        "非限定",
        "  flaw: ply 3: 非限定 (the same move at another distance or promotion mates as fast): ▲１三飛 (R*1c)",
    );
}

#[test]
fn an_optional_promotion_is_higentei() {
    assert_finding(
        "flaw-higentei-promotion.kifu",
        0,
        "sound with flaws",
        "非限定",
        "  flaw: ply 1: 非限定 (the same move at another distance or promotion mates as fast): ▲６三角不成 (8e6c)",
    );
}

#[test]
fn two_attacker_moves_in_the_other_order_are_tejun_zengo() {
    // The problem is unsound besides (a knight's 余詰, the captured silver
    // left in hand); the swapped horses are named apart from the 余詰.
    assert_finding(
        "flaw-tejun-zengo.kifu",
        1,
        "unsound",
        "手順前後",
        "  flaw: ply 1: 手順前後 (the answer's move 3 played first reaches the same position in as many): ▲２二馬上 (4d2b)",
    );
}

#[test]
fn a_defence_as_long_leaving_nothing_is_hendou() {
    assert_finding(
        "flaw-hendou.kifu",
        0,
        "sound with flaws",
        "変同",
        "  flaw: ply 2: 変同 (another defence lasts 4 too, leaving nothing in hand): △２一玉 (1b2a)",
    );
}

#[test]
fn a_longer_defence_is_henchou_and_unsound() {
    assert_finding(
        "unsound-henchou.kifu",
        1,
        "unsound",
        "変長",
        "  unsound: ply 2: 変長 (another defence lasts 4, the answer's 2: not the main line): △８二銀 (9a8b)",
    );
}

#[test]
fn a_detour_back_to_the_answer_is_not_yozume() {
    assert_finding(
        "note-ukai.kifu",
        0,
        "sound",
        "迂回",
        "  note: ply 1: 迂回 (mates in 5 by a detour back to the answer's position after ply 2, not 余詰): ▲５三金 (G*5c)",
    );
}
