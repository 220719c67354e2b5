//! Small edits for the never-panic property tests: an element replaced,
//! inserted or removed, as a fuzzer or a careless editor would.

/// Applies `(at, op, item)` edits in order: op 0 replaces the element at
/// `at`, 1 inserts `item` before it, 2 removes it; `at` wraps round the
/// length (one past the end included), and an edit past the end does
/// nothing but insert.
pub fn apply<T>(items: &mut Vec<T>, edits: impl IntoIterator<Item = (usize, u8, T)>) {
    for (at, op, item) in edits {
        let at = at % (items.len() + 1);
        match op {
            0 if at < items.len() => items[at] = item,
            1 => items.insert(at, item),
            _ if at < items.len() => {
                items.remove(at);
            }
            _ => {}
        }
    }
}

#[test]
fn edits_replace_insert_and_remove() {
    let mut text: Vec<char> = "abc".chars().collect();
    let edits = [(1, 0, 'x'), (7, 1, 'y'), (5, 2, '-'), (3, 0, 'z')];
    apply(&mut text, edits);
    // x replaces b; y goes in at the end (7 wraps round to 3); 5 wraps
    // round to 0, removing a; 3 is one past the end of x c y, where there
    // is nothing to replace.
    assert_eq!(text.iter().collect::<String>(), "xcy");
    let mut empty: Vec<u8> = Vec::new();
    apply(&mut empty, [(5, 2, b'a'), (5, 0, b'a')]);
    assert!(empty.is_empty());
}
