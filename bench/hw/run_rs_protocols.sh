#!/usr/bin/env bash
# run_rs_protocols.sh: builds bench/hw/rs_protocols.cu for sm_90a, runs it (OUT/rs_protocols.csv, its summary at the end) and compares the SASS of the row-parallel and the cluster GEMV kernels (OUT/sass_*.txt, OUT/sass_compare.txt).
# Usage (from the repository root, on a machine with a Hopper GPU): bash bench/hw/run_rs_protocols.sh OUT
# RS_ROUNDS (41) and RS_SECTIONS ("R,Rw,S") pass through to the probe; NOBUILD=1 runs build/hw/rs_protocols as it is.
set -u
out=${1:?usage: run_rs_protocols.sh OUT}
mkdir -p "$out" build/hw
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ "${NOBUILD:-0}" != 1 ]; then
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -Iruntime -o build/hw/rs_protocols \
    bench/hw/rs_protocols.cu runtime/hopper/host_cuda.c runtime/model/device_model.c || exit 1
fi
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1; date -u +%FT%TZ;
  "$nvcc" --version | tail -n 2; git describe --always --dirty 2> /dev/null; } > "$out/rs_protocols_machine.txt"
build/hw/rs_protocols > "$out/rs_protocols.csv"
rc=$?
grep '^#' "$out/rs_protocols.csv"
# SASS: the two kernels for one token, and their instruction counts by opcode
cuobjdump=$(dirname "$nvcc")/cuobjdump
for k in gemv_rowpar_t1 gemv_cluster_t1 gemv_cluster_one_t1 gemv_rowpar_clbranch_t1 rs_probe; do
  # the names are C++-mangled (_Z14gemv_rowpar_t1...): select the function by substring
  "$cuobjdump" -sass build/hw/rs_protocols | awk -v k="$k" '/Function :/ {on = index($0, k) > 0} on' > "$out/sass_$k.txt"
done
{
  echo "# opcode counts: gemv_rowpar_t1, gemv_cluster_t1"
  for k in gemv_rowpar_t1 gemv_cluster_t1; do
    grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z][A-Z0-9_.]*' "$out/sass_$k.txt" | awk '{print $NF}' |
      sort | uniq -c | sort -k2 > "$out/ops_$k.txt"
  done
  join -1 2 -2 2 -a 1 -a 2 -e 0 -o 0,1.1,2.1 "$out/ops_gemv_rowpar_t1.txt" "$out/ops_gemv_cluster_t1.txt" |
    awk '{d = $3 - $2; printf "%-28s %5d %5d %s\n", $1, $2, $3, d ? sprintf("%+d", d) : ""}'
  echo "# total instructions: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out/sass_gemv_rowpar_t1.txt") $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out/sass_gemv_cluster_t1.txt")"
} > "$out/sass_compare.txt"
grep -E 'LDG|total|BAR|UCGA|MEMBAR|SYNCS' "$out/sass_compare.txt"
# split 1: gemv_cluster_one_t1 (what gemv_cluster_launch runs) against gemv_rowpar_t1, opcode by opcode in code order
{
  echo "# opcode sequences: < gemv_rowpar_t1, > gemv_cluster_one_t1 (diff of one opcode per line, in code order)"
  for k in gemv_rowpar_t1 gemv_cluster_one_t1; do
    grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z][A-Z0-9_.]*' "$out/sass_$k.txt" | awk '{print $NF}' > "$out/seq_$k.txt"
  done
  echo "# instructions: $(wc -l < "$out/seq_gemv_rowpar_t1.txt") $(wc -l < "$out/seq_gemv_cluster_one_t1.txt")"
  diff "$out/seq_gemv_rowpar_t1.txt" "$out/seq_gemv_cluster_one_t1.txt"
  rm -f "$out/seq_gemv_rowpar_t1.txt" "$out/seq_gemv_cluster_one_t1.txt"
} > "$out/sass_split1_diff.txt"
# rs_probe: its synchronisation and remote instructions, in code order (one kernel holds every protocol)
grep -nE 'UCGABAR|SYNCS|FENCE|MEMBAR|CCTL|ERRBAR|STAS|BAR.SYNC|CALL|ST.E|EXIT' "$out/sass_rs_probe.txt" |
  sed 's@/\* 0x[0-9a-f]* \*/@@; s/  */ /g' > "$out/sass_rs_probe_sync.txt"
exit $rc
