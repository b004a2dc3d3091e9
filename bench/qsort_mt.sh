#!/usr/bin/env bash
# The corpus's qsort_mt (apps/qsort_mt/qsort_mt.c) as its README runs it: `-n 32 -f 4 -h 2
# -v` sorts 32 values of the unseeded `rand()` with 2 worker threads and checks the result.
# This script builds it natively (cc -O2 -pthread) and with `synth build --max-threads
# MAX_THREADS` (default 4; verification to the first safe schedule, limit VERIFY_TIMEOUT
# seconds, default 60), prints the time `synth build` took, runs each build RUNS times
# (default 5) and prints the median wall time, the ratio, and whether every run ended with
# status 0 and printed the same as the native run on stdout. It also says what the enforced
# runs wrote to stderr: where the schedule refuses the pool's creations for the thread bound,
# qsort_mt says so and sorts on one thread.
#
#   bench/qsort_mt.sh
#   MAX_THREADS=7 RUNS=9 bench/qsort_mt.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SYNTH_CORPUS:-$root/../shared/corpus}"
src="$corpus/apps/qsort_mt/qsort_mt.c"
args=(-n 32 -f 4 -h 2 -v)
runs="${RUNS:-5}"
verify_timeout="${VERIFY_TIMEOUT:-60}"
max_threads="${MAX_THREADS:-4}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# SYNTH=path uses that binary instead of building one.
if [ -z "${SYNTH:-}" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p synth
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p enforcer-rt
fi
synth="${SYNTH:-$root/target/release/synth}"

cc -O2 -pthread -w -fpermissive -o "$work/native" "$src" 2>/dev/null ||
  cc -O2 -pthread -w -o "$work/native" "$src"
t0=$(date +%s.%N)
if ! "$synth" build --max-threads "$max_threads" --timeout "$verify_timeout" \
  -o "$work/synth" "$src" -- "${args[@]}" > "$work/build.log" 2>&1; then
  echo "synth build failed:"
  grep -v '^warning\|^  ' "$work/build.log" | sed 's/^/    /'
  exit 1
fi
t1=$(date +%s.%N)
echo "synth build --max-threads $max_threads: $(echo "$t1 - $t0" | bc | xargs printf '%.1f') s;" \
  "$(grep -E '^(using|built)' "$work/build.log" | tr '\n' ' ')"

median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }'; }

# Runs $1 RUNS times; prints the median wall time; every run's exit status must be 0, and
# its stdout goes to $2.N, its stderr to $2.err.
measure() {
  local exe="$1" out="$2" times=()
  for i in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    timeout 60 "$exe" "${args[@]}" > "$out.$i" 2> "$out.err" ||
      { echo "run $i of $exe: exit status $?" >&2; cat "$out.err" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
  done
  printf '%s\n' "${times[@]}" | median
}

tn=$(measure "$work/native" "$work/native")
ts=$(measure "$work/synth" "$work/synth")
same=equal
for i in $(seq "$runs"); do
  cmp -s "$work/native.1" "$work/synth.$i" || same=DIFFERENT
done
printf '%-10s %-10s %-8s %s\n' native synth ratio "stdout"
printf '%-10s %-10s %-8s %s\n' "$tn" "$ts" "$(echo "scale=2; $ts / $tn" | bc)" "$same"
echo "stderr of the enforced runs: $(tr '\n' ' ' < "$work/synth.err")"
[ "$same" = equal ]
