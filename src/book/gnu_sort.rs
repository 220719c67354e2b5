//! An unstable sort that leaves equal elements where the GNU C++ library's
//! `std::sort` leaves them, so that a book written by an engine built with
//! it can be reproduced byte for byte. The algorithm is the textbook
//! introsort: median-of-three quicksort down to runs of 16, then one
//! insertion sort over the whole; heapsort when the quicksort goes too
//! deep.

/// Runs shorter than this are left to the final insertion sort.
const THRESHOLD: usize = 16;

/// Sorts `v` so that no element belongs `before` one ahead of it, as the
/// GNU library's `std::sort(first, last, comp)` with `comp = before`.
pub fn sort<T: Copy>(v: &mut [T], before: impl Fn(&T, &T) -> bool) {
    if v.len() < 2 {
        return;
    }
    let depth = 2 * (usize::BITS - 1 - v.len().leading_zeros()) as usize;
    quicksort(v, depth, &before);
    final_insertion(v, &before);
}

/// Partitions until every run is at most [`THRESHOLD`] long, each run's
/// elements all belonging before the next run's.
fn quicksort<T: Copy>(mut v: &mut [T], mut depth: usize, before: &impl Fn(&T, &T) -> bool) {
    while v.len() > THRESHOLD {
        if depth == 0 {
            heapsort(v, before);
            return;
        }
        depth -= 1;
        let cut = partition_around_median(v, before);
        let (left, right) = v.split_at_mut(cut);
        quicksort(right, depth, before);
        v = left;
    }
}

/// Moves the median of the second, middle and last elements to the front
/// and partitions the rest around it; returns where the right part starts.
fn partition_around_median<T: Copy>(v: &mut [T], before: &impl Fn(&T, &T) -> bool) -> usize {
    let len = v.len();
    let (a, b, c) = (1, len / 2, len - 1);
    let median = if before(&v[a], &v[b]) {
        if before(&v[b], &v[c]) {
            b
        } else if before(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if before(&v[a], &v[c]) {
        a
    } else if before(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(0, median);
    // Hoare's scheme with the pivot at index 0 as a sentinel on both ends.
    let mut first = 1;
    let mut last = len;
    loop {
        while before(&v[first], &v[0]) {
            first += 1;
        }
        last -= 1;
        while before(&v[0], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

/// Insertion sort of the first 16, then of the rest against them.
fn final_insertion<T: Copy>(v: &mut [T], before: &impl Fn(&T, &T) -> bool) {
    if v.len() > THRESHOLD {
        insertion(&mut v[..THRESHOLD], before);
        for i in THRESHOLD..v.len() {
            shift_down(v, i, before);
        }
    } else {
        insertion(v, before);
    }
}

/// Insertion sort: an element that belongs before the first goes straight
/// to the front; the others are shifted down past the ones they precede.
fn insertion<T: Copy>(v: &mut [T], before: &impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        if before(&v[i], &v[0]) {
            let x = v[i];
            v.copy_within(0..i, 1);
            v[0] = x;
        } else {
            shift_down(v, i, before);
        }
    }
}

/// Moves `v[i]` down past the elements it belongs before (some element
/// earlier must stop it).
fn shift_down<T: Copy>(v: &mut [T], mut i: usize, before: &impl Fn(&T, &T) -> bool) {
    let x = v[i];
    while before(&x, &v[i - 1]) {
        v[i] = v[i - 1];
        i -= 1;
    }
    v[i] = x;
}

/// Heapsort as the library's partial sort over the whole range: build a
/// max-heap, then pop the top to the end repeatedly.
fn heapsort<T: Copy>(v: &mut [T], before: &impl Fn(&T, &T) -> bool) {
    let len = v.len();
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let x = v[parent];
        adjust_heap(v, parent, len, x, before);
        if parent == 0 {
            break;
        }
        parent -= 1;
    }
    let mut end = len;
    while end > 1 {
        end -= 1;
        let x = v[end];
        v[end] = v[0];
        adjust_heap(v, 0, end, x, before);
    }
}

/// Sifts the hole at `hole` down to a leaf along the larger children, then
/// lets `x` rise from there to its place.
fn adjust_heap<T: Copy>(
    v: &mut [T],
    mut hole: usize,
    len: usize,
    x: T,
    before: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if before(&v[child], &v[child - 1]) {
            child -= 1;
        }
        v[hole] = v[child];
        hole = child;
    }
    if len.is_multiple_of(2) && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && before(&v[parent], &x) {
        v[hole] = v[parent];
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    v[hole] = x;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_short_runs_stable() {
        // Pairs (key, tag) sorted by key descending.
        let mut v: Vec<(i32, usize)> = [3, 1, 3, 2, 1, 3].iter().copied().zip(0..).collect();
        sort(&mut v, |a, b| a.0 > b.0);
        assert_eq!(v, [(3, 0), (3, 2), (3, 5), (2, 3), (1, 1), (1, 4)]);
    }

    #[test]
    fn sorts_long_runs_and_heaps() {
        let mut state = 7u64;
        let mut v: Vec<u32> = (0..1000)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                (state >> 40) as u32 % 50
            })
            .collect();
        let mut expected = v.clone();
        expected.sort_by(|a, b| b.cmp(a));
        sort(&mut v, |a, b| a > b);
        assert_eq!(v, expected);
        let mut h = expected.clone();
        h.reverse();
        heapsort(&mut h, &|a: &u32, b: &u32| a > b);
        assert_eq!(h, expected);
    }
}
