#include "stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>

#include "meta.h"
#include "output.h"
#include "region.h"
#include "text.h"

__thread struct tstream *nvtxc_tls TLS_FAST;

static pthread_key_t exit_key;
static struct tstream *registry;

/* Interned text beyond this many bytes per thread starts a fresh table (ids keep counting). */
#define ARENA_LIMIT (32u << 20)
#define ARENA_BLOCK (64u << 10)

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    char data[];
};

static const char *arena_copy(struct tstream *t, const char *s, size_t n)
{
    struct arena_block *b = t->arena;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = n + 1 > ARENA_BLOCK ? n + 1 : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->next = t->arena;
        b->used = 0;
        b->cap = cap;
        t->arena = b;
        t->arena_bytes += cap;
    }
    char *copy = b->data + b->used;
    memcpy(copy, s, n);
    copy[n] = 0;
    b->used += n + 1;
    return copy;
}

static void intern_reset(struct tstream *t)
{
    while (t->arena) {
        struct arena_block *next = t->arena->next;
        free(t->arena);
        t->arena = next;
    }
    t->arena_bytes = 0;
    memset(t->pcache, 0, sizeof t->pcache);
    memset(t->ctab, 0, sizeof(struct ctab_entry) * (t->ctab_mask + 1));
    t->ctab_used = 0;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
}

static void ctab_grow(struct tstream *t)
{
    uint32_t size = (t->ctab_mask + 1) * 2;
    struct ctab_entry *fresh = calloc(size, sizeof *fresh);
    if (!fresh) return;
    for (uint32_t i = 0; i <= t->ctab_mask; i++) {
        struct ctab_entry *e = &t->ctab[i];
        if (!e->text) continue;
        uint32_t j = (uint32_t)e->hash & (size - 1);
        while (fresh[j].text) j = (j + 1) & (size - 1);
        fresh[j] = *e;
    }
    free(t->ctab);
    t->ctab = fresh;
    t->ctab_mask = size - 1;
}

static const struct ctab_entry *intern_entry(struct tstream *t, const char *s, size_t n, uint32_t flags)
{
    uint64_t h = hash_bytes(s, n) ^ flags;
    uint32_t i = (uint32_t)h & t->ctab_mask;
    for (;; i = (i + 1) & t->ctab_mask) {
        struct ctab_entry *e = &t->ctab[i];
        if (!e->text) break;
        if (e->hash == h && e->len == n && memcmp(e->text, s, n) == 0) return e;
    }
    if (t->arena_bytes > ARENA_LIMIT) {
        intern_reset(t);
        i = (uint32_t)h & t->ctab_mask;
    }
    const char *copy = arena_copy(t, s, n);
    if (!copy) return NULL;
    uint32_t sid = ++t->next_sid;
    if (flags & NVTXC_STRING_TRUNCATED) atomic_fetch_add(&nvtxc_g.strings_truncated, 1);
    uint8_t *p = stream_room(t, 1 + 2 * VARINT_MAX + n);
    *p++ = NVTXC_OP_STRING;
    p = put_varint(p, flags);
    p = put_str(p, s, n);
    stream_commit(t, p, 0);

    struct ctab_entry *e = &t->ctab[i];
    e->hash = h;
    e->text = copy;
    e->len = (uint32_t)n;
    e->sid = sid;
    if (++t->ctab_used * 2 > t->ctab_mask + 1) {
        ctab_grow(t);
        /* Find the entry again at its new place. */
        for (i = (uint32_t)h & t->ctab_mask; t->ctab[i].text != copy; i = (i + 1) & t->ctab_mask) {
        }
        return &t->ctab[i];
    }
    return e;
}

uint32_t intern_bytes(struct tstream *t, const char *s, size_t n, uint32_t flags)
{
    const struct ctab_entry *e = intern_entry(t, s, n, flags);
    return e ? e->sid : 0;
}

uint32_t intern_slow(struct tstream *t, const char *s, struct pcache_entry *slot)
{
    size_t n = strnlen(s, NVTXC_MAX_STRING + 1);
    if (n > NVTXC_MAX_STRING) return intern_bytes(t, s, utf8_cut(s, NVTXC_MAX_STRING), NVTXC_STRING_TRUNCATED);
    const struct ctab_entry *e = intern_entry(t, s, n, 0);
    if (!e) return 0;
    /* Remember the pointer: the next call with it costs two 8-byte compares. */
    uint8_t head[16] = {0};
    memcpy(head, s, n < 16 ? n : 16);
    slot->ptr = s;
    memcpy(&slot->w0, head, 8);
    memcpy(&slot->w1, head + 8, 8);
    if (n >= 16) {
        slot->m0 = slot->m1 = ~0ull;
    } else {
        size_t need = n + 1; /* the text and its NUL */
        slot->m0 = need >= 8 ? ~0ull : (1ull << (8 * need)) - 1;
        slot->m1 = need <= 8 ? 0 : need >= 16 ? ~0ull : (1ull << (8 * (need - 8))) - 1;
    }
    slot->text = e->text;
    slot->sid = e->sid;
    slot->len = (uint32_t)n;
    return e->sid;
}

uint32_t intern_wide(struct tstream *t, const wchar_t *w)
{
    if (!w) return 0;
    if (!t->scratch && !(t->scratch = malloc(NVTXC_MAX_STRING))) return 0;
    int truncated;
    size_t n = wide_to_utf8(w, t->scratch, NVTXC_MAX_STRING, &truncated);
    return intern_bytes(t, t->scratch, n, truncated ? NVTXC_STRING_TRUNCATED : 0);
}

int32_t *depth_slot_more(struct tstream *t, uint32_t domain)
{
    static int32_t overflow;
    uint32_t index = domain - INLINE_DOMAINS;
    if (index >= t->depth_more_n) {
        uint32_t n = t->depth_more_n ? t->depth_more_n : 8;
        while (n <= index) n *= 2;
        int32_t *more = realloc(t->depth_more, n * sizeof *more);
        if (!more) return &overflow;
        memset(more + t->depth_more_n, 0, (n - t->depth_more_n) * sizeof *more);
        t->depth_more = more;
        t->depth_more_n = n;
    }
    return &t->depth_more[index];
}

/* ---------------------------------------------------------------- creation and exit */

static void write_thread_record(struct tstream *t)
{
    uint8_t *p = t->cur;
    *p++ = NVTXC_OP_THREAD;
    p = put_varint(p, (uint64_t)t->tid);
    p = put_str(p, t->os_name, strlen(t->os_name));
    stream_commit(t, p, 0);
}

/* Notes a changed OS thread name (owner only, between records). */
static void note_os_name(struct tstream *t)
{
    char name[16] = {0};
    if (prctl(PR_GET_NAME, name) != 0 || strcmp(name, t->os_name) == 0) return;
    memcpy(t->os_name, name, sizeof name);
    uint8_t *p = stream_room(t, 1 + VARINT_MAX + sizeof name);
    *p++ = NVTXC_OP_THREAD_OS_NAME;
    p = put_str(p, name, strlen(name));
    stream_commit(t, p, 0);
}

static void stream_free(struct tstream *t)
{
    intern_reset(t);
    free(t->ctab);
    free(t->scratch);
    free(t->depth_more);
    /* A region's memory is the mapping (a fork child has none: MADV_DONTFORK). */
    if (t->region) free(t->region);
    else free(t->buf);
    free(t);
}

static void on_thread_exit(void *arg)
{
    struct tstream *t = arg;
    if (!t) return;
    note_os_name(t);
    lock_take(&nvtxc_registry_lock);
    lock_take(&nvtxc_file_lock);
    stream_flush_locked(t, 1);
    if (t->region) {
        region_release_locked(t->region);
        t->region = NULL;
        t->buf = NULL;
    }
    if (t->prev) t->prev->next = t->next;
    else registry = t->next;
    if (t->next) t->next->prev = t->prev;
    lock_give(&nvtxc_file_lock);
    lock_give(&nvtxc_registry_lock);
    if (nvtxc_tls == t) nvtxc_tls = NULL;
    stream_free(t);
}

void stream_key_init(void)
{
    pthread_key_create(&exit_key, on_thread_exit);
}

/* File lock free: a region of the capture file for the stream, opening a lazily created capture. */
static struct region *stream_region(struct tstream *t)
{
    struct region *r = NULL;
    lock_take(&nvtxc_file_lock);
    if (out_ready_locked() == 0) {
        /* A capture opened just now (a fork child's) gets the metadata it repeats at once. */
        meta_flush_locked();
        r = region_acquire_locked(t->cap, t->stream_id, t->stream_base);
    }
    lock_give(&nvtxc_file_lock);
    return r;
}

static void stream_use_region(struct tstream *t, struct region *r)
{
    t->region = r;
    t->buf = r->records;
    t->commit = r->commit;
    t->commit_base = r->events;
    t->cur = t->buf;
    t->end = t->buf + t->cap;
}

static int stream_use_memory(struct tstream *t)
{
    t->buf = malloc(t->cap);
    if (!t->buf) return -1;
    t->commit = &t->commit_local;
    t->commit_base = t->buf;
    t->cur = t->buf;
    t->end = t->buf + t->cap;
    return 0;
}

/*
 * The stream's buffer: a region of the capture file when the file can be extended and mapped
 * (its events survive _exit and SIGKILL), else memory.
 */
static int stream_attach_buffer(struct tstream *t)
{
    struct region *r = stream_region(t);
    if (r) {
        stream_use_region(t, r);
        return 0;
    }
    return stream_use_memory(t);
}

struct tstream *stream_create(void)
{
    if (!nvtxc_capturing) return NULL;
    struct tstream *t = aligned_alloc(64, (sizeof(struct tstream) + 63) & ~(size_t)63);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->cap = nvtxc_g.buffer_size;
    t->ctab_mask = 255;
    t->ctab = calloc(t->ctab_mask + 1, sizeof *t->ctab);
    t->stream_id = atomic_fetch_add(&nvtxc_g.next_stream, 1) + 1;
    if (!t->ctab || stream_attach_buffer(t) != 0) {
        free(t->ctab);
        free(t);
        return NULL;
    }
    t->tid = my_tid();
    prctl(PR_GET_NAME, t->os_name);
    t->os_name[15] = 0;
    t->last_tick = nvtxc_g.start.tick;
    write_thread_record(t);

    lock_take(&nvtxc_registry_lock);
    t->next = registry;
    if (registry) registry->prev = t;
    registry = t;
    nvtxc_g.streams++;
    lock_give(&nvtxc_registry_lock);
    pthread_setspecific(exit_key, t);
    nvtxc_tls = t;
    return t;
}

/* ---------------------------------------------------------------- flushing */

void stream_flush_locked(struct tstream *t, int owner)
{
    if (!t->buf) return;
    uint32_t off, nev;
    if (owner) {
        off = (uint32_t)(t->cur - t->buf);
        nev = t->nev;
    } else {
        uint64_t c = atomic_load_explicit(t->commit, memory_order_acquire);
        /* 0: nothing committed since the buffer was emptied; else relative to commit_base. */
        off = (uint32_t)c ? (uint32_t)c - (uint32_t)(t->buf - t->commit_base) : 0;
        nev = (uint32_t)(c >> 32);
    }
    if (off > t->flushed_off) {
        uint32_t count = nev - t->flushed_nev;
        int ok = 0;
        if (out_ready_locked() == 0) {
            meta_flush_locked();
            struct clock_pair pair = clock_pair_now();
            uint8_t head[5 * VARINT_MAX];
            uint8_t *p = put_varint(head, t->stream_id);
            p = put_varint(p, t->stream_base + t->flushed_off);
            p = put_varint(p, pair.tick);
            p = put_varint(p, pair.ns);
            p = put_varint(p, count);
            struct iovec parts[2] = {{head, (size_t)(p - head)}, {t->buf + t->flushed_off, off - t->flushed_off}};
            ok = out_chunk_locked(NVTXC_CHUNK_EVENTS, parts, 2) == 0;
        }
        if (ok) nvtxc_g.events_written += count;
        else nvtxc_g.events_lost += count;
        t->flushed_off = off;
        t->flushed_nev = nev;
    }
    if (owner) {
        t->stream_base += off;
        t->cur = t->buf;
        t->nev = 0;
        t->flushed_off = 0;
        t->flushed_nev = 0;
        atomic_store_explicit(t->commit, 0, memory_order_release);
        if (t->region) region_rebase(t->region, t->stream_base);
    }
}

void stream_write_direct(struct tstream *t, const uint8_t *records, size_t n, uint32_t events)
{
    /* A fork child's first record: its THREAD record (and buffer) first. */
    if (UNLIKELY(t->attach_pending)) stream_room_slow(t, 0);
    lock_take(&nvtxc_file_lock);
    stream_flush_locked(t, 1);
    int ok = 0;
    if (out_ready_locked() == 0) {
        meta_flush_locked();
        struct clock_pair pair = clock_pair_now();
        uint8_t head[5 * VARINT_MAX];
        uint8_t *p = put_varint(head, t->stream_id);
        p = put_varint(p, t->stream_base);
        p = put_varint(p, pair.tick);
        p = put_varint(p, pair.ns);
        p = put_varint(p, events);
        struct iovec parts[2] = {{head, (size_t)(p - head)}, {(void *)records, n}};
        ok = out_chunk_locked(NVTXC_CHUNK_EVENTS, parts, 2) == 0;
    }
    if (ok) nvtxc_g.events_written += events;
    else nvtxc_g.events_lost += events;
    /* The records are part of the stream whether or not they could be written. */
    t->stream_base += n;
    if (t->region) region_rebase(t->region, t->stream_base);
    lock_give(&nvtxc_file_lock);
}

uint8_t *stream_room_slow(struct tstream *t, size_t need)
{
    if (UNLIKELY(t->attach_pending)) {
        /* A fork child's first record: now the child's capture is made, and the buffer moves into it. */
        t->attach_pending = 0;
        struct region *r = stream_region(t);
        if (r) {
            free(t->buf);
            stream_use_region(t, r);
        } else {
            t->end = t->buf + t->cap;
        }
        write_thread_record(t);
        return t->cur;
    }
    lock_take(&nvtxc_file_lock);
    stream_flush_locked(t, 1);
    lock_give(&nvtxc_file_lock);
    (void)need; /* every record fits an empty buffer: strings <= 16 KiB, payload copies <= cap / 2 */
    note_os_name(t);
    return t->cur;
}

void stream_flush_all_locked(int self_as_owner)
{
    for (struct tstream *t = registry; t; t = t->next) stream_flush_locked(t, self_as_owner && t == nvtxc_tls);
    meta_flush_locked();
}

void stream_note_self_name(void)
{
    if (nvtxc_tls) note_os_name(nvtxc_tls);
}

void stream_after_fork_child(void)
{
    struct tstream *self = nvtxc_capturing ? nvtxc_tls : NULL;
    if (!self && nvtxc_tls) {
        nvtxc_tls = NULL;
        pthread_setspecific(exit_key, NULL);
    }
    struct tstream *t = registry;
    while (t) {
        struct tstream *next = t->next;
        if (t != self) stream_free(t);
        t = next;
    }
    registry = NULL;
    region_forget_all();
    nvtxc_g.streams = 0;
    atomic_store(&nvtxc_g.next_stream, 0);
    if (!self) return;
    /* The forking thread continues in the child as the first stream of the child's capture,
       keeping its push depths; the parent's unwritten records stay the parent's. */
    intern_reset(self);
    self->next_sid = 0;
    self->range_seq = 0;
    self->prev = self->next = NULL;
    self->nev = 0;
    self->stream_base = 0;
    self->flushed_off = 0;
    self->flushed_nev = 0;
    self->last_tick = nvtxc_g.start.tick;
    self->tid = my_tid();
    self->stream_id = atomic_fetch_add(&nvtxc_g.next_stream, 1) + 1;
    if (self->region) {
        /*
         * The parent's region is not mapped here (MADV_DONTFORK). The child's capture is made at
         * its first record (a child that only execs leaves no file): until then an empty buffer
         * whose end sends that record to the slow path.
         */
        free(self->region);
        self->region = NULL;
        if (stream_use_memory(self) != 0) {
            nvtxc_tls = NULL;
            pthread_setspecific(exit_key, NULL);
            stream_free(self);
            return;
        }
        self->end = self->buf;
        self->attach_pending = 1;
    } else {
        self->cur = self->buf;
        atomic_store(self->commit, 0);
        write_thread_record(self);
    }
    registry = self;
    nvtxc_g.streams = 1;
}
