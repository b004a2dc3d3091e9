#!/usr/bin/env bash
# A line-reading loop deployed with `synth build` (tests/programs/environment/line_lengths.c:
# fgets into a buffer of 32 bytes, the length of each line or piece of a longer one printed).
# The model of fgets branches on what the system gives; the schedule takes each call as one
# step, so the built program reads the real input. For each level Opt0-2: the build's time,
# then the native build (cc -O2) and the enforced one run RUNS times (default 5) on LINES
# lines (default 200000, of 0 to 99 bytes, reproducible); their outputs must be equal; the
# median times and ratio.
# Usage: bench/lines_build.sh            LINES=1000000 RUNS=3 bench/lines_build.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lines="${LINES:-200000}"
runs="${RUNS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# SYNTH=path uses that binary (with libenforcer_rt.a beside it) instead of building one.
if [ -z "${SYNTH:-}" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p synth -p enforcer-rt
fi
synth="${SYNTH:-$root/target/release/synth}"
src="$root/tests/programs/environment/line_lengths.c"

awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) { len = (i * 7919) % 100;
  s = ""; for (k = 0; k < len; k++) s = s sprintf("%c", 97 + (i + k) % 26); print s } }' \
  > "$work/input.txt"
cc -O2 -w -o "$work/native" "$src"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# The median wall time of RUNS runs of $1 on the input, in seconds; its output in $2.
measure() {
  local times=() start end
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$1" < "$work/input.txt" > "$2"
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | median | awk '{ printf "%.3f", $1 / 1e6 }'
}

native=$(measure "$work/native" "$work/native.out")
printf '%-6s %10s %10s %10s %7s  %s\n' level build native enforced ratio output
for opt in 0 1 2; do
  start=$(date +%s%N)
  if ! "$synth" build --opt "$opt" "$src" -o "$work/enforced$opt" \
    > "$work/build$opt.log" 2>&1; then
    printf 'Opt%-3s build failed:\n' "$opt"; cat "$work/build$opt.log"; exit 1
  fi
  build=$(( ($(date +%s%N) - start) / 1000000 ))
  enforced=$(measure "$work/enforced$opt" "$work/enforced$opt.out")
  same=$(cmp -s "$work/native.out" "$work/enforced$opt.out" && echo equal || echo DIFFERENT)
  printf 'Opt%-3s %8d.%01ds %9ss %9ss %7s  %s\n' "$opt" $((build / 1000)) $((build % 1000 / 100)) \
    "$native" "$enforced" "$(awk -v a="$enforced" -v b="$native" 'BEGIN { printf "%.2f", a / b }')" \
    "$same"
  [ "$same" = equal ] || exit 1
done
