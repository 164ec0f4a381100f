#!/usr/bin/env bash
# emu_twins.sh: what an H200 does with the emulator's buggy test twins (wrong counts, stale reads, error 719,
# hangs, compute-sanitizer findings), next to their fixed twins; one text file per case under OUTDIR.
# Usage: tools/gpu/emu_twins.sh OUTDIR   (a Hopper GPU and nvcc; about 5 minutes)
# The same driver linked with the emulator (EMU=1) prints the emulator's report kind for each case instead.
# CASES="a b ..." runs only those cases (and the sanitizer runs among them); ISSUE19=1 the cases issue 19 added, AGREEMENT=1
# the ones the emulator once disagreed with the H200 on.
set -uo pipefail
out=${1:?usage: emu_twins.sh OUTDIR}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
. tools/gpu/cmocka.sh
b=build/twins
mkdir -p "$b"
kernels="plain async_ring flags multicast bulk_global lifetime_order parity mbarrier_init pending_tx global_mem copy_sources cta_order"
if [ "${EMU:-0}" = 1 ]; then
  export TWINS_REPEATS=${TWINS_REPEATS:-1}
  make --no-print-directory runtime >/dev/null || exit 1
  for k in $kernels; do
    gcc -std=c11 -g -O1 -D_GNU_SOURCE -Iruntime -x c -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1 -fno-tree-sra \
      -DDSM_UNIT=tw_$k -c tests/runtime/kernels/$k.cu -o $b/$k.emu.o || exit 1
  done
  gcc -std=c11 -g -O1 -D_GNU_SOURCE -Iruntime -c tests/runtime/twins/twins_main.c -o $b/main.emu.o &&
  gcc $b/main.emu.o $(for k in $kernels; do echo $b/$k.emu.o; done) build/libdsm_emu.a -lm -o $b/twins || exit 1
else
  make --no-print-directory runtime-cuda $cm >/dev/null || exit 1
  for k in $kernels; do
    nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -Iruntime -c tests/runtime/kernels/$k.cu -o $b/$k.o || exit 1
  done
  gcc -std=c11 -g -O2 -D_GNU_SOURCE -DDSM_BACKEND_CUDA -Iruntime -I/usr/local/cuda/include \
    -c tests/runtime/twins/twins_main.c -o $b/main.o &&
  nvcc -gencode=arch=compute_90a,code=sm_90a $b/main.o $(for k in $kernels; do echo $b/$k.o; done) build/libdsm_cuda.a \
    -o $b/twins || exit 1
fi

issue19="done_read_arrive done_read_arrive_fixed done_read_flag done_read_flag_fixed
  copy_out_no_barrier copy_out_final_barrier arrive_unwaited arrive_final_barrier
  stream_parity_zero stream_parity_round
  tokens_parity_zero tokens_parity_round init_relaxed_no_fence init_release_no_fence init_fence_relaxed
  pending_tx_armed_all pending_tx_armed_needed gscratch_no_barrier gscratch_barrier
  totals_one_word totals_own_words totals_atomic gpu_flag_relaxed gpu_flag_release gpu_flag_fenced
  flush_past_bins flush_bounded"
# where the emulator and an H200 once disagreed (a second wait on a completed phase, what a bulk copy reads), and the
# ordering a cluster barrier gives inside a CTA: each buggy case beside its fixed twin
agreement="second_wait_untouched second_wait_rearmed source_rewrite_relaxed source_rewrite_release
  g2s_unfenced g2s_fenced g2s_peer_after_arrive g2s_peer_before_arrive
  cta_count_relaxed cta_count_release cta_partial_after_arrive cta_partial_before_arrive"
[ "${ISSUE19:-0}" = 1 ] && CASES=${CASES:-$issue19}
[ "${AGREEMENT:-0}" = 1 ] && CASES=${CASES:-$agreement}
# selected CASE: whether the case is to run
selected() { [ -z "${CASES:-}" ] || case " $(echo $CASES) " in (*" $1 "*) true;; (*) false;; esac; }

# case [tool]: runs one case (a hang is killed after TWINS_HANG_S, 15 s; 20 launches, TWINS_REPEATS), under compute-sanitizer
# when a tool is named.
run() {
  local c=$1 tool=${2:-} f rc
  selected "$c" || return 0
  f=$out/$c${tool:+.$tool}.txt
  if [ -n "$tool" ]; then
    [ "${EMU:-0}" = 1 ] && return 0
    # one launch is enough for a sanitizer, and keeps the whole script under four minutes
    TWINS_SMALL=1 TWINS_REPEATS=1 timeout 40 compute-sanitizer --tool "$tool" --print-limit 5 "$b/twins" "$c" > "$f" 2>&1; rc=$?
  else
    timeout "${TWINS_HANG_S:-15}" "$b/twins" "$c" > "$f" 2>&1; rc=$?
  fi
  [ $rc -eq 124 ] && echo "result: killed after the time limit (the kernel hangs)" >> "$f"
  echo "exit status $rc" >> "$f"
  printf '%-28s %-10s %s\n' "$c" "${tool:-run}" "$(grep -E '^(launch|result):|SUMMARY' "$f" | tail -n 2 | tr '\n' ' ')"
}

{
  echo "# emu_twins on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'the emulator'), $(date -u +%FT%TZ)"
  for c in histogram_plain histogram_atomic publish_relaxed publish_release inbox_writers_relaxed inbox_writers_release \
           mixed_writer_relaxed mixed_writer_release \
           uninitialised initialised copy_unguarded copy_guarded read_after_exit read_with_final_barrier \
           store_before_start store_after_barrier warp_handoff_nowait warp_handoff_wait \
           ring_0 ring_1 ring_2 ring_3 ring_4 ring_5 pingpong_release pingpong_relaxed pingpong_wrong_value \
           flag_handoff_release flag_handoff_relaxed volatile_fenced volatile_unfenced \
           mcast_0 mcast_1 mcast_2 mcast_3 mcast_4 mcast_5 mcast_6 mcast_7 mcast_8 mcast_9 mcast_10 mcast_11 \
           load_0 load_1 load_2 load_3 store_0 store_2 store_3 store_5 $issue19 $agreement; do
    run "$c"
  done
  # what the sanitizers say about the buggy twins whose bug they can see
  for c in histogram_plain publish_relaxed warp_handoff_nowait ring_1 mcast_0 mcast_4 mcast_8; do run "$c" racecheck; done
  for c in mcast_0 mcast_1 mcast_2 mcast_10 load_1; do run "$c" memcheck; done
  for c in copy_unguarded read_after_exit uninitialised done_read_arrive copy_out_no_barrier flush_past_bins; do
    run "$c" memcheck
  done
  run uninitialised initcheck
} | tee "$out/SUMMARY.txt"
