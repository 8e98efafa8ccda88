/*
 * Deep copies: memory that payload entries point to (C strings given by pointer, and pointers the
 * program flagged DEEP_COPY), found by laying out each payload with its schema the way the viewer
 * does (src/payload/layout.ts: explicit offsets, natural alignment capped by packAlign, the running
 * cursor of dynamic schemas). Layouts are worked out once at registration; an event only walks the
 * schemas that can point somewhere.
 */
#ifndef NVTXC_PAYLOAD_COPY_H
#define NVTXC_PAYLOAD_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "payload_registry.h"

#define PL_MAX_COPIES 256
/* Bytes deep-copied for one event, all regions together. */
#define PL_MAX_COPY_BYTES (1u << 20)

struct pl_copy {
    const void *addr;
    size_t size;
    uint32_t flags; /* NVTXC_EXT_CUT when the region was cut */
};

struct pl_copies {
    struct pl_copy r[PL_MAX_COPIES];
    size_t n;
    size_t bytes;
    size_t limit; /* bytes allowed in all (at most PL_MAX_COPY_BYTES) */
};

/*
 * Bytes of a payload the capture keeps (at most `cap`), and its flags (NVTXC_EXT_SIZE_UNKNOWN,
 * NVTXC_EXT_CUT). A SIZE_MAX size is resolved for C strings (strlen, the header's example).
 */
size_t pl_item_size(const nvtxPayloadData_t *item, size_t cap, uint32_t *flags);

/* Works out the entry layouts, size, alignment and `needs_copy` of a schema being registered. */
/*
 * Appends to `out` the regions the payloads of one event point to. `sizes` are the bytes of each
 * payload the capture keeps (SIZE_MAX sizes already resolved, 0 when unknown).
 */
void pl_copies_collect(uint32_t domain, const nvtxPayloadData_t *items, const size_t *sizes, size_t n,
                       struct pl_copies *out);

#endif
