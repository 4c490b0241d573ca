//! `cargo fuzz run import_cloudformation`: see `dyno::fuzz::import_cloudformation`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::import_cloudformation(data));
