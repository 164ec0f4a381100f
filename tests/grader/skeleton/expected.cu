/* input.cu: the skeleton generator's test input: regions, indentation, tabs, a bare //~ and book markers. */
#include "dsm.h"

// BOOK-BEGIN(example)
__global__ void example(float *out, int n)
{
    // TODO(ch99.example): write out[i] = i.
    (void)out;

    (void)n;
	if (n > 0) {
		// TODO(ch99.example): and the last one twice.
	}
}
// BOOK-END(example)
DSM_KERNEL_ENTRY(example, float *, int)
