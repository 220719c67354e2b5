use super::PieceKind;

/// The pieces one player holds in hand: a count for each of the seven kinds
/// that can be held (pawn to rook), each at most 18.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

impl Hand {
    /// A hand holding nothing.
    pub const EMPTY: Hand = Hand([0; 7]);

    /// How many pieces of `kind` are held; 0 for kinds a hand cannot hold.
    #[inline]
    pub fn count(&self, kind: PieceKind) -> u8 {
        self.0.get(kind.index()).copied().unwrap_or(0)
    }

    /// Sets the count of a hand kind. Panics if `kind` cannot be held: that is
    /// a bug in the caller, not bad input.
    #[inline]
    pub fn set(&mut self, kind: PieceKind, count: u8) {
        assert!(kind.is_hand_kind(), "{kind:?} cannot be held in hand");
        self.0[kind.index()] = count;
    }

    /// Adds a captured piece (demoted to its base kind).
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        let kind = kind.unpromote();
        self.0[kind.index()] += 1;
    }

    /// Takes one piece of `kind` for a drop. Panics if none is held.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        self.0[kind.index()] -= 1;
    }

    /// The counts of the seven kinds, pawn first (in [`PieceKind::HAND`]
    /// order).
    #[inline]
    pub(crate) fn counts(&self) -> [u8; 7] {
        self.0
    }

    /// Whether no piece at all is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 7]
    }

    /// The kinds held (count above zero), pawn first.
    pub fn kinds(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND
            .into_iter()
            .map(|kind| (kind, self.count(kind)))
            .filter(|&(_, n)| n > 0)
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline]
    pub fn covers(&self, other: &Hand) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a >= b)
    }

    /// The number of pieces held, all kinds together.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_demotes_and_remove_takes() {
        let mut hand = Hand::EMPTY;
        hand.add(PieceKind::Dragon);
        hand.add(PieceKind::Pawn);
        hand.add(PieceKind::ProPawn);
        assert_eq!(hand.count(PieceKind::Rook), 1);
        assert_eq!(hand.count(PieceKind::Pawn), 2);
        assert_eq!(hand.count(PieceKind::Dragon), 0);
        hand.remove(PieceKind::Pawn);
        assert_eq!(hand.count(PieceKind::Pawn), 1);
        assert_eq!(hand.total(), 2);
        assert!(hand.covers(&Hand::EMPTY));
        assert!(hand.covers(&hand));
        let mut more = hand;
        more.add(PieceKind::Gold);
        assert!(more.covers(&hand) && !hand.covers(&more));
        assert_eq!(
            hand.kinds().collect::<Vec<_>>(),
            vec![(PieceKind::Pawn, 1), (PieceKind::Rook, 1)]
        );
    }
}
