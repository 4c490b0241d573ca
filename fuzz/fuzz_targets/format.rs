//! `cargo fuzz run format`: see `dyno::fuzz::format`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::format(data));
