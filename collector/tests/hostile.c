/*
 * What a careless program can pass NVTX, none of which may crash it under the collector:
 *
 *   hostile attrs   uninitialised event attributes (garbage bytes), an undefined message type
 *   hostile nulls   NULL strings, handles and attribute pointers in every call that takes one
 *   hostile sizes   batch and payload sizes far beyond their memory, impossible schemas and enums
 *   hostile many    10,000 domains, 100,000 registered strings, 1 MB messages and names
 *
 * Prints {"type":"hostile","pid","tid","mode","marks":N,"ms":T}: the marks it made with a known
 * message "after" (the capture must hold them all) and the time the mode took.
 */
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSync.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"

static long marks;

/* A mark the test counts: each mode ends with these, proving the program carried on. */
static void after(void)
{
    nvtxMarkA("after");
    marks++;
}

static void garbage(void *p, size_t n, unsigned seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (unsigned char)(seed >> 16);
    }
}

static void attrs(void)
{
    nvtxDomainHandle_t d = nvtxDomainCreateA("hostile");
    for (unsigned k = 0; k < 64; k++) {
        nvtxEventAttributes_t a;
        if (k == 0) memset(&a, 0xA5, sizeof a);
        else if (k == 1) memset(&a, 0xFF, sizeof a);
        else garbage(&a, sizeof a, k);
        nvtxMarkEx(&a);
        nvtxRangePushEx(&a);
        nvtxRangePop();
        nvtxRangeEnd(nvtxRangeStartEx(&a));
        nvtxDomainMarkEx(d, &a);
        nvtxDomainRangePushEx(d, &a);
        nvtxDomainRangePop(d);
        nvtxDomainRangeEnd(d, nvtxDomainRangeStartEx(d, &a));
    }
    /* Filled in as NVTX asks, except for a message type it does not define. */
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = 99;
    a.message.ascii = "never read";
    nvtxMarkEx(&a);
    /* Resource and sync attributes left uninitialised. */
    nvtxResourceAttributes_t ra;
    garbage(&ra, sizeof ra, 7);
    nvtxDomainResourceDestroy(nvtxDomainResourceCreate(d, &ra));
    nvtxSyncUserAttributes_t sa;
    garbage(&sa, sizeof sa, 9);
    nvtxDomainSyncUserDestroy(nvtxDomainSyncUserCreate(d, &sa));
}

static void nulls(void)
{
    nvtxMarkA(NULL);
    nvtxMarkW(NULL);
    nvtxRangePushA(NULL);
    nvtxRangePop();
    nvtxRangePushW(NULL);
    nvtxRangePop();
    nvtxRangeEnd(nvtxRangeStartA(NULL));
    nvtxRangeEnd(nvtxRangeStartW(NULL));
    nvtxMarkEx(NULL);
    nvtxRangePushEx(NULL);
    nvtxRangePop();
    nvtxRangeEnd(nvtxRangeStartEx(NULL));
    nvtxDomainHandle_t none = nvtxDomainCreateA(NULL);
    nvtxDomainHandle_t wnone = nvtxDomainCreateW(NULL);
    nvtxDomainMarkEx(none, NULL);
    nvtxDomainMarkEx(wnone, NULL);
    nvtxDomainRangePushEx(NULL, NULL);
    nvtxDomainRangePop(NULL);
    nvtxDomainRangeEnd(NULL, nvtxDomainRangeStartEx(NULL, NULL));
    nvtxStringHandle_t s = nvtxDomainRegisterStringA(NULL, NULL);
    nvtxDomainRegisterStringW(none, NULL);
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = s;
    nvtxMarkEx(&a);
    a.message.registered = NULL;
    nvtxMarkEx(&a);
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = NULL;
    nvtxMarkEx(&a);
    nvtxNameCategoryA(5, NULL);
    nvtxNameCategoryW(6, NULL);
    nvtxDomainNameCategoryA(NULL, 7, NULL);
    nvtxNameOsThreadA((uint32_t)gettid(), NULL);
    nvtxNameOsThreadW((uint32_t)gettid(), NULL);
    nvtxDomainResourceDestroy(nvtxDomainResourceCreate(none, NULL));
    nvtxDomainResourceDestroy(NULL);
    nvtxSyncUser_t sync = nvtxDomainSyncUserCreate(none, NULL);
    nvtxDomainSyncUserAcquireStart(sync);
    nvtxDomainSyncUserAcquireSuccess(sync);
    nvtxDomainSyncUserReleasing(sync);
    nvtxDomainSyncUserDestroy(sync);
    nvtxDomainSyncUserAcquireStart(NULL);
    nvtxDomainSyncUserDestroy(NULL);
    nvtxDomainDestroy(NULL);
    nvtxDomainDestroy(none);
    nvtxMarkPayload(NULL, NULL, 3);
    nvtxEventSubmit(NULL, NULL, 0);
    nvtxEventBatchSubmit(NULL, NULL);
    nvtxCounterBatchSubmit(NULL, NULL);
    nvtxPayloadSchemaRegister(NULL, NULL);
    nvtxPayloadEnumRegister(NULL, NULL);
}

static void sizes(void)
{
    nvtxDomainHandle_t d = nvtxDomainCreateA("sizes");
    long page = sysconf(_SC_PAGESIZE);
    /* Two readable pages, then a guard page nothing can read (nor map over, as could happen to a hole). */
    unsigned char *buf = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) exit(3);
    mprotect(buf + 2 * page, (size_t)page, PROT_NONE);
    memset(buf, 0x11, (size_t)page * 2);

    nvtxPayloadSchemaEntry_t entry = {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "v", NULL, 0, 0, NULL, NULL};
    nvtxPayloadSchemaAttr_t sa;
    memset(&sa, 0, sizeof sa);
    sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                   NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
    sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    sa.entries = &entry;
    sa.numEntries = (size_t)1 << 40; /* absurd */
    sa.payloadStaticSize = SIZE_MAX;
    uint64_t refused = nvtxPayloadSchemaRegister(d, &sa);
    sa.entries = NULL;
    sa.numEntries = 5;
    refused |= nvtxPayloadSchemaRegister(d, &sa);
    sa.entries = (const nvtxPayloadSchemaEntry_t *)(buf + 2 * page); /* not readable */
    sa.numEntries = 3;
    refused |= nvtxPayloadSchemaRegister(d, &sa);
    sa.entries = (const nvtxPayloadSchemaEntry_t *)(buf + 2 * page - sizeof entry); /* runs into the hole */
    sa.numEntries = 64;
    refused |= nvtxPayloadSchemaRegister(d, &sa);
    if (refused != 0) exit(4);
    nvtxPayloadEnumAttr_t ea;
    memset(&ea, 0, sizeof ea);
    nvtxPayloadEnum_t one = {"one", 1, 0};
    ea.fieldMask = NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES;
    ea.entries = &one;
    ea.numEntries = (size_t)1 << 50;
    if (nvtxPayloadEnumRegister(d, &ea) != 0) exit(5);

    /* A schema the collector accepts whose entries lie far beyond any payload, pointer entries among them. */
    nvtxPayloadSchemaEntry_t far[3] = {
        {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "near", NULL, 0, 0, NULL, NULL},
        {0, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING, "far string", NULL, 0, (uint64_t)1 << 40, NULL, NULL},
        {NVTX_PAYLOAD_ENTRY_FLAG_POINTER | NVTX_PAYLOAD_ENTRY_FLAG_DEEP_COPY, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "far pointer",
         NULL, 0, (uint64_t)1 << 41, NULL, NULL},
    };
    memset(&sa, 0, sizeof sa);
    sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                   NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
    sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
    sa.entries = far;
    sa.numEntries = 3;
    sa.payloadStaticSize = SIZE_MAX;
    uint64_t far_schema = nvtxPayloadSchemaRegister(d, &sa);
    uint64_t value = 42;
    nvtxPayloadData_t far_item = {far_schema, SIZE_MAX, &value};
    nvtxMarkPayload(d, &far_item, 1);
    far_item.size = sizeof value;
    nvtxMarkPayload(d, &far_item, 1);
    /* A pointer entry that points at memory that is not mapped. */
    nvtxPayloadSchemaEntry_t ptr_entry = {NVTX_PAYLOAD_ENTRY_FLAG_POINTER | NVTX_PAYLOAD_ENTRY_FLAG_DEEP_COPY,
                                          NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "p", NULL, 0, 0, NULL, NULL};
    sa.entries = &ptr_entry;
    sa.numEntries = 1;
    sa.payloadStaticSize = sizeof(void *);
    uint64_t ptr_schema = nvtxPayloadSchemaRegister(d, &sa);
    const void *dangling = buf + 2 * page;
    nvtxPayloadData_t ptr_item = {ptr_schema, sizeof dangling, &dangling};
    nvtxMarkPayload(d, &ptr_item, 1);

    /* Payloads and batches that claim far more than their memory. */
    nvtxPayloadData_t items[2] = {{NVTX_PAYLOAD_ENTRY_TYPE_BYTE, (size_t)1 << 30, buf},
                                  {NVTX_PAYLOAD_ENTRY_TYPE_UINT8, 3 * (size_t)page, buf + page}};
    nvtxMarkPayload(d, items, 2);
    nvtxRangePushPayload(d, items, 2);
    nvtxRangePopPayload(d, items, 1);
    nvtxEventBatch_t eb;
    memset(&eb, 0, sizeof eb);
    eb.eventSchemaId = 1u << 24;
    eb.events = buf;
    eb.size = (size_t)1 << 40;
    eb.flexData = buf + page;
    eb.flexDataSize = SIZE_MAX;
    nvtxEventBatchSubmit(d, &eb);
    nvtxCounterBatch_t cb = {1u << 24, buf, (size_t)1 << 33, 0, (const int64_t *)(void *)buf, SIZE_MAX};
    nvtxCounterBatchSubmit(d, &cb);
}

static void many(void)
{
    char name[64];
    nvtxDomainHandle_t first = NULL;
    for (int i = 0; i < 10000; i++) {
        snprintf(name, sizeof name, "domain %d", i);
        nvtxDomainHandle_t d = nvtxDomainCreateA(name);
        if (i == 0) first = d;
        nvtxEventAttributes_t a = {0};
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = "in a domain";
        nvtxDomainRangePushEx(d, &a);
        nvtxDomainRangePop(d);
    }
    nvtxStringHandle_t last = NULL;
    for (int i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "registered %d", i);
        last = nvtxDomainRegisterStringA(first, name);
    }
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = last;
    nvtxDomainMarkEx(first, &a);
    size_t mb = 1 << 20;
    char *big = malloc(mb + 1);
    if (!big) exit(3);
    memset(big, 'x', mb);
    big[mb] = 0;
    nvtxMarkA(big);
    nvtxRangePushA(big);
    nvtxRangePop();
    nvtxDomainHandle_t bigd = nvtxDomainCreateA(big);
    nvtxDomainRegisterStringA(bigd, big);
    nvtxNameCategoryA(1, big);
    nvtxNameOsThreadA((uint32_t)gettid(), big);
    free(big);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    const char *mode = argv[1];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (strcmp(mode, "attrs") == 0) attrs();
    else if (strcmp(mode, "nulls") == 0) nulls();
    else if (strcmp(mode, "sizes") == 0) sizes();
    else if (strcmp(mode, "many") == 0) many();
    else return 2;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (int i = 0; i < 10; i++) after();
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    emit("{\"type\":\"hostile\",\"pid\":%d,\"tid\":%d,\"mode\":\"%s\",\"marks\":%ld,\"ms\":%.1f}", (int)getpid(),
         (int)gettid(), mode, marks, ms);
    return 0;
}
