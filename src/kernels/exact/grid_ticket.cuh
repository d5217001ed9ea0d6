/* grid_ticket.cuh - the ticket that finds the last block of a
 * cured_reduce grid: one atomic that publishes what the block wrote to the
 * workspace and, in the block that draws the last ticket, makes every
 * other block's writes visible before it reads them.
 *
 * defines: grid_ticket
 *
 * The ticket is an acquire-release atomic at GPU scope: a release for the
 * writes that happen before it, an acquire for the writes that happen
 * before any ticket it follows in the counter's order (every ticket is a
 * read-modify-write, so the releases chain). The other threads of the
 * block reach it through a barrier: their writes, then a barrier (a warp's
 * __syncwarp or the block's __syncthreads, both of which order memory
 * among the threads they join), then the ticket in one thread; in the last
 * block, the ticket, then a barrier, then every thread's reads. Before
 * this, each side was a sequentially consistent fence (__threadfence,
 * MEMBAR.SC.GPU in SASS) around a relaxed atomic; the acquire-release
 * atomic is MEMBAR.ALL.GPU before it and a cache invalidation after it,
 * and the reading side needs no fence of its own.
 */
#ifndef CURED_GRID_TICKET_CUH
#define CURED_GRID_TICKET_CUH

/* Adds 1 to *counter (global memory) with acquire-release semantics at
 * GPU scope and returns the count before it. One thread calls it. */
__device__ inline unsigned grid_ticket(unsigned *counter)
{
    unsigned before;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                 : "=r"(before)
                 : "l"(counter)
                 : "memory");
    return before;
}

#endif /* CURED_GRID_TICKET_CUH */
