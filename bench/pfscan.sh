#!/usr/bin/env bash
# pfscan (the real application of the corpus, apps/pfscan/pfscan.c): a parallel file scanner
# that walks a directory tree with ftw and has NWORKERS threads search each file (mapped with
# mmap) for a string. This script makes a directory tree of FILES files (default 200) in
# nested directories, some holding the searched string, then for 1 and 2 workers:
#
#   1. builds pfscan natively (cc -O2 -pthread) and with `synth build` for the
#      same arguments (`-n WORKERS NEEDLE TREE`: the built program runs only with those);
#   2. runs each RUNS times (default 5) and compares their outputs, sorted (pfscan prints its
#      matches in a nondeterministic order);
#   3. prints the median time of each and the ratio.
#
# The verification limit of `synth build` is VERIFY_TIMEOUT seconds (default 600). A build
# that fails (no schedule: the verifier did not prove a schedule safe within the limit) is
# reported with the bug the verifier found, if it found one, and its verdict, and the script
# exits 1.
#
# pfscan has a bug that depends on its input: `bm_search` reads the mapped file up to the
# needle's length whatever the file's length, so a file shorter than the needle is read past
# its end (natively a SIGBUS once the search runs past the mapped page). The script shows it
# natively on a one-file tree; synth finds it (a memory-safety violation at pfscan.c:326:66),
# and since no schedule avoids a bug of the input, it has no safe schedule for pfscan.
#
#   bench/pfscan.sh                 # 200 files, 5 runs per build
#   FILES=2000 RUNS=3 bench/pfscan.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SYNTH_CORPUS:-$root/../shared/corpus}"
src="$corpus/apps/pfscan/pfscan.c"
files="${FILES:-200}"
runs="${RUNS:-5}"
verify_timeout="${VERIFY_TIMEOUT:-600}"
needle="synth-needle"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# SYNTH=path uses that binary instead of building one.
if [ -z "${SYNTH:-}" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p synth
fi
synth="${SYNTH:-$root/target/release/synth}"

# The tree: FILES files over directories three levels deep; every seventh file holds the
# needle once or twice, on varying lines; the contents are reproducible (awk, no randomness).
tree="$work/tree"
awk -v n="$files" -v dir="$tree" -v needle="$needle" 'BEGIN {
  for (i = 0; i < n; i++) {
    d = sprintf("%s/d%d/e%d/f%d", dir, i % 5, i % 3, i % 2);
    system("mkdir -p " d);
    f = sprintf("%s/file%04d.txt", d, i);
    lines = 20 + (i * 37) % 200;
    for (l = 0; l < lines; l++) {
      if (i % 7 == 0 && (l == (i % lines) || (i % 14 == 0 && l == lines - 1)))
        printf("line %d of file %d: %s here\n", l, i, needle) > f;
      else
        printf("line %d of file %d: nothing to see, %d\n", l, i, (l * 131 + i) % 9973) > f;
    }
    close(f);
  }
}'

cc -O2 -pthread -w -o "$work/pfscan-native" "$src"

# The input bug, natively: a file shorter than the needle.
mkdir -p "$work/short"
printf 'ab' > "$work/short/tiny.txt"
set +e
"$work/pfscan-native" -n 1 "$needle" "$work/short" > /dev/null 2>&1
short_status=$?
set -e
echo "native pfscan on a file shorter than the needle: exit status $short_status" \
  "($([ "$short_status" -gt 128 ] && kill -l $((short_status - 128)) || echo 'no signal'))"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Runs a command RUNS times; prints the median wall time in seconds and leaves its last
# output, sorted, in $2.
measure() {
  local cmd="$1" out="$2" times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$cmd" -n "$workers" "$needle" "$tree" | sort > "$out" || true
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
  done
  printf '%s\n' "${times[@]}" | median
}

status=0
printf '%-8s %-10s %-10s %-10s %-8s %s\n' workers native synth ratio matches output
for workers in 1 2; do
  built="$work/pfscan-synth-$workers"
  tn=$(measure "$work/pfscan-native" "$work/native-$workers.out")
  if ! "$synth" build --timeout "$verify_timeout" -o "$built" "$src" \
      -- -n "$workers" "$needle" "$tree" > "$work/build-$workers.log" 2>&1; then
    printf '%-8s %-10s %-10s %-10s %-8s %s\n' "$workers" "$tn" - - \
      "$(wc -l < "$work/native-$workers.out")" "synth build failed:"
    { grep -m1 'counterexample' "$work/build-$workers.log" || true
      grep -v '^warning' "$work/build-$workers.log" | grep -E '^(verdict|error)' || true
    } | sed 's/^/    /'
    status=1
    continue
  fi
  ts=$(measure "$built" "$work/synth-$workers.out")
  same=equal
  cmp -s "$work/native-$workers.out" "$work/synth-$workers.out" || { same=DIFFERENT; status=1; }
  printf '%-8s %-10s %-10s %-10s %-8s %s\n' "$workers" "$tn" "$ts" \
    "$(echo "scale=2; $ts / $tn" | bc)" "$(wc -l < "$work/native-$workers.out")" "$same"
done
exit "$status"
