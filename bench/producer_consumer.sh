#!/usr/bin/env bash
# Producer-consumer benchmark of seed 002 (Sect. 5, "Infeasible complete verification"): time
# and peak memory to the verdict of `synth verify` (the default engine; `safe` is a complete
# ART the checker accepted), to the first IVR (--ivrs 1) and to a complete ART of plain Impact
# for threads (--complete, the paper's ImparaC baseline) for 1+1, 2+2 and 4+4 threads and
# buffer sizes 5 and 1000. Median of RUNS runs.
# The paper's ImparaIMC needed 4 h 29 min 53 s for the first IVR of 4+4 and ImparaC did not
# finish complete verification in 72 h.
# Usage: bench/producer_consumer.sh [COMPLETE_TIMEOUT_SECS] [RUNS]
set -uo pipefail
limit="${1:-300}"
runs="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"
prog="$root/examples/producer_consumer.c"

# Runs one configuration RUNS times; prints "median-seconds peak-MiB verdict".
measure() {
  local times=() mems=() verdict=""
  for _ in $(seq "$runs"); do
    local log; log=$(mktemp)
    local start; start=$(date +%s%N)
    local out
    if [ -x /usr/bin/time ]; then
      out=$(/usr/bin/time -f '%M' -o "$log" "$synth" verify "$prog" "$@" 2>/dev/null | tail -2)
      mems+=($(( $(tail -1 "$log") / 1024 )))
    else
      out=$("$synth" verify "$prog" "$@" 2>/dev/null | tail -2)
      mems+=(0)
    fi
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
    verdict=$(printf '%s\n' "$out" | sed -n 's/^verdict: \([a-z ]*\).*/\1/p')
    rm -f "$log"
  done
  local t m
  t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  m=$(printf '%s\n' "${mems[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  printf '%8d.%03ds %7s MiB  %s' $((t / 1000)) $((t % 1000)) "$m" "$verdict"
}

printf '%-8s %-6s %-40s %-40s %s\n' threads buffer "verify (time, peak memory, verdict)" "first IVR (time, peak memory)" "plain Impact (time, peak memory, verdict)"
for threads in 1 2 4; do
  for n in 5 1000; do
    verify=$(measure -DTHREADS=$threads -DN=$n --timeout "$limit")
    first=$(measure -DTHREADS=$threads -DN=$n --ivrs 1 --timeout "$limit")
    full=$(measure -DTHREADS=$threads -DN=$n --complete --timeout "$limit")
    printf '%-8s %-6s %-40s %-40s %s\n' "$threads+$threads" "$n" "$verify" "$first" "$full"
  done
done
