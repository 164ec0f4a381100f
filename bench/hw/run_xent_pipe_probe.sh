#!/usr/bin/env bash
# run_xent_pipe_probe.sh: builds bench/hw/xent_pipe_probe.cu for sm_90a and runs it (OUT/xent_pipe_probe.csv, its summary at the end; OUT/ptxas.txt the kernels' registers).
# Usage (from the repository root, on a machine with a Hopper GPU): bash bench/hw/run_xent_pipe_probe.sh OUT [quick]
set -u
out=${1:?usage: run_xent_pipe_probe.sh OUT [quick]}
mkdir -p "$out" build/hw
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -Xptxas -v -Iruntime -Isolutions/ch09 -o build/hw/xent_pipe_probe \
  bench/hw/xent_pipe_probe.cu runtime/hopper/host_cuda.c runtime/model/device_model.c 2> "$out/ptxas.txt" ||
  { tail -n 30 "$out/ptxas.txt"; exit 1; }
grep -A1 -E "Compiling entry|Function properties" "$out/ptxas.txt" | grep -E "entry|registers" | paste - - | sed -E 's/.*entry function .(_Z[0-9]+)?([a-z0-9_]+).*Used ([0-9]+) registers.*/\2 \3 registers/' | sort -u
build/hw/xent_pipe_probe ${2:-} > "$out/xent_pipe_probe.csv"
rc=$?
grep '^#' "$out/xent_pipe_probe.csv"
exit $rc
