//! Criterion bench of the step (filled in next).
fn main() {}
