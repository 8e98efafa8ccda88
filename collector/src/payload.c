/*
 * The payload extension module (nvToolsExtPayload.h): schema, enum, scope and time-domain
 * registration, payload marks and ranges, deferred events and batches, and the time-domain calls
 * (timer sources, sync points, conversion factors). Events go to the calling thread's stream as
 * PAYLOAD_EVENT / EVENT_BATCH records with their payloads and the memory they point to copied;
 * registrations and time facts go to the metadata log (docs/capture-format.md, 6.1 and 7.2).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "encode.h"
#include "ext_record.h"
#include "payload.h"
#include "handles.h"
#include "meta.h"
#include "guard.h"
#include "payload_copy.h"
#include "payload_registry.h"
#include "stream.h"

#define MAX_ITEMS 256
/* nvtxTimestampGet returns capture ticks: NVTX_TIMESTAMP_TYPE_TOOL_PROVIDED timestamps are ticks. */
#define TOOL_PROVIDED NVTX_TIMESTAMP_TYPE_TOOL_PROVIDED

/* ---------------------------------------------------------------- once per process */

static pthread_once_t ext_once = PTHREAD_ONCE_INIT;

/* Clocks read together with a tick, so that timestamps of these types can be placed (META CLOCKS). */
static void record_clocks(void)
{
    static const struct {
        uint32_t type;
        clockid_t id;
    } clocks[] = {
        {NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_REALTIME, CLOCK_REALTIME},
        {NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_MONOTONIC, CLOCK_MONOTONIC},
        {NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_MONOTONIC_RAW, CLOCK_MONOTONIC_RAW},
        {NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_BOOTTIME, CLOCK_BOOTTIME},
    };
    enum { N = sizeof clocks / sizeof clocks[0] };
    uint64_t values[N];
    uint64_t before = tick_now();
    for (size_t i = 0; i < N; i++) values[i] = clock_ns(clocks[i].id);
    uint64_t after = tick_now();
    uint8_t body[2 * VARINT_MAX + VARINT_MAX + N * 2 * VARINT_MAX];
    uint8_t *p = put_svarint(body, (int64_t)(before + (after - before) / 2 - nvtxc_g.start.tick));
    p = put_varint(p, (uint64_t)my_tid());
    p = put_varint(p, N);
    for (size_t i = 0; i < N; i++) {
        p = put_varint(p, clocks[i].type);
        p = put_svarint(p, (int64_t)values[i]);
    }
    meta_add(NVTXC_META_CLOCKS, body, (size_t)(p - body));
}

static int ext_ready;
static pthread_mutex_t sources_lock = PTHREAD_MUTEX_INITIALIZER;

static void sources_fork_prepare(void) { pthread_mutex_lock(&sources_lock); }
static void sources_fork_release(void) { pthread_mutex_unlock(&sources_lock); }

static void ext_setup(void)
{
    pl_registry_init();
    pthread_atfork(sources_fork_prepare, sources_fork_release, sources_fork_release);
    record_clocks();
    ext_ready = 1;
}

void ext_init_once(void)
{
    pthread_once(&ext_once, ext_setup);
}

/* ---------------------------------------------------------------- payload events */

static __thread struct pl_copies *tls_copies TLS_FAST;

/* The payloads as `count (schema flags address size data)*`, then `count (address size flags data)*`. */
static void put_payloads(struct xrec *r, uint32_t domain, const nvtxPayloadData_t *items, size_t count)
{
    size_t sizes[MAX_ITEMS];
    uint32_t flags[MAX_ITEMS];
    if (!items) count = 0;
    if (count > MAX_ITEMS) count = MAX_ITEMS;
    xrec_varint(r, count);
    for (size_t i = 0; i < count; i++) {
        sizes[i] = pl_item_size(&items[i], NVTXC_MAX_EXT_BLOB, &flags[i]);
        xrec_varint(r, items[i].schemaId);
        xrec_varint(r, flags[i]);
        xrec_varint(r, (uintptr_t)items[i].payload);
        xrec_varint(r, sizes[i]);
        xrec_data(r, items[i].payload, sizes[i]);
    }
    struct pl_copies *c = tls_copies;
    if (count > 0 && (c || (c = tls_copies = malloc(sizeof *c)))) {
        c->n = 0;
        c->bytes = 0;
        c->limit = PL_MAX_COPY_BYTES;
        pl_copies_collect(domain, items, sizes, count, c);
        xrec_varint(r, c->n);
        for (size_t i = 0; i < c->n; i++) {
            xrec_varint(r, (uintptr_t)c->r[i].addr);
            xrec_varint(r, c->r[i].size);
            xrec_varint(r, c->r[i].flags);
            xrec_data(r, c->r[i].addr, c->r[i].size);
        }
    } else {
        xrec_varint(r, 0);
    }
}

/*
 * The common case: the record fits half the buffer, so it is encoded straight into it, its length
 * worked out first. Returns 0 when it does not fit (the general path then writes it).
 */
static int payload_event_direct(struct tstream *t, uint64_t now, uint8_t kind, uint32_t domain, uint64_t range,
                                const nvtxPayloadData_t *items, size_t count)
{
    size_t sizes[MAX_ITEMS];
    uint32_t flags[MAX_ITEMS];
    if (!items) count = 0;
    if (count > MAX_ITEMS) count = MAX_ITEMS;
    int64_t tick = (int64_t)(now - nvtxc_g.start.tick);
    size_t body = svlen(tick) + 1 + vlen(domain) + vlen(range) + vlen(count);
    int registered = 0;
    for (size_t i = 0; i < count; i++) {
        sizes[i] = pl_item_size(&items[i], NVTXC_MAX_EXT_BLOB, &flags[i]);
        body += vlen(items[i].schemaId) + vlen(flags[i]) + vlen((uintptr_t)items[i].payload) + vlen(sizes[i]) + sizes[i];
        registered |= items[i].schemaId >= NVTX_PAYLOAD_SCHEMA_ID_STATIC_START;
    }
    struct pl_copies *c = NULL;
    if (registered && (tls_copies || (tls_copies = malloc(sizeof *tls_copies)))) {
        c = tls_copies;
        c->n = 0;
        c->bytes = 0;
        c->limit = PL_MAX_COPY_BYTES;
        pl_copies_collect(domain, items, sizes, count, c);
    }
    size_t ncopies = c ? c->n : 0;
    body += vlen(ncopies);
    for (size_t i = 0; i < ncopies; i++) body += vlen((uintptr_t)c->r[i].addr) + vlen(c->r[i].size) + vlen(c->r[i].flags) + c->r[i].size;
    if (1 + VARINT_MAX + body > t->cap / 2) return 0;

    uint8_t *p = stream_room(t, 1 + VARINT_MAX + body);
    *p++ = NVTXC_OP_PAYLOAD_EVENT;
    p = put_varint(p, body);
    p = put_svarint(p, tick);
    *p++ = kind;
    p = put_varint(p, domain);
    p = put_varint(p, range);
    p = put_varint(p, count);
    for (size_t i = 0; i < count; i++) {
        p = put_varint(p, items[i].schemaId);
        p = put_varint(p, flags[i]);
        p = put_varint(p, (uintptr_t)items[i].payload);
        p = put_varint(p, sizes[i]);
        memcpy(p, items[i].payload, sizes[i]);
        p += sizes[i];
    }
    p = put_varint(p, ncopies);
    for (size_t i = 0; i < ncopies; i++) {
        p = put_varint(p, (uintptr_t)c->r[i].addr);
        p = put_varint(p, c->r[i].size);
        p = put_varint(p, c->r[i].flags);
        memcpy(p, c->r[i].addr, c->r[i].size);
        p += c->r[i].size;
    }
    stream_commit(t, p, 1);
    return 1;
}

static void payload_event(struct tstream *t, uint64_t now, uint8_t kind, uint32_t domain, uint64_t range,
                          const nvtxPayloadData_t *items, size_t count)
{
    if (payload_event_direct(t, now, kind, domain, range, items, count)) return;
    struct xrec *r = xrec_begin();
    if (!r) return;
    xrec_tick(r, now);
    xrec_u8(r, kind);
    xrec_varint(r, domain);
    xrec_varint(r, range);
    put_payloads(r, domain, items, count);
    xrec_write(r, t, NVTXC_OP_PAYLOAD_EVENT);
}

#define BEGIN(t, now, fail)                \
    uint64_t now = tick_now();             \
    struct tstream *t = stream_self();     \
    if (UNLIKELY(!t)) return fail

static void h_mark_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, );
    payload_event(t, now, NVTXC_PEV_MARK, domain_id(d), 0, items, count);
}

static int h_push_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, -1);
    uint32_t dom = domain_id(d);
    payload_event(t, now, NVTXC_PEV_PUSH, dom, 0, items, count);
    return stream_push_level(t, dom);
}

static int h_pop_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, -1);
    uint32_t dom = domain_id(d);
    payload_event(t, now, NVTXC_PEV_POP, dom, 0, items, count);
    return stream_pop_level(t, dom);
}

static nvtxRangeId_t h_start_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, 0);
    uint64_t id = stream_next_range_id(t);
    payload_event(t, now, NVTXC_PEV_START, domain_id(d), id, items, count);
    return id;
}

static void h_end_payload(nvtxDomainHandle_t d, nvtxRangeId_t id, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, );
    payload_event(t, now, NVTXC_PEV_END, domain_id(d), id, items, count);
}

static void h_event_submit(nvtxDomainHandle_t d, const nvtxPayloadData_t *items, size_t count)
{
    BEGIN(t, now, );
    payload_event(t, now, NVTXC_PEV_SUBMIT, domain_id(d), 0, items, count);
}

/* Bytes of batch data kept (at most NVTXC_MAX_BATCH), setting `cut_bit` in *flags when cut. */
static size_t batch_bytes(const void *p, size_t n, uint32_t cut_bit, uint32_t *flags)
{
    if (!p) return 0;
    if (n > NVTXC_MAX_BATCH) {
        *flags |= cut_bit;
        n = NVTXC_MAX_BATCH;
    }
    size_t readable = guard_readable_all(p, n);
    if (readable < n) {
        *flags |= cut_bit;
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
        n = readable;
    }
    return n;
}

static void h_event_batch_submit(nvtxDomainHandle_t d, const nvtxEventBatch_t *b)
{
    BEGIN(t, now, );
    if (!b) return;
    struct xrec *r = xrec_begin();
    if (!r) return;
    uint32_t cut = 0;
    size_t events = batch_bytes(b->events, b->size, 1u << 0, &cut);
    /* The header's reading: flexData points at a blob of flexDataSize bytes, whose usable part
       starts flexDataOffset bytes in (the reference text reads the size from the offset on). */
    size_t flex = batch_bytes(b->flexData, b->flexDataSize, 1u << 1, &cut);
    xrec_tick(r, now);
    xrec_varint(r, domain_id(d));
    xrec_varint(r, b->eventSchemaId);
    xrec_varint(r, b->scope);
    xrec_varint(r, b->flags);
    xrec_varint(r, cut);
    xrec_varint(r, (uintptr_t)b->events);
    xrec_varint(r, events);
    xrec_data(r, b->events, events);
    xrec_varint(r, (uintptr_t)b->flexData);
    xrec_varint(r, b->flexDataOffset);
    xrec_varint(r, flex);
    xrec_data(r, b->flexData, flex);
    xrec_write(r, t, NVTXC_OP_EVENT_BATCH);
}

/* ---------------------------------------------------------------- registration */

static uint64_t h_schema_register(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *a)
{
    return pl_schema_register(domain_id(d), a);
}

static uint64_t h_enum_register(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *a)
{
    return pl_enum_register(domain_id(d), a);
}

static uint64_t h_scope_register(nvtxDomainHandle_t d, const nvtxScopeAttr_t *a)
{
    return pl_scope_register(domain_id(d), a);
}

static uint64_t h_time_domain_register(nvtxDomainHandle_t d, const nvtxTimeDomainAttr_t *a)
{
    return pl_time_domain_register(domain_id(d), a);
}

/* Every domain is recorded. */
static uint8_t h_domain_is_enabled(nvtxDomainHandle_t d)
{
    (void)d;
    return nvtxc_capturing ? 1 : 0;
}

static int64_t h_timestamp_get(void)
{
    return (int64_t)tick_now();
}

/* ---------------------------------------------------------------- time domains */

static void sync_points(uint32_t domain, uint64_t src, uint64_t dst, const nvtxSyncPoint_t *points, size_t n)
{
    if (!points || n == 0) return;
    if (n > (1u << 20)) n = 1u << 20;
    uint8_t *body = malloc(5 * VARINT_MAX + n * 2 * VARINT_MAX);
    if (!body) return;
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain);
    p = put_varint(p, src);
    p = put_varint(p, dst);
    p = put_varint(p, n);
    for (size_t i = 0; i < n; i++) {
        p = put_svarint(p, points[i].src);
        p = put_svarint(p, points[i].dst);
    }
    meta_add(NVTXC_META_SYNC_POINTS, body, (size_t)(p - body));
    free(body);
}

static void h_sync_point(nvtxDomainHandle_t d, uint64_t id1, uint64_t id2, int64_t ts1, int64_t ts2)
{
    nvtxSyncPoint_t point = {ts1, ts2};
    sync_points(domain_id(d), id1, id2, &point, 1);
}

static void h_sync_point_table(nvtxDomainHandle_t d, uint64_t src, uint64_t dst, const nvtxSyncPoint_t *points, size_t n)
{
    sync_points(domain_id(d), src, dst, points, n);
}

static void h_conversion_factor(nvtxDomainHandle_t d, uint64_t src, uint64_t dst, double slope, int64_t ts_src, int64_t ts_dst)
{
    uint8_t body[7 * VARINT_MAX + 8];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain_id(d));
    p = put_varint(p, src);
    p = put_varint(p, dst);
    uint64_t bits;
    memcpy(&bits, &slope, sizeof bits);
    p = put_u64(p, bits);
    p = put_svarint(p, ts_src);
    p = put_svarint(p, ts_dst);
    meta_add(NVTXC_META_CONVERSION_FACTOR, body, (size_t)(p - body));
}

/* A timer source the collector reads to relate its time domain to capture ticks. */
struct timer_source {
    uint32_t domain;
    uint64_t time_domain;
    uint64_t flags;
    int64_t (*fn)(void);
    int64_t (*fn_data)(void *);
    void *data;
    struct timer_source *next;
};

static struct timer_source *sources;

/* One sync point (provider value, tick at the middle of the call) between the domain and ticks. */
static void sample_source(const struct timer_source *s)
{
    uint64_t before = tick_now();
    int64_t value = s->fn ? s->fn() : s->fn_data(s->data);
    uint64_t after = tick_now();
    nvtxSyncPoint_t point = {value, (int64_t)(before + (after - before) / 2)};
    sync_points(s->domain, s->time_domain, TOOL_PROVIDED, &point, 1);
}

static void timer_source(uint32_t domain, uint64_t id, uint64_t flags, int64_t (*fn)(void), int64_t (*fn_data)(void *), void *data)
{
    if (!fn && !fn_data) return;
    struct timer_source *s = malloc(sizeof *s);
    if (!s) return;
    *s = (struct timer_source){domain, id, flags, fn, fn_data, data, NULL};
    uint8_t body[6 * VARINT_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain);
    p = put_varint(p, id);
    p = put_varint(p, flags);
    meta_add(NVTXC_META_TIMER_SOURCE, body, (size_t)(p - body));
    sample_source(s);
    pthread_mutex_lock(&sources_lock);
    s->next = sources;
    sources = s;
    pthread_mutex_unlock(&sources_lock);
}

static void h_timer_source(nvtxDomainHandle_t d, uint64_t id, uint64_t flags, int64_t (*fn)(void))
{
    timer_source(domain_id(d), id, flags, fn, NULL, NULL);
}

static void h_timer_source_with_data(nvtxDomainHandle_t d, uint64_t id, uint64_t flags, int64_t (*fn)(void *), void *data)
{
    timer_source(domain_id(d), id, flags, NULL, fn, data);
}

void ext_at_exit(void)
{
    if (!nvtxc_capturing || !ext_ready) return;
    pthread_mutex_lock(&sources_lock);
    /* A second point per source: with the one taken at registration, the conversion has a slope. */
    for (const struct timer_source *s = sources; s; s = s->next)
        if (s->flags == NVTX_TIMER_SOURCE_SAFE_CALL_AFTER_PROCESS_TEARDOWN) sample_source(s);
    pthread_mutex_unlock(&sources_lock);
    record_clocks();
}

/* ---------------------------------------------------------------- module table */

struct slot {
    unsigned id;
    intptr_t fn;
};

#define S(id, fn) {id, (intptr_t)(fn)}

static const struct slot payload_slots[] = {
    S(NVTX3EXT_CBID_nvtxPayloadSchemaRegister, h_schema_register),
    S(NVTX3EXT_CBID_nvtxPayloadEnumRegister, h_enum_register),
    S(NVTX3EXT_CBID_nvtxMarkPayload, h_mark_payload),
    S(NVTX3EXT_CBID_nvtxRangePushPayload, h_push_payload),
    S(NVTX3EXT_CBID_nvtxRangePopPayload, h_pop_payload),
    S(NVTX3EXT_CBID_nvtxRangeStartPayload, h_start_payload),
    S(NVTX3EXT_CBID_nvtxRangeEndPayload, h_end_payload),
    S(NVTX3EXT_CBID_nvtxDomainIsEnabled, h_domain_is_enabled),
    S(NVTX3EXT_CBID_nvtxTimestampGet, h_timestamp_get),
    S(NVTX3EXT_CBID_nvtxTimeDomainRegister, h_time_domain_register),
    S(NVTX3EXT_CBID_nvtxTimerSource, h_timer_source),
    S(NVTX3EXT_CBID_nvtxTimerSourceWithData, h_timer_source_with_data),
    S(NVTX3EXT_CBID_nvtxScopeRegister, h_scope_register),
    S(NVTX3EXT_CBID_nvtxTimeSyncPoint, h_sync_point),
    S(NVTX3EXT_CBID_nvtxTimeSyncPointTable, h_sync_point_table),
    S(NVTX3EXT_CBID_nvtxTimestampConversionFactor, h_conversion_factor),
    S(NVTX3EXT_CBID_nvtxEventSubmit, h_event_submit),
    S(NVTX3EXT_CBID_nvtxEventBatchSubmit, h_event_batch_submit),
};

int ext_attach_payload(nvtxExtModuleInfo_t *info)
{
    if (!info->segments || info->segmentsCount < 1 || !info->segments[0].functionSlots) return 0;
    ext_init_once();
    pl_set_type_table(info->extInfo);
    nvtxExtModuleSegment_t *seg = &info->segments[0];
    for (size_t i = 0; i < sizeof payload_slots / sizeof payload_slots[0]; i++) {
        /* An older program has fewer slots: only ids below its count exist. */
        if (payload_slots[i].id < seg->slotCount) seg->functionSlots[payload_slots[i].id] = payload_slots[i].fn;
    }
    return 1;
}
