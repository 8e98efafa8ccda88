#include "meta.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "collector.h"
#include "encode.h"
#include "format.h"
#include "output.h"

/* Pending bytes that make the writer flush the log at once. */
#define META_EAGER_FLUSH (1u << 20)

atomic_int nvtxc_meta_pending;

static uint8_t *log_data;
static size_t log_len, log_cap, log_written;


uint8_t *meta_head(uint8_t *p)
{
    p = put_svarint(p, (int64_t)(tick_now() - nvtxc_g.start.tick));
    return put_varint(p, (uint64_t)my_tid());
}

static int reserve(size_t more)
{
    if (log_len + more <= log_cap) return 0;
    size_t cap = log_cap ? log_cap * 2 : 4096;
    while (cap < log_len + more) cap *= 2;
    uint8_t *d = realloc(log_data, cap);
    if (!d) return -1;
    log_data = d;
    log_cap = cap;
    return 0;
}

static void append(uint8_t op, const uint8_t *a, size_t na, const char *text, size_t ntext, int with_text)
{
    uint8_t head[1 + VARINT_MAX];
    uint8_t len_prefix[VARINT_MAX];
    size_t text_len_bytes = (size_t)(put_varint(len_prefix, ntext) - len_prefix);
    size_t body = na + (with_text ? text_len_bytes + ntext : 0);
    head[0] = op;
    uint8_t *h = put_varint(head + 1, body);
    size_t nhead = (size_t)(h - head);

    lock_take(&nvtxc_meta_lock);
    if (reserve(nhead + body) == 0) {
        uint8_t *p = log_data + log_len;
        memcpy(p, head, nhead);
        p += nhead;
        memcpy(p, a, na);
        p += na;
        if (with_text) {
            memcpy(p, len_prefix, text_len_bytes);
            p += text_len_bytes;
            memcpy(p, text, ntext);
            p += ntext;
        }
        log_len = (size_t)(p - log_data);
    }
    /*
     * Pending records are written before the next event is recorded (stream_self), so that events
     * a process leaves in the file (an _exit, a kill) find the definitions they use there; a burst
     * of registrations becomes one chunk. A large backlog is written at once.
     */
    int eager = log_len - log_written > META_EAGER_FLUSH;
    /* (A capture not open yet gets the whole log when it opens.) */
    if (log_len > log_written && out_is_open()) atomic_store_explicit(&nvtxc_meta_pending, 1, memory_order_relaxed);
    lock_give(&nvtxc_meta_lock);
    if (eager) {
        lock_take(&nvtxc_file_lock);
        meta_flush_locked();
        lock_give(&nvtxc_file_lock);
    }
}

void meta_add(uint8_t op, const uint8_t *body, size_t n)
{
    append(op, body, n, NULL, 0, 0);
}

void meta_add_with_text(uint8_t op, const uint8_t *fixed, size_t nfixed, const char *text, size_t ntext)
{
    append(op, fixed, nfixed, text, ntext, 1);
}

#define META_CHUNK_MAX (4u << 20)

/* Offset just past the record starting at `at` (op, varint length, body). */
static size_t record_end(size_t at)
{
    size_t p = at + 1;
    uint64_t len = 0;
    for (int shift = 0; p < log_len; shift += 7) {
        uint8_t b = log_data[p++];
        len |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
    }
    return p + len > log_len ? log_len : p + len;
}

void meta_flush_locked(void)
{
    if (!out_is_open()) return;
    lock_take(&nvtxc_meta_lock);
    while (log_written < log_len) {
        /* Whole records, at most about META_CHUNK_MAX bytes per chunk. */
        size_t end = log_written;
        while (end < log_len && end - log_written < META_CHUNK_MAX) end = record_end(end);
        struct clock_pair pair = clock_pair_now();
        uint8_t head[2 * VARINT_MAX];
        uint8_t *p = put_varint(head, pair.tick);
        p = put_varint(p, pair.ns);
        struct iovec parts[2] = {{head, (size_t)(p - head)}, {log_data + log_written, end - log_written}};
        if (out_chunk_locked(NVTXC_CHUNK_META, parts, 2) != 0) break;
        log_written = end;
    }
    if (log_written == log_len) atomic_store_explicit(&nvtxc_meta_pending, 0, memory_order_relaxed);
    lock_give(&nvtxc_meta_lock);
}

void meta_flush_pending(void)
{
    lock_take(&nvtxc_file_lock);
    meta_flush_locked();
    lock_give(&nvtxc_file_lock);
}

void meta_after_fork_child(void)
{
    log_written = 0;
}
