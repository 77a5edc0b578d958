//! The integration tests, one module per concern, in one test binary: each
//! binary of its own compiled the library's generic code again, which made
//! building the tests from a fresh clone take twice as long.
//!
//! The release-mode checks are ignored here and run by `.ci/run`:
//! `cargo test --release --test suite -- --ignored`.

mod alloc;
mod allowed;
mod board;
mod cli;
mod common;
mod contract;
mod cover;
mod datasets;
mod explain;
mod f_puzzles;
mod filter;
mod formats;
mod fuzz;
mod generate;
mod properties;
mod rate_contract;
mod readme;
mod relations;
mod rules;
mod rules_contract;
mod search;
mod search_contract;
mod sizes;
mod sums;
mod turns;
