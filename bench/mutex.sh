#!/usr/bin/env bash
# The classic mutual-exclusion programs of seed 002's comparison with Impara (bench/mutex/*.c,
# written from the algorithms' classic forms): time to the verdict of `synth verify` (the
# default engine), complete verification time (plain Impact for threads) and first-IVR time,
# median of RUNS runs, beside the published Impara times.
# Usage: bench/mutex.sh [TIMEOUT_SECS] [RUNS]
set -uo pipefail
limit="${1:-60}"
runs="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"

impara() {
  case "$1" in
    dekker|peterson|time_var_mutex) echo "0.1s" ;;
    lamport) echo "0.3s" ;;
    szymanski) echo "0.2s" ;;
    read_write_lock) echo "0.6-0.9s" ;;
    stack_safe) echo "38.8s" ;;
    stack_unsafe) echo "0.5s" ;;
    *) echo "-" ;;
  esac
}

# Median wall time of RUNS runs and the last verdict.
measure() {
  local times=() verdict=""
  for _ in $(seq "$runs"); do
    local start; start=$(date +%s%N)
    verdict=$("$synth" verify "$@" --timeout "$limit" 2>/dev/null | sed -n 's/^verdict: \([a-z ]*\).*/\1/p')
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  local t; t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  printf '%5d.%02ds %-15s' $((t / 1000)) $((t % 1000 / 10)) "$verdict"
}

printf '%-18s %-10s %-26s %-26s %s\n' program impara "verify (time, verdict)" "complete (time, verdict)" "first IVR (time, verdict)"
for f in "$root"/bench/mutex/*.c; do
  name=$(basename "$f" .c)
  printf '%-18s %-10s %-26s %-26s %s\n' "$name" "$(impara "$name")" "$(measure "$f")" "$(measure "$f" --complete)" "$(measure "$f" --ivrs 1)"
done
