//! Sorted runs in memory taken out as one sorted sequence: the runs'
//! first items are kept in a heap, the least on top, and each item taken
//! is replaced by the next of its run.

use std::cmp::Ordering;

/// Gives `each` the items of `runs`, each run sorted by `order` (which is
/// told each item's run), in that order, each with its run; of two equal
/// items, the one of the earlier run first. Stops at `each`'s first error.
pub(super) fn merge<I, E>(
    runs: Vec<Vec<I>>,
    order: impl Fn((usize, &I), (usize, &I)) -> Ordering,
    mut each: impl FnMut((usize, I)) -> Result<(), E>,
) -> Result<(), E> {
    let mut runs: Vec<std::vec::IntoIter<I>> = runs.into_iter().map(Vec::into_iter).collect();
    // Each run's next item.
    let mut heads: Vec<Option<I>> = runs.iter_mut().map(Iterator::next).collect();
    // Whether the head of run `a` goes before the head of run `b`.
    let goes_first = |heads: &[Option<I>], a: usize, b: usize| match (&heads[a], &heads[b]) {
        (Some(x), Some(y)) => order((a, x), (b, y)).then(a.cmp(&b)) == Ordering::Less,
        (x, _) => x.is_some(),
    };
    let mut heap: Vec<usize> = (0..heads.len()).filter(|&r| heads[r].is_some()).collect();
    for at in (0..heap.len() / 2).rev() {
        sift_down(&mut heap, at, |a, b| goes_first(&heads, a, b));
    }
    while let Some(&top) = heap.first() {
        let next = runs[top].next();
        let Some(item) = std::mem::replace(&mut heads[top], next) else {
            break;
        };
        if heads[top].is_none() {
            heap.swap_remove(0);
        }
        sift_down(&mut heap, 0, |a, b| goes_first(&heads, a, b));
        each((top, item))?;
    }
    Ok(())
}

/// Moves `heap[at]` down until neither child goes before it.
fn sift_down(heap: &mut [usize], mut at: usize, mut first: impl FnMut(usize, usize) -> bool) {
    loop {
        let (left, right) = (2 * at + 1, 2 * at + 2);
        let mut least = at;
        if left < heap.len() && first(heap[left], heap[least]) {
            least = left;
        }
        if right < heap.len() && first(heap[right], heap[least]) {
            least = right;
        }
        if least == at {
            return;
        }
        heap.swap(at, least);
        at = least;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_into_one_order_equal_items_by_run() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for runs_count in [0, 1, 2, 3, 7, 20] {
            // Items: (value, run, place in run); few values, so many tie.
            let runs: Vec<Vec<(u64, usize, usize)>> = (0..runs_count)
                .map(|r| {
                    let len = (next() % 50) as usize;
                    let mut run: Vec<u64> = (0..len).map(|_| next() % 10).collect();
                    run.sort();
                    run.into_iter()
                        .enumerate()
                        .map(|(i, v)| (v, r, i))
                        .collect()
                })
                .collect();
            let mut expected: Vec<_> = runs.iter().flatten().copied().collect();
            expected.sort();
            let mut got = Vec::new();
            merge(
                runs,
                |(_, a), (_, b)| a.0.cmp(&b.0),
                |(run, item)| {
                    assert_eq!(run, item.1);
                    got.push(item);
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn the_first_error_stops_the_merge() {
        let runs = vec![vec![1, 4], vec![2, 3]];
        let mut got = Vec::new();
        let result = merge(
            runs,
            |(_, a), (_, b)| a.cmp(b),
            |(_, item)| {
                got.push(item);
                if item == 2 {
                    Err("stop")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err("stop"));
        assert_eq!(got, [1, 2]);
    }
}
