//! `cargo fuzz run check`: see `dyno::fuzz::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::check(data));
