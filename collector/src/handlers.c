/*
 * NVTX callbacks. Each event handler reads the clock first, finds the thread's stream, resolves
 * strings (which may write STRING records), then writes one record into the stream buffer.
 * Metadata handlers (names, domains, resources, sync objects) append to the metadata log.
 */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSync.h>

#include <stdatomic.h>
#include <stdlib.h>

#include "guard.h"
#include "handlers.h"
#include "handles.h"
#include "meta.h"
#include "payload_copy.h"
#include "stream.h"
#include "text.h"

/* Resource types of the CUDA, CUDA runtime and OpenCL naming calls: NVTX_RESOURCE_MAKE_TYPE(class, index)
   from nvToolsExtCuda.h (class 4), nvToolsExtCudaRt.h (class 5) and nvToolsExtOpenCL.h (class 6),
   repeated here so that the collector needs no CUDA or OpenCL headers. */
#define RES(cls, index) (((uint32_t)(cls) << 16) | (uint32_t)(index))
enum {
    RES_CU_DEVICE = RES(4, 1),
    RES_CU_CONTEXT = RES(4, 2),
    RES_CU_STREAM = RES(4, 3),
    RES_CU_EVENT = RES(4, 4),
    RES_CUDART_DEVICE = RES(5, 0),
    RES_CUDART_STREAM = RES(5, 1),
    RES_CUDART_EVENT = RES(5, 2),
    RES_CL_DEVICE = RES(6, 1),
    RES_CL_CONTEXT = RES(6, 2),
    RES_CL_COMMANDQUEUE = RES(6, 3),
    RES_CL_MEMOBJECT = RES(6, 4),
    RES_CL_SAMPLER = RES(6, 5),
    RES_CL_PROGRAM = RES(6, 6),
    RES_CL_EVENT = RES(6, 7),
};

/* ---------------------------------------------------------------- event attributes */

/* Is `field` inside the struct size the program declared? (size 0: trust the full struct.) */
#define HAS_FIELD(a, field) \
    ((a)->size == 0 || (size_t)(a)->size >= offsetof(nvtxEventAttributes_t, field) + sizeof((a)->field))

#define EXT_MAX_ITEMS 256

struct attrs_enc {
    uint8_t fixed[64];
    size_t nfixed;
    const nvtxPayloadData_t *ext;
    uint32_t ext_count;
    size_t ext_len; /* encoded bytes of the extended payloads (and memory) fields: an upper bound */
    size_t total;   /* attrs bytes after the length varint */
    size_t sizes[EXT_MAX_ITEMS];
    uint32_t flags[EXT_MAX_ITEMS];
    const struct pl_copies *copies; /* memory the payloads point to, or NULL */
};

static __thread struct pl_copies *tls_copies TLS_FAST;

static uint32_t message_of(struct tstream *t, int32_t type, nvtxMessageValue_t m, uint64_t *id)
{
    switch (type) {
    case NVTX_MESSAGE_TYPE_ASCII:
        *id = intern(t, m.ascii);
        return 1;
    case NVTX_MESSAGE_TYPE_UNICODE:
        *id = intern_wide(t, m.unicode);
        return 2;
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        const struct nvtxc_regstr *r = regstr_of(m.registered);
        *id = r ? r->id : 0;
        return 3;
    }
    case NVTX_MESSAGE_UNKNOWN:
        return 0;
    default:
        guard_note(GUARD_BAD_MESSAGE_TYPE, "a message type NVTX does not define: the event is recorded without its message");
        return 0;
    }
}

/* Size of one copied blob and its flags. */
static size_t ext_item(const nvtxPayloadData_t *item, size_t budget, uint32_t *flags)
{
    return pl_item_size(item, budget < NVTXC_MAX_EXT_BLOB ? budget : NVTXC_MAX_EXT_BLOB, flags);
}

/* The extended payloads' sizes, and the memory they point to, within half the buffer. */
static void ext_prepare(struct tstream *t, uint32_t domain, struct attrs_enc *e, uint32_t *mask)
{
    size_t budget = t->cap / 2;
    size_t len = 2 * VARINT_MAX;
    for (uint32_t i = 0; i < e->ext_count; i++) {
        size_t n = ext_item(&e->ext[i], budget, &e->flags[i]);
        e->sizes[i] = n;
        budget -= n;
        len += 4 * VARINT_MAX + n;
    }
    e->copies = NULL;
    if (e->ext_count > 0 && (tls_copies || (tls_copies = malloc(sizeof *tls_copies)))) {
        struct pl_copies *c = tls_copies;
        c->n = 0;
        c->bytes = 0;
        c->limit = budget;
        pl_copies_collect(domain, e->ext, e->sizes, e->ext_count, c);
        if (c->n > 0) {
            e->copies = c;
            *mask |= NVTXC_ATTR_MEMORY;
            len += VARINT_MAX + c->n * 3 * VARINT_MAX + c->bytes;
        }
    }
    e->ext_len = len;
}

/*
 * At most NVTX_VERSION in version and NVTX_EVENT_ATTRIB_STRUCT_SIZE in size (less for older headers;
 * a zeroed struct with some fields set is taken whole): anything else is a struct the program did
 * not fill in, whose pointers must not be followed.
 */
static inline int attrs_plausible(const nvtxEventAttributes_t *a)
{
    return a->version <= NVTX_VERSION && a->size <= NVTX_EVENT_ATTRIB_STRUCT_SIZE;
}

static void attrs_prepare(struct tstream *t, uint32_t domain, const nvtxEventAttributes_t *a, struct attrs_enc *e)
{
    uint32_t mask = 0;
    uint8_t fields[60];
    uint8_t *p = fields;
    e->ext = NULL;
    e->ext_count = 0;
    e->ext_len = 0;
    if (a && UNLIKELY(!attrs_plausible(a))) {
        guard_note(GUARD_BAD_ATTRIBUTES, GUARD_TEXT_BAD_ATTRIBUTES);
        a = NULL;
    }
    if (a) {
        if (HAS_FIELD(a, category) && a->category != 0) {
            mask |= NVTXC_ATTR_CATEGORY;
            p = put_varint(p, a->category);
        }
        if (HAS_FIELD(a, color) && a->colorType != NVTX_COLOR_UNKNOWN) {
            mask |= NVTXC_ATTR_COLOR;
            p = put_varint(p, (uint32_t)a->colorType);
            p = put_u32(p, a->color);
        }
        if (HAS_FIELD(a, payload) && a->payloadType == NVTX_PAYLOAD_TYPE_EXT) {
            e->ext = (const nvtxPayloadData_t *)(uintptr_t)a->payload.ullValue;
            e->ext_count = e->ext ? (uint32_t)a->reserved0 : 0;
            if (e->ext_count > EXT_MAX_ITEMS) e->ext_count = EXT_MAX_ITEMS;
            mask |= NVTXC_ATTR_EXT_PAYLOADS;
        } else if (HAS_FIELD(a, payload) && a->payloadType != NVTX_PAYLOAD_UNKNOWN) {
            mask |= NVTXC_ATTR_PAYLOAD;
            p = put_varint(p, (uint32_t)a->payloadType);
            p = put_u64(p, a->payload.ullValue);
        }
        if (HAS_FIELD(a, message)) {
            uint64_t id = 0;
            uint32_t type = message_of(t, a->messageType, a->message, &id);
            if (type) {
                mask |= NVTXC_ATTR_MESSAGE;
                p = put_varint(p, type);
                p = put_varint(p, id);
            }
        }
    }
    if (mask & NVTXC_ATTR_EXT_PAYLOADS) ext_prepare(t, domain, e, &mask);
    uint8_t *q = put_varint(e->fixed, mask);
    memcpy(q, fields, (size_t)(p - fields));
    e->nfixed = (size_t)(q - e->fixed) + (size_t)(p - fields);
    e->total = e->nfixed + e->ext_len;
}

/* Writes the attrs (length, mask, fields, copied payload blobs and memory). */
static uint8_t *attrs_put(uint8_t *p, const struct attrs_enc *e)
{
    if (!e->ext_len) {
        p = put_varint(p, e->nfixed);
        memcpy(p, e->fixed, e->nfixed);
        return p + e->nfixed;
    }
    /* The exact length is known only after encoding: write after a 4-byte length slot, then fix. */
    uint8_t *slot = p;
    uint8_t *body = p + 4;
    uint8_t *q = body;
    memcpy(q, e->fixed, e->nfixed);
    q += e->nfixed;
    q = put_varint(q, e->ext_count);
    for (uint32_t i = 0; i < e->ext_count; i++) {
        size_t n = e->sizes[i];
        q = put_varint(q, e->ext[i].schemaId);
        q = put_varint(q, e->flags[i]);
        q = put_varint(q, (uintptr_t)e->ext[i].payload);
        q = put_varint(q, n);
        memcpy(q, e->ext[i].payload, n);
        q += n;
    }
    if (e->copies) {
        const struct pl_copies *c = e->copies;
        q = put_varint(q, c->n);
        for (size_t i = 0; i < c->n; i++) {
            q = put_varint(q, (uintptr_t)c->r[i].addr);
            q = put_varint(q, c->r[i].size);
            q = put_varint(q, c->r[i].flags);
            memcpy(q, c->r[i].addr, c->r[i].size);
            q += c->r[i].size;
        }
    }
    size_t len = (size_t)(q - body);
    uint8_t lenbytes[VARINT_MAX];
    size_t nlen = (size_t)(put_varint(lenbytes, len) - lenbytes);
    if (nlen != 4) memmove(slot + nlen, body, len);
    memcpy(slot, lenbytes, nlen);
    return slot + nlen + len;
}

/* ---------------------------------------------------------------- event records */

#define BEGIN_EVENT(t, now)                      \
    uint64_t now = tick_now();                   \
    struct tstream *t = stream_self();           \
    if (UNLIKELY(!t)) return

static inline uint8_t *put_dt(struct tstream *t, uint8_t *p, uint64_t now)
{
    p = put_svarint(p, (int64_t)(now - t->last_tick));
    t->last_tick = now;
    return p;
}

static inline __attribute__((always_inline)) void record_simple(uint8_t op, uint32_t sid, struct tstream *t, uint64_t now)
{
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = op;
    p = put_dt(t, p, now);
    p = put_varint(p, sid);
    stream_commit(t, p, 1);
}

static void record_attrs(uint8_t op, uint32_t domain, uint64_t range, const nvtxEventAttributes_t *a,
                         struct tstream *t, uint64_t now)
{
    struct attrs_enc e;
    attrs_prepare(t, domain, a, &e);
    uint8_t *p = stream_room(t, EVENT_MAX + e.ext_len);
    *p++ = op;
    p = put_dt(t, p, now);
    p = put_varint(p, domain);
    if (op == NVTXC_OP_START_EX) p = put_varint(p, range);
    p = attrs_put(p, &e);
    stream_commit(t, p, 1);
}


static void h_mark_a(const char *message)
{
    BEGIN_EVENT(t, now);
    record_simple(NVTXC_OP_MARK, intern(t, message), t, now);
}

static void h_mark_w(const wchar_t *message)
{
    BEGIN_EVENT(t, now);
    record_simple(NVTXC_OP_MARK, intern_wide(t, message), t, now);
}

static void h_mark_ex(const nvtxEventAttributes_t *a)
{
    BEGIN_EVENT(t, now);
    record_attrs(NVTXC_OP_MARK_EX, 0, 0, a, t, now);
}

static void h_domain_mark_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
    BEGIN_EVENT(t, now);
    record_attrs(NVTXC_OP_MARK_EX, domain_id(domain), 0, a, t, now);
}

static nvtxRangeId_t start_simple(struct tstream *t, uint64_t now, uint32_t sid)
{
    uint64_t id = stream_next_range_id(t);
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = NVTXC_OP_START;
    p = put_dt(t, p, now);
    p = put_varint(p, id);
    p = put_varint(p, sid);
    stream_commit(t, p, 1);
    return id;
}

static nvtxRangeId_t h_range_start_a(const char *message)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return 0;
    return start_simple(t, now, intern(t, message));
}

static nvtxRangeId_t h_range_start_w(const wchar_t *message)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return 0;
    return start_simple(t, now, intern_wide(t, message));
}

static nvtxRangeId_t h_domain_range_start_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return 0;
    uint64_t id = stream_next_range_id(t);
    record_attrs(NVTXC_OP_START_EX, domain_id(domain), id, a, t, now);
    return id;
}

static nvtxRangeId_t h_range_start_ex(const nvtxEventAttributes_t *a)
{
    return h_domain_range_start_ex(NULL, a);
}

static void h_domain_range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
    BEGIN_EVENT(t, now);
    uint32_t d = domain_id(domain);
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = d ? NVTXC_OP_END_DOMAIN : NVTXC_OP_END;
    p = put_dt(t, p, now);
    if (d) p = put_varint(p, d);
    p = put_varint(p, id);
    stream_commit(t, p, 1);
}

static void h_range_end(nvtxRangeId_t id)
{
    h_domain_range_end(NULL, id);
}

static int h_range_push_a(const char *message)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return -1;
    record_simple(NVTXC_OP_PUSH, intern(t, message), t, now);
    return t->depth[0]++;
}

static int h_range_push_w(const wchar_t *message)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return -1;
    record_simple(NVTXC_OP_PUSH, intern_wide(t, message), t, now);
    return t->depth[0]++;
}

static int h_domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return -1;
    uint32_t d = domain_id(domain);
    record_attrs(NVTXC_OP_PUSH_EX, d, 0, a, t, now);
    return stream_push_level(t, d);
}

static int h_range_push_ex(const nvtxEventAttributes_t *a)
{
    return h_domain_range_push_ex(NULL, a);
}

static int h_range_pop(void)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return -1;
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = NVTXC_OP_POP;
    p = put_dt(t, p, now);
    stream_commit(t, p, 1);
    if (UNLIKELY(t->depth[0] <= 0)) return -1;
    return --t->depth[0];
}

static int h_domain_range_pop(nvtxDomainHandle_t domain)
{
    uint64_t now = tick_now();
    struct tstream *t = stream_self();
    if (UNLIKELY(!t)) return -1;
    uint32_t d = domain_id(domain);
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = d ? NVTXC_OP_POP_DOMAIN : NVTXC_OP_POP;
    p = put_dt(t, p, now);
    if (d) p = put_varint(p, d);
    stream_commit(t, p, 1);
    return stream_pop_level(t, d);
}

/* ---------------------------------------------------------------- metadata */

static void meta_text(uint8_t op, const uint8_t *fixed, size_t n, struct text name)
{
    meta_add_with_text(op, fixed, n, name.s ? name.s : "", name.n);
    free(name.s);
}

static void name_category(uint32_t domain, uint32_t category, struct text name)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain);
    p = put_varint(p, category);
    meta_text(NVTXC_META_CATEGORY_NAME, body, (size_t)(p - body), name);
}

static void h_name_category_a(uint32_t category, const char *name) { name_category(0, category, text_from_ascii(name)); }
static void h_name_category_w(uint32_t category, const wchar_t *name) { name_category(0, category, text_from_wide(name)); }
static void h_domain_name_category_a(nvtxDomainHandle_t d, uint32_t category, const char *name)
{
    name_category(domain_id(d), category, text_from_ascii(name));
}
static void h_domain_name_category_w(nvtxDomainHandle_t d, uint32_t category, const wchar_t *name)
{
    name_category(domain_id(d), category, text_from_wide(name));
}

static void name_thread(uint32_t thread, struct text name)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, thread);
    meta_text(NVTXC_META_THREAD_NAME, body, (size_t)(p - body), name);
}

static void h_name_os_thread_a(uint32_t thread, const char *name) { name_thread(thread, text_from_ascii(name)); }
static void h_name_os_thread_w(uint32_t thread, const wchar_t *name) { name_thread(thread, text_from_wide(name)); }

static nvtxDomainHandle_t domain_create(struct text name)
{
    struct nvtxc_domain *d = domain_get(name.s ? name.s : "", name.n);
    free(name.s);
    return (nvtxDomainHandle_t)d;
}

static nvtxDomainHandle_t h_domain_create_a(const char *name) { return domain_create(text_from_ascii(name)); }
static nvtxDomainHandle_t h_domain_create_w(const wchar_t *name) { return domain_create(text_from_wide(name)); }
static void h_domain_destroy(nvtxDomainHandle_t d) { domain_destroy((struct nvtxc_domain *)d); }

static nvtxStringHandle_t register_string(nvtxDomainHandle_t d, struct text s)
{
    struct nvtxc_regstr *r = regstr_get(domain_id(d), s.s ? s.s : "", s.n);
    free(s.s);
    return (nvtxStringHandle_t)r;
}

static nvtxStringHandle_t h_domain_register_string_a(nvtxDomainHandle_t d, const char *s)
{
    return register_string(d, text_from_ascii(s));
}
static nvtxStringHandle_t h_domain_register_string_w(nvtxDomainHandle_t d, const wchar_t *s)
{
    return register_string(d, text_from_wide(s));
}

/* The text of a message given in resource or sync attributes (registered strings resolved). */
static struct text attr_message(int32_t type, nvtxMessageValue_t m)
{
    struct text none = {NULL, 0};
    switch (type) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return text_from_ascii(m.ascii);
    case NVTX_MESSAGE_TYPE_UNICODE:
        return text_from_wide(m.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        const struct nvtxc_regstr *r = regstr_of(m.registered);
        return r ? text_from_ascii(r->text) : none;
    }
    default:
        return none;
    }
}

/* Resource and sync attributes the program did not fill in (see attrs_plausible): NULL, noted. */
#define PLAUSIBLE_OR_NULL(attr, struct_size)                                                                        \
    do {                                                                                                            \
        if ((attr) && ((attr)->version > NVTX_VERSION || (attr)->size > (struct_size))) {                           \
            guard_note(GUARD_BAD_ATTRIBUTES, GUARD_TEXT_BAD_ATTRIBUTES);                                           \
            (attr) = NULL;                                                                                          \
        }                                                                                                           \
    } while (0)

static nvtxResourceHandle_t h_domain_resource_create(nvtxDomainHandle_t d, nvtxResourceAttributes_t *attr)
{
    PLAUSIBLE_OR_NULL(attr, NVTX_RESOURCE_ATTRIB_STRUCT_SIZE);
    struct nvtxc_resource *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->magic = NVTXC_RESOURCE_MAGIC;
    r->id = atomic_fetch_add(&nvtxc_g.next_resource, 1) + 1;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain_id(d));
    p = put_varint(p, r->id);
    p = put_varint(p, attr ? (uint32_t)attr->identifierType : 0);
    p = put_varint(p, attr ? attr->identifier.ullValue : 0);
    struct text none = {NULL, 0};
    meta_text(NVTXC_META_RESOURCE_CREATE, body, (size_t)(p - body), attr ? attr_message(attr->messageType, attr->message) : none);
    return (nvtxResourceHandle_t)r;
}

static void h_domain_resource_destroy(nvtxResourceHandle_t handle)
{
    const struct nvtxc_resource *r = (const struct nvtxc_resource *)handle;
    if (!r || r->magic != NVTXC_RESOURCE_MAGIC) return;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, r->id);
    meta_add(NVTXC_META_RESOURCE_DESTROY, body, (size_t)(p - body));
}

static void h_initialize(const void *reserved)
{
    (void)reserved;
}

static void name_resource(uint32_t type, uint64_t handle, struct text name)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, type);
    p = put_varint(p, handle);
    meta_text(NVTXC_META_RESOURCE_NAME, body, (size_t)(p - body), name);
}

/* One A and one W handler per CUDA/OpenCL object kind. */
#define NAMING_PTR(fn, type)                                                                                   \
    static void fn##A(void *object, const char *name) { name_resource(type, (uintptr_t)object, text_from_ascii(name)); } \
    static void fn##W(void *object, const wchar_t *name) { name_resource(type, (uintptr_t)object, text_from_wide(name)); }
#define NAMING_INT(fn, type)                                                                                   \
    static void fn##A(int device, const char *name) { name_resource(type, (uint32_t)device, text_from_ascii(name)); } \
    static void fn##W(int device, const wchar_t *name) { name_resource(type, (uint32_t)device, text_from_wide(name)); }

NAMING_INT(h_cu_device, RES_CU_DEVICE)
NAMING_PTR(h_cu_context, RES_CU_CONTEXT)
NAMING_PTR(h_cu_stream, RES_CU_STREAM)
NAMING_PTR(h_cu_event, RES_CU_EVENT)
NAMING_INT(h_cudart_device, RES_CUDART_DEVICE)
NAMING_PTR(h_cudart_stream, RES_CUDART_STREAM)
NAMING_PTR(h_cudart_event, RES_CUDART_EVENT)
NAMING_PTR(h_cl_device, RES_CL_DEVICE)
NAMING_PTR(h_cl_context, RES_CL_CONTEXT)
NAMING_PTR(h_cl_queue, RES_CL_COMMANDQUEUE)
NAMING_PTR(h_cl_mem, RES_CL_MEMOBJECT)
NAMING_PTR(h_cl_sampler, RES_CL_SAMPLER)
NAMING_PTR(h_cl_program, RES_CL_PROGRAM)
NAMING_PTR(h_cl_event, RES_CL_EVENT)

/* ---------------------------------------------------------------- sync (user sync objects) */

static nvtxSyncUser_t h_sync_create(nvtxDomainHandle_t d, const nvtxSyncUserAttributes_t *attr)
{
    PLAUSIBLE_OR_NULL(attr, NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE);
    struct nvtxc_sync *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->magic = NVTXC_SYNC_MAGIC;
    s->id = atomic_fetch_add(&nvtxc_g.next_sync, 1) + 1;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain_id(d));
    p = put_varint(p, s->id);
    struct text none = {NULL, 0};
    meta_text(NVTXC_META_SYNC_CREATE, body, (size_t)(p - body), attr ? attr_message(attr->messageType, attr->message) : none);
    return (nvtxSyncUser_t)s;
}

static void h_sync_destroy(nvtxSyncUser_t handle)
{
    const struct nvtxc_sync *s = (const struct nvtxc_sync *)handle;
    if (!s || s->magic != NVTXC_SYNC_MAGIC) return;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, s->id);
    meta_add(NVTXC_META_SYNC_DESTROY, body, (size_t)(p - body));
}

static void sync_event(nvtxSyncUser_t handle, uint8_t op)
{
    BEGIN_EVENT(t, now);
    const struct nvtxc_sync *s = (const struct nvtxc_sync *)handle;
    uint8_t *p = stream_room(t, EVENT_MAX);
    *p++ = NVTXC_OP_SYNC;
    p = put_dt(t, p, now);
    *p++ = op;
    p = put_varint(p, s && s->magic == NVTXC_SYNC_MAGIC ? s->id : 0);
    stream_commit(t, p, 1);
}

static void h_sync_acquire_start(nvtxSyncUser_t h) { sync_event(h, NVTXC_SYNC_ACQUIRE_START); }
static void h_sync_acquire_failed(nvtxSyncUser_t h) { sync_event(h, NVTXC_SYNC_ACQUIRE_FAILED); }
static void h_sync_acquire_success(nvtxSyncUser_t h) { sync_event(h, NVTXC_SYNC_ACQUIRE_SUCCESS); }
static void h_sync_releasing(nvtxSyncUser_t h) { sync_event(h, NVTXC_SYNC_RELEASING); }

/* ---------------------------------------------------------------- tables */

#define H(id, fn) {id, (void (*)(void))(fn)}

static const struct handler_entry core[] = {
    H(NVTX_CBID_CORE_MarkEx, h_mark_ex),
    H(NVTX_CBID_CORE_MarkA, h_mark_a),
    H(NVTX_CBID_CORE_MarkW, h_mark_w),
    H(NVTX_CBID_CORE_RangeStartEx, h_range_start_ex),
    H(NVTX_CBID_CORE_RangeStartA, h_range_start_a),
    H(NVTX_CBID_CORE_RangeStartW, h_range_start_w),
    H(NVTX_CBID_CORE_RangeEnd, h_range_end),
    H(NVTX_CBID_CORE_RangePushEx, h_range_push_ex),
    H(NVTX_CBID_CORE_RangePushA, h_range_push_a),
    H(NVTX_CBID_CORE_RangePushW, h_range_push_w),
    H(NVTX_CBID_CORE_RangePop, h_range_pop),
    H(NVTX_CBID_CORE_NameCategoryA, h_name_category_a),
    H(NVTX_CBID_CORE_NameCategoryW, h_name_category_w),
    H(NVTX_CBID_CORE_NameOsThreadA, h_name_os_thread_a),
    H(NVTX_CBID_CORE_NameOsThreadW, h_name_os_thread_w),
};

static const struct handler_entry core2[] = {
    H(NVTX_CBID_CORE2_DomainMarkEx, h_domain_mark_ex),
    H(NVTX_CBID_CORE2_DomainRangeStartEx, h_domain_range_start_ex),
    H(NVTX_CBID_CORE2_DomainRangeEnd, h_domain_range_end),
    H(NVTX_CBID_CORE2_DomainRangePushEx, h_domain_range_push_ex),
    H(NVTX_CBID_CORE2_DomainRangePop, h_domain_range_pop),
    H(NVTX_CBID_CORE2_DomainResourceCreate, h_domain_resource_create),
    H(NVTX_CBID_CORE2_DomainResourceDestroy, h_domain_resource_destroy),
    H(NVTX_CBID_CORE2_DomainNameCategoryA, h_domain_name_category_a),
    H(NVTX_CBID_CORE2_DomainNameCategoryW, h_domain_name_category_w),
    H(NVTX_CBID_CORE2_DomainRegisterStringA, h_domain_register_string_a),
    H(NVTX_CBID_CORE2_DomainRegisterStringW, h_domain_register_string_w),
    H(NVTX_CBID_CORE2_DomainCreateA, h_domain_create_a),
    H(NVTX_CBID_CORE2_DomainCreateW, h_domain_create_w),
    H(NVTX_CBID_CORE2_DomainDestroy, h_domain_destroy),
    H(NVTX_CBID_CORE2_Initialize, h_initialize),
};

static const struct handler_entry cuda[] = {
    H(NVTX_CBID_CUDA_NameCuDeviceA, h_cu_deviceA),   H(NVTX_CBID_CUDA_NameCuDeviceW, h_cu_deviceW),
    H(NVTX_CBID_CUDA_NameCuContextA, h_cu_contextA), H(NVTX_CBID_CUDA_NameCuContextW, h_cu_contextW),
    H(NVTX_CBID_CUDA_NameCuStreamA, h_cu_streamA),   H(NVTX_CBID_CUDA_NameCuStreamW, h_cu_streamW),
    H(NVTX_CBID_CUDA_NameCuEventA, h_cu_eventA),     H(NVTX_CBID_CUDA_NameCuEventW, h_cu_eventW),
};

static const struct handler_entry cudart[] = {
    H(NVTX_CBID_CUDART_NameCudaDeviceA, h_cudart_deviceA), H(NVTX_CBID_CUDART_NameCudaDeviceW, h_cudart_deviceW),
    H(NVTX_CBID_CUDART_NameCudaStreamA, h_cudart_streamA), H(NVTX_CBID_CUDART_NameCudaStreamW, h_cudart_streamW),
    H(NVTX_CBID_CUDART_NameCudaEventA, h_cudart_eventA),   H(NVTX_CBID_CUDART_NameCudaEventW, h_cudart_eventW),
};

static const struct handler_entry opencl[] = {
    H(NVTX_CBID_OPENCL_NameClDeviceA, h_cl_deviceA),         H(NVTX_CBID_OPENCL_NameClDeviceW, h_cl_deviceW),
    H(NVTX_CBID_OPENCL_NameClContextA, h_cl_contextA),       H(NVTX_CBID_OPENCL_NameClContextW, h_cl_contextW),
    H(NVTX_CBID_OPENCL_NameClCommandQueueA, h_cl_queueA),    H(NVTX_CBID_OPENCL_NameClCommandQueueW, h_cl_queueW),
    H(NVTX_CBID_OPENCL_NameClMemObjectA, h_cl_memA),         H(NVTX_CBID_OPENCL_NameClMemObjectW, h_cl_memW),
    H(NVTX_CBID_OPENCL_NameClSamplerA, h_cl_samplerA),       H(NVTX_CBID_OPENCL_NameClSamplerW, h_cl_samplerW),
    H(NVTX_CBID_OPENCL_NameClProgramA, h_cl_programA),       H(NVTX_CBID_OPENCL_NameClProgramW, h_cl_programW),
    H(NVTX_CBID_OPENCL_NameClEventA, h_cl_eventA),           H(NVTX_CBID_OPENCL_NameClEventW, h_cl_eventW),
};

static const struct handler_entry sync_module[] = {
    H(NVTX_CBID_SYNC_DomainSyncUserCreate, h_sync_create),
    H(NVTX_CBID_SYNC_DomainSyncUserDestroy, h_sync_destroy),
    H(NVTX_CBID_SYNC_DomainSyncUserAcquireStart, h_sync_acquire_start),
    H(NVTX_CBID_SYNC_DomainSyncUserAcquireFailed, h_sync_acquire_failed),
    H(NVTX_CBID_SYNC_DomainSyncUserAcquireSuccess, h_sync_acquire_success),
    H(NVTX_CBID_SYNC_DomainSyncUserReleasing, h_sync_releasing),
};

#define MODULE(id, table) {id, table, sizeof(table) / sizeof(table[0])}

const struct handler_module nvtxc_modules[] = {
    MODULE(NVTX_CB_MODULE_CORE, core),     MODULE(NVTX_CB_MODULE_CORE2, core2),   MODULE(NVTX_CB_MODULE_CUDA, cuda),
    MODULE(NVTX_CB_MODULE_CUDART, cudart), MODULE(NVTX_CB_MODULE_OPENCL, opencl), MODULE(NVTX_CB_MODULE_SYNC, sync_module),
};
const size_t nvtxc_module_count = sizeof(nvtxc_modules) / sizeof(nvtxc_modules[0]);
