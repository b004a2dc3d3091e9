#!/usr/bin/env bash
# The corpus's boundedBuffer (apps/boundedBuffer/boundedBuffer.c): 5 producers and 5
# consumers, 10 items each, through a buffer of 3 slots with waiter counts (`p_wait`,
# `c_wait`) that the program never initialises. This script
#
#   1. builds it natively (cc -O2 -pthread) and with `synth build` (verification to the first
#      safe schedule, limit VERIFY_TIMEOUT seconds, default 60), and prints the time
#      `synth build` took;
#   2. runs each RUNS times (default 5): exit status, the median wall time and the ratio;
#   3. compares what the runs print. The items are `'a' + abs(rand()) % 26` from one shared
#      `rand()`, so which producer sends which value, and which consumer gets it, depends on
#      the schedule (two native runs differ too); what does not is the multiset of values
#      sent and received and the number of lines, which are compared.
#
#   bench/bounded_buffer.sh
#   RUNS=9 bench/bounded_buffer.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SYNTH_CORPUS:-$root/../shared/corpus}"
src="$corpus/apps/boundedBuffer/boundedBuffer.c"
runs="${RUNS:-5}"
verify_timeout="${VERIFY_TIMEOUT:-60}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# SYNTH=path uses that binary instead of building one.
if [ -z "${SYNTH:-}" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p synth
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p enforcer-rt
fi
synth="${SYNTH:-$root/target/release/synth}"

cc -O2 -pthread -w -o "$work/native" "$src"
t0=$(date +%s.%N)
if ! "$synth" build --timeout "$verify_timeout" -o "$work/synth" "$src" > "$work/build.log" 2>&1; then
  echo "synth build failed:"
  grep -v '^warning\|^  ' "$work/build.log" | sed 's/^/    /'
  exit 1
fi
t1=$(date +%s.%N)
echo "synth build: $(echo "$t1 - $t0" | bc | xargs printf '%.1f') s;" \
  "$(grep -E '^(using|built)' "$work/build.log" | tr '\n' ' ')"

median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }'; }

# Runs $1 RUNS times; prints the median wall time; every run's exit status must be 0, and
# its values (sorted) and line count go to $2.
measure() {
  local exe="$1" out="$2" times=()
  for i in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    timeout 60 "$exe" > "$work/run.out" || { echo "run $i of $exe: exit status $?" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
    { wc -l < "$work/run.out"; grep -o '[0-9]*$' "$work/run.out" | sort -n; } > "$out.$i"
  done
  printf '%s\n' "${times[@]}" | median
}

tn=$(measure "$work/native" "$work/native")
ts=$(measure "$work/synth" "$work/synth")
same=equal
for i in $(seq "$runs"); do
  cmp -s "$work/native.1" "$work/native.$i" || same=DIFFERENT
  cmp -s "$work/native.1" "$work/synth.$i" || same=DIFFERENT
done
printf '%-10s %-10s %-8s %-6s %s\n' native synth ratio lines "values and line counts"
printf '%-10s %-10s %-8s %-6s %s\n' "$tn" "$ts" "$(echo "scale=2; $ts / $tn" | bc)" \
  "$(head -1 "$work/native.1")" "$same"
[ "$same" = equal ]
