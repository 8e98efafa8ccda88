/*
 * Event buffers that live in the capture file. Each thread writes its records into an OPEN chunk
 * mapped (MAP_SHARED) from the file, so what it committed is in the kernel's page cache the moment
 * it is written: a process that ends by _exit() or SIGKILL leaves its buffers in the capture. A
 * flush still copies the records out as an ordinary EVENTS chunk (checksummed, in file order after
 * the metadata it uses) and empties the buffer, which is then reused. Regions of exited threads
 * go back to a pool, so the file holds one region per thread alive at a time.
 */
#ifndef NVTXC_REGION_H
#define NVTXC_REGION_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct region {
    uint8_t *chunk;          /* the OPEN chunk's header, in the mapping */
    size_t size;             /* bytes mapped (the whole chunk) */
    _Atomic uint64_t *commit; /* the commit word */
    uint8_t *events;         /* the EVENTS body */
    uint8_t *records;        /* first record byte */
    size_t capacity;         /* record bytes that fit */
    struct region *next;     /* pool */
};

/*
 * File lock held, capture open: a region with room for `capacity` record bytes, empty, its EVENTS
 * header naming `stream_id` at stream offset `stream_offset`. NULL when the file cannot be
 * extended or mapped (the caller keeps its events in memory, as before).
 */
struct region *region_acquire_locked(size_t capacity, uint64_t stream_id, uint64_t stream_offset);
/* File lock held: the region is empty (commit 0) and goes back to the pool. */
void region_release_locked(struct region *r);
/* Owner, region empty: the stream offset of the next record. */
void region_rebase(struct region *r, uint64_t stream_offset);
/* Buffers stay in memory from now on (NVTXCAPTURE_MAP=0). */
void region_disable(void);
/* In a fork child: the parent's regions are not mapped here (MADV_DONTFORK); forget them. */
void region_forget_all(void);

#endif
