#include "cuda_activity.h"

#if NVTXC_WITH_CUPTI
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "format.h"
#include "text.h"

/*
 * The record structs of the CUPTI the collector is built with (13: Kernel10, Memcpy6, MemcpyPtoP4,
 * Memset4, Synchronization2). A libcupti of CUDA 12 hands out the previous versions; the fields read
 * here sit at the same offsets in both, which these checks prove at build time.
 */
typedef CUpti_ActivityKernel10 kernel_record;
typedef CUpti_ActivityMemcpy6 memcpy_record;
typedef CUpti_ActivityMemcpyPtoP4 peer_copy_record;
typedef CUpti_ActivityMemset4 memset_record;
typedef CUpti_ActivitySynchronization2 sync_record;

#define SAME_OFFSET(a, b, field) _Static_assert(offsetof(a, field) == offsetof(b, field), #a "." #field " moved since " #b)
#define KERNEL_FIELDS(X)                                                                                         \
    X(start) X(end) X(deviceId) X(contextId) X(streamId) X(gridX) X(gridY) X(gridZ) X(blockX) X(blockY) X(blockZ) \
        X(registersPerThread) X(staticSharedMemory) X(dynamicSharedMemory) X(correlationId) X(name)
#define CHECK_KERNEL9(f) SAME_OFFSET(kernel_record, CUpti_ActivityKernel9, f);
KERNEL_FIELDS(CHECK_KERNEL9)
#define MEMCPY_FIELDS(X) X(copyKind) X(srcKind) X(dstKind) X(flags) X(bytes) X(start) X(end) X(deviceId) X(contextId) X(streamId) X(correlationId)
#define CHECK_MEMCPY5(f) SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy5, f);
MEMCPY_FIELDS(CHECK_MEMCPY5)
#define PEER_FIELDS(X) MEMCPY_FIELDS(X) X(srcDeviceId) X(dstDeviceId)
#define CHECK_PEER3(f) SAME_OFFSET(peer_copy_record, CUpti_ActivityMemcpyPtoP3, f);
PEER_FIELDS(CHECK_PEER3)
#define MEMSET_FIELDS(X) X(value) X(bytes) X(start) X(end) X(deviceId) X(contextId) X(streamId) X(correlationId) X(flags) X(memoryKind)
#define CHECK_MEMSET3(f) SAME_OFFSET(memset_record, CUpti_ActivityMemset3, f);
MEMSET_FIELDS(CHECK_MEMSET3)
#define SYNC_FIELDS(X) X(type) X(start) X(end) X(correlationId) X(contextId) X(streamId) X(cudaEventId)
#define CHECK_SYNC1(f) SAME_OFFSET(sync_record, CUpti_ActivitySynchronization, f);
SYNC_FIELDS(CHECK_SYNC1)

/* ---------------------------------------------------------------- kernel names (of the body being built) */

struct name_entry {
    uint64_t hash;
    char *text;
    uint32_t len;
    uint32_t id;
};

static struct name_entry *names;
static uint32_t names_mask, names_used, next_name;

static uint64_t hash_text(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

static int names_grow(void)
{
    uint32_t size = names ? (names_mask + 1) * 2 : 1024;
    struct name_entry *fresh = calloc(size, sizeof *fresh);
    if (!fresh) return -1;
    for (uint32_t i = 0; names && i <= names_mask; i++) {
        if (!names[i].text) continue;
        uint32_t j = (uint32_t)names[i].hash & (size - 1);
        while (fresh[j].text) j = (j + 1) & (size - 1);
        fresh[j] = names[i];
    }
    free(names);
    names = fresh;
    names_mask = size - 1;
    return 0;
}

/* Ids restart at 1 in each chunk: the table is emptied with the body (it keeps its memory). */
static void forget_names(void)
{
    for (uint32_t i = 0; names && i <= names_mask; i++) {
        free(names[i].text);
        names[i].text = NULL;
    }
    names_used = next_name = 0;
}

static int reserve(struct cuda_activity_body *b, size_t more)
{
    if (b->len + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap * 2 : 64 * 1024;
    while (cap < b->len + more) cap *= 2;
    uint8_t *d = realloc(b->buf, cap);
    if (!d) return -1;
    b->buf = d;
    b->cap = cap;
    return 0;
}

typedef char *(*demangle_fn)(const char *mangled, char *out, size_t *length, int *status);

/*
 * The C++ runtime's demangler, found in the process (every CUDA C++ program and PyTorch has
 * libstdc++ loaded): the collector itself stays a C library with no C++ dependency.
 */
static char *demangle(const char *mangled)
{
    static demangle_fn fn;
    static int looked;
    if (!looked) {
        fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        looked = 1;
    }
    if (!fn || strncmp(mangled, "_Z", 2) != 0) return NULL;
    int status = 0;
    char *out = fn(mangled, NULL, NULL, &status);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The id of a kernel name in this body, appending its KERNEL_NAME record when it is new here (0: no memory). */
static uint32_t kernel_name(struct cuda_activity_body *b, const char *name)
{
    if (!name) name = "";
    size_t n = strnlen(name, NVTXC_MAX_STRING + 1);
    if (n > NVTXC_MAX_STRING) n = utf8_cut(name, NVTXC_MAX_STRING);
    uint64_t h = hash_text(name, n);
    if ((names_used + 1) * 2 > names_mask + 1 && names_grow() != 0) return 0;
    uint32_t i = (uint32_t)h & names_mask;
    for (; names[i].text; i = (i + 1) & names_mask)
        if (names[i].hash == h && names[i].len == n && memcmp(names[i].text, name, n) == 0) return names[i].id;
    char *copy = malloc(n + 1);
    if (!copy) return 0;
    memcpy(copy, name, n);
    copy[n] = 0;
    char *readable = demangle(copy);
    size_t nd = readable ? strnlen(readable, NVTXC_MAX_STRING + 1) : 0;
    if (nd > NVTXC_MAX_STRING) nd = utf8_cut(readable, NVTXC_MAX_STRING);
    uint32_t id = next_name + 1;
    size_t body = VARINT_MAX + (VARINT_MAX + n) + (VARINT_MAX + nd);
    if (reserve(b, 1 + VARINT_MAX + body) != 0) {
        free(copy);
        free(readable);
        return 0;
    }
    uint8_t scratch[VARINT_MAX];
    uint8_t *p = b->buf + b->len;
    *p++ = NVTXC_CUDA_REC_KERNEL_NAME;
    size_t exact = (size_t)(put_varint(scratch, id) - scratch) + (size_t)(put_varint(scratch, n) - scratch) + n +
                   (size_t)(put_varint(scratch, nd) - scratch) + nd;
    p = put_varint(p, exact);
    p = put_varint(p, id);
    p = put_str(p, copy, n);
    p = put_str(p, readable ? readable : "", nd);
    b->len = (size_t)(p - b->buf);
    free(readable);
    next_name = id;
    names[i].hash = h;
    names[i].text = copy;
    names[i].len = (uint32_t)n;
    names[i].id = id;
    names_used++;
    return id;
}

/* ---------------------------------------------------------------- contexts */

#define MAX_CONTEXTS 256
static struct {
    uint32_t context, device;
} contexts[MAX_CONTEXTS];
static unsigned ncontexts;

void cuda_activity_note_context(uint32_t context_id, uint32_t device)
{
    for (unsigned i = 0; i < ncontexts; i++)
        if (contexts[i].context == context_id) {
            contexts[i].device = device;
            return;
        }
    if (ncontexts < MAX_CONTEXTS) {
        contexts[ncontexts].context = context_id;
        contexts[ncontexts].device = device;
        ncontexts++;
    }
}

static uint32_t device_of(uint32_t context_id)
{
    for (unsigned i = 0; i < ncontexts; i++)
        if (contexts[i].context == context_id) return contexts[i].device;
    return 0;
}

/* ---------------------------------------------------------------- records */

/* Longest record body: 16 varints. */
#define RECORD_MAX (16 * VARINT_MAX)

void cuda_activity_body_reset(struct cuda_activity_body *b)
{
    forget_names();
    b->len = 0;
    b->has_base = 0;
    b->base = 0;
    b->kernels = b->memcpys = b->memsets = b->syncs = b->skipped = 0;
}

void cuda_activity_body_free(struct cuda_activity_body *b)
{
    free(b->buf);
    memset(b, 0, sizeof *b);
}

/* Appends a record: kind, body length, body (formatted in `scratch`). */
static int append_record(struct cuda_activity_body *b, uint8_t kind, const uint8_t *body, size_t n)
{
    if (reserve(b, 1 + VARINT_MAX + n) != 0) return -1;
    uint8_t *p = b->buf + b->len;
    *p++ = kind;
    p = put_varint(p, n);
    memcpy(p, body, n);
    b->len = (size_t)(p + n - b->buf);
    return 0;
}

/* The fields every kind starts with: start (relative to the base), duration, device, context, stream, correlation. */
static uint8_t *put_work(struct cuda_activity_body *b, uint8_t *p, uint64_t start, uint64_t end, uint32_t device,
                         uint32_t context, uint32_t stream, uint32_t correlation)
{
    if (!b->has_base) {
        b->base = start;
        b->has_base = 1;
    }
    p = put_svarint(p, (int64_t)(start - b->base));
    p = put_varint(p, end > start ? end - start : 0);
    p = put_varint(p, device);
    p = put_varint(p, context);
    p = put_varint(p, stream);
    return put_varint(p, correlation);
}

/* What a MEMCPY and a MEMCPY2 (peer copy) record share in the capture: one record kind for both. */
struct copy_fields {
    uint32_t copy_kind, src_kind, dst_kind;
    uint64_t bytes;
    uint32_t flags, src_device, dst_device;
};

/* Writes a copy's own fields after its `put_work` prefix (ending at `p`) and appends the record. */
static int append_copy(struct cuda_activity_body *b, uint8_t *body, uint8_t *p, const struct copy_fields *f)
{
    p = put_varint(p, f->copy_kind);
    p = put_varint(p, f->src_kind);
    p = put_varint(p, f->dst_kind);
    p = put_varint(p, f->bytes);
    p = put_varint(p, f->flags);
    p = put_varint(p, f->src_device);
    p = put_varint(p, f->dst_device);
    if (append_record(b, NVTXC_CUDA_REC_MEMCPY, body, (size_t)(p - body)) != 0) return -1;
    b->memcpys++;
    return 1;
}

/* CUPTI's signed sizes (grid, block, shared memory) are never negative; a negative one is kept as 0. */
static uint64_t unsigned_of(int64_t v)
{
    return v < 0 ? 0 : (uint64_t)v;
}

int cuda_activity_add(struct cuda_activity_body *b, const CUpti_Activity *record)
{
    uint8_t body[RECORD_MAX];
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const kernel_record *k = (const kernel_record *)record;
        uint32_t name = kernel_name(b, k->name);
        if (name == 0) return -1;
        uint8_t *p = put_work(b, body, k->start, k->end, k->deviceId, k->contextId, k->streamId, k->correlationId);
        p = put_varint(p, name);
        p = put_varint(p, unsigned_of(k->gridX));
        p = put_varint(p, unsigned_of(k->gridY));
        p = put_varint(p, unsigned_of(k->gridZ));
        p = put_varint(p, unsigned_of(k->blockX));
        p = put_varint(p, unsigned_of(k->blockY));
        p = put_varint(p, unsigned_of(k->blockZ));
        p = put_varint(p, k->registersPerThread);
        p = put_varint(p, unsigned_of(k->staticSharedMemory));
        p = put_varint(p, unsigned_of(k->dynamicSharedMemory));
        if (append_record(b, NVTXC_CUDA_REC_KERNEL, body, (size_t)(p - body)) != 0) return -1;
        b->kernels++;
        return 1;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        /* A copy within one device: the record's device is both ends. */
        const memcpy_record *m = (const memcpy_record *)record;
        const struct copy_fields f = {m->copyKind, m->srcKind, m->dstKind, m->bytes, m->flags, m->deviceId, m->deviceId};
        return append_copy(b, body, put_work(b, body, m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId), &f);
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const peer_copy_record *m = (const peer_copy_record *)record;
        const struct copy_fields f = {m->copyKind, m->srcKind, m->dstKind, m->bytes, m->flags, m->srcDeviceId, m->dstDeviceId};
        return append_copy(b, body, put_work(b, body, m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId), &f);
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const memset_record *m = (const memset_record *)record;
        uint8_t *p = put_work(b, body, m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId);
        p = put_varint(p, m->bytes);
        p = put_varint(p, m->value);
        p = put_varint(p, m->memoryKind);
        p = put_varint(p, m->flags);
        if (append_record(b, NVTXC_CUDA_REC_MEMSET, body, (size_t)(p - body)) != 0) return -1;
        b->memsets++;
        return 1;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const sync_record *s = (const sync_record *)record;
        uint8_t *p = put_work(b, body, s->start, s->end, device_of(s->contextId), s->contextId, s->streamId,
                              s->correlationId);
        p = put_varint(p, (uint32_t)s->type);
        p = put_varint(p, s->cudaEventId);
        if (append_record(b, NVTXC_CUDA_REC_SYNC, body, (size_t)(p - body)) != 0) return -1;
        b->syncs++;
        return 1;
    }
    default:
        b->skipped++;
        return 0;
    }
}
#endif
