//! The walk of a move tree that the writers of nested variations share
//! (JKF's `forks`, Western's parentheses): each line is written along the
//! first children; the move that is a node's first child carries the
//! node's other children as forks, in order, then the node's ending as a
//! last fork when its line goes on (the game could have ended there); each
//! fork starts from the position before that move, and the line goes on
//! after them, with no recursion. A writer says what each step writes ([`Inline`]).

use crate::record::{MoveTree, NodeId};

/// What a writer writes at each step of [`walk`]. `At` is the writer's
/// state along a line (the position at least).
pub(crate) trait Inline {
    type At: Clone;
    /// Writes the move of node `id`, `at` standing before it, and moves `at`
    /// past it. `forked`: forks follow it; `goes_on`: the line has a next
    /// move or an ending after it.
    fn step(&mut self, id: NodeId, at: &mut Self::At, forked: bool, goes_on: bool);
    /// Writes the ending of `node` (nothing if it has none), `at` standing
    /// after it.
    fn ending(&mut self, node: NodeId, at: Self::At);
    /// Opens a fork (the move's `first` or a later one), `before` standing
    /// before the move that carries it; returns the state the fork starts
    /// in.
    fn open_fork(&mut self, before: &Self::At, first: bool) -> Self::At;
    /// Closes a fork.
    fn close_fork(&mut self, before: &Self::At);
    /// Closes the forks of a move, `after` standing after it, before its
    /// line goes on (if `goes_on`).
    fn close_forks(&mut self, after: &mut Self::At, goes_on: bool);
}

/// A fork on a move: a later sibling's line, or the parent's ending.
enum Fork {
    Line(NodeId),
    Ending(NodeId),
}

enum Task<A> {
    /// What follows `node` on its line: its continuation, or its ending.
    After(NodeId, A),
    /// A fork (the first or not), from the state before the forked move.
    Open(Fork, A, bool),
    Close(A),
    /// The forks of `node` are written: close them, then go on after it.
    Rest(NodeId, A, bool),
}

/// Writes the whole tree of `tree` with `writer`, from `at` at the root.
pub(crate) fn walk<W: Inline>(tree: &MoveTree, writer: &mut W, at: W::At) {
    let mut work = vec![Task::After(NodeId::ROOT, at)];
    while let Some(task) = work.pop() {
        match task {
            Task::After(node, at) => match tree.children(node).next() {
                Some(next) => line(tree, writer, next, at, &mut work),
                None => writer.ending(node, at),
            },
            Task::Open(fork, before, first) => {
                let inner = writer.open_fork(&before, first);
                work.push(Task::Close(before));
                match fork {
                    Fork::Line(first) => line(tree, writer, first, inner, &mut work),
                    Fork::Ending(node) => writer.ending(node, inner),
                }
            }
            Task::Close(before) => writer.close_fork(&before),
            Task::Rest(node, mut at, goes_on) => {
                writer.close_forks(&mut at, goes_on);
                work.push(Task::After(node, at));
            }
        }
    }
}

/// Writes a line from the move `first` along the first children, up to its
/// ending or the first move with forks; those forks and the rest of the
/// line go on the work list.
fn line<W: Inline>(
    tree: &MoveTree,
    writer: &mut W,
    first: NodeId,
    mut at: W::At,
    work: &mut Vec<Task<W::At>>,
) {
    let mut id = first;
    loop {
        let node = tree.node(id);
        let parent = node.parent.expect("a move's node has a parent");
        let mut forks = Vec::new();
        if tree.children(parent).next() == Some(id) {
            forks.extend(tree.children(parent).skip(1).map(Fork::Line));
            if tree.node(parent).ending().is_some() {
                forks.push(Fork::Ending(parent));
            }
        }
        let goes_on = tree.children(id).next().is_some() || node.ending().is_some();
        let before = (!forks.is_empty()).then(|| at.clone());
        writer.step(id, &mut at, before.is_some(), goes_on);
        if let Some(before) = before {
            work.push(Task::Rest(id, at, goes_on));
            for (index, fork) in forks.into_iter().enumerate().rev() {
                work.push(Task::Open(fork, before.clone(), index == 0));
            }
            return;
        }
        match tree.children(id).next() {
            Some(next) => id = next,
            None => return writer.ending(id, at),
        }
    }
}
