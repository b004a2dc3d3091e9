#!/usr/bin/env bash
# Counted loops: tests/programs/idioms/counted_rounds.c (two threads, ROUNDS rounds each of a
# mutex-protected invariant) for ROUNDS from 10 to 10^6. Per ROUNDS: the verdict and wall time
# of `synth verify` (the default engine), the time of `synth build` (verification to the
# first safe IVR, schedule, instrumentation, compilation), and the run time of the enforced
# build against the same program compiled by `cc -O2` (median of RUNS runs of each, and the
# ratio). The counters of the loops are left out of the explicit search's states, so the
# first three columns should not grow with ROUNDS; the runs do.
# Usage: bench/rounds.sh [TIMEOUT_SECS] [RUNS]
set -uo pipefail
limit="${1:-60}"
runs="${2:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"
export SYNTH_ENFORCER_LIB="${SYNTH_ENFORCER_LIB:-$root/target/release/libenforcer_rt.a}"
prog="$root/tests/programs/idioms/counted_rounds.c"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall milliseconds of a command (its output discarded).
ms() {
  local start; start=$(date +%s%N)
  "$@" > /dev/null 2>&1
  echo $(( ($(date +%s%N) - start) / 1000000 ))
}

# Median of RUNS timings of a command, in milliseconds.
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do times+=("$(ms "$@")"); done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

secs() { printf '%d.%02d' $(($1 / 1000)) $(($1 % 1000 / 10)); }

printf '%9s %-16s %9s %9s %10s %10s %7s\n' rounds verdict verify build native enforced ratio
for rounds in 10 100 1000 100000 1000000; do
  start=$(date +%s%N)
  out=$("$synth" verify "$prog" -DROUNDS="$rounds" --timeout "$limit" 2>&1)
  verify=$(( ($(date +%s%N) - start) / 1000000 ))
  verdict=$(printf '%s\n' "$out" | sed -n 's/^verdict: \([a-z ]*\).*/\1/p' | sed 's/ *$//')
  build=$(ms "$synth" build "$prog" -DROUNDS="$rounds" --timeout "$limit" -o "$work/enforced")
  cc -O2 -DROUNDS="$rounds" "$prog" -o "$work/native" -lpthread || exit 2
  if [ ! -x "$work/enforced" ]; then
    printf '%9d %-16s %8ss %9s %10s %10s %7s\n' "$rounds" "${verdict:-error}" \
      "$(secs "$verify")" "failed" - - -
    continue
  fi
  native=$(median_ms "$work/native")
  enforced=$(median_ms "$work/enforced")
  ratio=$(awk -v e="$enforced" -v n="$native" 'BEGIN { printf "%.1f", (n > 0 ? e / n : 0) }')
  printf '%9d %-16s %8ss %8ss %9ss %9ss %6sx\n' "$rounds" "${verdict:-error}" \
    "$(secs "$verify")" "$(secs "$build")" "$(secs "$native")" "$(secs "$enforced")" "$ratio"
  rm -f "$work/enforced"
done
