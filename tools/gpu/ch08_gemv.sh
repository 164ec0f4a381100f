#!/usr/bin/env bash
# ch08_gemv.sh: chapter 8 on a lent H200 in one call per part: its exercises on the GPU, the ch08_gemv benchmark (twice, a minute apart, compared), a quick run, and Nsight Compute on one shape; results under OUTDIR.
# Usage: tools/gpu/ch08_gemv.sh OUTDIR PART...
#   grade   make grade GPU=1 SRC=solutions CH=8, then compute-sanitizer memcheck on each ch08 test binary
#   quick   make bench FAMILY=ch08_gemv QUICK=1 (one token, a few points per variant: well under a minute)
#   once    make bench FAMILY=ch08_gemv once (about 45 s of GPU time after the build): the tuning run
#   bench   make bench FAMILY=ch08_gemv twice, 60 s apart, then make bench-compare of the two runs (3 %)
#   ncu     Nsight Compute on one shape (SHAPE=dsv3_router by default), one token: each variant's best
#           configuration of a previous run (RUN=build/bench/latest), alone: DRAM bytes and throughput, active
#           warps, long-scoreboard stalls, grid, cluster and registers of every kernel it launches
# Needs: nvcc and a Hopper GPU; cmocka from .deps/*.deb when the system has none (as tools/gpu/run_h200.sh).
set -uo pipefail
out=${1:?usage: ch08_gemv.sh OUTDIR PART...}; shift
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
. "$(dirname "$0")/cmocka.sh"
j=$(nproc)
for part in "$@"; do
  echo "=== $part $(date -u +%FT%TZ)"
  case $part in
  grade)
    make -j"$j" runtime-cuda $cm >/dev/null 2>&1
    make grade GPU=1 SRC=solutions CH=8 $cm 2>&1 | tee "$out/grade_gpu_ch08.txt" | tail -n 12
    for t in build/gpu/solutions/ch08/*/test_*; do
      [ -x "$t" ] || continue
      compute-sanitizer --tool memcheck --error-exitcode 3 "$t" > "$out/memcheck_$(basename "$t").txt" 2>&1
      echo "memcheck $(basename "$t"): rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck_$(basename "$t").txt" | tail -n 1)"
    done ;;
  quick)
    make bench FAMILY=ch08_gemv QUICK=1 $cm 2>&1 | tee "$out/bench_quick.txt" | tail -n 20
    cp -rL build/bench/latest "$out/bench_quick" ;;
  once)
    make bench FAMILY=ch08_gemv $cm 2>&1 | tee "$out/bench_once.txt" | tail -n 25
    cp -rL build/bench/latest "$out/bench_once" ;;
  bench)
    make bench FAMILY=ch08_gemv $cm 2>&1 | tee "$out/bench_a.txt" | tail -n 25
    a=$(readlink -f build/bench/latest); cp -r "$a" "$out/bench_a"
    sleep 60
    make bench FAMILY=ch08_gemv $cm 2>&1 | tee "$out/bench_b.txt" | tail -n 5
    b=$(readlink -f build/bench/latest); cp -r "$b" "$out/bench_b"
    make bench-compare A="$a" B="$b" 2>&1 | tee "$out/bench_compare.txt" | tail -n 15 ;;
  ncu)
    # Each variant's best configuration for SHAPE at one token, read from a run's ch08_gemv.csv (RUN, default
    # build/bench/latest), profiled alone: its check launch and the first calls of its first graph.
    make -j"$j" bench-build-gpu $cm >/dev/null 2>&1 || { echo "the GPU build failed"; continue; }
    shape=${SHAPE:-dsv3_router} run=${RUN:-build/bench/latest}
    ncu_bin=${NCU:-$(command -v ncu || ls -d /usr/local/cuda/bin/ncu /usr/local/cuda*/nsight-compute*/ncu 2>/dev/null | tail -n 1)}
    [ -f "$run/ch08_gemv.csv" ] || { echo "no $run/ch08_gemv.csv: run the bench part first"; continue; }
    # columns (after gpu,sm_clock_mhz,date,commit): 5 shape, 9 nb, 10 variant, 19 split, 20 rows, 21 threads, 22 unroll
    awk -F, -v s="$shape" '$5 == s && $9 == 1 && $10 != "read_floor" { print $10, $19 ":" $20 ":" $21 ":" $22 }' \
      "$run/ch08_gemv.csv" | while read -r variant config; do
      GEMV_SHAPES=$shape GEMV_VARIANTS=$variant GEMV_NB=1 GEMV_CONFIG=$config \
        "$ncu_bin" --clock-control none --graph-profiling node --target-processes all --print-units base \
            --kernel-name regex:'gemv|gemm|xmma|splitK|cublas|sm90' --launch-count 8 \
            --metrics dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard \
            --csv build/bench/bin/bench-gpu-solutions --out-root build/bench/ncu-ch08 --quick ch08_gemv \
            > "$out/ncu_${shape}_${variant}.csv" 2> "$out/ncu_${shape}_${variant}.log"
      echo "ncu $shape $variant ($config): rc=$?, $(grep -c '^"' "$out/ncu_${shape}_${variant}.csv") metric rows"
    done ;;
  *) echo "unknown part $part" ;;
  esac
done
