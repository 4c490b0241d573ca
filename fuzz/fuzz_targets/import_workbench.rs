//! `cargo fuzz run import_workbench`: see `dyno::fuzz::import_workbench`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dyno::fuzz::import_workbench(data));
