#!/usr/bin/env bash
# plots.sh: SVG plots of one run folder: every figures/plots/*.gp whose `# csv:` line names a file of
# bench/results/bench-h200/ is run on the run folder's file of the same name.
# Usage: bench/driver/plots.sh RUN_DIR
set -u
run=${1:?usage: plots.sh RUN_DIR}
run=$(cd "$run" && pwd -P) || exit 1
if ! command -v gnuplot > /dev/null 2>&1; then
  echo "bench: plots skipped: no gnuplot (make deps installs it)"
  exit 0
fi
made=0 failed=0 empty=0
for gp in figures/plots/*.gp; do
  [ -f "$gp" ] || continue
  csv=$(sed -n 's|^# csv:[[:space:]]*bench/results/bench-h200/\([^[:space:]]*\.csv\).*|\1|p' "$gp" | head -n 1)
  [ -n "$csv" ] && [ -f "$run/$csv" ] || continue
  svg="$run/$(basename "$gp" .gp).svg"
  if gnuplot -e "csv='$run/$csv'; out='$svg'" "$gp" 2> "$svg.log" && [ -s "$svg" ]; then
    made=$((made + 1)); rm -f "$svg.log"
  elif grep -q -E "all points .* undefined|no valid points|x range is invalid|y range is invalid" "$svg.log"; then
    # The CSV has no rows this plot draws (a dry run's tiny sweep, a family run alone): nothing to plot.
    empty=$((empty + 1)); rm -f "$svg" "$svg.log"
    echo "bench: plot $gp: no points to draw in $run/$csv (skipped)"
  else
    failed=$((failed + 1)); echo "bench: plot $gp failed on $run/$csv:"; head -n 5 "$svg.log"
  fi
done
msg="bench: $made plots in $run"
[ "$empty" -gt 0 ] && msg="$msg, $empty with no points"
[ "$failed" -gt 0 ] && msg="$msg, $failed failed"
echo "$msg"
[ "$failed" -eq 0 ]
