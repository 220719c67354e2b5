//! A position built from the bytes (see `kifconv_fuzz::movegen`): when it
//! is valid, `legal_moves()` and `is_legal()` agree on every move, every
//! generated move plays without leaving the king in check, `candidates()`
//! lists only legal moves, and flipping the position flips its moves.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifconv_fuzz::movegen(data);
});
