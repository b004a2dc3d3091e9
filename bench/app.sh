# Sourced by the corpus scripts: how a corpus program is given to synth. Sets `dir` (where to
# run synth), `file` (the program's file there), `extra` (the other `.c` files of an
# application under apps/, as `--with` options) and `args` (the arguments bench/app_args.tsv
# gives the application, as its README runs it).
# Usage: app_of PROGRAM CORPUS_DIR ROOT
app_of() {
  local prog="$1" corpus="$2" root="$3" other
  dir="$corpus"; file="$prog"; extra=(); args=""
  case "$prog" in
    apps/*)
      dir="$corpus/$(dirname "$prog")"; file="$(basename "$prog")"
      for other in "$dir"/*.c; do
        [ "$(basename "$other")" != "$file" ] && extra+=(--with "$(basename "$other")")
      done
      args=$(awk -F'\t' -v p="$prog" '$1 == p { print $2 }' "$root/bench/app_args.tsv")
      ;;
  esac
}
