#!/usr/bin/env bash
# The programs of seed 002's comparison with Impara: the classic mutual-exclusion programs and
# stacks (bench/mutex/*.c, written from the algorithms' classic forms) and the SV-COMP programs
# of the corpus (../shared/corpus, or $SYNTH_CORPUS). Time to the verdict of `synth verify`
# (the default engine), complete verification time (plain Impact for threads) and first-IVR
# time, median of RUNS runs, beside Impara's times: measured on this machine (Impara built from
# its SV-COMP 2016 code; ">300s": no verdict in 300 s) where known, else the published ones.
# Usage: bench/mutex.sh [TIMEOUT_SECS] [RUNS]
set -uo pipefail
limit="${1:-60}"
runs="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"

corpus="${SYNTH_CORPUS:-$root/../shared/corpus}"

impara() {
  case "$1" in
    dekker) echo "7.3s" ;;
    peterson) echo "1.5s" ;;
    szymanski) echo "8.9s" ;;
    time_var_mutex) echo "2.6s" ;;
    lamport|read_write_lock|read_write_lock_bad|stack-1) echo ">300s" ;;
    stack_safe) echo "38.8s (pub.)" ;;
    stack_unsafe) echo "0.5s (pub.)" ;;
    stack-2) echo "1.0s" ;;
    lazy01) echo "32.9s" ;;
    stateful01-1) echo "1.1s" ;;
    stateful01-2) echo "0.7s" ;;
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

printf '%-18s %-13s %-26s %-26s %s\n' program impara "verify (time, verdict)" "complete (time, verdict)" "first IVR (time, verdict)"
for f in "$root"/bench/mutex/*.c "$corpus"/svcomp/pthread/{stack-1,stack-2,lazy01,stateful01-1,stateful01-2}.c; do
  name=$(basename "$f" .c)
  printf '%-18s %-13s %-26s %-26s %s\n' "$name" "$(impara "$name")" "$(measure "$f")" "$(measure "$f" --complete)" "$(measure "$f" --ivrs 1)"
done
