/* relaxed_signal_main.c: runs pp_relaxed_signal (examples/ch05/relaxed_signal.cu) in one cluster of 2 CTAs and prints the tokens each CTA received. */
#include "pingpong_run.h"

DSM_DECLARE_KERNEL(pp_relaxed_signal);

int main(void) { return pingpong_run("relaxed_signal", DSM_KERNEL(pp_relaxed_signal)); }
