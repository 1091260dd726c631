//! Snapshot capture benchmarks (being written).
fn main() {}
