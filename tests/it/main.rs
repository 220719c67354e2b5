//! kifconv's integration tests, one binary: each file beside this one is a
//! module of tests, and `util/` holds the helpers they share.
//!
//! Run one module with `cargo test --test it cli::` (or any part of a test
//! name). Tests that read the shared records beside the checkout
//! (`../shared`) skip with a note when it is missing, and fail instead with
//! `KIFCONV_REQUIRE_SHARED=1` (as CI runs them). `KIFCONV_SEED=N` varies
//! the seed of every randomised test.

mod util;

mod analyze;
mod archives;
mod book;
mod book_engine;
mod book_mine;
mod charsets;
mod clearer_errors;
mod cli;
mod corpus;
mod deduction;
mod describe_resolve;
mod engine_check;
mod error_kinds;
mod fixtures;
mod headers;
mod headers_only;
mod independent;
mod jkf;
mod ki2_bench;
mod layout;
mod limits;
mod no_panic;
mod perft;
mod peta_shock;
mod positions;
mod round_trip;
mod rules;
mod safety;
mod serve;
mod serve_page;
mod sizes;
mod start;
mod train;
mod training;
mod training_cli;
mod training_read;
mod training_recode;
mod tsume;
mod tsume_extract;
mod tsume_reverse;
mod tsume_rules;
mod uniq;
mod usi_engine;
mod walk;
mod western;
