/* halo_2d.cu: ch02.halo_2d: a 6-neighbour sum over each cluster's box of a 2-D image or 3-D volume, the neighbours across tile faces taken from the peer CTAs' shared memory, for any cluster shape, tile size and block shape. */
#include "dsm.h"

/*
 * The contract (course/ch02.ini states it as the task; the tests check exactly this):
 *
 * Volume: gridDim.z * tz planes of gridDim.y * ty rows of W = gridDim.x * tx
 * words, x fastest: voxel (x, y, z) is in[(z * H + y) * W + x], H = gridDim.y * ty.
 * A 2-D image is one plane (gridDim.z = tz = 1).
 *
 * Tiles: the CTA at blockIdx (bx, by, bz) owns the tile of tx * ty * tz voxels
 * whose first voxel is (bx * tx, by * ty, bz * tz). The tile has nothing to do
 * with the block's shape: blockDim is any shape of at most 1024 threads, and
 * a thread may handle several voxels, or none.
 *
 * Clusters: any 1-, 2- or 3-D shape of at most 8 CTAs, or 16 when the launcher
 * has set the non-portable attribute. A cluster's tiles cover a box of the
 * volume.
 *
 * Output: out at voxel p is the sum, modulo 2^32, of the six face neighbours of
 * p (x - 1, x + 1, y - 1, y + 1, z - 1, z + 1) that lie inside p's cluster's
 * box; a neighbour outside the box counts 0.
 *
 * Mechanism:
 * - Each CTA reads only its own tile from `in`, each voxel once, and writes
 *   only its own tile of `out`, each voxel once; no other global memory.
 * - A neighbour that lies in another CTA's tile crosses between the CTAs
 *   through distributed shared memory, exactly once: for every such (voxel,
 *   neighbour) pair the cluster moves 4 bytes through its peers' shared memory
 *   (loaded by the reader or stored by the owner, your choice), and no more.
 * - Every thread passes exactly two cluster barriers.
 *
 * Launch: dynamic shared memory of (tx + 2) * (ty + 2) * (tz + 2) * 4 bytes per
 * CTA (room for the tile with a one-voxel border), no static shared memory needed.
 */
__global__ void halo_2d(const uint32_t *in, uint32_t *out, uint32_t tx, uint32_t ty, uint32_t tz)
{
    // TODO(ch02.halo_2d): yours to design, from the contract above.
    (void)in;
    (void)out;
    (void)tx;
    (void)ty;
    (void)tz;
}
DSM_KERNEL_ENTRY(halo_2d, const uint32_t *, uint32_t *, uint32_t, uint32_t, uint32_t)
