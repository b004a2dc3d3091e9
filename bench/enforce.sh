#!/usr/bin/env bash
# Enforcement overhead (the enforcer issue; seed 002's evaluation): useful iterations (items
# added or removed) in BENCH_SECONDS seconds (default 2) of the producer-consumer program
# bench/enforce/pc_throughput.c, unconstrained (plain cc) against `synth build` at Opt0, Opt1
# and Opt2, for 1+1 and 2+2 threads and buffers of 5 and 1000: the median of RUNS runs
# (default 5) and the ratio to the unconstrained median of the same run. One proof (the first
# safe IVR) per configuration; the schedules of all levels come from it. Each row's proof uses
# the verifier's --quantum (how many loop rounds a thread runs in the proof's schedule before
# the next thread's turn; 1: the rounds alternate) and --pair-turns (a producer and a consumer
# alternate for that many turns each before the next pair; 0: round robin over the four
# threads):
#
#   1+1, buffer 5       QUANTUM (default 8), no pairing (two threads)
#   1+1, buffer 1000    QUANTUM_1_1000 (default 32): eight rounds per turn gave 0.71-0.76 of
#                       the unconstrained throughput, 32 gave 0.90-1.00; the proof takes 36 s
#   2+2, buffer 5       QUANTUM_2_5 (default 8), PAIR_TURNS_2_5 (default 0): a producer
#                       hands over after five items whatever the quantum; the proof takes
#                       1.5 s (with PAIR_TURNS_2_5=8, 20 s: faster with the enforcer before
#                       commit c36c7fa, which put the threads out of turn to sleep; about the
#                       same now)
#   2+2, buffer 1000    QUANTUM_2_1000 (default 64), PAIR_TURNS_2_1000 (default 0): a turn
#                       is a quantum of rounds, and only long turns amortise the hand-offs; the
#                       proof takes about 20 minutes and `synth build --opt 2` about 5 minutes
#                       and 3.4 GB (at quantum 8: 3 s; 16: 12 s; 32: 90 s)
#
# The verifier's timeout is raised to VERIFY_TIMEOUT, default 3600 s. With IVRS=DIR, a file
# DIR/ivr-<threads>-<buffer>.json (from `synth verify --out`, for that configuration's proof)
# is used instead of verifying again (the quantum-64 proof takes 20 minutes); a proof made
# because the file is missing is saved there for the next run.
#
# With BUSY=N, N busy loops (other processes) run while the programs are measured, not while
# they are built: BUSY=2 on a 2-core machine measures a deployment whose cores other processes
# hold.
#
#   bench/enforce.sh            # the table (about half an hour)
#   RUNS=3 BENCH_SECONDS=1 QUANTUM_2_1000=8 bench/enforce.sh   # a few minutes
#   QUANTUM=1 QUANTUM_1_1000=1 bench/enforce.sh  # 1+1 schedules that alternate every round
#   IVRS=DIR BUSY=2 bench/enforce.sh             # the same proofs, every core busy
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p synth -p enforcer-rt
synth="$root/target/release/synth"
runs="${RUNS:-5}"
quantum="${QUANTUM:-8}"
quantum_1_1000="${QUANTUM_1_1000:-32}"
quantum_2_5="${QUANTUM_2_5:-8}"
pair_turns_2_5="${PAIR_TURNS_2_5:-0}"
quantum_2_1000="${QUANTUM_2_1000:-64}"
pair_turns_2_1000="${PAIR_TURNS_2_1000:-0}"
verify_timeout="${VERIFY_TIMEOUT:-3600}"
busy="${BUSY:-0}"
export BENCH_SECONDS="${BENCH_SECONDS:-2}"
work="$(mktemp -d)"
loops=()
stop_busy() {
  if [ "${#loops[@]}" -gt 0 ]; then kill "${loops[@]}" 2>/dev/null || true; fi
  loops=()
}
trap 'stop_busy; rm -rf "$work"' EXIT
src="$root/bench/enforce/pc_throughput.c"
timer="$root/bench/enforce/timer.c"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { # exe -> median useful iterations (beside BUSY busy loops)
  for _ in $(seq "$busy"); do
    sh -c 'while :; do :; done' &
    loops+=($!)
  done
  for _ in $(seq "$runs"); do "$1" | awk '/^useful/ {print $2}'; done | median
  stop_busy
}

printf '%-8s %-6s %14s %14s %14s %14s %8s %8s %8s\n' threads buffer unconstrained Opt0 Opt1 Opt2 Opt0/u Opt1/u Opt2/u
for t in 1 2; do
  for n in 5 1000; do
    cc -O2 -pthread -DTHREADS="$t" -DN="$n" "$src" "$timer" -o "$work/plain"
    q="$quantum" k=0
    if [ "$t" = 1 ] && [ "$n" = 1000 ]; then q="$quantum_1_1000"; fi
    if [ "$t" = 2 ] && [ "$n" = 5 ]; then q="$quantum_2_5" k="$pair_turns_2_5"; fi
    if [ "$t" = 2 ] && [ "$n" = 1000 ]; then q="$quantum_2_1000" k="$pair_turns_2_1000"; fi
    ivr="${IVRS:-}/ivr-$t-$n.json"
    if [ -z "${IVRS:-}" ] || [ ! -f "$ivr" ]; then
      "$synth" verify "$src" -DTHREADS="$t" -DN="$n" --ivrs 1 --timeout "$verify_timeout" \
        --quantum "$q" --pair-turns "$k" --out "$work/ivr-$t-$n" >/dev/null || true
      if [ -n "${IVRS:-}" ] && [ -f "$work/ivr-$t-$n/ivr-001.json" ]; then
        mkdir -p "$IVRS"
        cp "$work/ivr-$t-$n/ivr-001.json" "$ivr"
      else
        ivr="$work/ivr-$t-$n/ivr-001.json"
      fi
    fi
    u=$(measure "$work/plain")
    row=()
    for o in 0 1 2; do
      "$synth" build "$src" -DTHREADS="$t" -DN="$n" --ivr "$ivr" --opt "$o" -o "$work/o$o" \
        --cflag "$timer" >/dev/null
      row+=("$(measure "$work/o$o")")
    done
    awk -v t="$t+$t" -v n="$n" -v u="$u" -v a="${row[0]}" -v b="${row[1]}" -v c="${row[2]}" \
      'BEGIN { printf "%-8s %-6s %14d %14d %14d %14d %8.2f %8.2f %8.2f\n", t, n, u, a, b, c, a/u, b/u, c/u }'
  done
done
