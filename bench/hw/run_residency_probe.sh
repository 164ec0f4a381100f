#!/usr/bin/env bash
# run_residency_probe.sh: builds and runs bench/hw/residency_probe.cu (co-residency of the promised clusters, CTAs of a cluster sharing an SM) into OUT.
# Usage: bench/hw/run_residency_probe.sh OUT    -> OUT/residency_probe.csv, OUT/residency_probe_machine.txt
# About 10 s of GPU time (each launch of one cluster more than the occupancy answer waits out a 200 ms limit).
set -uo pipefail
out=${1:?usage: run_residency_probe.sh OUT}
mkdir -p "$out" build/hw
export PATH=/usr/local/cuda/bin:$PATH
nvcc -gencode=arch=compute_90a,code=sm_90a -O2 bench/hw/residency_probe.cu -o build/hw/residency_probe || exit 1
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; git describe --always --dirty=+dirty 2> /dev/null || echo "commit: ${BENCH_COMMIT:-unknown}"; } \
  > "$out/residency_probe_machine.txt" 2>&1
build/hw/residency_probe > "$out/residency_probe.csv"; rc=$?
echo "residency_probe rc=$rc"
# The two answers the chapter needs: every promised launch checked in, and no cluster shared an SM.
awk -F, '!/^#/ && $1 != "gpu" && $8 == 0 { n++; if ($11 != "yes") bad++ } !/^#/ && $1 != "gpu" && $8 == 1 { m++; if ($11 == "yes") over++ }
  !/^#/ && $1 != "gpu" { share += $15 } $8 == -1 { seed = sprintf("seed shape: %s CTAs on %s SMs, at most %s on one SM", $10, $13, $14) }
  END { printf "promised launches: %d, not all checked in: %d; one cluster more: %d launches, %d all checked in anyway; " \
        "clusters sharing an SM (all launches): %d; %s\n", n, bad + 0, m, over + 0, share + 0, seed }' \
  "$out/residency_probe.csv"
exit $rc
