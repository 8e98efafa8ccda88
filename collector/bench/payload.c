/*
 * Cost of the payload and counters extension calls with the collector attached, single thread:
 * a payload mark (a 24-byte static struct), a push/pop payload pair, a mark whose payload points to
 * a C string the collector copies, and an int64 counter sample. Each runs N times after a warm-up,
 * timed with the thread's CPU clock. Prints one JSON object (ns per call).
 *
 *   payload N
 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sample {
    int64_t a;
    double b;
    int32_t c;
};

struct labelled {
    const char *label;
    int32_t n;
};

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t schema(nvtxDomainHandle_t d, const nvtxPayloadSchemaEntry_t *e, size_t n)
{
    nvtxPayloadSchemaAttr_t a;
    memset(&a, 0, sizeof a);
    a.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
    a.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    a.entries = e;
    a.numEntries = n;
    return nvtxPayloadSchemaRegister(d, &a);
}

#define TIME(label, body)                                      \
    do {                                                       \
        for (long i = 0; i < 100000; i++) body;                \
        double t0 = cpu_ns();                                  \
        for (long i = 0; i < n; i++) body;                     \
        printf("%s\"%s\": %.1f", first ? "" : ", ", label, (cpu_ns() - t0) / (double)n); \
        first = 0;                                             \
    } while (0)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    if (n < 1) return 2;
    nvtxDomainHandle_t d = nvtxDomainCreateA("bench");
    static const nvtxPayloadSchemaEntry_t plain[] = {
        {0, NVTX_PAYLOAD_ENTRY_TYPE_INT64, "a"}, {0, NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, "b"}, {0, NVTX_PAYLOAD_ENTRY_TYPE_INT32, "c"}};
    static const nvtxPayloadSchemaEntry_t withstr[] = {{NVTX_PAYLOAD_ENTRY_FLAG_EVENT_MESSAGE, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING, "label"},
                                                       {0, NVTX_PAYLOAD_ENTRY_TYPE_INT32, "n"}};
    uint64_t s_plain = schema(d, plain, 3);
    uint64_t s_str = schema(d, withstr, 2);
    nvtxCounterAttr_t ca;
    memset(&ca, 0, sizeof ca);
    ca.structSize = sizeof ca;
    ca.schemaId = NVTX_PAYLOAD_ENTRY_TYPE_INT64;
    ca.name = "bench counter";
    uint64_t counter = nvtxCounterRegister(d, &ca);
    if (!s_plain || !s_str || !counter) {
        fprintf(stderr, "payload: run under nvtx-capture (registrations returned 0)\n");
        return 1;
    }
    struct sample s = {1, 2.5, 3};
    struct labelled l = {"a label the collector copies", 7};
    nvtxPayloadData_t p_plain = {s_plain, sizeof s, &s};
    nvtxPayloadData_t p_str = {s_str, sizeof l, &l};
    int first = 1;
    printf("{\"calls\": %ld, ", n);
    TIME("markPayload", nvtxMarkPayload(d, &p_plain, 1));
    TIME("pushPopPayload", (nvtxRangePushPayload(d, &p_plain, 1), nvtxRangePopPayload(d, NULL, 0)));
    TIME("markPayloadCopiedString", nvtxMarkPayload(d, &p_str, 1));
    TIME("counterSampleInt64", nvtxCounterSampleInt64(d, counter, i));
    printf("}\n");
    return 0;
}
