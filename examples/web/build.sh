#!/usr/bin/env bash
# Builds the web demo into static files: examples/web/www/ (index.html, the .js glue and the
# .wasm). Serve them with `python3 -m http.server -d examples/web/www 8000` and open
# http://localhost:8000/. Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at the
# version of the wasm-bindgen crate in Cargo.lock (`.ci/web` installs both).
set -euo pipefail
cd "$(dirname "$0")/../.."
target_dir="${CARGO_TARGET_DIR:-target}"
cargo build --release --target wasm32-unknown-unknown -p tickfold-web-demo
wasm-bindgen --target web --no-typescript --out-dir examples/web/www \
  "$target_dir/wasm32-unknown-unknown/release/tickfold_web_demo.wasm"
echo "built: $(stat -c %s examples/web/www/tickfold_web_demo_bg.wasm) bytes of .wasm in examples/web/www/"
