#!/usr/bin/env bash
# Stateless exploration speed (the exploration issue; seed 004, Inspect's Table 1): executions,
# transitions and executions per second of `synth explore` (DPOR with sleep sets) on the
# indexer and file-system benchmarks of tests/programs/explore at Inspect's thread counts, and
# on the corpus programs it explores completely, median of RUNS runs (default 3), with one
# worker and with two (--jobs 2). Two workers may explore some executions twice (their count
# is shown), so their rate is the one-worker execution count over the two-worker time. Inspect reported 30-50 executions per second on these (its
# Table 1).
#
#   bench/explore.sh
#   RUNS=1 bench/explore.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p synth
synth="$root/target/release/synth"
runs="${RUNS:-3}"
corpus="${SYNTH_CORPUS:-$root/../shared/corpus}"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# args: label, inspect runs, synth explore arguments...
row() {
  local label="$1" inspect="$2"
  shift 2
  local out execs execs2 trans r1=() r2=()
  for _ in $(seq "$runs"); do
    out="$("$synth" explore "$@" --jobs 1 --json)"
    r1+=("$(echo "$out" | sed -E 's/.*"executions_per_second":([0-9.e+]+).*/\1/')")
    execs="$(echo "$out" | sed -E 's/.*"executions":([0-9]+).*/\1/')"
    trans="$(echo "$out" | sed -E 's/.*"transitions":([0-9]+).*/\1/')"
    out="$("$synth" explore "$@" --jobs 2 --json)"
    execs2="$(echo "$out" | sed -E 's/.*"executions":([0-9]+).*/\1/')"
    r2+=("$(echo "$out" | sed -E 's/.*"seconds":([0-9.e+-]+).*/\1/' |
      awk -v n="$execs" '{printf "%f\n", ($1 > 0) ? n / $1 : 0}')")
  done
  printf '%-34s %9s %10s %12s %10.0f %10s %10.0f\n' "$label" "$inspect" "$execs" "$trans" \
    "$(printf '%s\n' "${r1[@]}" | median)" "$execs2" "$(printf '%s\n' "${r2[@]}" | median)"
}

printf '%-34s %9s %10s %12s %10s %10s %10s\n' program inspect executions transitions 'exec/s' \
  'execs(2w)' 'exec/s(2w)'
p="$root/tests/programs/explore"
for t in 13 14 15; do
  row "indexer, $t threads" "$(( 8 ** (t - 11) ))" "$p/indexer.c" -DTHREADS=$t
done
for t in 16 18 20 22 24; do
  row "fsbench, $t threads" "$(( 2 ** (t - 13) ))" "$p/fsbench.c" -DTHREADS=$t
done
if [ -d "$corpus" ]; then
  for f in sctbench/account_ok.c sctbench/arithmetic_prog_ok.c sctbench/circular_buffer_ok.c \
           svcomp/pthread/fib_bench-1.c svcomp/pthread/triangular-1.c; do
    row "$f" - "$corpus/$f"
  done
fi
