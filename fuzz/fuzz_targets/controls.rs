//! Fuzz target `controls`: see `tickfold_fuzz::controls` for what it generates and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: tickfold_fuzz::controls::Input| {
    tickfold_fuzz::controls::run(input);
});
