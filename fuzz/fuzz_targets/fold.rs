//! Fuzz target `fold`: see `tickfold_fuzz::fold` for what it generates and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: tickfold_fuzz::fold::Input| {
    tickfold_fuzz::fold::run(input);
});
