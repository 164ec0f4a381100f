/* input.cu: the skeleton generator's test input: regions, indentation, tabs, a bare //~ and book markers. */
#include "dsm.h"

// BOOK-BEGIN(example)
__global__ void example(float *out, int n)
{
    // BEGIN SOLUTION
    //~ // TODO(ch99.example): write out[i] = i.
    //~ (void)out;
    //~
    //~ (void)n;
    for (int i = 0; i < n; ++i)
        out[i] = (float)i;
    // END SOLUTION
	if (n > 0) {
		// BEGIN SOLUTION (a second region, tab-indented)
		//~ // TODO(ch99.example): and the last one twice.
		out[n - 1] *= 2.0f;
		// END SOLUTION
	}
}
// BOOK-END(example)
DSM_KERNEL_ENTRY(example, float *, int)
