#!/usr/bin/env bash
# The everyday pthreads programs of tests/programs/idioms (one per idiom, with known verdicts
# in its verdicts.tsv): `synth verify` with the default engine on each, with the verdict, the
# time to the first safe IVR and the total time, and whether the verdict agrees (a safe
# program `safe`, a buggy one `partially safe` or `unsafe`). Flags a wrong verdict loudly.
# Usage: bench/idioms.sh [TIMEOUT_SECS]
set -uo pipefail
limit="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"
dir="$root/tests/programs/idioms"
printf '%-24s %-8s %-16s %9s %8s %s\n' program expected verdict first-ivr time agrees
agree=0; wrong=0; total=0
while IFS=$'\t' read -r prog expected _; do
  case "$prog" in \#*|"") continue ;; esac
  total=$((total + 1))
  start=$(date +%s%N)
  out=$(cd "$dir" && timeout $((limit + 30)) "$synth" verify "$prog" --timeout "$limit" 2>&1)
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  v=$(printf '%s\n' "$out" | sed -n 's/^verdict: \([a-z ]*\).*/\1/p' | sed 's/ *$//')
  first=$(printf '%s\n' "$out" | sed -n 's/^first safe IVR: \([^,]*\),.*/\1/p' | tr -d ' ')
  mark=no
  case "$expected:$v" in
    safe:safe|unsafe:"partially safe"|unsafe:unsafe) mark=yes; agree=$((agree + 1)) ;;
    safe:"partially safe"|safe:unsafe|unsafe:safe) mark="WRONG"; wrong=$((wrong + 1)) ;;
  esac
  printf '%-24s %-8s %-16s %9s %5d.%01ds %s\n' "$prog" "$expected" "${v:-error}" "${first:--}" \
    $((ms / 1000)) $((ms % 1000 / 100)) "$mark"
done < "$dir/verdicts.tsv"
echo "agree $agree of $total within ${limit}s; wrong verdicts: $wrong"
[ "$wrong" = 0 ]
