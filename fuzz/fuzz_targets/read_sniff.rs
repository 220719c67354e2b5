//! Arbitrary bytes read with the format sniffed from the content (as the
//! binary does without `--from`): records or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifconv_fuzz::read(data, None);
});
