#!/usr/bin/env bash
# Makes the program schedule of every corpus program (and every example) that gets a safe IVR
# within the time limit, at Opt0, Opt1 and Opt2, and compiles each header with
# `cc -Wall -Werror` against include/synth_enforcer.h. Prints per program the time to the
# schedule and per level: sections / events / ordering constraints. Fails when a schedule or a
# header fails (a program without a safe IVR is listed as `none`, not a failure).
# Usage: bench/schedules.sh [SECONDS] [CORPUS_DIR]
set -uo pipefail
limit="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${2:-${SYNTH_CORPUS:-$root/../shared/corpus}}"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
synth="$root/target/release/synth"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
printf '#include "prog.sched.h"\nint main(void) { return synth_schedule.section_count == 0; }\n' > "$work/use.c"
printf '%-62s %8s  %-16s %-16s %-16s\n' program time Opt0 Opt1 Opt2
failed=0; made=0; total=0
progs=$( (cd "$corpus" && grep -v '^#' verdicts.tsv | cut -f1 | sed "s|^|$corpus/|"); ls "$root"/examples/*.c)
for prog in $progs; do
  total=$((total + 1))
  name="${prog#"$corpus"/}"; name="${name#"$root"/}"
  row=""; t=""
  for level in 0 1 2; do
    start=$(date +%s%N)
    out=$(timeout $((limit + 30)) "$synth" "$prog" --timeout "$limit" --opt "$level" -o "$work/prog" 2>&1)
    rc=$?
    [ -z "$t" ] && t="$(( ($(date +%s%N) - start) / 1000000 ))ms"
    if [ $rc -ne 0 ]; then
      case "$out" in
        *"no safe IVR"*|*"no safe schedule exists"*|*unsupported*) row="none"; break ;;
        *) row="FAILED: $(printf '%s' "$out" | tail -1)"; failed=$((failed + 1)); break ;;
      esac
    fi
    fig=$(printf '%s\n' "$out" | sed -n 's/^schedule (Opt.): \([0-9]*\) sections, \([0-9]*\) events, \([0-9]*\) ordering.*/\1\/\2\/\3/p')
    if ! cc -std=c99 -Wall -Wextra -Werror -I "$root/include" -I "$work" -o "$work/use" "$work/use.c" 2> "$work/cc.err"; then
      fig="HEADER-FAILED"; failed=$((failed + 1))
    fi
    row="$row$(printf '%-16s ' "$fig")"
  done
  [ "$row" != none ] && [ "${row#FAILED}" = "$row" ] && made=$((made + 1))
  printf '%-62s %8s  %s\n' "$name" "$t" "$row"
done
echo "schedules made for $made of $total programs; $failed failures"
[ $failed -eq 0 ]
