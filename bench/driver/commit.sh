#!/usr/bin/env bash
# commit.sh: make bench-commit: copy one run folder (CSVs, summary.json, report.md, machine info) into the committed reference.
# Usage: bench/driver/commit.sh RUN_DIR DEST [BENCH_BINARY]   (DEST: bench/results/bench-h200)
# summary.json is read through the driver (BENCH_BINARY --summary-get FILE KEY), its one reader.
set -eu
run=${1:?usage: commit.sh RUN_DIR DEST [BENCH_BINARY]}
dest=${2:?usage: commit.sh RUN_DIR DEST [BENCH_BINARY]}
bin=${3:-build/bench/bin/bench-emu-solutions}
get() { "$bin" --summary-get "$run/summary.json" "$1"; }
if [ ! -f "$run/summary.json" ]; then
  echo "bench-commit: $run has no summary.json: give RUN=build/bench/<run folder> (make bench makes one)"
  exit 1
fi
if [ "$(get dry_run)" = true ]; then
  echo "bench-commit: $run is a dry run on the emulator: it measured nothing, it cannot be the reference"
  exit 1
fi
if [ "$(get failures)" != 0 ]; then
  echo "bench-commit: $run has failed checks (see its report.md): a run with a wrong result is not a reference"
  exit 1
fi
gpu=$(get gpu)
case "$gpu" in
  *H200*) ;;
  *) if [ "${FORCE:-}" != 1 ]; then
       echo "bench-commit: $run was measured on \"$gpu\", and $dest holds the H200 reference (FORCE=1 to copy anyway)"
       exit 1
     fi ;;
esac
rm -rf "$dest.new" && mkdir -p "$dest.new"
cp "$run"/*.csv "$run"/summary.json "$run"/report.md "$run"/machine.txt "$dest.new"/
[ -f "$run/ncu.log" ] && cp "$run/ncu.log" "$dest.new"/
rm -rf "$dest" && mv "$dest.new" "$dest"
echo "bench-commit: $run -> $dest ($(ls "$dest" | wc -l) files); review and commit them: git add $dest"
