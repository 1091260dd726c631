//! Fuzz target `hecs`: see `tickfold_fuzz::hecs` for what it generates and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: tickfold_fuzz::hecs::Input| {
    tickfold_fuzz::hecs::run(input);
});
