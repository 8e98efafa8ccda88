#include "cuda_callbacks.h"

#if NVTXC_WITH_CUPTI
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "collector.h"
#include "cuda_buffers.h"
#include "cuda_params.h"
#include "cuda_record.h"
#include "cupti_lib.h"
#include "format.h"
#include "stream.h"

static CUpti_SubscriberHandle subscriber;
static atomic_int first_init_failure;
static atomic_int contexts_created;

/* (domain, callback id) pairs whose name is in the capture. */
#define NAMED_IDS 1024
_Static_assert(CUPTI_DRIVER_TRACE_CBID_SIZE <= NAMED_IDS && CUPTI_RUNTIME_TRACE_CBID_SIZE <= NAMED_IDS,
               "more callback ids than NAMED_IDS: raise it");
static _Atomic uint64_t named[2][NAMED_IDS / 64];

static pthread_mutex_t naming = PTHREAD_MUTEX_INITIALIZER;

static void name_once(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    if (cbid >= NAMED_IDS) return; /* a CUPTI newer than the headers: the reader shows the id */
    _Atomic uint64_t *word = &named[domain == CUPTI_CB_DOMAIN_RUNTIME_API][cbid / 64];
    uint64_t bit = 1ull << (cbid % 64);
    if (LIKELY(atomic_load_explicit(word, memory_order_acquire) & bit)) return;
    /* The bit is set once the name is in the metadata log: a thread that sees it set may use the id. */
    pthread_mutex_lock(&naming);
    if (!(atomic_load_explicit(word, memory_order_relaxed) & bit)) {
        const char *name = NULL;
        if (cupti.GetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS) name = NULL;
        cuda_meta_api_name((uint32_t)domain, cbid, name);
        atomic_fetch_or_explicit(word, bit, memory_order_release);
    }
    pthread_mutex_unlock(&naming);
}

/* The context whose per-thread default stream this thread has written (CUDA_RESOURCE, flags bit 1). */
static __thread CUcontext per_thread_stream_written TLS_FAST;

static uint32_t device_of(CUcontext context)
{
    uint32_t device = 0;
    if (cupti.GetDeviceId(context, &device) != CUPTI_SUCCESS) device = 0;
    return device;
}

static uint32_t context_id_of(CUcontext context)
{
    uint32_t id = 0;
    if (cupti.GetContextId(context, &id) != CUPTI_SUCCESS) id = 0;
    return id;
}

static uint32_t stream_id_of(CUcontext context, CUstream stream, int per_thread)
{
    uint32_t id = NVTXC_CUDA_NO_ID;
    if (cupti.GetStreamIdEx(context, stream, (uint8_t)per_thread, &id) != CUPTI_SUCCESS) id = NVTXC_CUDA_NO_ID;
    return id;
}

static void note_per_thread_stream(CUcontext context)
{
    if (!context || per_thread_stream_written == context) return;
    per_thread_stream_written = context;
    cuda_meta_resource(NVTXC_CUDA_RES_STREAM_CREATED, device_of(context), context_id_of(context),
                       stream_id_of(context, NULL, 1), (uint64_t)(uintptr_t)context, (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD,
                       NVTXC_CUDA_STREAM_PER_THREAD_DEFAULT);
}

/* Set while the collector itself calls the driver: those calls are not the program's, not recorded. */
static __thread int collector_calling TLS_FAST;

/* A driver function: from libcuda.so.1 when the process loaded it, else from the global scope. */
static void *driver_function(const char *name)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void *fn = cuda ? dlsym(cuda, name) : NULL;
    if (cuda) dlclose(cuda);
    return fn ? fn : dlsym(RTLD_DEFAULT, name);
}

/* Devices (ordinals below 64) whose CUDA_DEVICE record is written. */
static _Atomic uint64_t devices_written;

/* Writes the device's CUDA_DEVICE record once, from the driver's answers (0 or empty for what it cannot say). */
static void note_device(uint32_t ordinal)
{
    uint64_t bit = ordinal < 64 ? 1ull << ordinal : 0;
    if (!bit || (atomic_fetch_or(&devices_written, bit) & bit)) return;
    __typeof__(cuDeviceGet) *get = (__typeof__(cuDeviceGet) *)driver_function("cuDeviceGet");
    __typeof__(cuDeviceGetName) *get_name = (__typeof__(cuDeviceGetName) *)driver_function("cuDeviceGetName");
    __typeof__(cuDeviceGetAttribute) *attribute = (__typeof__(cuDeviceGetAttribute) *)driver_function("cuDeviceGetAttribute");
    __typeof__(cuDeviceTotalMem) *total_memory = (__typeof__(cuDeviceTotalMem) *)driver_function("cuDeviceTotalMem_v2");
    char name[256] = "";
    int major = 0, minor = 0, sms = 0;
    size_t memory = 0;
    CUdevice device;
    collector_calling = 1;
    if (get && get(&device, (int)ordinal) == CUDA_SUCCESS) {
        if (get_name && get_name(name, sizeof name, device) != CUDA_SUCCESS) name[0] = 0;
        if (attribute) {
            if (attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) != CUDA_SUCCESS) major = 0;
            if (attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) != CUDA_SUCCESS) minor = 0;
            if (attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) != CUDA_SUCCESS) sms = 0;
        }
        if (total_memory && total_memory(&memory, device) != CUDA_SUCCESS) memory = 0;
    }
    collector_calling = 0;
    name[sizeof name - 1] = 0;
    cuda_meta_device(ordinal, name, (uint32_t)major, (uint32_t)minor, memory, (uint32_t)sms);
}

/* CUDA calls the thread is inside (a signal handler must not wait on CUPTI from there). */
static __thread int api_depth TLS_FAST;

int cuda_callbacks_thread_in_api(void)
{
    return api_depth > 0;
}

static void api_call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    if (d->callbackSite == CUPTI_API_ENTER) {
        api_depth++;
        *d->correlationData = tick_now();
        return;
    }
    uint64_t exit_tick = tick_now();
    int result = d->functionReturnValue ? *(const int *)d->functionReturnValue : 0;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuInit && result != 0) {
        int none = 0;
        atomic_compare_exchange_strong(&first_init_failure, &none, result);
    }
    /* No enter seen on this thread: the call was running when the collector subscribed (the cuInit
       that attached it); its correlationData holds no enter tick. */
    if (api_depth == 0) return;
    api_depth--;
    uint64_t enter_tick = *d->correlationData;
    if (enter_tick == 0 || enter_tick > exit_tick) return;

    struct cuda_api_call call = {0};
    if (cuda_params_stream(domain, cbid, d->functionParams, &call.stream)) {
        call.flags = NVTXC_CUDA_API_HAS_STREAM;
        if (call.stream == (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD) note_per_thread_stream(d->context);
    }
    name_once(domain, cbid);
    struct tstream *t = stream_self();
    if (!t) return;
    call.tick = (int64_t)(enter_tick - nvtxc_g.start.tick);
    call.duration = exit_tick - enter_tick;
    call.domain = (uint32_t)domain;
    call.callback = cbid;
    call.correlation = d->correlationId;
    call.result = (uint64_t)(uint32_t)result;
    uint8_t *p = stream_room(t, CUDA_API_RECORD_MAX);
    p = cuda_put_api(p, &call);
    stream_commit(t, p, 1);
    atomic_fetch_add_explicit(&nvtxc_g.cuda_api_records, 1, memory_order_relaxed);
}

static void resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    CUcontext context = r->context;
    uint64_t context_handle = (uint64_t)(uintptr_t)context;
    switch (cbid) {
    case CUPTI_CBID_RESOURCE_CONTEXT_CREATED: {
        uint32_t device = device_of(context), id = context_id_of(context);
        atomic_store(&contexts_created, 1);
        cuda_buffers_note_context(id, device);
        note_device(device);
        cuda_meta_resource(NVTXC_CUDA_RES_CONTEXT_CREATED, device, id, NVTXC_CUDA_NO_ID, context_handle, 0, 0);
        /* The legacy default stream has no creation callback. */
        cuda_meta_resource(NVTXC_CUDA_RES_STREAM_CREATED, device, id, stream_id_of(context, NULL, 0), context_handle, 0,
                           NVTXC_CUDA_STREAM_LEGACY_DEFAULT);
        break;
    }
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        cuda_meta_resource(NVTXC_CUDA_RES_CONTEXT_DESTROYED, device_of(context), context_id_of(context), NVTXC_CUDA_NO_ID,
                           context_handle, 0, 0);
        break;
    case CUPTI_CBID_RESOURCE_STREAM_CREATED:
    case CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING: {
        CUstream stream = r->resourceHandle.stream;
        uint32_t event = cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED ? NVTXC_CUDA_RES_STREAM_CREATED
                                                                    : NVTXC_CUDA_RES_STREAM_DESTROYED;
        cuda_meta_resource(event, device_of(context), context_id_of(context), stream_id_of(context, stream, 0),
                           context_handle, (uint64_t)(uintptr_t)stream, 0);
        break;
    }
    default: break;
    }
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (UNLIKELY(!nvtxc_capturing)) return;
    if (LIKELY(domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)) {
        if (UNLIKELY(collector_calling)) return;
        api_call(domain, cbid, data);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
        resource(cbid, data);
}

void cuda_callbacks_stop(void)
{
    cupti.Unsubscribe(subscriber);
}

const char *cuda_callbacks_init_failure(void)
{
    int result = atomic_load(&first_init_failure);
    if (result == 0 || atomic_load(&contexts_created)) return NULL;
    static char text[160];
    const char *name = NULL;
    __typeof__(cuGetErrorName) *error_name = (__typeof__(cuGetErrorName) *)driver_function("cuGetErrorName");
    collector_calling = 1;
    if (!error_name || error_name((CUresult)result, &name) != CUDA_SUCCESS) name = NULL;
    collector_calling = 0;
    snprintf(text, sizeof text, "cuInit failed (%s%s%d): no GPU work to record", name ? name : "", name ? ", " : "CUresult ",
             result);
    return text;
}

int cuda_callbacks_start(char *why, size_t why_cap)
{
    CUptiResult r;
    if (cupti.Subscribe_v2) {
        char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = "";
        CUpti_SubscriberParams params;
        memset(&params, 0, sizeof params);
        params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        params.subscriberName = "nvtxview nvtx-capture";
        params.oldSubscriberName = other;
        params.oldSubscriberSize = sizeof other - 1;
        r = cupti.Subscribe_v2(&subscriber, on_callback, NULL, &params);
        if (r != CUPTI_SUCCESS) {
            snprintf(why, why_cap, "cuptiSubscribe: %s%s%s%s", cupti_result_text(r), other[0] ? " (already attached: " : "",
                     other, other[0] ? ")" : "");
            return -1;
        }
    } else if ((r = cupti.Subscribe(&subscriber, on_callback, NULL)) != CUPTI_SUCCESS) {
        snprintf(why, why_cap, "cuptiSubscribe: %s", cupti_result_text(r));
        return -1;
    }
    static const CUpti_CallbackDomain domains[] = {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API};
    for (size_t i = 0; i < 2; i++) {
        if ((r = cupti.EnableDomain(1, subscriber, domains[i])) != CUPTI_SUCCESS) {
            snprintf(why, why_cap, "cuptiEnableDomain(%s): %s", i ? "DRIVER_API" : "RUNTIME_API", cupti_result_text(r));
            cupti.Unsubscribe(subscriber);
            return -1;
        }
    }
    static const CUpti_CallbackId resources[] = {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                                                 CUPTI_CBID_RESOURCE_STREAM_CREATED, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING};
    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        if ((r = cupti.EnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, resources[i])) != CUPTI_SUCCESS) {
            snprintf(why, why_cap, "cuptiEnableCallback(RESOURCE %u): %s", (unsigned)resources[i], cupti_result_text(r));
            cupti.Unsubscribe(subscriber);
            return -1;
        }
    }
    return 0;
}
#endif
