//! Arbitrary bytes read as Usi (decode, parse, resolve): records or an
//! error, never a panic; every record replays legally; every error renders.
#![no_main]

use kifconv::read::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifconv_fuzz::read(data, Some(Format::Usi));
});
