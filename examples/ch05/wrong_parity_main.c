/* wrong_parity_main.c: runs pp_wrong_parity (examples/ch05/wrong_parity.cu) in one cluster of 2 CTAs and prints the tokens each CTA received. */
#include "pingpong_run.h"

DSM_DECLARE_KERNEL(pp_wrong_parity);

int main(void) { return pingpong_run("wrong_parity", DSM_KERNEL(pp_wrong_parity)); }
