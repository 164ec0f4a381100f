#!/usr/bin/env bash
# ncu.sh: make bench NCU=1: every family's Nsight Compute profiles (bench_driver --ncu-plan: the families' bench_counters tables), each a short run of that family under ncu.
# Usage: bench/driver/ncu.sh BENCH_BINARY WORK_DIR [FAMILY...]   (FAMILY...: those families' profiles only)
#   -> WORK_DIR/<profile>.csv (ncu's details table, base units), WORK_DIR/run-<profile>/ (the profiled run), WORK_DIR/ncu.log
# `--clock-control none`: the clocks the GPU chooses, as in the timed runs. The driver's --ncu WORK_DIR imports them.
set -u
bin=${1:?usage: ncu.sh BENCH_BINARY WORK_DIR}
work=${2:?usage: ncu.sh BENCH_BINARY WORK_DIR [FAMILY...]}
shift 2
only=" $* " # make bench FAMILY=...: the driver imports those families' counters alone
# ncu: $NCU_BIN, else on PATH, else where the CUDA toolkit or the stand-alone installer puts it.
ncu=${NCU_BIN:-$(command -v ncu || ls -d "${CUDA_HOME:-/usr/local/cuda}"/bin/ncu /usr/local/cuda*/nsight-compute*/ncu \
  /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | tail -n 1)}
ncu=${ncu:-ncu}
rm -rf "$work" && mkdir -p "$work"
log="$work/ncu.log"
if [ ! -x "$ncu" ] && ! command -v "$ncu" > /dev/null 2>&1; then
  echo "ncu: Nsight Compute not found ($ncu)" | tee "$log"
  exit 0 # each family's import reports its missing counters as a failed check
fi
echo "ncu: profiling commit ${BENCH_COMMIT:-$(git describe --always --dirty=+dirty --abbrev=12 2> /dev/null || echo unknown)}" >> "$log"
"$bin" --ncu-plan > "$work/plan.tsv"
while IFS=$'\t' read -r family name kernels metrics count quick env <&3; do   # fd 3: ncu and the runs may read stdin
  if [ -n "${only// /}" ] && [[ $only != *" $family "* ]]; then
    continue
  fi
  if ! "$bin" --list | grep -qx "$family"; then
    echo "ncu: this build has no $family family: profile $name skipped" | tee -a "$log"
    continue
  fi
  echo "bench: ncu over $kernels ($family, profile $name)"
  limit=(); [ "$count" != 0 ] && limit=(--launch-count "$count")
  q=(); [ "$quick" = 1 ] && q=(--quick)
  envs=(); [ "$env" != "-" ] && envs=("$env")
  env ${envs[@]+"${envs[@]}"} "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function \
    --kernel-name "$kernels" ${limit[@]+"${limit[@]}"} --target-processes all -f -o "$work/$name" \
    "$bin" ${q[@]+"${q[@]}"} --out "$work/run-$name" "$family" >> "$log" 2>&1
  echo "ncu rc=$? for $name" >> "$log"
  [ -f "$work/$name.ncu-rep" ] &&
    "$ncu" --import "$work/$name.ncu-rep" --csv --page details --print-units base > "$work/$name.raw.csv" 2>> "$log"
  if ! grep -q '"Kernel Name"' "$work/$name.raw.csv" 2> /dev/null; then
    # No report to import (or an ncu that cannot): profile again, printing the table straight to a file.
    echo "ncu: no table from the report of $name; profiling again with --csv --log-file" >> "$log"
    rm -rf "$work/run-$name"
    env ${envs[@]+"${envs[@]}"} "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function \
      --kernel-name "$kernels" ${limit[@]+"${limit[@]}"} --target-processes all --csv --print-units base \
      --log-file "$work/$name.raw.csv" "$bin" ${q[@]+"${q[@]}"} --out "$work/run-$name" "$family" >> "$log" 2>&1
  fi
  # the table alone: from its header on
  sed -n '/"Kernel Name"/,$p' "$work/$name.raw.csv" > "$work/$name.csv" 2>> "$log"
done 3< "$work/plan.tsv"
grep -E "ERR_NVGPUCTRPERM|==ERROR==|==WARNING==" "$log" | head -n 5
exit 0
