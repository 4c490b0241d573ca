//! `cargo fuzz run parse`: see `dyno::fuzz::parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::parse(data));
