#!/bin/bash
# run_xent_probe.sh: builds and runs chapter 9's design probe (xent_probe.cu) and PyTorch's cross-entropy on the same shapes; writes OUT/xent_probe.csv, OUT/xent_torch.csv, OUT/machine.txt.
set -u
OUT=${1:?usage: run_xent_probe.sh OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv > "$OUT/machine.txt" 2>&1
date -u >> "$OUT/machine.txt"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iruntime -Isolutions/ch09 \
  bench/hw/xent_probe.cu -o "$OUT/xent_probe.bin" 2> "$OUT/build.log" || { cat "$OUT/build.log"; exit 1; }
timeout 200 "$OUT/xent_probe.bin" > "$OUT/xent_probe.csv" 2> "$OUT/probe.err"; echo "probe rc $?" >> "$OUT/machine.txt"
rm -f "$OUT/xent_probe.bin"
timeout 120 python3 bench/torch/xent_torch.py --rounds 5 \
  --shapes 128256x4096:bf16,151936x4096:bf16,262144x4096:bf16,128256x16384:bf16,32000x16384:bf16,128256x64:bf16,262144x8:bf16,128256x512:bf16,128256x4096:f32,262144x1024:f32 \
  > "$OUT/xent_torch.csv" 2> "$OUT/torch.err"; echo "torch rc $?" >> "$OUT/machine.txt"
tail -c 3000 "$OUT/probe.err" "$OUT/torch.err"
cat "$OUT/machine.txt"
