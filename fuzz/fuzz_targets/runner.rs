//! Fuzz target `runner`: see `tickfold_fuzz::runner` for what it generates and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: tickfold_fuzz::runner::Input| {
    tickfold_fuzz::runner::run(input);
});
