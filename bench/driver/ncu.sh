#!/usr/bin/env bash
# ncu.sh: make bench NCU=1: Nsight Compute's L2 and DRAM byte counters for the seed's tile exchange, both paths, into one CSV; and chapter 7's L2 reads per CTA and with multicast (ch07.csv).
# Usage: bench/driver/ncu.sh BENCH_BINARY WORK_DIR   -> WORK_DIR/ncu.csv (ncu's details page), WORK_DIR/ncu.log
# Runs the ch06_exchange family in a short run of its own once per kernel, profiling its first launches
# (`--clock-control none`: the clocks the GPU chooses, as in the timed runs).
set -u
bin=${1:?usage: ncu.sh BENCH_BINARY WORK_DIR}
work=${2:?usage: ncu.sh BENCH_BINARY WORK_DIR}
# ncu: $NCU_BIN, else on PATH, else where the CUDA toolkit or the stand-alone installer puts it.
ncu=${NCU_BIN:-$(command -v ncu || ls -d "${CUDA_HOME:-/usr/local/cuda}"/bin/ncu /usr/local/cuda*/nsight-compute*/ncu \
  /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | tail -n 1)}
ncu=${ncu:-ncu}
rm -rf "$work" && mkdir -p "$work"
log="$work/ncu.log"
if [ ! -x "$ncu" ] && ! command -v "$ncu" > /dev/null 2>&1; then
  echo "ncu: Nsight Compute not found ($ncu)" | tee "$log"
  exit 0 # the driver's --ncu import reports the missing counters as a failed check
fi
if ! "$bin" --list | grep -qx ch06_exchange; then
  echo "ncu: this build has no ch06_exchange family: no tile-exchange kernels to profile" | tee "$log"
  exit 0
fi
metrics=lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
: > "$work/ncu.csv"
echo "ncu: profiling commit ${BENCH_COMMIT:-$(git describe --always --dirty=+dirty --abbrev=12 2> /dev/null || echo unknown)}" >> "$log"
for kernel in xchg_seed_dsmem xchg_seed_gmem; do
  echo "bench: ncu over $kernel (first 3 launches of a quick ch06_exchange run)"
  "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function --kernel-name "$kernel" \
    --launch-count 3 --target-processes all -f -o "$work/$kernel" \
    "$bin" --quick --out "$work/run-$kernel" ch06_exchange >> "$log" 2>&1
  echo "ncu rc=$? for $kernel" >> "$log"
  if [ -f "$work/$kernel.ncu-rep" ]; then
    "$ncu" --import "$work/$kernel.ncu-rep" --csv --page details --print-units base > "$work/$kernel.csv" 2>> "$log"
  fi
  if ! grep -q '"Kernel Name"' "$work/$kernel.csv" 2> /dev/null; then
    # No report to import (or an ncu that cannot): profile again, printing the table straight to a file.
    echo "ncu: no table from the report of $kernel; profiling again with --csv --log-file" >> "$log"
    "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function --kernel-name "$kernel" \
      --launch-count 3 --target-processes all --csv --print-units base --log-file "$work/$kernel.csv" \
      "$bin" --quick --out "$work/run2-$kernel" ch06_exchange >> "$log" 2>&1
  fi
  if grep -q '"Kernel Name"' "$work/$kernel.csv" 2> /dev/null; then
    # One table: the first file's header, then every file's rows.
    if [ -s "$work/ncu.csv" ]; then sed -n '/"Kernel Name"/,$p' "$work/$kernel.csv" | tail -n +2 >> "$work/ncu.csv"
    else sed -n '/"Kernel Name"/,$p' "$work/$kernel.csv" >> "$work/ncu.csv"; fi
  fi
done
# Chapter 7: L2 reads of the streams per CTA and with multicast (the family runs part 1 only under
# BENCH_CH07_NCU=1 and logs its launches, so that ncu.c can name each profiled launch).
if "$bin" --list | grep -qx ch07_multicast; then
  echo "bench: ncu over bulk_stream and mcast_stream (a short ch07_multicast run)"
  m7=lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum,dram__bytes_read.sum
  BENCH_CH07_NCU=1 "$ncu" --clock-control none --metrics "$m7" --kernel-name-base function \
    --kernel-name regex:'^(bulk_stream|mcast_stream)$' --target-processes all --csv --print-units base \
    --log-file "$work/ch07.csv" "$bin" --out "$work/run-ch07" ch07_multicast >> "$log" 2>&1
  echo "ncu rc=$? for ch07_multicast" >> "$log"
  cp "$work/run-ch07/ch07-ncu-launches.csv" "$work/ch07-launches.csv" 2>> "$log"
fi
grep -E "ERR_NVGPUCTRPERM|==ERROR==|==WARNING==" "$log" | head -n 5
exit 0
