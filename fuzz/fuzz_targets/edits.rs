//! `cargo fuzz run edits`: see `dyno::fuzz::edits`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::edits(data));
