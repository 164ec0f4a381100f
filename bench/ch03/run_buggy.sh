#!/usr/bin/env bash
# run_buggy.sh: on a Hopper GPU, runs chapter 3's buggy kernels and their fixes (trap_repro N times per variant and shape, histogram_race several times, compute-sanitizer memcheck and racecheck once each) and writes CSV files and logs into DIR.
#
# usage: bench/ch03/run_buggy.sh DIR
# environment: N (trap runs per variant and shape, default 20), HIST_RUNS (default 5),
#              SHAPES (CLUSTERSxSIZE list, default "66x2 1x2": the deep dive's shape on an H200, and one cluster),
#              SANITIZER (compute-sanitizer binary; skipped with a note when absent),
#              PARTS (which parts to run, default "trap histogram sanitizer": split a run
#              across several commands by giving one part each time, with the same DIR)
# Time limits: 30 s per trap_repro process, 60 s per histogram_race, 120 s per sanitizer run.
# DIR gets: env.txt, trap_repro.csv, histogram_race.csv, sanitizer.csv, sanitizer_<tool>_<program>.log
set -u
dir=${1:?usage: bench/ch03/run_buggy.sh DIR}
N=${N:-20}
HIST_RUNS=${HIST_RUNS:-5}
SHAPES=${SHAPES:-"66x2 1x2"}
PARTS=${PARTS:-"trap histogram sanitizer"}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$root"

echo "building (log: $dir/build.log)"
bench/ch03/build.sh > "$dir/build.log" 2>&1 || { echo "build failed, see $dir/build.log"; tail -20 "$dir/build.log"; exit 1; }
bin=build/bench/ch03

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,compute_cap --format=csv ||
        echo "nvidia-smi: not available"
    "${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" --version | tail -1
} > "$dir/env.txt" 2>&1

probe=$("$bin/trap_repro" --check)
echo "$probe"
case $probe in waived:*) echo "$probe" > "$dir/waived.txt"; exit 0 ;; esac

wants() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

# One launch per process: after a 719 the process's CUDA context is unusable.
if wants trap; then
echo "trap_repro: $N launches per variant and shape ($SHAPES), one per process"
trap_csv=$dir/trap_repro.csv
echo "run,$("$bin/trap_repro" --header),exit" > "$trap_csv"
for shape in $SHAPES; do
    clusters=${shape%x*}
    size=${shape#*x}
    for variant in buggy fixed; do
        for run in $(seq 1 "$N"); do
            line=$(timeout 30 "$bin/trap_repro" "$variant" "$clusters" "$size" 128 2> "$dir/trap_repro.stderr.tmp")
            status=$?
            [ -n "$line" ] || line="$variant,$clusters,$size,128,none,none,no-output"
            echo "$run,$line,$status" >> "$trap_csv"
            cat "$dir/trap_repro.stderr.tmp" >> "$dir/trap_repro.stderr.log"
        done
    done
done
rm -f "$dir/trap_repro.stderr.tmp"
fi

if wants histogram; then
echo "histogram_race: $HIST_RUNS runs per variant"
hist_csv=$dir/histogram_race.csv
echo "run,$("$bin/histogram_race" --header),exit" > "$hist_csv"
for variant in plain atomic; do
    for run in $(seq 1 "$HIST_RUNS"); do
        line=$(timeout 60 "$bin/histogram_race" "$variant" 2>> "$dir/histogram_race.stderr.log")
        status=$?
        echo "$run,${line:-$variant,no-output},$status" >> "$hist_csv"
    done
done
fi

# compute-sanitizer: once per tool on each buggy and fixed program (smaller histogram: racecheck is slow).
if wants sanitizer; then
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
san_csv=$dir/sanitizer.csv
echo "tool,program,exit,summary" > "$san_csv"
if [ ! -x "$SANITIZER" ]; then
    echo "compute-sanitizer not found ($SANITIZER): sanitizer runs skipped" | tee "$dir/sanitizer_skipped.txt"
else
    programs=("trap_buggy:$bin/trap_repro buggy 66 2 128"
              "trap_fixed:$bin/trap_repro fixed 66 2 128"
              "histogram_plain:$bin/histogram_race plain 65536 8 2 8 256"
              "histogram_atomic:$bin/histogram_race atomic 65536 8 2 8 256")
    for tool in memcheck racecheck; do
        for entry in "${programs[@]}"; do
            name=${entry%%:*}
            cmd=${entry#*:}
            log=$dir/sanitizer_${tool}_${name}.log
            echo "compute-sanitizer --tool $tool: $name"
            echo "\$ $SANITIZER --tool $tool $cmd" > "$log"
            timeout 120 "$SANITIZER" --tool "$tool" --print-limit 20 $cmd >> "$log" 2>&1
            status=$?
            summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | tr -d ',' | sed 's/^=* *//')
            echo "$tool,$name,$status,${summary:-none}" >> "$san_csv"
        done
    done
fi
fi

echo "wrote $dir:"
ls -1 "$dir"
if [ -f "$dir/trap_repro.csv" ]; then
    echo "trap_repro, launches per variant,clusters,size,sync error,result:"
    tail -n +2 "$dir/trap_repro.csv" | cut -d, -f2-4,7,8 | sort | uniq -c
fi
[ -f "$dir/histogram_race.csv" ] && { echo "histogram_race:"; cat "$dir/histogram_race.csv"; }
[ -f "$dir/sanitizer.csv" ] && { echo "sanitizer:"; cat "$dir/sanitizer.csv"; }
exit 0
