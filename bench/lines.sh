#!/usr/bin/env bash
# Lines read with fgets (bench/lines/): a loop that measures and strips each line, and two
# workers that take lines under a mutex and measure them, with buffers of 64 to 1024 bytes.
# Per program and size: the verdict and wall time of `synth verify` with the default engine
# and with the explicit search alone, and the explicit search's ART nodes.
# Usage: bench/lines.sh [TIMEOUT_SECS]
set -uo pipefail
limit="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"

run() {
  local start out ms verdict nodes
  start=$(date +%s%N)
  out=$("$synth" verify "$@" --timeout "$limit" 2>&1)
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  verdict=$(printf '%s\n' "$out" | sed -n 's/^verdict: \([a-z ]*\).*/\1/p' | sed 's/ *$//')
  nodes=$(printf '%s\n' "$out" | sed -n 's/.*ART nodes: \([0-9]*\).*/\1/p')
  printf '%-14s %7d.%02ds %9s' "${verdict:-error}" $((ms / 1000)) $((ms % 1000 / 10)) "${nodes:--}"
}

printf '%-8s %5s   %-14s %9s %9s   %-14s %9s %9s\n' program buf default time nodes \
  explicit time nodes
for prog in strip workers; do
  for buf in 64 128 256 1024; do
    printf '%-8s %5d   ' "$prog" "$buf"
    run "$root/bench/lines/$prog.c" -DBUF="$buf"
    printf '   '
    run "$root/bench/lines/$prog.c" -DBUF="$buf" --engine explicit
    printf '\n'
  done
done
