/*
 * A stand-in libcupti for machines without a GPU: the CUPTI entry points the collector loads, backed
 * by a test program (cuda_sim.c) that plays the driver. It keeps the subscriber's callback and
 * invokes it for the API calls and resources the program reports (fake_cupti_api_enter/exit,
 * fake_cupti_resource), and hands the activity records the program fabricates to the collector's
 * buffer callbacks, CUPTI's way: a buffer requested, filled, completed; records walked with
 * cuptiActivityGetNextRecord. CUPTI time is CLOCK_MONOTONIC_RAW plus an offset (or the timestamp
 * callback the collector registers, plus the same offset), so the capture's clock pairs are needed.
 */
#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

/* CUPTI time = the collector's clock (or CLOCK_MONOTONIC_RAW) + this: another clock than the capture's. */
#define CUPTI_OFFSET_NS 1000000000000ull

static CUpti_CallbackFunc subscriber_fn;
/* 0: API calls reach no subscriber (the cost of the simulation alone, for cuda_sim bench). */
static int callbacks_on = 1;
static void *subscriber_data;
static int subscribed;
static uint32_t enabled_domains;
static CUpti_BuffersCallbackRequestFunc request_fn;
static CUpti_BuffersCallbackCompleteFunc complete_fn;
static CUpti_TimestampCallbackFunc timestamp_fn;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* cuptiActivityFlushAll calls completed (under `lock`): a simulation waits on it for a periodic flush. */
static unsigned flushes;

/* Fabricated records waiting for a buffer, laid out as CUPTI does (8-aligned structs, back to back). */
static uint8_t *pending;
static size_t pending_len, pending_cap;
static size_t dropped_to_report;

EXPORT uint64_t fake_cupti_now(void)
{
    if (timestamp_fn) return timestamp_fn() + CUPTI_OFFSET_NS;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + CUPTI_OFFSET_NS;
}

EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback, void *userdata)
{
    if (subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    subscribed++;
    subscriber_fn = callback;
    subscriber_data = userdata;
    *subscriber = (CUpti_SubscriberHandle)(uintptr_t)0x5;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
    (void)subscriber;
    subscribed = 0;
    subscriber_fn = NULL;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain)
{
    (void)subscriber;
    if (enable) enabled_domains |= 1u << domain;
    else enabled_domains &= ~(1u << domain);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid)
{
    (void)subscriber;
    (void)cbid;
    if (enable) enabled_domains |= 1u << domain;
    return CUPTI_SUCCESS;
}

/* Names for the callback ids the simulation uses, else "api_<domain>_<id>". */
EXPORT CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char **name)
{
    static __thread char text[64];
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000)
        *name = "cudaLaunchKernel_v7000";
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020)
        *name = "cudaMemcpyAsync_v3020";
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020)
        *name = "cudaMemsetAsync_v3020";
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020)
        *name = "cudaStreamSynchronize_v3020";
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel)
        *name = "cuLaunchKernel";
    else {
        snprintf(text, sizeof text, "api_%u_%u", (unsigned)domain, cbid);
        *name = text;
    }
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetResultString(CUptiResult result, const char **str)
{
    *str = result == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI_ERROR_FAKE";
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetVersion(uint32_t *version)
{
    *version = 130001;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetTimestamp(uint64_t *timestamp)
{
    *timestamp = fake_cupti_now();
    return CUPTI_SUCCESS;
}

/* Contexts and streams are small numbers disguised as handles: ids follow from them. */
EXPORT CUptiResult cuptiGetContextId(CUcontext context, uint32_t *id)
{
    *id = (uint32_t)((uintptr_t)context >> 12);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetDeviceId(CUcontext context, uint32_t *device)
{
    *device = (uint32_t)((uintptr_t)context >> 12) - 1;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetStreamIdEx(CUcontext context, CUstream stream, uint8_t per_thread, uint32_t *id)
{
    (void)context;
    *id = stream ? (uint32_t)((uintptr_t)stream >> 8) : per_thread ? 8 : 7;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
    (void)kind;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                  CUpti_BuffersCallbackCompleteFunc complete)
{
    request_fn = request;
    complete_fn = complete;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc fn)
{
    timestamp_fn = fn;
    return CUPTI_SUCCESS;
}

static size_t record_size(CUpti_ActivityKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(CUpti_ActivitySynchronization2);
    default: return sizeof(CUpti_ActivityAPI);
    }
}

EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    uint8_t *next = *record ? (uint8_t *)*record + ((record_size((*record)->kind) + 7) & ~(size_t)7) : buffer;
    if (next >= buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext context, uint32_t stream, size_t *dropped)
{
    (void)context;
    (void)stream;
    *dropped = dropped_to_report;
    dropped_to_report = 0;
    return CUPTI_SUCCESS;
}

/* Hands the pending records to the collector in one buffer (CUPTI's worker or a flush does this). */
static void deliver_locked(void)
{
    if (!pending_len || !request_fn) return;
    uint8_t *buffer = NULL;
    size_t size = 0, max_records = 0;
    request_fn(&buffer, &size, &max_records);
    if (!buffer || size < pending_len) {
        dropped_to_report += 1;
        pending_len = 0;
        return;
    }
    memcpy(buffer, pending, pending_len);
    size_t valid = pending_len;
    pending_len = 0;
    complete_fn(NULL, 0, buffer, size, valid);
}

EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    pthread_mutex_lock(&lock);
    deliver_locked();
    flushes++;
    pthread_mutex_unlock(&lock);
    return CUPTI_SUCCESS;
}

/* Flushes completed so far: one counted after a record was added delivered that record. */
EXPORT unsigned fake_cupti_flushes(void)
{
    pthread_mutex_lock(&lock);
    unsigned n = flushes;
    pthread_mutex_unlock(&lock);
    return n;
}

/* ---------------------------------------------------------------- driven by the simulation */

/* Queues a record; a full "buffer" of `batch` records is completed at once, as CUPTI does when full. */
EXPORT void fake_cupti_add(const void *record, size_t batch_bytes)
{
    const CUpti_Activity *r = record;
    size_t n = (record_size(r->kind) + 7) & ~(size_t)7;
    pthread_mutex_lock(&lock);
    if (pending_len + n > pending_cap) {
        size_t cap = pending_cap ? pending_cap * 2 : 1 << 16;
        while (cap < pending_len + n) cap *= 2;
        pending = realloc(pending, cap);
        pending_cap = cap;
    }
    memset(pending + pending_len, 0, n);
    memcpy(pending + pending_len, record, record_size(r->kind));
    pending_len += n;
    if (pending_len >= batch_bytes) deliver_locked();
    pthread_mutex_unlock(&lock);
}

EXPORT void fake_cupti_callbacks(int on)
{
    callbacks_on = on;
}

EXPORT void fake_cupti_drop(size_t count)
{
    pthread_mutex_lock(&lock);
    dropped_to_report += count;
    pthread_mutex_unlock(&lock);
}

/* One API call: enter callback, the call's work (run by the caller between), exit callback. */
EXPORT void fake_cupti_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *params, uint32_t correlation,
                           int result, void (*work)(void *), void *arg)
{
    uint64_t correlation_data = 0;
    CUpti_CallbackData data;
    memset(&data, 0, sizeof data);
    data.functionParams = params;
    data.functionReturnValue = &result;
    data.context = (CUcontext)(uintptr_t)0x1000;
    data.correlationData = &correlation_data;
    data.correlationId = correlation;
    int on = callbacks_on && subscriber_fn && (enabled_domains & (1u << domain));
    data.callbackSite = CUPTI_API_ENTER;
    if (on) subscriber_fn(subscriber_data, domain, cbid, &data);
    if (work) work(arg);
    data.callbackSite = CUPTI_API_EXIT;
    if (on) subscriber_fn(subscriber_data, domain, cbid, &data);
}

EXPORT void fake_cupti_resource(CUpti_CallbackId cbid, uintptr_t context, uintptr_t stream)
{
    CUpti_ResourceData data;
    memset(&data, 0, sizeof data);
    data.context = (CUcontext)context;
    data.resourceHandle.stream = (CUstream)stream;
    if (subscriber_fn && (enabled_domains & (1u << CUPTI_CB_DOMAIN_RESOURCE)))
        subscriber_fn(subscriber_data, CUPTI_CB_DOMAIN_RESOURCE, cbid, &data);
}
