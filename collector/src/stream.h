/*
 * Per-thread event streams: each thread appends records to its own buffer with no lock and no
 * allocation; the buffer is a region of the capture file (region.h), so what is committed survives
 * any end of the process, and it is also written as an EVENTS chunk when full, at thread exit, at
 * process exit and on fatal signals. Messages are interned per thread: a pointer cache answers repeated calls
 * with the same literal in a few instructions, a content table catches the rest.
 */
#ifndef NVTXC_STREAM_H
#define NVTXC_STREAM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "collector.h"
#include "encode.h"
#include "format.h"
#include "meta.h"

/* Room reserved for one fixed-size event record (op, dt, domain, range id, attrs without ext payloads). */
#define EVENT_MAX 96
/* Push depths kept inline for domain ids below this. */
#define INLINE_DOMAINS 8
#define PCACHE_SIZE 256

/* A recently seen message pointer and the string it pointed to. */
struct pcache_entry {
    const char *ptr;
    /* First 16 bytes of the text (zero padded) and the bytes that must match (text + NUL when short). */
    uint64_t w0, w1, m0, m1;
    const char *text;
    uint32_t sid;
    uint32_t len;
};

struct ctab_entry {
    uint64_t hash;
    const char *text;
    uint32_t len;
    uint32_t sid;
};

struct arena_block;
struct region;

struct tstream {
    /* Hot, touched only by the owning thread. */
    uint8_t *cur;
    uint8_t *end; /* buf + cap */
    uint64_t last_tick;
    uint32_t nev; /* event records since buf[0] */
    uint32_t range_seq;
    int32_t depth[INLINE_DOMAINS];
    /*
     * Published after every record: nev << 32 | (cur - commit_base), read by flushes from other
     * threads. It points into the OPEN chunk of the thread's region (so the file always says how
     * much of the buffer is whole records) or, without a region, at commit_local.
     */
    _Atomic uint64_t *commit;
    uint8_t *commit_base;

    uint8_t *buf;
    size_t cap;
    uint64_t stream_id;
    pid_t tid;
    char os_name[16];

    /* Flush bookkeeping, under the file lock. */
    uint64_t stream_base; /* stream offset of buf[0] */
    uint32_t flushed_off;
    uint32_t flushed_nev;

    /* Interning (owner only). */
    uint32_t next_sid;
    struct pcache_entry pcache[PCACHE_SIZE];
    struct ctab_entry *ctab;
    uint32_t ctab_mask, ctab_used;
    struct arena_block *arena;
    size_t arena_bytes;
    char *scratch; /* UTF-8 conversion of wide strings */

    int32_t *depth_more; /* push depths of domain ids >= INLINE_DOMAINS */
    uint32_t depth_more_n;

    struct tstream *prev, *next; /* registry */
    struct region *region;        /* NULL: buf is malloc'd and lost if the process dies unflushed */
    _Atomic uint64_t commit_local;
    int attach_pending; /* a fork child's stream: the first record attaches a region */
};

extern __thread struct tstream *nvtxc_tls TLS_FAST;

struct tstream *stream_create(void);
uint8_t *stream_room_slow(struct tstream *t, size_t need);
uint32_t intern_slow(struct tstream *t, const char *s, struct pcache_entry *e);
uint32_t intern_wide(struct tstream *t, const wchar_t *w);
uint32_t intern_bytes(struct tstream *t, const char *s, size_t n, uint32_t flags);
int32_t *depth_slot_more(struct tstream *t, uint32_t domain);

/*
 * Owner only: writes `n` bytes of whole records (counting `events` event records) as an EVENTS
 * chunk of their own, after the buffer; for records larger than the buffer can hold.
 */
void stream_write_direct(struct tstream *t, const uint8_t *records, size_t n, uint32_t events);

/* Flushing. Owner flush: file lock held. */
void stream_flush_locked(struct tstream *t, int owner);
/*
 * Writes every thread's committed records, then pending metadata (exit, signals). File lock held.
 * `self_as_owner`: the calling thread is between NVTX calls (exit, not a signal handler), so its
 * own buffer is flushed as its owner and emptied.
 */
void stream_flush_all_locked(int self_as_owner);
void stream_key_init(void);
void stream_after_fork_child(void);
/* Records a change of the calling thread's OS name (process exit). */
void stream_note_self_name(void);

static inline struct tstream *stream_self(void)
{
    /* Definitions reach the file before any event that can use them (a process may end any time). */
    if (UNLIKELY(atomic_load_explicit(&nvtxc_meta_pending, memory_order_relaxed))) meta_flush_pending();
    struct tstream *t = nvtxc_tls;
    if (UNLIKELY(t == NULL)) t = stream_create();
    return t;
}

static inline uint8_t *stream_room(struct tstream *t, size_t need)
{
    if (LIKELY(t->cur + need <= t->end)) return t->cur;
    return stream_room_slow(t, need);
}

/* Ends a record: the bytes up to p become visible to flushes from other threads. */
static inline void stream_commit(struct tstream *t, uint8_t *p, uint32_t events)
{
    t->cur = p;
    t->nev += events;
    atomic_store_explicit(t->commit, ((uint64_t)t->nev << 32) | (uint64_t)(p - t->commit_base), memory_order_release);
}

static inline int32_t *depth_slot(struct tstream *t, uint32_t domain)
{
    if (LIKELY(domain < INLINE_DOMAINS)) return &t->depth[domain];
    return depth_slot_more(t, domain);
}

/* A process-unique nvtxRangeId_t (stream id in the high half). */
static inline uint64_t stream_next_range_id(struct tstream *t)
{
    if (UNLIKELY(++t->range_seq == 0)) t->range_seq = 1;
    return (t->stream_id << 32) | t->range_seq;
}

/* The level a push in `domain` returns, and the level a pop returns (-1: nothing to pop). */
static inline int stream_push_level(struct tstream *t, uint32_t domain)
{
    int32_t *d = depth_slot(t, domain);
    return (*d)++;
}

static inline int stream_pop_level(struct tstream *t, uint32_t domain)
{
    int32_t *d = depth_slot(t, domain);
    if (*d <= 0) return -1;
    return --*d;
}

/* Deliberately reads up to 16 bytes past a short string (never across a page): tell ASan. */
#if defined(__SANITIZE_ADDRESS__)
#define PAGE_LOCAL_READ __attribute__((no_sanitize_address))
#else
#define PAGE_LOCAL_READ
#endif

/* Same text as the cache entry? Reads 16 bytes at s only when they lie in one page. */
static inline PAGE_LOCAL_READ int pcache_same(const struct pcache_entry *e, const char *s)
{
    if (LIKELY(((uintptr_t)s & 4095) <= 4096 - 16)) {
        uint64_t a0, a1;
        memcpy(&a0, s, 8);
        memcpy(&a1, s + 8, 8);
        if (((a0 ^ e->w0) & e->m0) | ((a1 ^ e->w1) & e->m1)) return 0;
        return e->len < 16 || strcmp(s + 16, e->text + 16) == 0;
    }
    return strcmp(s, e->text) == 0;
}

/* String id of a message (0 for NULL). */
static inline uint32_t intern(struct tstream *t, const char *s)
{
    if (UNLIKELY(s == NULL)) return 0;
    uintptr_t k = (uintptr_t)s;
    struct pcache_entry *e = &t->pcache[((k >> 3) ^ (k >> 11)) & (PCACHE_SIZE - 1)];
    if (LIKELY(e->ptr == s) && LIKELY(pcache_same(e, s))) return e->sid;
    return intern_slow(t, s, e);
}

#endif
