//! Zobrist keys: one random number per (color, kind, square), per (color,
//! hand kind, count) and for the side to move. Two positions with the same
//! board, hands and side to move have the same key, which is what 千日手
//! (fourfold repetition) compares.

use crate::{Color, PieceKind, Square};

/// splitmix64: a small, well-mixed generator, run at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

pub(crate) const MAX_HAND: usize = 18;

struct Keys {
    pieces: [[[u64; 81]; 14]; 2],
    hands: [[[u64; MAX_HAND + 1]; 7]; 2],
    side: u64,
}

static KEYS: Keys = {
    let mut keys = Keys {
        pieces: [[[0; 81]; 14]; 2],
        hands: [[[0; MAX_HAND + 1]; 7]; 2],
        side: 0,
    };
    let mut state = 0x6b69_6663_6f6e_7631; // "kifconv1"
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let mut s = 0;
            while s < 81 {
                let (next, value) = splitmix(state);
                state = next;
                keys.pieces[c][k][s] = value;
                s += 1;
            }
            k += 1;
        }
        let mut k = 0;
        while k < 7 {
            // Count 0 hashes to 0 so that an empty hand adds nothing.
            let mut n = 1;
            while n <= MAX_HAND {
                let (next, value) = splitmix(state);
                state = next;
                keys.hands[c][k][n] = value;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    keys.side = side;
    keys
};

#[inline]
pub(crate) fn piece(color: Color, kind: PieceKind, sq: Square) -> u64 {
    KEYS.pieces[color.index()][kind.index()][sq.index()]
}

#[inline]
pub(crate) fn hand(color: Color, kind: PieceKind, count: u8) -> u64 {
    KEYS.hands[color.index()][kind.index()][usize::from(count).min(MAX_HAND)]
}

/// XORed in when White is to move.
#[inline]
pub(crate) fn white_to_move() -> u64 {
    KEYS.side
}
