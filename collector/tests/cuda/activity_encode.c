/*
 * The activity encoder (src/cuda_activity.c) on fabricated CUPTI records: two bodies (two chunks),
 * the second defining its names again (ids are local to a chunk). Prints one JSON line per body:
 *   {"body":"<hex of the records>","base":B,"expect":[...]}
 * where "expect" lists, in order, the records the body must hold as the format's fields
 * (docs/capture-format.md, section 10.3); collector/tests/cuda.test.ts decodes the bytes and compares.
 */
#include <cupti.h>
#include <stdio.h>
#include <string.h>

#include "collector.h"
#include "cuda_activity.h"
#include "guard.h"

/* What src/text.c (linked for utf8_cut) refers to, outside a collector. */
struct nvtxc_global nvtxc_g;
void guard_note(enum guard_problem kind, const char *what)
{
    (void)kind;
    (void)what;
}

static void hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static CUpti_ActivityKernel10 kernel(const char *name, uint64_t start, uint64_t end, uint32_t stream, uint32_t corr)
{
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = start;
    k.end = end;
    k.deviceId = 1;
    k.contextId = 3;
    k.streamId = stream;
    k.correlationId = corr;
    k.gridX = 120;
    k.gridY = 3;
    k.gridZ = 1;
    k.blockX = 512;
    k.blockY = 2;
    k.blockZ = 1;
    k.registersPerThread = 40;
    k.staticSharedMemory = 2048;
    k.dynamicSharedMemory = 65536;
    k.name = name;
    return k;
}

#define T0 1700000000000000000ull

int main(void)
{
    struct cuda_activity_body b;
    memset(&b, 0, sizeof b);
    cuda_activity_note_context(3, 1);

    /* Body 1: two kernels with one name, a mangled one, a copy, a peer copy, a set, a sync, a kind the format lacks. */
    cuda_activity_body_reset(&b);
    CUpti_ActivityKernel10 k1 = kernel("vectorAdd", T0 + 5000, T0 + 9000, 13, 101);
    CUpti_ActivityKernel10 k2 = kernel("vectorAdd", T0 + 1000, T0 + 1500, 14, 102); /* earlier than the base: negative start */
    CUpti_ActivityKernel10 k3 = kernel("_Z5scaleIfEvPT_S1_i", T0 + 20000, T0 + 19000, 0xFFFFFFFFu, 103); /* end < start */
    CUpti_ActivityMemcpy6 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    m.flags = 0;
    m.bytes = 123456789012ull;
    m.start = T0 + 30000;
    m.end = T0 + 90000;
    m.deviceId = 1;
    m.contextId = 3;
    m.streamId = 7;
    m.correlationId = 104;
    CUpti_ActivityMemcpyPtoP4 pp;
    memset(&pp, 0, sizeof pp);
    pp.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    pp.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    pp.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    pp.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    pp.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    pp.bytes = 4096;
    pp.start = T0 + 40000;
    pp.end = T0 + 41000;
    pp.deviceId = 1;
    pp.contextId = 3;
    pp.streamId = 13;
    pp.srcDeviceId = 1;
    pp.dstDeviceId = 2;
    pp.correlationId = 105;
    CUpti_ActivityMemset4 ms;
    memset(&ms, 0, sizeof ms);
    ms.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    ms.value = 255;
    ms.bytes = 1 << 20;
    ms.start = T0 + 50000;
    ms.end = T0 + 50500;
    ms.deviceId = 1;
    ms.contextId = 3;
    ms.streamId = 14;
    ms.correlationId = 106;
    ms.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
    ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    CUpti_ActivitySynchronization2 sy;
    memset(&sy, 0, sizeof sy);
    sy.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    sy.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    sy.start = T0 + 60000;
    sy.end = T0 + 99000;
    sy.correlationId = 107;
    sy.contextId = 3;
    sy.streamId = 0xFFFFFFFFu;
    sy.cudaEventId = 0xFFFFFFFFu;
    CUpti_ActivityAPI other;
    memset(&other, 0, sizeof other);
    other.kind = CUPTI_ACTIVITY_KIND_RUNTIME;

    const CUpti_Activity *first[] = {(CUpti_Activity *)&k1, (CUpti_Activity *)&k2, (CUpti_Activity *)&k3,
                                     (CUpti_Activity *)&m,  (CUpti_Activity *)&pp, (CUpti_Activity *)&ms,
                                     (CUpti_Activity *)&sy, (CUpti_Activity *)&other};
    int written = 0;
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) written += cuda_activity_add(&b, first[i]);
    printf("{\"body\":\"");
    hex(b.buf, b.len);
    printf("\",\"base\":\"%llu\",\"written\":%d,\"skipped\":%llu,\"expect\":[", (unsigned long long)b.base, written,
           (unsigned long long)b.skipped);
    printf("{\"kind\":1,\"id\":1,\"mangled\":\"vectorAdd\",\"demangled\":\"\"},");
    printf("{\"kind\":2,\"start\":0,\"duration\":4000,\"device\":1,\"context\":3,\"stream\":13,\"correlation\":101,"
           "\"name\":1,\"grid\":[120,3,1],\"block\":[512,2,1],\"registers\":40,\"staticShared\":2048,\"dynamicShared\":65536},");
    printf("{\"kind\":2,\"start\":-4000,\"duration\":500,\"device\":1,\"context\":3,\"stream\":14,\"correlation\":102,"
           "\"name\":1,\"grid\":[120,3,1],\"block\":[512,2,1],\"registers\":40,\"staticShared\":2048,\"dynamicShared\":65536},");
    printf("{\"kind\":1,\"id\":2,\"mangled\":\"_Z5scaleIfEvPT_S1_i\",\"demangled\":\"void scale<float>(float*, float*, int)\"},");
    printf("{\"kind\":2,\"start\":15000,\"duration\":0,\"device\":1,\"context\":3,\"stream\":4294967295,\"correlation\":103,"
           "\"name\":2,\"grid\":[120,3,1],\"block\":[512,2,1],\"registers\":40,\"staticShared\":2048,\"dynamicShared\":65536},");
    printf("{\"kind\":3,\"start\":25000,\"duration\":60000,\"device\":1,\"context\":3,\"stream\":7,\"correlation\":104,"
           "\"copyKind\":%d,\"srcKind\":%d,\"dstKind\":%d,\"bytes\":123456789012,\"flags\":0,\"srcDevice\":1,\"dstDevice\":1},",
           CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
    printf("{\"kind\":3,\"start\":35000,\"duration\":1000,\"device\":1,\"context\":3,\"stream\":13,\"correlation\":105,"
           "\"copyKind\":%d,\"srcKind\":%d,\"dstKind\":%d,\"bytes\":4096,\"flags\":1,\"srcDevice\":1,\"dstDevice\":2},",
           CUPTI_ACTIVITY_MEMCPY_KIND_PTOP, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
    printf("{\"kind\":4,\"start\":45000,\"duration\":500,\"device\":1,\"context\":3,\"stream\":14,\"correlation\":106,"
           "\"bytes\":1048576,\"value\":255,\"memoryKind\":%d,\"flags\":%d},",
           CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC);
    printf("{\"kind\":5,\"start\":55000,\"duration\":39000,\"device\":1,\"context\":3,\"stream\":4294967295,\"correlation\":107,"
           "\"type\":4,\"event\":4294967295}");
    printf("]}\n");

    /* Body 2: names defined again, ids from 1 in the order of first use in this chunk. */
    cuda_activity_body_reset(&b);
    CUpti_ActivityKernel10 k4 = kernel("_Z5scaleIfEvPT_S1_i", T0 + 100000, T0 + 100100, 13, 108);
    CUpti_ActivityKernel10 k5 = kernel("reduce", T0 + 100200, T0 + 100300, 13, 109);
    CUpti_ActivityKernel10 k6 = kernel("vectorAdd", T0 + 100400, T0 + 100500, 13, 110);
    written = cuda_activity_add(&b, (CUpti_Activity *)&k4) + cuda_activity_add(&b, (CUpti_Activity *)&k5) +
              cuda_activity_add(&b, (CUpti_Activity *)&k6);
    printf("{\"body\":\"");
    hex(b.buf, b.len);
    printf("\",\"base\":\"%llu\",\"written\":%d,\"skipped\":0,\"expect\":[", (unsigned long long)b.base, written);
    const char *common = "\"device\":1,\"context\":3,\"stream\":13,\"grid\":[120,3,1],\"block\":[512,2,1],\"registers\":40,"
                         "\"staticShared\":2048,\"dynamicShared\":65536";
    printf("{\"kind\":1,\"id\":1,\"mangled\":\"_Z5scaleIfEvPT_S1_i\",\"demangled\":\"void scale<float>(float*, float*, int)\"},");
    printf("{\"kind\":2,\"start\":0,\"duration\":100,\"correlation\":108,\"name\":1,%s},", common);
    printf("{\"kind\":1,\"id\":2,\"mangled\":\"reduce\",\"demangled\":\"\"},");
    printf("{\"kind\":2,\"start\":200,\"duration\":100,\"correlation\":109,\"name\":2,%s},", common);
    printf("{\"kind\":1,\"id\":3,\"mangled\":\"vectorAdd\",\"demangled\":\"\"},");
    printf("{\"kind\":2,\"start\":400,\"duration\":100,\"correlation\":110,\"name\":3,%s}", common);
    printf("]}\n");
    cuda_activity_body_free(&b);
    return 0;
}
