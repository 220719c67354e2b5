//! The first byte picks a reader (KIF, KI2, CSA, USI, Western, JKF or
//! sniffing), the rest is its input; every record read is written as USI,
//! KIF, KI2, CSA and Western and must read back with the same start and
//! mainline moves.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifconv_fuzz::round_trip(data);
});
