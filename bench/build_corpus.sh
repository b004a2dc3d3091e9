#!/usr/bin/env bash
# Runs `synth build` on every program of the corpus (verification to the first
# safe IVR with a per-program time limit), runs each built program once for up to 5 s, and
# prints a table: program, expected verdict, outcome, and synth's or the program's last message.
# Outcomes: `ran-to-end` (exit 0), `runs-on` (still running after 5 s: the program loops for
# ever), `exitN` (the program ended with status N), `no-schedule` (no safe IVR within the
# limit), `refused` (the instrumentation cannot place a site), `unsupported` (the front end
# cannot lower a construct), `error`.
# Usage: bench/build_corpus.sh [SECONDS] [CORPUS_DIR]
# Environment: LISTS="verdicts.tsv verdicts-more.tsv" goes over both lists (default: both).
# An application under apps/ is built as its README builds and runs it: with the other `.c`
# files of its directory (`--with`) and the arguments bench/app_args.tsv gives it, and run
# with them in a copy of its directory (it may write files there).
set -uo pipefail
limit="${1:-10}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${2:-${SYNTH_CORPUS:-$root/../shared/corpus}}"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin synth || exit 2
cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p enforcer-rt || exit 2
synth="$root/target/release/synth"
lists="${LISTS:-verdicts.tsv verdicts-more.tsv}"
# shellcheck source=bench/app.sh
. "$root/bench/app.sh"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
printf '%-62s %-8s %-12s %s\n' program expected outcome message
declare -A count
total=0
while IFS=$'\t' read -r prog expected _; do
  case "$prog" in \#*|"") continue ;; esac
  total=$((total + 1))
  exe="$out/prog$total"
  app_of "$prog" "$corpus" "$root"
  # shellcheck disable=SC2206 # the arguments are words
  [ -n "$args" ] && extra+=(-- $args)
  msg=$(cd "$dir" && timeout $((limit + 60)) "$synth" build --timeout "$limit" \
    "$file" -o "$exe" "${extra[@]}" 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    case "$msg" in
      *"cannot enforce"*) o=refused ;;
      *"no safe IVR"*|*"no safe schedule"*|*"no schedule"*) o=no-schedule ;;
      *unsupported*) o=unsupported ;;
      *) o=error ;;
    esac
    last=$(printf '%s\n' "$msg" | grep -v '^verdict\|^using\|^warning\|^counterexample\|^  ' | tail -1)
  else
    run="$dir"
    if [ "$dir" != "$corpus" ]; then
      run="$out/run$total"; cp -r "$dir" "$run"; chmod -R u+w "$run"
    fi
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$run" && timeout 5 "$exe" $args >/dev/null 2>"$out/err")
    r=$?
    case $r in
      0) o=ran-to-end ;;
      124) o=runs-on ;;
      *) o="exit$r" ;;
    esac
    last=$(head -c 200 "$out/err" | tr '\n' ' ')
  fi
  count[$o]=$(( ${count[$o]:-0} + 1 ))
  printf '%-62s %-8s %-12s %s\n' "$prog" "$expected" "$o" "${last:0:160}"
done < <(for l in $lists; do cat "$corpus/$l"; done)
summary="of $total:"
for k in "${!count[@]}"; do summary="$summary $k ${count[$k]},"; done
echo "${summary%,} (verification limit ${limit}s)"
