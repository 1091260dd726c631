#!/usr/bin/env bash
# The glue each version of the game example needs around the same game code: its lines
# (neither blank nor comments) inside `// glue: loop|interpolation|pacing` ... `// end glue`
# regions, per program, and the shared game code (examples/game-bodies/src/lib.rs) all three reuse.
#
#   bash benches/peers/count_glue.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# Prints "loop interpolation pacing" for the files given.
glue() {
  awk '
    /^[[:space:]]*\/\/ glue: / { kind = $3; next }
    /^[[:space:]]*\/\/ end glue/ { kind = ""; next }
    /^[[:space:]]*$/ || /^[[:space:]]*\/\// { next }
    kind != "" { n[kind]++ }
    END { printf "%d %d %d\n", n["loop"], n["interpolation"], n["pacing"] }
  ' "$@"
}

# Code lines of a file: neither blank nor comments (`//`, `//!`, `///`), nor the include
# attribute and allow of a shared module.
code() {
  grep -cvE '^[[:space:]]*(//.*)?$|^#!\[allow' "$1"
}

row() {
  local name=$1
  shift
  read -r l i p < <(glue "$@")
  printf '| %s | %d | %d | %d | %d |\n' "$name" "$l" "$i" "$p" "$((l + i + p))"
}

echo "| program | loop | interpolation | pacing | glue in all |"
echo "|---|---:|---:|---:|---:|"
row "tickfold (\`examples/game/main.rs\`, \`world.rs\`)" examples/game/main.rs examples/game/world.rs
row "game-loop 1.3 (\`benches/peers/examples/game_gameloop.rs\`, \`game-bodies/src/hand.rs\`)" \
  benches/peers/examples/game_gameloop.rs examples/game-bodies/src/hand.rs
row "hand-written Fiedler loop (\`benches/peers/examples/game_fiedler.rs\`, \`game-bodies/src/hand.rs\`)" \
  benches/peers/examples/game_fiedler.rs examples/game-bodies/src/hand.rs
echo
echo "Shared game code all three reuse (\`examples/game-bodies/src/lib.rs\`: components, seeding, update, figures): $(code examples/game-bodies/src/lib.rs) lines."
