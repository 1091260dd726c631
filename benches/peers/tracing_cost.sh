#!/usr/bin/env bash
# The cost of tickfold's `tracing` feature with no subscriber installed: callgrind's
# instructions per frame of the fold, built without and with `--features tracing` (one run
# of this script, the same bench and loops), side by side. Writes
# benches/peers/tracing_cost.md, which the report (BENCHMARKS.md, section 4) includes.
#
#   bash benches/peers/tracing_cost.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

bench=(cargo run --quiet --release --manifest-path benches/peers/Cargo.toml)
off=$("${bench[@]}" -- --callgrind)
on=$("${bench[@]}" --features tracing -- --callgrind)

# The counts of the first row (the inlinable table) whose first cell is $1, in $2.
counts() {
  printf '%s\n' "$2" | grep -F -m1 "| $1 |" | awk -F'|' '{ print $3, $4, $5 }'
}

row() {
  local name=$1
  read -r a0 a1 a8 < <(counts "$name" "$off")
  read -r b0 b1 b8 < <(counts "$name" "$on")
  awk -v n="$name" -v a0="$a0" -v a1="$a1" -v a8="$a8" -v b0="$b0" -v b1="$b1" -v b8="$b8" '
    function d(a, b) { return sprintf("%+.1f (%+.1f %%)", b - a, 100 * (b - a) / a) }
    BEGIN {
      printf "| %s | %s / %s / %s | %s / %s / %s | %s / %s / %s |\n",
        n, a0, a1, a8, b0, b1, b8, d(a0, b0), d(a1, b1), d(a8, b8)
    }'
}

{
  echo "tickfold-core's \`tracing\` feature (a span per step, the step's reports as events;"
  echo "\`guide::profiling\`) with no subscriber installed, against the same build without"
  echo "the feature: instructions per frame at 0 / 1 / 8 updates + render, counted as in"
  echo "section 1 (callgrind, inlinable loops), both builds in one run of:"
  echo
  echo '```sh'
  echo 'bash benches/peers/tracing_cost.sh'
  echo '```'
  echo
  echo "| loop | feature off | feature on, no subscriber | difference |"
  echo "|---|---|---|---|"
  row 'tickfold `advance_into` (in place)'
  row 'tickfold `step` (by value)'
  echo
  echo "Without a subscriber the step loads \`tracing\`'s maximum level once (off) and skips the"
  echo "span and the events; the differences are that load and the code layout around it. The"
  echo "\`update\` and \`render\` spans are opened by \`LoopState::as_of\` and \`hand_on\`, which"
  echo "these loops do not call: one more load each. Without the feature the step is the same"
  echo "code (the feature-off row is section 1's)."
} > benches/peers/tracing_cost.md
cat benches/peers/tracing_cost.md
