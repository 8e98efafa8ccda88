#include "region.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "encode.h"
#include "format.h"
#include "output.h"

static struct region *pool;
/* Set when the file cannot be extended or mapped: later streams keep their events in memory. */
static int unavailable;
/* NVTXCAPTURE_MAP=0: never map (the buffers stay in memory, as before version 1.2). */
static int disabled;

void region_disable(void) { disabled = 1; }

/* A varint in exactly NVTXC_OPEN_VARINT_WIDTH bytes (readers accept long forms). */
static void put_wide_varint(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < NVTXC_OPEN_VARINT_WIDTH - 1; i++) {
        p[i] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[NVTXC_OPEN_VARINT_WIDTH - 1] = (uint8_t)(v & 0x7f);
}

static void write_events_header(struct region *r, uint64_t stream_id, uint64_t stream_offset)
{
    uint8_t *p = r->events;
    put_wide_varint(p, stream_id);
    put_wide_varint(p + NVTXC_OPEN_VARINT_WIDTH, stream_offset);
    /* The pair and the event count are not kept up to date: a reader of an OPEN chunk uses the
       capture's latest pair and counts the records. */
    put_wide_varint(p + 2 * NVTXC_OPEN_VARINT_WIDTH, 0);
    put_wide_varint(p + 3 * NVTXC_OPEN_VARINT_WIDTH, 0);
    put_wide_varint(p + 4 * NVTXC_OPEN_VARINT_WIDTH, 0);
}

void region_rebase(struct region *r, uint64_t stream_offset)
{
    /* Only while the commit word is 0: a reader ignores the header of an empty region. */
    put_wide_varint(r->events + NVTXC_OPEN_VARINT_WIDTH, stream_offset);
}

struct region *region_acquire_locked(size_t capacity, uint64_t stream_id, uint64_t stream_offset)
{
    struct region *r = pool;
    if (r && r->capacity >= capacity) {
        pool = r->next;
    } else {
        if (unavailable || disabled) return NULL;
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t size = (NVTXC_OPEN_EVENTS_AT + NVTXC_OPEN_EVENTS_HEADER + capacity + page - 1) / page * page;
        long long offset = out_reserve_aligned_locked(size, page);
        if (offset < 0) {
            unavailable = 1;
            return NULL;
        }
        void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, out_fd(), (off_t)offset);
        if (map == MAP_FAILED) {
            unavailable = 1; /* the reserved bytes stay a valid PAD chunk */
            return NULL;
        }
        /* A fork child must never write into its parent's capture. */
        madvise(map, size, MADV_DONTFORK);
        r = malloc(sizeof *r);
        if (!r) {
            munmap(map, size);
            return NULL;
        }
        r->chunk = map;
        r->size = size;
        r->commit = (_Atomic uint64_t *)(void *)(r->chunk + NVTXC_OPEN_COMMIT_AT);
        r->events = r->chunk + NVTXC_OPEN_EVENTS_AT;
        r->records = r->events + NVTXC_OPEN_EVENTS_HEADER;
        r->capacity = size - (size_t)(r->records - r->chunk);
        /*
         * The reserved bytes are a PAD chunk of zeros: one 8-byte store makes them an OPEN chunk
         * whose commit word is 0 (empty), so the file is valid at every instant. The header's CRC
         * field keeps the PAD's checksum; an OPEN chunk has none.
         */
        uint8_t head[8];
        put_u32(head, (uint32_t)(size - NVTXC_CHUNK_HEADER_SIZE));
        put_u16(head + 4, NVTXC_CHUNK_OPEN);
        put_u16(head + 6, 0);
        uint64_t word;
        memcpy(&word, head, 8);
        __atomic_store_n((uint64_t *)(void *)r->chunk, word, __ATOMIC_RELEASE);
    }
    write_events_header(r, stream_id, stream_offset);
    r->next = NULL;
    return r;
}

void region_release_locked(struct region *r)
{
    atomic_store_explicit(r->commit, 0, memory_order_release);
    r->next = pool;
    pool = r;
}

void region_forget_all(void)
{
    unavailable = 0;
    while (pool) {
        struct region *next = pool->next;
        free(pool);
        pool = next;
    }
}
