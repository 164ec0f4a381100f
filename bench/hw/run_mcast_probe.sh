#!/usr/bin/env bash
# run_mcast_probe.sh: builds bench/hw/mcast_probe.cu for sm_90a and runs it (OUT/mcast_probe.csv, the summary at its end); with `ncu` also Nsight Compute's L2 counters for a few rows; --emu: the emulator self-test instead.
# Usage (from the repository root):
#   bash bench/hw/run_mcast_probe.sh OUT          # the measurement, about 20-40 s on an H200
#   bash bench/hw/run_mcast_probe.sh OUT ncu      # + ncu over 12 rows (OUT/mcast_probe_ncu.csv), about 1-2 min more
#   bash bench/hw/run_mcast_probe.sh --emu OUT    # no GPU: every design on tiny shapes on the CPU emulator
set -u
if [ "${1:-}" = "--emu" ]; then
  out=${2:?usage: run_mcast_probe.sh --emu OUT}
  mkdir -p "$out" build/hw
  make -s build/libdsm_emu.a || exit 1
  flags="-std=c11 -g -O1 -Wall -Wextra -D_GNU_SOURCE -Iruntime"
  kflags="-fsanitize=thread --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1"
  cc $flags $kflags -x c -DMCAST_PROBE_PART=1 -DDSM_UNIT=mcast_probe -c bench/hw/mcast_probe.cu -o build/hw/mcast_probe_k.o &&
    cc $flags -x c -DMCAST_PROBE_PART=2 -c bench/hw/mcast_probe.cu -o build/hw/mcast_probe_h.o &&
    cc build/hw/mcast_probe_h.o build/hw/mcast_probe_k.o build/libdsm_emu.a -lm -o build/hw/mcast_probe_emu || exit 1
  build/hw/mcast_probe_emu --self-test | tee "$out/mcast_probe_selftest.csv"
  exit "${PIPESTATUS[0]}"
fi
out=${1:?usage: run_mcast_probe.sh OUT [ncu]}
mkdir -p "$out" build/hw
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -Iruntime -o build/hw/mcast_probe \
  bench/hw/mcast_probe.cu runtime/hopper/host_cuda.c runtime/model/device_model.c || exit 1
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1; date -u +%FT%TZ;
  git describe --always --dirty 2> /dev/null; } > "$out/mcast_probe_machine.txt"
build/hw/mcast_probe > "$out/mcast_probe.csv"
rc=$?
sed -n '/^# SUMMARY/,$p' "$out/mcast_probe.csv"
if [ "${2:-}" = "ncu" ]; then
  # L2 reads per row: section B's lockstep/rotated/own per-CTA rows and per-CTA vs multicast at n = 2, 4, 8, 16
  # (rows of mcast_probe.csv's id column). One checked launch per row, no timing.
  ids=$(awk -F, '$2=="A" && ($3 ~ /^percta-local-thread/ || $3 ~ /^mc-fwdwarp-g4 \(new/) && $4>1 {print $1}
                 $2=="B" && $4==1 {print $1}' "$out/mcast_probe.csv" | paste -sd, -)
  ncu=${NCU_BIN:-$(command -v ncu || ls -d /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | tail -n 1)}
  echo "# ncu rows: $ids" | tee "$out/mcast_probe_ncu.log"
  # the counters: L2 sectors read (all, from the SMs' side, crossing between the two L2 partitions, missing),
  # HBM bytes; if this ncu lacks a name, again with the two that chapter 7's NCU=1 uses
  for metrics in lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_lookup_miss.sum,dram__bytes_read.sum \
                 lts__t_sectors_op_read.sum,dram__bytes_read.sum; do
    MCAST_PROBE_ONLY=$ids MCAST_PROBE_NCU=1 MCAST_PROBE_BYTES=5e8 "$ncu" --clock-control none --kernel-name mcast_probe \
      --metrics "$metrics" --csv --print-units base --log-file "$out/mcast_probe_ncu.csv" build/hw/mcast_probe \
      > "$out/mcast_probe_ncu_rows.csv" 2>> "$out/mcast_probe_ncu.log"
    echo "ncu rc=$? metrics=$metrics" >> "$out/mcast_probe_ncu.log"
    grep -q "Failed to find metric\|failed to find metric" "$out/mcast_probe_ncu.csv" "$out/mcast_probe_ncu.log" || break
  done
fi
exit $rc
