#!/usr/bin/env bash
# ptxas_report.sh: what the compiler does with chapter 6's kernels (registers per thread, the seed's copy loop in PTX and SASS); needs nvcc, no GPU.
# Usage: bench/hw/ptxas_report.sh OUT   -> OUT/ptxas_report.txt (also printed)
# Chapter 6 rests two statements on it: ring_push at 1024 threads holds one CTA per SM because of its registers,
# and the seed's DSMEM loop has one 4-byte load in flight per thread (each load's store comes before the next load).
# The SASS part needs cuobjdump (a full CUDA toolkit); without it the script says so and shows the PTX only.
set -uo pipefail
out=${1:?usage: ptxas_report.sh OUT}
mkdir -p "$out" build/ptxas
export PATH=/usr/local/cuda/bin:$PATH
flags="-gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -Iruntime -Itests"   # mk/runtime.mk's NVCC_FLAGS for sm_90a
report="$out/ptxas_report.txt"
{
  echo "# ptxas_report: $(nvcc --version | tail -n 1); flags: $flags; commit $(git describe --always --dirty=+dirty 2> /dev/null || echo "${BENCH_COMMIT:-unknown}")"
  echo
  echo "## Registers per thread (nvcc -Xptxas -v)"
  for f in xchg_seed xchg_vec ring_push; do
    nvcc $flags -Xptxas -v -c solutions/ch06/$f.cu -o build/ptxas/$f.o 2>&1 |
      awk '/Compiling entry/ { name = $0; sub(/.*function ./, "", name); sub(/. for .*/, "", name) } /Used [0-9]+ registers/ { print "  " name ": " $0 }' |
      sed 's/ptxas info *: //'
  done
  echo
  echo "  A CTA of T threads at R registers per thread needs T x R of the SM's 65536 registers (rounded per warp to"
  echo "  256): ring_push at 1024 threads needs 1024 x R; two such CTAs fit only when R <= 32."
  echo
  echo "## The seed's DSMEM copy loop in PTX (xchg_seed_dsmem: smem_dst[i] = peer_src[i])"
  nvcc $flags -ptx solutions/ch06/xchg_seed.cu -o build/ptxas/xchg_seed.ptx 2>&1
  awk '/.entry _Z15xchg_seed_dsmem/, /^}/' build/ptxas/xchg_seed.ptx | grep -nE "^\\\$L|ld\\.|st\\.|bra|barrier" | sed 's/^/  /'
  echo
  echo "  In the inner loop each generic ld.f32 (the peer's float, through the mapped pointer) is followed by its"
  echo "  st.shared.f32 before the next ld: a generic address may point into this CTA's own shared memory, so"
  echo "  nothing lets the next load pass the store unless ptxas proves they do not overlap (the SASS below)."
  echo
  echo "## The same loop in SASS (cuobjdump --dump-sass)"
  if command -v cuobjdump > /dev/null 2>&1; then
    cuobjdump --dump-sass --function _Z15xchg_seed_dsmemiPKfPf build/ptxas/xchg_seed.o |
      grep -E "^ *\\.L|/\\*[0-9a-f]{4}\\*/" | grep -E "\\.L_|LD|ST|BRA|BAR|UCGABAR|MEMBAR" | sed 's/^ */  /'
    echo
    echo "  Count, in the loop block that holds the generic load (LD.E) and its shared store (STS): loads before"
    echo "  the first store, per iteration. One is the statement's 'one 4-byte load in flight per thread'."
  else
    echo "  cuobjdump not found here (it comes with a full CUDA toolkit): run this script where it is installed."
  fi
} > "$report" 2>&1
cat "$report"
