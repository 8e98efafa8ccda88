#include "payload_copy.h"

#include <string.h>

#include "format.h"
#include "guard.h"

#define ID_STATIC_START (1ull << 24)
#define MAX_DEPTH 8
#define MAX_DIMS 8

/* ---------------------------------------------------------------- walking an event's payloads */

struct walk {
    uint32_t domain;
    const nvtxPayloadData_t *items;
    const size_t *sizes;
    size_t nitems;
    struct pl_copies *out;
};

static int64_t read_int(const uint8_t *p, uint32_t size, int is_signed)
{
    switch (size) {
    case 1:
        return is_signed ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return is_signed ? (int64_t)(int16_t)v : (int64_t)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return is_signed ? (int64_t)(int32_t)v : (int64_t)v;
    }
    case 8: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    default:
        return 0;
    }
}

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Elements before the first all-zero one, reading at most `limit` bytes; the terminator is counted. */
static uint64_t scan_zero(const uint8_t *p, uint64_t stride, uint64_t limit, int *terminated)
{
    uint64_t count = 0;
    *terminated = 0;
    if (stride == 0) return 0;
    for (uint64_t at = 0; at + stride <= limit; at += stride) {
        count++;
        if (all_zero(p + at, stride)) {
            *terminated = 1;
            break;
        }
    }
    return count;
}

/* Product of the dimensions (negative ones are zero); 0 when unknown. */
static uint64_t product(const int64_t *dims, size_t n)
{
    uint64_t total = n ? 1 : 0;
    for (size_t k = 0; k < n; k++) {
        if (dims[k] <= 0) return 0;
        if ((uint64_t)dims[k] > UINT32_MAX || total > UINT32_MAX) return UINT64_MAX;
        total *= (uint64_t)dims[k];
    }
    return total;
}

/* Dimensions held by payload k of the event when it is a predefined integer type (its values). */
static size_t payload_dims(const struct walk *w, uint64_t k, int64_t *dims)
{
    if (k >= w->nitems || !w->items[k].payload) return 0;
    size_t size, align;
    int kind = pl_integer_kind(w->items[k].schemaId);
    if (!kind || !pl_predefined(w->items[k].schemaId, &size, &align) || size == 0) return 0;
    size_t n = w->sizes[k] / size;
    if (n > MAX_DIMS) n = MAX_DIMS;
    for (size_t i = 0; i < n; i++) dims[i] = read_int((const uint8_t *)w->items[k].payload + i * size, (uint32_t)size, kind == 2);
    return n;
}

static int already_have(const struct walk *w, uintptr_t p)
{
    for (size_t k = 0; k < w->nitems; k++) {
        uintptr_t a = (uintptr_t)w->items[k].payload;
        if (a && p >= a && p < a + w->sizes[k]) return 1;
    }
    for (size_t k = 0; k < w->out->n; k++) {
        uintptr_t a = (uintptr_t)w->out->r[k].addr;
        if (p >= a && p < a + w->out->r[k].size) return 1;
    }
    return 0;
}

static uint64_t walk_schema(struct walk *w, const struct pl_schema *s, const uint8_t *base, uint64_t len, int depth);

/* Copies the data a pointer entry points to (and, for pointers to structs, what those point to). */
static void copy_pointee(struct walk *w, const struct pl_entry *e, uintptr_t ptr, const int64_t *dims, size_t ndims, int depth)
{
    if (!ptr || already_have(w, ptr) || w->out->n >= PL_MAX_COPIES || w->out->bytes >= w->out->limit) return;
    const uint8_t *p = (const uint8_t *)ptr;
    /* A dangling or garbage pointer in a payload: nothing to copy (checked before anything reads it). */
    if (guard_readable_pointee(p, e->esize ? e->esize : 1) == 0) {
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
        return;
    }
    uint64_t cap = NVTXC_MAX_EXT_BLOB;
    if (cap > w->out->limit - w->out->bytes) cap = w->out->limit - w->out->bytes;
    uint64_t n = 0;
    int terminated = 1;
    switch (e->array) {
    case 0:
        n = e->esize;
        if (e->nested && !e->nested->is_enum && e->nested->variable) n = walk_schema(w, e->nested, p, cap, depth + 1);
        break;
    case 1:
        n = e->unit ? e->detail * e->unit : e->detail * e->esize;
        break;
    case 2:
        n = scan_zero(p, e->esize, cap, &terminated) * e->esize;
        break;
    case 3:
    case 4: {
        uint64_t count = product(dims, ndims);
        n = count > cap ? UINT64_MAX : count * e->esize;
        break;
    }
    }
    if (n == 0) return;
    uint32_t flags = 0;
    if (n > cap || !terminated) {
        if (n > cap) n = cap - cap % (e->esize ? e->esize : 1);
        flags = NVTXC_EXT_CUT;
    }
    size_t readable = guard_readable_pointee(p, (size_t)n);
    if (readable < n) {
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
        n = readable - readable % (e->esize ? e->esize : 1);
        flags = NVTXC_EXT_CUT;
        if (n == 0) return;
    }
    struct pl_copy *c = &w->out->r[w->out->n++];
    c->addr = p;
    c->size = (size_t)n;
    c->flags = flags;
    w->out->bytes += n;
    if (e->nested && !e->nested->is_enum && e->nested->needs_copy && depth < MAX_DEPTH && e->esize > 0) {
        for (uint64_t at = 0; at + e->esize <= n && w->out->n < PL_MAX_COPIES; at += e->esize)
            walk_schema(w, e->nested, p + at, e->esize, depth + 1);
    }
}

/*
 * Walks one instance of schema `s` at `base` (len bytes readable) and returns the bytes it takes
 * (a dynamic schema's running cursor, a static schema's size); copies what its pointers point to.
 */
static uint64_t walk_schema(struct walk *w, const struct pl_schema *s, const uint8_t *base, uint64_t len, int depth)
{
    if (depth > MAX_DEPTH || s->broken) return s->variable ? 0 : s->size;
    int unions = s->type == NVTX_PAYLOAD_SCHEMA_TYPE_UNION || s->type == NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR;
    int64_t values[64];
    uint8_t have[64] = {0};
    uint64_t cursor = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct pl_entry *e = &s->e[i];
        uint64_t off;
        if (e->fixed_off >= 0) off = (uint64_t)e->fixed_off;
        else if (unions) off = 0;
        else off = pl_align_up(cursor, e->align);
        if (off > len) break;
        int64_t dims[MAX_DIMS];
        size_t ndims = 0;
        if (e->array == 3 && e->detail < i && e->detail < 64 && have[e->detail]) {
            dims[0] = values[e->detail];
            ndims = 1;
        } else if (e->array == 4) {
            ndims = payload_dims(w, e->detail, dims);
        }
        uint64_t size = e->size;
        if (e->variable) {
            int terminated;
            if (e->nested && e->array == 0) size = walk_schema(w, e->nested, base + off, len - off, depth + 1);
            else if (e->array == 2) size = scan_zero(base + off, e->esize, len - off, &terminated) * e->esize;
            else {
                uint64_t count = product(dims, ndims);
                size = count > len ? UINT64_MAX : count * e->esize;
            }
        }
        if (size > len - off) break; /* beyond the copied payload: the viewer reports it */
        if (e->integer && size == e->esize && i < 64) {
            values[i] = read_int(base + off, e->esize, e->integer == 2);
            have[i] = 1;
        }
        if (e->copy && off + 8 <= len) {
            uintptr_t ptr;
            memcpy(&ptr, base + off, sizeof ptr);
            copy_pointee(w, e, ptr, dims, ndims, depth);
        } else if (e->storage == PL_INLINE && e->nested && !e->nested->is_enum && e->nested->needs_copy && e->esize > 0) {
            if (e->nested->variable) walk_schema(w, e->nested, base + off, size, depth + 1);
            else
                for (uint64_t at = 0; at + e->esize <= size; at += e->esize) walk_schema(w, e->nested, base + off + at, e->esize, depth + 1);
        }
        if (!unions) cursor = off + size;
    }
    return s->variable ? cursor : s->size;
}

size_t pl_item_size(const nvtxPayloadData_t *item, size_t cap, uint32_t *flags)
{
    *flags = 0;
    if (!item->payload) return 0;
    size_t n = item->size;
    if (n == SIZE_MAX) {
        int unit = pl_string_unit(item->schemaId);
        if (!unit) {
            *flags = NVTXC_EXT_SIZE_UNKNOWN;
            return 0;
        }
        int terminated;
        n = (size_t)scan_zero(item->payload, (uint64_t)unit, cap, &terminated) * (size_t)unit;
        if (!terminated) *flags = NVTXC_EXT_CUT;
        return n;
    }
    if (n > cap) {
        n = cap;
        *flags = NVTXC_EXT_CUT;
    }
    size_t readable = guard_readable(item->payload, n);
    if (readable < n) {
        n = readable;
        *flags = NVTXC_EXT_CUT;
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
    }
    return n;
}

void pl_copies_collect(uint32_t domain, const nvtxPayloadData_t *items, const size_t *sizes, size_t n, struct pl_copies *out)
{
    struct walk w = {domain, items, sizes, n, out};
    if (out->limit > PL_MAX_COPY_BYTES) out->limit = PL_MAX_COPY_BYTES;
    for (size_t k = 0; k < n; k++) {
        if (!items[k].payload || sizes[k] == 0 || items[k].schemaId < ID_STATIC_START) continue;
        const struct pl_schema *s = pl_schema_find(domain, items[k].schemaId);
        if (s && !s->is_enum && s->needs_copy) walk_schema(&w, s, items[k].payload, sizes[k], 0);
    }
}
