/*
 * Exercises every call the collector records: marks, push/pop and start/end in their A, W, Ex and
 * domain forms, names (threads, categories), domains, registered strings, every scalar payload
 * type, colors, wide strings with non-ASCII text, sync objects, resources, CUDA / CUDA runtime /
 * OpenCL naming; on several threads (one ends early, one is renamed late), with a range ended on
 * another thread, and from two shared objects that initialise NVTX on their own. Prints what it
 * did as JSON lines (emit.h).
 */
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <nvtx3/nvToolsExtOpenCL.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSync.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"

long unit_a_work(int iterations);
long unit_b_work(int iterations);

static atomic_long calls;
static nvtxDomainHandle_t dom, wdom;
static nvtxStringHandle_t reg, wreg;
static nvtxSyncUser_t wide_lock;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "all_calls: check failed at line %d: %s\n", __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static nvtxEventAttributes_t attrs(void)
{
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    return a;
}

static void names(void)
{
    nvtxNameOsThreadA((uint32_t)gettid(), "main thread");
    emit_thread(gettid(), "main thread");
    nvtxNameCategoryA(1, "Category One");
    emit_category("", 1, "Category One");
    nvtxNameCategoryW(2, L"Catégorie deux ✓");
    emit_category("", 2, "Catégorie deux ✓");
    dom = nvtxDomainCreateA("my domain");
    wdom = nvtxDomainCreateW(L"домен");
    CHECK(dom && wdom && dom != wdom);
    CHECK(nvtxDomainCreateA("my domain") == dom);
    nvtxDomainNameCategoryA(dom, 1, "dom cat one");
    emit_category("my domain", 1, "dom cat one");
    nvtxDomainNameCategoryW(wdom, 5, L"カテゴリ五");
    emit_category("домен", 5, "カテゴリ五");
    reg = nvtxDomainRegisterStringA(dom, "registered message");
    wreg = nvtxDomainRegisterStringW(wdom, L"зарегистрировано ✓");
    CHECK(reg && wreg && reg != (nvtxStringHandle_t)wreg);
    CHECK(nvtxDomainRegisterStringA(dom, "registered message") == reg);
}

static void marks(void)
{
    nvtxMarkA("mark A");
    emit_mark("", "mark A", 0, 0, NULL);
    nvtxMarkW(L"mark W größe ✓ 日本 🚀");
    emit_mark("", "mark W größe ✓ 日本 🚀", 0, 0, NULL);

    nvtxEventAttributes_t a = attrs();
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFF112233u;
    a.category = 1;
    a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    a.payload.dValue = 3.25;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "mark Ex";
    nvtxMarkEx(&a);
    emit_mark("", "mark Ex", 1, 0xFF112233u, pay_f64(3.25));

    a = attrs();
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
    a.payload.uiValue = 7;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = reg;
    nvtxDomainMarkEx(dom, &a);
    emit_mark("my domain", "registered message", 0, 0, pay_u32(7));

    a = attrs();
    a.category = 5;
    a.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
    a.payload.fValue = 0.1f;
    a.messageType = NVTX_MESSAGE_TYPE_UNICODE;
    a.message.unicode = L"wide ex mark ü";
    nvtxDomainMarkEx(wdom, &a);
    emit_mark("домен", "wide ex mark ü", 5, 0, pay_f32(0.1f));

    a = attrs();
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    a.payload.ullValue = UINT64_MAX;
    nvtxMarkEx(&a);
    emit_mark("", "", 0, 0, pay_u64(UINT64_MAX));

    /* An extended payload on a core event, set by hand (the header's C helper macros do not compile). */
    static const uint8_t raw[] = {0xde, 0xad, 0xbe, 0xef, 0x01};
    nvtxPayloadData_t data = {NVTX_TYPE_PAYLOAD_SCHEMA_RAW, sizeof raw, raw};
    a = attrs();
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = 1;
    a.payload.ullValue = (uint64_t)(uintptr_t)&data;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "mark with raw payload";
    nvtxMarkEx(&a);
    emit("{\"type\":\"extpayload\",\"pid\":%d,\"tid\":%d,\"name\":\"mark with raw payload\",\"schema\":%d,\"bytes\":\"deadbeef01\"}",
         (int)getpid(), (int)gettid(), NVTX_TYPE_PAYLOAD_SCHEMA_RAW);
    calls += 7;
}

static void push_pop(void)
{
    int d0 = nvtxRangePushA("level 0 A");
    int d1 = nvtxRangePushW(L"level 1 W 日本");
    nvtxEventAttributes_t a = attrs();
    a.category = 2;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFF00FF00u;
    a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    a.payload.llValue = -1234567890123LL;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "level 2 Ex";
    int d2 = nvtxRangePushEx(&a);
    int d3 = nvtxRangePushA("level 3 A");
    CHECK(d0 == 0 && d1 == 1 && d2 == 2 && d3 == 3);
    CHECK(nvtxRangePop() == 3);
    CHECK(nvtxRangePop() == 2);
    CHECK(nvtxRangePop() == 1);
    CHECK(nvtxRangePop() == 0);
    emit_pushpop("", "level 0 A", d0, NULL, 0, 0, NULL);
    emit_pushpop("", "level 1 W 日本", d1, "level 0 A", 0, 0, NULL);
    emit_pushpop("", "level 2 Ex", d2, "level 1 W 日本", 2, 0xFF00FF00u, pay_i64(-1234567890123LL));
    emit_pushpop("", "level 3 A", d3, "level 2 Ex", 0, 0, NULL);

    /* Domains have their own stacks. */
    a = attrs();
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    a.payload.ullValue = 42;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = wreg;
    int e0 = nvtxDomainRangePushEx(wdom, &a);
    nvtxEventAttributes_t b = attrs();
    b.category = 5;
    b.messageType = NVTX_MESSAGE_TYPE_ASCII;
    b.message.ascii = "dom inner";
    int e1 = nvtxDomainRangePushEx(wdom, &b);
    int f0 = nvtxRangePushA("default while domain open");
    CHECK(e0 == 0 && e1 == 1 && f0 == 0);
    CHECK(nvtxRangePop() == 0);
    CHECK(nvtxDomainRangePop(wdom) == 1);
    CHECK(nvtxDomainRangePop(wdom) == 0);
    emit_pushpop("домен", "зарегистрировано ✓", e0, NULL, 0, 0, pay_u64(42));
    emit_pushpop("домен", "dom inner", e1, "зарегистрировано ✓", 5, 0, NULL);
    emit_pushpop("", "default while domain open", f0, NULL, 0, 0, NULL);

    nvtxEventAttributes_t c = attrs();
    c.messageType = NVTX_MESSAGE_TYPE_ASCII;
    c.message.ascii = "null domain push";
    int g0 = nvtxDomainRangePushEx(NULL, &c);
    CHECK(nvtxDomainRangePop(NULL) == 0);
    emit_pushpop("", "null domain push", g0, NULL, 0, 0, NULL);
    calls += 16;
}

static void *end_on_other_thread(void *arg)
{
    pthread_setname_np(pthread_self(), "ender");
    emit_thread(gettid(), "ender");
    nvtxRangeEnd(*(nvtxRangeId_t *)arg);
    calls += 1;
    return NULL;
}

static void start_end(void)
{
    int tid = gettid();
    nvtxRangeId_t id1 = nvtxRangeStartA("start A");
    nvtxRangeEnd(id1);
    emit_startend(tid, tid, "", "start A", 0, 0, NULL);
    nvtxRangeId_t id2 = nvtxRangeStartW(L"start W ü");
    nvtxRangeEnd(id2);
    emit_startend(tid, tid, "", "start W ü", 0, 0, NULL);

    nvtxEventAttributes_t a = attrs();
    a.category = 1;
    a.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
    a.payload.fValue = 2.5f;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "start Ex";
    nvtxRangeId_t id3 = nvtxRangeStartEx(&a);
    nvtxRangeEnd(id3);
    emit_startend(tid, tid, "", "start Ex", 1, 0, pay_f32(2.5f));

    nvtxEventAttributes_t b = attrs();
    b.payloadType = NVTX_PAYLOAD_TYPE_INT32;
    b.payload.iValue = -9;
    b.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    b.message.registered = reg;
    nvtxRangeId_t id4 = nvtxDomainRangeStartEx(dom, &b);
    nvtxDomainRangeEnd(dom, id4);
    emit_startend(tid, tid, "my domain", "registered message", 0, 0, pay_i32(-9));

    nvtxRangeId_t id5 = nvtxRangeStartA("overlap 1");
    nvtxRangeId_t id6 = nvtxRangeStartA("overlap 2");
    nvtxRangeEnd(id5);
    nvtxRangeEnd(id6);
    emit_startend(tid, tid, "", "overlap 1", 0, 0, NULL);
    emit_startend(tid, tid, "", "overlap 2", 0, 0, NULL);
    CHECK(id1 && id2 && id3 && id4 && id5 && id6 && id5 != id6);

    static nvtxRangeId_t cross;
    cross = nvtxRangeStartA("cross thread");
    pthread_t t;
    pthread_create(&t, NULL, end_on_other_thread, &cross);
    pthread_join(t, NULL);
    calls += 13;
    /* The ender's tid is printed by the ender; the test matches the range by name and checks the flag. */
    emit_startend(tid, -1, "", "cross thread", 0, 0, NULL);
}

static void *worker(void *arg)
{
    int index = (int)(long)arg;
    char os_name[16];
    snprintf(os_name, sizeof os_name, "worker-%d", index);
    pthread_setname_np(pthread_self(), os_name);
    int tid = gettid();
    if (index == 1) {
        nvtxNameOsThreadW((uint32_t)tid, L"ワーカー one");
        emit_thread(tid, "ワーカー one");
    } else if (index == 2) {
        emit_thread(tid, os_name);
    }
    int iterations = index == 2 ? 3 : 40; /* worker 2 ends early */
    long n = 0;
    char item[32];
    for (int k = 0; k < iterations; k++) {
        int d0 = nvtxRangePushA("worker outer");
        /* The same buffer with changing text: the collector must not trust the pointer alone. */
        snprintf(item, sizeof item, "item %d", k % 5);
        int d1 = nvtxRangePushA(item);
        nvtxMarkA("tick");
        nvtxRangePop();
        nvtxRangePop();
        emit_pushpop("", item, d1, "worker outer", 0, 0, NULL);
        emit_pushpop("", "worker outer", d0, NULL, 0, 0, NULL);
        emit_mark("", "tick", 0, 0, NULL);
        n += 5;
    }
    if (index == 0) {
        n += unit_a_work(5);
        n += unit_b_work(3);
        /* Renamed late: the capture notices at the thread's last flush. */
        pthread_setname_np(pthread_self(), "renamed-0");
        emit_thread(tid, "renamed-0");
    }
    if (index == 1) {
        nvtxDomainSyncUserAcquireStart(wide_lock);
        nvtxDomainSyncUserAcquireSuccess(wide_lock);
        nvtxDomainSyncUserReleasing(wide_lock);
        emit_sync("зарегистрировано ✓", "acquire");
        emit_sync("зарегистрировано ✓", "held");
        n += 3;
    }
    calls += n;
    return NULL;
}

static void sync_objects(void)
{
    nvtxSyncUserAttributes_t sa = {0};
    sa.version = NVTX_VERSION;
    sa.size = NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE;
    sa.messageType = NVTX_MESSAGE_TYPE_ASCII;
    sa.message.ascii = "queue lock";
    nvtxSyncUser_t lock = nvtxDomainSyncUserCreate(dom, &sa);
    CHECK(lock != NULL);
    nvtxDomainSyncUserAcquireStart(lock);
    nvtxDomainSyncUserAcquireSuccess(lock);
    nvtxDomainSyncUserReleasing(lock);
    nvtxDomainSyncUserAcquireStart(lock);
    nvtxDomainSyncUserAcquireFailed(lock);
    emit_sync("queue lock", "acquire");
    emit_sync("queue lock", "held");
    emit_sync("queue lock", "acquire failed");
    nvtxDomainSyncUserDestroy(lock);
    calls += 5;
}

static void resources(void)
{
    static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    char handle[32];
    nvtxResourceAttributes_t r = {0};
    r.version = NVTX_VERSION;
    r.size = NVTX_RESOURCE_ATTRIB_STRUCT_SIZE;
    r.identifierType = NVTX_RESOURCE_TYPE_GENERIC_POINTER;
    r.identifier.pValue = (const void *)0x1000;
    r.messageType = NVTX_MESSAGE_TYPE_ASCII;
    r.message.ascii = "resource one";
    nvtxResourceHandle_t one = nvtxDomainResourceCreate(dom, &r);
    emit_resource("pointer", "0x1000", "resource one");
    r.identifierType = NVTX_RESOURCE_TYPE_SYNC_PTHREAD_MUTEX;
    r.identifier.pValue = &mutex;
    r.messageType = NVTX_MESSAGE_TYPE_UNICODE;
    r.message.unicode = L"мьютекс";
    nvtxResourceHandle_t two = nvtxDomainResourceCreate(dom, &r);
    snprintf(handle, sizeof handle, "0x%llx", (unsigned long long)(uintptr_t)&mutex);
    emit_resource("pthread mutex", handle, "мьютекс");
    CHECK(one && two);
    nvtxDomainResourceDestroy(one);
    nvtxDomainResourceDestroy(two);

    nvtxNameCuDeviceA(0, "GPU zero");
    emit_resource("CUDA device", "0", "GPU zero");
    nvtxNameCuContextA((CUcontext)0x2000, "main context");
    emit_resource("CUDA context", "0x2000", "main context");
    nvtxNameCuStreamW((CUstream)0x3000, L"copy stream ✓");
    emit_resource("CUDA stream", "0x3000", "copy stream ✓");
    nvtxNameCuEventA((CUevent)0x4000, "done event");
    emit_resource("CUDA event", "0x4000", "done event");
    nvtxNameCudaDeviceW(1, L"GPU one");
    emit_resource("CUDA runtime device", "1", "GPU one");
    nvtxNameCudaStreamA((cudaStream_t)0x5000, "rt stream");
    emit_resource("CUDA runtime stream", "0x5000", "rt stream");
    nvtxNameCudaEventA((cudaEvent_t)0x6000, "rt event");
    emit_resource("CUDA runtime event", "0x6000", "rt event");
    nvtxNameClDeviceA((cl_device_id)0x7000, "cl device");
    emit_resource("OpenCL device", "0x7000", "cl device");
    nvtxNameClContextW((cl_context)0x7100, L"cl context");
    emit_resource("OpenCL context", "0x7100", "cl context");
    nvtxNameClCommandQueueA((cl_command_queue)0x7200, "cl queue");
    emit_resource("OpenCL command queue", "0x7200", "cl queue");
    nvtxNameClMemObjectA((cl_mem)0x7300, "cl buffer");
    emit_resource("OpenCL memory object", "0x7300", "cl buffer");
    nvtxNameClSamplerA((cl_sampler)0x7400, "cl sampler");
    emit_resource("OpenCL sampler", "0x7400", "cl sampler");
    nvtxNameClProgramW((cl_program)0x7500, L"cl program");
    emit_resource("OpenCL program", "0x7500", "cl program");
    nvtxNameClEventA((cl_event)0x7600, "cl event");
    emit_resource("OpenCL event", "0x7600", "cl event");
}

/* Registered before the collector attaches, so it runs after the collector's exit handler. */
static void after_exit_handler(void)
{
    nvtxMarkA("from an exit handler");
    emit_mark("", "from an exit handler", 0, 0, NULL);
}

int main(void)
{
    atexit(after_exit_handler);
    names();
    nvtxSyncUserAttributes_t sa = {0};
    sa.version = NVTX_VERSION;
    sa.size = NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE;
    sa.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    sa.message.registered = wreg;
    wide_lock = nvtxDomainSyncUserCreate(wdom, &sa);

    marks();
    push_pop();
    start_end();
    pthread_t workers[3];
    for (long i = 0; i < 3; i++) pthread_create(&workers[i], NULL, worker, (void *)i);
    calls += unit_a_work(3);
    calls += unit_b_work(2);
    for (int i = 0; i < 3; i++) pthread_join(workers[i], NULL);
    sync_objects();
    resources();
    nvtxDomainSyncUserDestroy(wide_lock);
    nvtxDomainDestroy(wdom);
    nvtxDomainDestroy(dom);
    emit_events(calls + 1); /* + the mark of after_exit_handler */
    return 0;
}
