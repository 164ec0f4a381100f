#!/usr/bin/env bash
# build.sh: builds chapter 3's GPU programs (trap_repro, histogram_race) into build/bench/ch03: kernels with nvcc for sm_90a, host code with gcc, linked by nvcc against build/libdsm_cuda.a.
set -eu
cd "$(dirname "$0")/../.."

NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
CC=${CC:-gcc}
ARCH="-gencode=arch=compute_90a,code=sm_90a"
out=build/bench/ch03
mkdir -p "$out"

make --no-print-directory runtime-cuda NVCC="$NVCC"     # build/libdsm_cuda.a

kernel() {  # kernel SOURCE OBJECT: one kernel file for the GPU, with line info for compute-sanitizer
    "$NVCC" $ARCH -O3 -lineinfo -Iruntime -c "$1" -o "$out/$2"
}
host() {    # host SOURCE OBJECT: C11 host code against the CUDA backend
    "$CC" -std=c11 -O2 -Wall -Wextra -D_GNU_SOURCE -DDSM_BACKEND_CUDA -Iruntime -I"$CUDA_HOME/include" -c "$1" -o "$out/$2"
}

kernel examples/ch03/trap.cu trap.o
kernel solutions/ch03/fix_trap.cu fix_trap.o
kernel examples/ch02/histogram_plain_rmw.cu histogram_plain_rmw.o
kernel solutions/ch02/histogram.cu histogram.o
host bench/ch03/trap_repro.c trap_repro.o
host bench/ch03/histogram_race.c histogram_race.o

"$NVCC" $ARCH "$out/trap_repro.o" "$out/trap.o" "$out/fix_trap.o" build/libdsm_cuda.a -o "$out/trap_repro"
"$NVCC" $ARCH "$out/histogram_race.o" "$out/histogram_plain_rmw.o" "$out/histogram.o" build/libdsm_cuda.a \
    -o "$out/histogram_race"
echo "built $out/trap_repro and $out/histogram_race"
