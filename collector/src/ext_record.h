/*
 * Timed records of the payload and counters extensions (ops >= 0x40, docs/capture-format.md 7.2):
 * `op length body`, the body starting with the record's own tick. A record is assembled as a list
 * of parts (encoded fields in a per-thread scratch area, and the program's data by reference),
 * then copied into the thread's buffer, or written as an EVENTS chunk of its own when it is larger
 * than half the buffer (batches of megabytes). No lock unless the buffer is full.
 */
#ifndef NVTXC_EXT_RECORD_H
#define NVTXC_EXT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "encode.h"
#include "stream.h"

/* Encoded bytes and data references of one record. */
#define XREC_SCRATCH (48u << 10)
#define XREC_PARTS 1280

struct xpart {
    const void *p;
    size_t n;
};

struct xrec {
    uint8_t *scratch;
    size_t used;      /* scratch bytes used */
    size_t run_start; /* start of the encoded bytes not yet made a part */
    struct xpart *parts;
    size_t nparts;
    size_t body;
    int full; /* out of scratch or parts: the record is dropped */
};

/* The calling thread's record, emptied; NULL when out of memory. */
struct xrec *xrec_begin(void);
/* Room for n encoded bytes at the end of the scratch; advance with xrec_end(). NULL when full. */
uint8_t *xrec_room(struct xrec *r, size_t n);
void xrec_end(struct xrec *r, uint8_t *end);
/* Appends n bytes of the program's memory (read when the record is written, within the call). */
void xrec_data(struct xrec *r, const void *p, size_t n);
/* Writes the record with this op to the thread's stream (one event record). */
void xrec_write(struct xrec *r, struct tstream *t, uint8_t op);

static inline void xrec_varint(struct xrec *r, uint64_t v)
{
    uint8_t *p = xrec_room(r, VARINT_MAX);
    if (p) xrec_end(r, put_varint(p, v));
}

static inline void xrec_svarint(struct xrec *r, int64_t v)
{
    uint8_t *p = xrec_room(r, VARINT_MAX);
    if (p) xrec_end(r, put_svarint(p, v));
}

static inline void xrec_u8(struct xrec *r, uint8_t v)
{
    uint8_t *p = xrec_room(r, 1);
    if (p) {
        *p = v;
        xrec_end(r, p + 1);
    }
}

/* Encoded length of a varint / zigzag varint. */
static inline size_t vlen(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static inline size_t svlen(int64_t v)
{
    return vlen(((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/*
 * Writes a small record whose body is already encoded in `body` (n bytes) to the thread's stream:
 * the fast path of fixed-size records such as counter samples.
 */
static inline void xrec_small(struct tstream *t, uint8_t op, const uint8_t *body, size_t n)
{
    uint8_t *p = stream_room(t, 1 + VARINT_MAX + n);
    *p++ = op;
    p = put_varint(p, n);
    memcpy(p, body, n);
    stream_commit(t, p + n, 1);
}

/* The record's tick, relative to T0 (it does not move the stream's delta chain). */
static inline void xrec_tick(struct xrec *r, uint64_t tick)
{
    xrec_svarint(r, (int64_t)(tick - nvtxc_g.start.tick));
}

#endif
