/*
 * Deferred events in custom time domains. A simulated device clock (1.5 ticks per ns of
 * CLOCK_MONOTONIC_RAW, offset) is related to the capture by a table of sync points with
 * nvtxTimestampGet; a second domain by a conversion factor to the first; a third by a timer source
 * the collector reads itself; a fourth declares itself CLOCK_MONOTONIC_RAW; a fifth has no sync
 * point at all. Events come as an unsorted batch of ranges under a registered scope, a batch of
 * marks naming their thread by tid with names in the flex data, and single nvtxEventSubmit events.
 *
 * Prints {"type":"deferred","name","kind":"range"|"mark","row","tid","start","end"} per event that
 * must be shown (CLOCK_MONOTONIC_RAW ns of its timestamps; tid -1 when it is not on a thread),
 * {"type":"unplaced","count"} for the events in the domain that cannot be converted.
 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsTime.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "emit.h"

#define T(name) NVTX_PAYLOAD_ENTRY_TYPE_##name
#define F(name) NVTX_PAYLOAD_ENTRY_FLAG_##name
#define STATIC(n) ((uint64_t)(1 << 24) + (n))

static nvtxDomainHandle_t dom;
static long calls;
static int64_t base_ns;

static int64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The device clock: 1.5 ticks per ns, starting at 1e6. */
static int64_t device_of(int64_t ns)
{
    return 1000000 + (ns - base_ns) * 3 / 2;
}

/* The scaled domain: device = 500 + 2 * scaled. */
static int64_t scaled_of(int64_t ns)
{
    return (device_of(ns) - 500) / 2;
}

/* The timer source's clock: microseconds + 7. */
static int64_t micros(void)
{
    return raw_ns() / 1000 + 7;
}

/* A timer source with data: 10 ns ticks from an offset the data holds. */
static int64_t tens(void *data)
{
    return (raw_ns() - *(const int64_t *)data) / 10;
}

static void emit_deferred(const char *name, const char *kind, const char *row, int tid, int64_t start, int64_t end)
{
    emit("{\"type\":\"deferred\",\"pid\":%d,\"tid\":%d,\"name\":%s,\"kind\":\"%s\",\"row\":%s,\"start\":%lld,\"end\":%lld}",
         (int)getpid(), tid, js(name), kind, js(row), (long long)start, (long long)end);
}

static nvtxSemanticsTime_t time_sem(uint64_t domain)
{
    nvtxSemanticsTime_t s;
    memset(&s, 0, sizeof s);
    s.header.structSize = sizeof s;
    s.header.semanticId = NVTX_SEMANTIC_ID_TIME_V1;
    s.header.version = NVTX_TIME_SEMANTIC_VERSION;
    s.timeDomainId = domain;
    return s;
}

static uint64_t time_domain(uint64_t id, uint64_t type, int64_t resolution)
{
    nvtxTimeDomainAttr_t a;
    memset(&a, 0, sizeof a);
    a.timeDomainId = id;
    a.timestampTypeId = type;
    a.timerResolution = resolution;
    return nvtxTimeDomainRegister(dom, &a);
}

static uint64_t schema(const char *name, uint64_t flags, nvtxPayloadSchemaEntry_t *e, size_t n, size_t size)
{
    nvtxPayloadSchemaAttr_t a;
    memset(&a, 0, sizeof a);
    a.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS |
                  NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
    a.name = name;
    a.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    a.flags = flags;
    a.entries = e;
    a.numEntries = n;
    a.payloadStaticSize = size;
    return nvtxPayloadSchemaRegister(dom, &a);
}

struct dev_range {
    char name[16];
    int64_t begin;
    int64_t end;
    uint32_t color;
};

struct dev_mark {
    int64_t t;
    uint64_t name; /* offset of the name in the batch's flex data */
    uint32_t tid;
};

struct submitted {
    const char *name;
    int64_t begin;
    int64_t end;
};

static void spin(int n)
{
    for (volatile int k = 0; k < n; k++) {
    }
}

int main(void)
{
    dom = nvtxDomainCreateA("deferred");
    base_ns = raw_ns();
    uint64_t device = time_domain(STATIC(1), NVTX_TIMESTAMP_TYPE_NONE, 0);
    uint64_t scaled = time_domain(0, NVTX_TIMESTAMP_TYPE_NONE, 0);
    uint64_t provider = time_domain(0, NVTX_TIMESTAMP_TYPE_NONE, 1000000);
    uint64_t monotonic = time_domain(0, NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_MONOTONIC_RAW, 1000000000);
    uint64_t lonely = time_domain(0, NVTX_TIMESTAMP_TYPE_NONE, 0);
    uint64_t pointwise = time_domain(0, NVTX_TIMESTAMP_TYPE_NONE, 0);
    uint64_t tenths = time_domain(0, NVTX_TIMESTAMP_TYPE_NONE, 0);
    static int64_t tens_origin;
    tens_origin = base_ns - 1000000;

    /* Two single sync points with CLOCK_MONOTONIC_RAW: pointwise = ns / 4 + 99. */
    for (int k = 0; k < 2; k++) {
        int64_t ns = raw_ns();
        nvtxTimeSyncPoint(dom, pointwise, NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_MONOTONIC_RAW, ns / 4 + 99, ns);
        spin(2000000);
    }
    nvtxTimerSourceWithData(dom, tenths, NVTX_TIMER_SOURCE_SAFE_CALL_AFTER_PROCESS_TEARDOWN, tens, &tens_origin);

    /* Sync points between the device clock and nvtxTimestampGet, taken over the run. */
    nvtxSyncPoint_t table[3];
    for (int k = 0; k < 3; k++) {
        int64_t tick = nvtxTimestampGet();
        table[k].src = device_of(raw_ns());
        table[k].dst = tick;
        spin(3000000);
    }
    nvtxTimestampConversionFactor(dom, scaled, device, 2.0, 0, 500);
    nvtxTimerSource(dom, provider, NVTX_TIMER_SOURCE_SAFE_CALL_AFTER_PROCESS_TEARDOWN, micros);

    nvtxSemanticsTime_t on_device = time_sem(device), on_scaled = time_sem(scaled), on_provider = time_sem(provider),
                        on_monotonic = time_sem(monotonic), on_lonely = time_sem(lonely);
    nvtxPayloadSchemaEntry_t range_entries[] = {
        {F(EVENT_MESSAGE), T(CSTRING), "name", NULL, 16, offsetof(struct dev_range, name)},
        {F(TIMESTAMP) | F(RANGE_BEGIN), T(INT64), "begin", NULL, 0, offsetof(struct dev_range, begin), &on_device.header},
        {F(TIMESTAMP) | F(RANGE_END), T(INT64), "end", NULL, 0, offsetof(struct dev_range, end), &on_device.header},
        {0, T(COLOR_ARGB), "color", NULL, 0, offsetof(struct dev_range, color)},
    };
    uint64_t range_schema = schema("device range", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_STARTEND, range_entries, 4, sizeof(struct dev_range));
    nvtxPayloadSchemaEntry_t mark_entries[] = {
        {F(TIMESTAMP) | F(MARK), T(INT64), "t", NULL, 0, offsetof(struct dev_mark, t), &on_scaled.header},
        {F(EVENT_MESSAGE) | F(OFFSET_FROM_BASE), T(CSTRING), "name", NULL, 0, offsetof(struct dev_mark, name)},
        {0, T(TID_UINT32), "tid", NULL, 0, offsetof(struct dev_mark, tid)},
    };
    uint64_t mark_schema = schema("device mark", NVTX_PAYLOAD_SCHEMA_FLAG_MARK, mark_entries, 3, sizeof(struct dev_mark));

    /* A scope for the ranges: GPU 0 / stream 1. */
    nvtxScopeAttr_t gpu_attr = {sizeof gpu_attr, "GPU 0", NVTX_SCOPE_NONE, 0};
    uint64_t gpu = nvtxScopeRegister(dom, &gpu_attr);
    nvtxScopeAttr_t stream_attr = {sizeof stream_attr, "stream 1", gpu, 0};
    uint64_t stream = nvtxScopeRegister(dom, &stream_attr);

    /* Five ranges measured "on the device", submitted unsorted. */
    enum { N = 5 };
    struct dev_range ranges[N];
    int64_t rs[N], re[N];
    for (int k = 0; k < N; k++) {
        rs[k] = raw_ns();
        spin(400000);
        re[k] = raw_ns();
        spin(100000);
    }
    static const int order[N] = {3, 0, 4, 1, 2};
    for (int k = 0; k < N; k++) {
        int i = order[k];
        memset(&ranges[k], 0, sizeof ranges[k]);
        snprintf(ranges[k].name, sizeof ranges[k].name, "kernel %d", i);
        ranges[k].begin = device_of(rs[i]);
        ranges[k].end = device_of(re[i]);
        ranges[k].color = 0xFF000000u | (uint32_t)(i * 0x101010);
    }
    nvtxEventBatch_t rb;
    memset(&rb, 0, sizeof rb);
    rb.eventSchemaId = range_schema;
    rb.size = sizeof ranges;
    rb.events = ranges;
    rb.scope = stream;
    rb.flags = NVTX_BATCH_FLAG_UNSORTED;
    nvtxEventBatchSubmit(dom, &rb);
    calls++;
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "kernel %d", i);
        emit_deferred(name, "range", "GPU 0 > stream 1 > Ranges", -1, rs[i], re[i]);
    }

    /* Marks in the scaled domain, naming the main thread; their names are in the flex data, 8 KiB
     * of it (the second name far into it). */
    static char flex[8192];
    memcpy(flex, "HEADER", 6);
    strcpy(flex + 6, "flex mark A");
    strcpy(flex + 6000, "flex mark B");
    struct dev_mark marks[2];
    int64_t mt[2];
    for (int k = 0; k < 2; k++) {
        mt[k] = raw_ns();
        spin(300000);
        marks[k].t = scaled_of(mt[k]);
        marks[k].tid = (uint32_t)gettid();
    }
    marks[0].name = 6;
    marks[1].name = 6000;
    nvtxEventBatch_t mb;
    memset(&mb, 0, sizeof mb);
    mb.eventSchemaId = mark_schema;
    mb.size = sizeof marks;
    mb.events = marks;
    mb.scope = NVTX_SCOPE_NONE;
    mb.flexData = flex;
    mb.flexDataSize = sizeof flex;
    mb.flexDataOffset = 6;
    nvtxEventBatchSubmit(dom, &mb);
    calls++;
    emit_deferred("flex mark A", "mark", "Marks", (int)gettid(), mt[0], mt[0]);
    emit_deferred("flex mark B", "mark", "Marks", (int)gettid(), mt[1], mt[1]);

    /* Single events: on the submitting thread (thread scope), in the provider, monotonic and lonely domains. */
    nvtxPayloadSchemaEntry_t sub_entries[] = {
        {F(EVENT_MESSAGE), T(CSTRING), "name"},
        {F(TIMESTAMP) | F(RANGE_BEGIN), T(INT64), "begin", NULL, 0, 0, &on_provider.header},
        {F(TIMESTAMP) | F(RANGE_END), T(INT64), "end", NULL, 0, 0, &on_provider.header},
    };
    uint64_t sub_schema = schema("submitted", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP, sub_entries, 3, sizeof(struct submitted));
    sub_entries[1].semantics = &on_monotonic.header;
    sub_entries[2].semantics = &on_monotonic.header;
    uint64_t mono_schema = schema("submitted raw", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP, sub_entries, 3, sizeof(struct submitted));
    sub_entries[1].semantics = &on_lonely.header;
    sub_entries[2].semantics = &on_lonely.header;
    uint64_t lonely_schema = schema("submitted lonely", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP, sub_entries, 3, sizeof(struct submitted));

    uint64_t thread_scope = NVTX_SCOPE_CURRENT_SW_THREAD;
    /* Three spans one after the other (events of one thread row in three time domains). */
    int64_t s0 = raw_ns();
    spin(2000000);
    int64_t s1 = raw_ns();
    spin(200000);
    int64_t s2 = raw_ns();
    spin(2000000);
    int64_t s3 = raw_ns();
    spin(200000);
    int64_t s4 = raw_ns();
    spin(2000000);
    int64_t s5 = raw_ns();
    struct submitted in_provider = {"in the provider domain", s0 / 1000 + 7, s1 / 1000 + 7};
    nvtxPayloadData_t p1[] = {{sub_schema, sizeof in_provider, &in_provider}, {T(SCOPE_ID), sizeof thread_scope, &thread_scope}};
    nvtxEventSubmit(dom, p1, 2);
    calls++;
    emit_deferred("in the provider domain", "range", "Deferred", (int)gettid(), s0, s1);

    struct submitted raw = {"in CLOCK_MONOTONIC_RAW", s0, s1};
    nvtxPayloadData_t p2[] = {{mono_schema, sizeof raw, &raw}};
    nvtxEventSubmit(dom, p2, 1);
    calls++;
    emit_deferred("in CLOCK_MONOTONIC_RAW", "range", "Deferred > Ranges", -1, s0, s1);

    nvtxSemanticsTime_t on_pointwise = time_sem(pointwise), on_tenths = time_sem(tenths);
    sub_entries[1].semantics = &on_pointwise.header;
    sub_entries[2].semantics = &on_pointwise.header;
    uint64_t pointwise_schema = schema("submitted pointwise", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP, sub_entries, 3, sizeof(struct submitted));
    sub_entries[1].semantics = &on_tenths.header;
    sub_entries[2].semantics = &on_tenths.header;
    uint64_t tenths_schema = schema("submitted tenths", NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP, sub_entries, 3, sizeof(struct submitted));
    struct submitted pw = {"between single sync points", s2 / 4 + 99, s3 / 4 + 99};
    struct submitted te = {"from a timer source with data", (s4 - tens_origin) / 10, (s5 - tens_origin) / 10};
    nvtxPayloadData_t p4[] = {{pointwise_schema, sizeof pw, &pw}, {T(SCOPE_ID), sizeof thread_scope, &thread_scope}};
    nvtxPayloadData_t p5[] = {{tenths_schema, sizeof te, &te}, {T(SCOPE_ID), sizeof thread_scope, &thread_scope}};
    nvtxEventSubmit(dom, p4, 2);
    nvtxEventSubmit(dom, p5, 2);
    calls += 2;
    emit_deferred("between single sync points", "range", "Deferred", (int)gettid(), s2, s3);
    emit_deferred("from a timer source with data", "range", "Deferred", (int)gettid(), s4, s5);

    struct submitted lost = {"never placed", 1, 2};
    nvtxPayloadData_t p3[] = {{lonely_schema, sizeof lost, &lost}};
    nvtxEventSubmit(dom, p3, 1);
    nvtxEventSubmit(dom, p3, 1);
    calls += 2;
    emit("{\"type\":\"unplaced\",\"pid\":%d,\"tid\":%d,\"name\":\"lonely\",\"count\":2}", (int)getpid(), (int)gettid());

    /* The table last: the collector must place events whose sync points come after them. */
    nvtxTimeSyncPointTable(dom, device, NVTX_TIMESTAMP_TYPE_TOOL_PROVIDED, table, 3);
    emit_events(calls);
    return 0;
}
