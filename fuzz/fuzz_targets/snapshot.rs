//! Fuzz target `snapshot`: see `tickfold_fuzz::snapshot` for what it generates and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: tickfold_fuzz::snapshot::Input| {
    tickfold_fuzz::snapshot::run(input);
});
