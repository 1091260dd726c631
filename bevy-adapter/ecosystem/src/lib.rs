//! Ecosystem tests live in tests/.
