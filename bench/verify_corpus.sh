#!/usr/bin/env bash
# Runs `synth verify` (iterative mode) on every program of the corpus with a per-program time
# limit and prints a table: program, expected verdict, our verdict, time to the first safe IVR,
# total time. Flags a wrong verdict loudly: `safe` for an unsafe program, `partially safe` or
# `unsafe` for a safe one. A verdict that holds only under the thread bound (`with at most N
# threads`) counts as `bounded`, not as decided.
# Usage: bench/verify_corpus.sh [SECONDS] [CORPUS_DIR]
# Environment: LISTS="verdicts.tsv verdicts-more.tsv" goes over both lists (default:
# verdicts.tsv).
# An application under apps/ is verified as its README builds and runs it: with the other
# `.c` files of its directory (`--with`), from that directory, with the arguments
# bench/app_args.tsv gives it (program, then its command line after the program's name).
set -uo pipefail
limit="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${2:-${SYNTH_CORPUS:-$root/../shared/corpus}}"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"
lists="${LISTS:-verdicts.tsv}"
# shellcheck source=bench/app.sh
. "$root/bench/app.sh"
printf '%-62s %-8s %-15s %9s %s\n' program expected verdict first-ivr time
wrong=0; decided=0; total=0
while IFS=$'\t' read -r prog expected _; do
  case "$prog" in \#*|"") continue ;; esac
  total=$((total + 1))
  start=$(date +%s%N)
  app_of "$prog" "$corpus" "$root"
  # shellcheck disable=SC2206 # the arguments are words
  [ -n "$args" ] && extra+=(-- $args)
  out=$(cd "$dir" && timeout $((limit + 30)) "$synth" verify --timeout "$limit" "$file" "${extra[@]}" 2>&1)
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  line=$(printf '%s\n' "$out" | grep -m1 '^verdict: ')
  case "$line" in
    # A verdict under the thread bound decides the corpus's (unbounded) question only when
    # its error occurs without the bound too.
    "verdict: partially safe with at most"*"without the bound too") v=partially-safe ;;
    "verdict: unsafe with at most"*"without the bound too") v=unsafe ;;
    *"with at most"*) v=bounded ;;
    "verdict: safe"*) v=safe ;;
    "verdict: partially safe"*) v=partially-safe ;;
    "verdict: unsafe"*) v=unsafe ;;
    "verdict: unknown"*) v=unknown ;;
    *) case "$out" in *unsupported*) v=unsupported ;; *) v=error ;; esac ;;
  esac
  first=$(printf '%s\n' "$out" | sed -n 's/^first safe IVR: \([^,]*\),.*/\1/p' | tr -d ' ')
  mark=""
  if [ "$v" = safe ] && [ "$expected" = unsafe ]; then mark="  <-- WRONG"; wrong=$((wrong + 1)); fi
  if [ "$v" != safe ] && [ "$v" != unknown ] && [ "$v" != unsupported ] && [ "$v" != error ] \
    && [ "$v" != bounded ] && [ "$expected" = safe ]; then mark="  <-- WRONG"; wrong=$((wrong + 1)); fi
  case "$v" in safe|partially-safe|unsafe) decided=$((decided + 1)) ;; esac
  printf '%-62s %-8s %-15s %9s %6d.%01ds%s\n' "$prog" "$expected" "$v" "${first:--}" $((ms / 1000)) $((ms % 1000 / 100)) "$mark"
done < <(for l in $lists; do cat "$corpus/$l"; done)
echo "decided $decided of $total within ${limit}s; wrong verdicts: $wrong"
[ "$wrong" = 0 ]
