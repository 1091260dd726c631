//! The web demo (wasm32 only).
