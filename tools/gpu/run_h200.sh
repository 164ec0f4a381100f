#!/usr/bin/env bash
# run_h200.sh: what the lead ran on a lent H200, in one script per call: build, test, sanitize, probe, measure; results under $OUT.
# Usage: [BENCH_COMMIT=<commit>] tools/gpu/run_h200.sh OUTDIR PART...   PART: info runtime probes residency ptxas course grade gradech09 gputest bench benchonce benchquick benchncu ptx ring buggy twins rsproto xentprobe xentbench xentncu
# (bench: make bench twice a minute apart + the repeatability check, about 7 min; benchquick, benchncu, ptx: a few minutes each)
# Needs: nvcc, a Hopper GPU; cmocka from .deps/*.deb when the system has none.
set -uo pipefail
out=${1:?usage: run_h200.sh OUTDIR PART...}; shift
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
. "$(dirname "$0")/cmocka.sh"
j=$(nproc)
for part in "$@"; do
  echo "=== $part $(date -u +%FT%TZ)"
  case $part in
  info)
    { nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version; } > "$out/gpu_info.txt" 2>&1
    tail -n 3 "$out/gpu_info.txt" ;;
  runtime)
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make -j"$j" $cm $(ls tests/runtime/test_*.c | sed 's#tests/runtime/#build/runtime-gpu-tests/#; s#\.c$##') > "$out/runtime_build.log" 2>&1 || tail -n 20 "$out/runtime_build.log"
    make runtime-gpu-test $cm 2>&1 | tee "$out/runtime_gpu_test.txt"
    tar czf "$out/runtime_gpu_logs.tgz" build/runtime-gpu-tests/*.log 2>/dev/null ;;
  probes)
    mkdir -p build/hw
    nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -Iruntime bench/hw/occupancy_probe.cu runtime/model/device_model.c -o build/hw/occupancy_probe
    nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -Iruntime bench/hw/launch_errors_probe.cu -o build/hw/launch_errors_probe
    build/hw/occupancy_probe > "$out/occupancy_h200.csv" 2> "$out/occupancy_probe.err"; echo "occupancy rc=$?"
    grep -c MATCH "$out/occupancy_h200.csv"; grep -E "DIFF|ERROR|layout" "$out/occupancy_h200.csv" | head -20
    build/hw/launch_errors_probe > "$out/launch_errors_h200.csv" 2> "$out/launch_errors_probe.err"; echo "launch errors rc=$?"
    cat "$out/launch_errors_h200.csv" | cut -c1-200 ;;
  residency)
    # chapter 4: are the clusters cudaOccupancyMaxActiveClusters promises resident together, and do two CTAs of
    # one cluster ever share an SM? (bench/hw/residency_probe.cu, about 10 s)
    bash bench/hw/run_residency_probe.sh "$out" ;;
  ptxas)
    # chapter 6's claims about registers and loads in flight, from the compiler alone (no GPU needed)
    bash bench/hw/ptxas_report.sh "$out" | tail -n 30 ;;
  course)
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make grade GPU=1 SRC=solutions $cm 2>&1 | tee "$out/grade_gpu_solutions.txt" | tail -n 30
    make gpu-test $cm 2>&1 | tee "$out/gpu_test.txt" | tail -n 40 ;;
  grade)
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make grade GPU=1 SRC=solutions $cm 2>&1 | tee "$out/grade_gpu_solutions.txt" | tail -n 12 ;;
  gputest)
    make gpu-test $cm 2>&1 | tee "$out/gpu_test.txt" | tail -n 20 ;;
  benchonce)
    # make bench once (the reference run), with the clocks before it
    make -j"$j" bench-build-gpu $cm > "$out/bench_build.log" 2>&1 || tail -n 20 "$out/bench_build.log"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >> "$out/bench_clocks.txt"
    start=$(date +%s)
    make bench $cm > "$out/bench_run1.txt" 2>&1; echo "make bench: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
    tail -n 25 "$out/bench_run1.txt"
    tar czf "$out/bench_run.tgz" "build/bench/$(readlink build/bench/latest)" ;;
  twins)
    # the emulator's twins of the four emulator/H200 disagreements, on the H200
    AGREEMENT=1 bash tools/gpu/emu_twins.sh "$out/twins" 2>&1 | tail -n 20 ;;
  xentprobe)
    # chapter 9's design search: the fused kernel's candidate designs against the copy floor (bench/hw/xent_pipe_probe.cu, about 40 s)
    bash bench/hw/run_xent_pipe_probe.sh "$out/xentprobe" 2>&1 | grep -E 'SUMMARY|FAILED' | tail -n 100 ;;
  gradech09)
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make grade GPU=1 SRC=solutions EX=ch09.xent_stat,ch09.xent_xchg,ch09.xent_cluster,ch09.xent_plan $cm 2>&1 | tee "$out/grade_gpu_ch09.txt" | tail -n 12 ;;
  xentbench)
    # make bench FAMILY=ch09_xent once, with the clocks before it
    make -j"$j" bench-build-gpu $cm > "$out/bench_build.log" 2>&1 || tail -n 20 "$out/bench_build.log"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >> "$out/bench_clocks.txt"
    start=$(date +%s)
    make bench FAMILY=ch09_xent $cm > "$out/bench_xent.txt" 2>&1; echo "make bench FAMILY=ch09_xent: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
    tail -n 30 "$out/bench_xent.txt"
    cp -rL build/bench/latest "$out/xent-run" ;;
  xentncu)
    # chapter 9 again under Nsight Compute (DRAM bytes per logit byte of each design), then timed: a second run of the family
    start=$(date +%s)
    make bench NCU=1 FAMILY=ch09_xent $cm > "$out/bench_xent_ncu.txt" 2>&1; echo "make bench NCU=1 FAMILY=ch09_xent: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
    grep -E "ncu|dram|failed" "$out/bench_xent_ncu.txt" | tail -n 40
    cp -rL build/bench/latest "$out/xent-ncu-run" ;;
  rsproto)
    # chapter 8's reduce-scatter protocols, split 1 against row-parallel, and the SASS comparison
    bash bench/hw/run_rs_protocols.sh "$out/rsproto" 2>&1 | tail -n 20 ;;
  bench)
    # make bench twice, a minute apart; the driver compares the two runs' summary.json (3 %).
    make -j"$j" bench-build-gpu $cm > "$out/bench_build.log" 2>&1 || tail -n 20 "$out/bench_build.log"
    runs=""
    for rep in 1 2; do
      [ $rep = 2 ] && sleep 60
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >> "$out/bench_clocks.txt"
      start=$(date +%s)
      make bench $cm > "$out/bench_run$rep.txt" 2>&1; echo "make bench run $rep: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
      tail -n 25 "$out/bench_run$rep.txt"
      runs="$runs build/bench/$(readlink build/bench/latest)"
    done
    set -- $runs
    make bench-compare A="$1" B="$2" 2>&1 | tee "$out/bench_repeatability.txt" | tail -n 40
    tar czf "$out/bench_runs.tgz" $runs ;;
  benchquick)
    start=$(date +%s)
    make bench QUICK=1 $cm > "$out/bench_quick.txt" 2>&1; echo "make bench QUICK=1: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
    tail -n 15 "$out/bench_quick.txt"
    tar czf "$out/bench_quick_run.tgz" "build/bench/$(readlink build/bench/latest)" ;;
  benchncu)
    start=$(date +%s)
    make bench NCU=1 QUICK=1 $cm > "$out/bench_ncu.txt" 2>&1; echo "make bench NCU=1 QUICK=1: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$out/bench_times.txt"
    tail -n 15 "$out/bench_ncu.txt"
    run="build/bench/$(readlink build/bench/latest)"
    awk '/^## Hardware counters/ { p = 1 } /^## / && !/Hardware counters/ { p = 0 } p' "$run/report.md" | head -n 14
    tar czf "$out/bench_ncu_run.tgz" "$run" build/bench/ncu-work/ncu.log build/bench/ncu-work/ncu.csv 2>/dev/null ;;
  ptx)
    # compute_90 PTX only, forced through the driver's JIT: what a post-Hopper GPU would run.
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make grade GPU=1 SRC=solutions PTX_ONLY=1 $cm 2>&1 | tee "$out/grade_gpu_ptx_jit.txt" | tail -n 30
    make bench QUICK=1 PTX_ONLY=1 $cm > "$out/bench_quick_ptx_jit.txt" 2>&1; echo "make bench QUICK=1 PTX_ONLY=1: rc=$?"
    tail -n 5 "$out/bench_quick_ptx_jit.txt" ;;
  ring)
    # chapter 6's ring, one design change at a time (bench/hw/ring_probe.cu), about 5 s
    mkdir -p build/hw
    nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -Iruntime bench/hw/ring_probe.cu -o build/hw/ring_probe
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$out/ring_probe_machine.txt"
    build/hw/ring_probe > "$out/ring_probe.csv"; echo "ring_probe rc=$?"
    cut -d, -f1-8,16,18,19,21 "$out/ring_probe.csv" ;;
  buggy)
    if [ -f bench/ch03/run_buggy.sh ]; then make -j"$j" runtime-cuda $cm >/dev/null 2>&1; bash bench/ch03/run_buggy.sh "$out" 2>&1 | tail -n 40; fi ;;
  *) echo "unknown part $part" ;;
  esac
  # a call cut short still brings back what the parts before wrote (ARCHIVE_TO=$OUT: only the archive there)
  tar czf /tmp/all_results.tgz -C "$out" --exclude all_results.tgz . && cp /tmp/all_results.tgz "${ARCHIVE_TO:-$out}/all_results.tgz"
done
