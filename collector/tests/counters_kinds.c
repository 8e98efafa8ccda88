/*
 * Counters of several kinds: a single int64 counter with limits and a unit, a float64 counter
 * scaled 1/1000 with linear interpolation, a normalised uint8 counter, a counter group sampled by
 * reference from two threads (one row per thread and counter), samples without a value (zero,
 * unchanged, unavailable), a counter of changes (value type delta) and its running total, a
 * counter under a registered scope, and batches: one timestamp per
 * sample and a begin time + interval pair. Registration rules for counters, scopes and time domains.
 *
 * Prints {"type":"counter","row","tid","unit","values":[…],"times":[…],"interpolation","min","max"}
 * per counter row: display values ("NaN" for a sample without a value), and for batched samples the CLOCK_MONOTONIC_RAW ns read next to
 * the nvtxTimestampGet tick the sample carries (null for immediate samples).
 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>
#include <nvtx3/nvToolsExtSemanticsScope.h>

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "emit.h"
#include "json.h"

#define T(name) NVTX_PAYLOAD_ENTRY_TYPE_##name
#define STATIC(n) ((uint64_t)(1 << 24) + (n))
#define BEGIN_PAIR (1ull << 32) /* NVTX_COUNTER_BATCH_FLAG_BEGINTIME_INTERVAL_PAIR (int overflow in the header) */

static nvtxDomainHandle_t dom;
static long calls;
static struct jbuf jb;
static pthread_mutex_t emit_lock = PTHREAD_MUTEX_INITIALIZER;

static void check(const char *what, int ok)
{
    emit("{\"type\":\"check\",\"pid\":%d,\"tid\":%d,\"name\":%s,\"ok\":%s}", (int)getpid(), (int)gettid(), js(what), ok ? "true" : "false");
}

static int64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static nvtxSemanticsCounter_t counter_sem(const char *unit, uint64_t flags, uint64_t num, uint64_t den)
{
    nvtxSemanticsCounter_t s;
    memset(&s, 0, sizeof s);
    s.header.structSize = sizeof s;
    s.header.semanticId = NVTX_SEMANTIC_ID_COUNTERS_V1;
    s.header.version = NVTX_COUNTER_SEMANTIC_VERSION;
    s.flags = flags;
    s.unit = unit;
    s.unitScaleNumerator = num;
    s.unitScaleDenominator = den;
    return s;
}

static uint64_t register_counter(const char *name, uint64_t schema, uint64_t scope, const nvtxSemanticsHeader_t *sem, uint64_t id)
{
    nvtxCounterAttr_t a;
    memset(&a, 0, sizeof a);
    a.structSize = sizeof a;
    a.schemaId = schema;
    a.name = name;
    a.description = "a test counter";
    a.scopeId = scope;
    a.semantics = sem;
    a.counterId = id;
    return nvtxCounterRegister(dom, &a);
}

/* One counter row: the values the viewer must show, and the raw ns of each (or none). */
static void emit_row(const char *row, int tid, const char *unit, const double *values, const int64_t *times, int n,
                     const char *interpolation, const double *min, const double *max)
{
    pthread_mutex_lock(&emit_lock);
    jb.n = 0;
    jb.depth = 0;
    jb.need_comma[0] = 0;
    jb_open(&jb, "{");
    KV_STR(&jb, "type", "counter");
    KV_INT(&jb, "pid", getpid());
    KV_INT(&jb, "tid", tid);
    KV_STR(&jb, "row", row);
    jb_key(&jb, "unit");
    if (unit) jb_str(&jb, unit);
    else jb_raw(&jb, "null");
    jb_key(&jb, "values");
    jb_open(&jb, "[");
    for (int k = 0; k < n; k++) {
        jb_value_start(&jb, 1);
        jb_double(&jb, values[k]);
    }
    jb_close(&jb, "]");
    jb_key(&jb, "times");
    if (times) {
        jb_open(&jb, "[");
        for (int k = 0; k < n; k++) {
            jb_value_start(&jb, 1);
            jb_int(&jb, times[k]);
        }
        jb_close(&jb, "]");
    } else {
        jb_raw(&jb, "null");
    }
    jb_key(&jb, "interpolation");
    if (interpolation) jb_str(&jb, interpolation);
    else jb_raw(&jb, "null");
    jb_key(&jb, "min");
    if (min) jb_double(&jb, *min);
    else jb_raw(&jb, "null");
    jb_key(&jb, "max");
    if (max) jb_double(&jb, *max);
    else jb_raw(&jb, "null");
    jb_close(&jb, "}");
    jb_emit(&jb);
    pthread_mutex_unlock(&emit_lock);
}

/* ---------------------------------------------------------------- a counter group per thread */

struct memory_sample {
    uint64_t used;
    uint64_t free;
    int32_t tag; /* not a counter */
};

static uint64_t memory_group;

static void *memory_thread(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg;
    double used[3], freev[3];
    for (int k = 0; k < 3; k++) {
        struct memory_sample s = {base + (uint64_t)k * 4096, 1000000 - base - (uint64_t)k, k};
        nvtxCounterSample(dom, memory_group, &s, sizeof s);
        __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
        used[k] = (double)s.used;
        freev[k] = (double)s.free;
    }
    emit_row("Counters > memory > used", (int)gettid(), "bytes", used, NULL, 3, NULL, NULL, NULL);
    emit_row("Counters > memory > free", (int)gettid(), "bytes", freev, NULL, 3, NULL, NULL, NULL);
    return NULL;
}

int main(void)
{
    dom = nvtxDomainCreateA("counters");

    /* Scopes and time domains: static, generated, refused. */
    nvtxScopeAttr_t sa = {sizeof sa, "GPU[CUDAID:0]", NVTX_SCOPE_NONE, STATIC(7)};
    uint64_t gpu = nvtxScopeRegister(dom, &sa);
    check("static scope id honoured", gpu == STATIC(7));
    check("duplicate static scope id refused", nvtxScopeRegister(dom, &sa) == 0);
    nvtxScopeAttr_t sm = {sizeof sm, "SM\\/3", gpu, 0};
    uint64_t sm3 = nvtxScopeRegister(dom, &sm);
    check("generated scope id", sm3 >= (1ull << 32));
    nvtxTimeDomainAttr_t ta;
    memset(&ta, 0, sizeof ta);
    ta.timestampTypeId = NVTX_TIMESTAMP_TYPE_TOOL_PROVIDED;
    ta.timeDomainId = STATIC(3);
    check("static time domain id honoured", nvtxTimeDomainRegister(dom, &ta) == STATIC(3));
    check("duplicate time domain id refused", nvtxTimeDomainRegister(dom, &ta) == 0);
    ta.timeDomainId = 12;
    check("time domain id below 2^24 refused", nvtxTimeDomainRegister(dom, &ta) == 0);

    /* A single int64 counter with limits and a unit. */
    nvtxSemanticsCounter_t depth_sem = counter_sem("items", NVTX_COUNTER_FLAG_LIMITS | NVTX_COUNTER_FLAG_INTERPOLATION_UNTIL_NEXT, 1, 1);
    depth_sem.limitType = NVTX_COUNTER_LIMIT_I64;
    depth_sem.min.i64 = 0;
    depth_sem.max.i64 = 100;
    uint64_t depth = register_counter("queue depth", T(INT64), NVTX_SCOPE_CURRENT_SW_PROCESS, &depth_sem.header, STATIC(5));
    check("static counter id honoured", depth == STATIC(5));
    check("duplicate counter id refused", register_counter("again", T(INT64), 0, NULL, STATIC(5)) == 0);
    check("counter of an unknown schema refused", register_counter("bad", STATIC(999), 0, NULL, 0) == 0);
    check("counter of a string type refused", register_counter("bad", T(CSTRING), 0, NULL, 0) == 0);
    int64_t depth_values[] = {3, 7, 1};
    for (int k = 0; k < 3; k++) nvtxCounterSampleInt64(dom, depth, depth_values[k]);
    /* No value: zero, unchanged (repeats 0), unavailable (nothing drawn), then 5. */
    nvtxCounterSampleNoValue(dom, depth, NVTX_COUNTER_SAMPLE_ZERO);
    nvtxCounterSampleNoValue(dom, depth, NVTX_COUNTER_SAMPLE_UNCHANGED);
    nvtxCounterSampleNoValue(dom, depth, NVTX_COUNTER_SAMPLE_UNAVAILABLE);
    nvtxCounterSampleInt64(dom, depth, 5);
    calls += 7;
    /* One more sample, 6, comes after the big batch below. The unavailable sample has no value (NaN). */
    double depth_shown[] = {3, 7, 1, 0, 0, NAN, 5, 6};
    double lo = 0, hi = 100;
    emit_row("Counters > queue depth", -1, "items", depth_shown, NULL, 8, "untilNext", &lo, &hi);

    /* A counter of changes (value type delta): bytes sent since the previous sample, one change
     * unavailable. Drawn since the previous sample unless told otherwise; its running total is the
     * sum of the known changes. */
    nvtxSemanticsCounter_t sent_sem = counter_sem("bytes", NVTX_COUNTER_FLAG_VALUETYPE_DELTA, 1, 1);
    uint64_t sent = register_counter("bytes sent", T(INT64), NVTX_SCOPE_NONE, &sent_sem.header, 0);
    int64_t sent_changes[] = {100, 250, 50};
    nvtxCounterSampleInt64(dom, sent, sent_changes[0]);
    nvtxCounterSampleInt64(dom, sent, sent_changes[1]);
    nvtxCounterSampleNoValue(dom, sent, NVTX_COUNTER_SAMPLE_UNAVAILABLE);
    nvtxCounterSampleInt64(dom, sent, sent_changes[2]);
    calls += 4;
    double sent_shown[] = {100, 250, NAN, 50};
    double sent_total[] = {100, 350, NAN, 400};
    emit_row("Counters > bytes sent", -1, "bytes", sent_shown, NULL, 4, "sinceLast", NULL, NULL);
    emit_row("Counters > bytes sent (running total)", -1, "bytes", sent_total, NULL, 4, "untilNext", NULL, NULL);

    /* A float64 counter in milli-units shown in units, linear. */
    nvtxSemanticsCounter_t temp_sem = counter_sem("°C", NVTX_COUNTER_FLAG_INTERPOLATION_LINEAR, 1, 1000);
    uint64_t temp = register_counter("temperature", T(DOUBLE), NVTX_SCOPE_NONE, &temp_sem.header, 0);
    check("generated counter id", temp >= (1ull << 32));
    double temp_raw[] = {21500, 22750.5, 19000.25};
    double temp_shown[3];
    for (int k = 0; k < 3; k++) {
        nvtxCounterSampleFloat64(dom, temp, temp_raw[k]);
        temp_shown[k] = temp_raw[k] * 1 / 1000;
    }
    calls += 3;
    emit_row("Counters > temperature", -1, "°C", temp_shown, NULL, 3, "linear", NULL, NULL);

    /* A normalised uint8 counter (fixed point to [0, 1]) under a registered scope. */
    nvtxSemanticsCounter_t load_sem = counter_sem(NULL, NVTX_COUNTER_FLAG_NORMALIZE | NVTX_COUNTER_FLAG_INTERPOLATION_SINCE_LAST, 1, 1);
    uint64_t load = register_counter("load", T(UINT8), sm3, &load_sem.header, 0);
    uint8_t loads[] = {255, 51, 0};
    double load_shown[3];
    for (int k = 0; k < 3; k++) {
        nvtxCounterSample(dom, load, &loads[k], 1);
        load_shown[k] = loads[k] / 255.0;
    }
    calls += 3;
    emit_row("GPU[CUDAID:0] > SM/3 > load", -1, NULL, load_shown, NULL, 3, "sinceLast", NULL, NULL);

    /* A counter group, one row per thread and counter. */
    nvtxSemanticsCounter_t bytes_sem = counter_sem("bytes", 0, 1, 1);
    nvtxPayloadSchemaEntry_t entries[] = {
        {NVTX_PAYLOAD_ENTRY_FLAG_COUNTER, T(UINT64), "used", NULL, 0, offsetof(struct memory_sample, used), &bytes_sem.header},
        {NVTX_PAYLOAD_ENTRY_FLAG_COUNTER, T(UINT64), "free", NULL, 0, offsetof(struct memory_sample, free), &bytes_sem.header},
        {0, T(INT32), "tag", NULL, 0, offsetof(struct memory_sample, tag)},
    };
    nvtxPayloadSchemaAttr_t ga;
    memset(&ga, 0, sizeof ga);
    ga.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                   NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
    ga.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    ga.flags = NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP;
    ga.entries = entries;
    ga.numEntries = 3;
    ga.payloadStaticSize = sizeof(struct memory_sample);
    uint64_t group_schema = nvtxPayloadSchemaRegister(dom, &ga);
    memory_group = register_counter("memory", group_schema, NVTX_SCOPE_CURRENT_SW_THREAD, NULL, 0);
    pthread_t threads[2];
    for (int k = 0; k < 2; k++) pthread_create(&threads[k], NULL, memory_thread, (void *)(uintptr_t)(1000 * (k + 1)));
    for (int k = 0; k < 2; k++) pthread_join(threads[k], NULL);

    /* Batches, timestamped with nvtxTimestampGet: one timestamp per sample, then begin + interval. */
    uint64_t batched = register_counter("batched", T(INT32), NVTX_SCOPE_NONE, NULL, 0);
    enum { N = 5 };
    int32_t samples[N];
    int64_t stamps[N], ns[N];
    double shown[N];
    for (int k = 0; k < N; k++) {
        for (volatile int spin = 0; spin < 200000; spin++) {
        }
        samples[k] = k * k - 3;
        stamps[k] = nvtxTimestampGet();
        ns[k] = raw_ns();
        shown[k] = samples[k];
    }
    nvtxCounterBatch_t batch = {batched, samples, sizeof samples, 0, stamps, sizeof stamps};
    nvtxCounterBatchSubmit(dom, &batch);
    calls++;
    emit_row("Counters > batched", -1, NULL, shown, ns, N, NULL, NULL, NULL);

    uint64_t paired = register_counter("paired", T(FLOAT), NVTX_SCOPE_NONE, NULL, 0);
    float fsamples[4] = {0.5f, 1.5f, 2.5f, 3.5f};
    int64_t t0 = nvtxTimestampGet();
    int64_t n0 = raw_ns();
    for (volatile int spin = 0; spin < 2000000; spin++) {
    }
    int64_t t1 = nvtxTimestampGet();
    int64_t n1 = raw_ns();
    int64_t pair[2] = {t0, (t1 - t0) / 3};
    nvtxCounterBatch_t pb = {paired, fsamples, sizeof fsamples, BEGIN_PAIR, pair, sizeof pair};
    nvtxCounterBatchSubmit(dom, &pb);
    calls++;
    double pshown[4];
    int64_t pns[4];
    for (int k = 0; k < 4; k++) {
        pshown[k] = fsamples[k];
        pns[k] = n0 + (n1 - n0) * k / 3;
    }
    emit_row("Counters > paired", -1, NULL, pshown, pns, 4, NULL, NULL, NULL);

    /* A batch of 300000 samples (1.2 MB): larger than the buffer, written as a chunk of its own. */
    uint64_t big = register_counter("big batch", T(INT32), NVTX_SCOPE_NONE, NULL, 0);
    enum { BIG = 300000 };
    static int32_t bigv[BIG];
    static int64_t bigt[BIG];
    int64_t start = nvtxTimestampGet();
    double sum = 0;
    for (int k = 0; k < BIG; k++) {
        bigv[k] = (int32_t)(((int64_t)k * 7919) % 1000 - 500);
        bigt[k] = start + k;
        sum += bigv[k];
    }
    nvtxCounterBatch_t bb = {big, bigv, sizeof bigv, 0, bigt, sizeof bigt};
    nvtxCounterBatchSubmit(dom, &bb);
    nvtxCounterSampleInt64(dom, depth, 6);
    calls += 2;
    emit("{\"type\":\"bigbatch\",\"pid\":%d,\"tid\":%d,\"name\":\"big batch\",\"count\":%d,\"sum\":%.0f,\"first\":%d,\"last\":%d}",
         (int)getpid(), (int)gettid(), BIG, sum, bigv[0], bigv[BIG - 1]);

    emit_events(calls);
    return 0;
}
