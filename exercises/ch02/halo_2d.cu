/* halo_2d.cu: ch02.halo_2d: a 4-neighbour sum over each 2-D cluster's patch of an image, the neighbours across tile edges read from the peer CTAs' shared memory. */
#include "dsm.h"

/* Every CTA is HALO_TILE x HALO_TILE threads and owns that tile of the image. */
#define HALO_TILE 8

/* The contract (course/ch02.ini states it as the task):
 * - The image is gridDim.y * HALO_TILE rows of gridDim.x * HALO_TILE words,
 *   row-major in `in`; CTA (bx, by) owns the tile whose top-left pixel is
 *   (bx * HALO_TILE, by * HALO_TILE), thread (tx, ty) its pixel (tx, ty).
 * - The CTAs of one cluster cover a patch of the image. out at pixel p is the
 *   sum, modulo 2^32, of the four neighbours of p (left, right, up, down)
 *   that lie inside p's cluster's patch; a neighbour outside it counts 0.
 * - Each CTA loads only its own tile from `in`; a neighbour in another tile
 *   is read from the shared memory of the CTA that owns it. Every thread
 *   passes exactly two cluster barriers.
 * Launch: 2-D grid and clusters (the tests use clusters of 2 x 2 CTAs),
 * blocks of HALO_TILE x HALO_TILE threads, no dynamic shared memory. */
__global__ void halo_2d(const uint32_t *in, uint32_t *out)
{
    // TODO(ch02.halo_2d): yours to design, from the contract above.
    (void)in;
    (void)out;
}
DSM_KERNEL_ENTRY(halo_2d, const uint32_t *, uint32_t *)
