/*
 * Plays a CUDA program and its driver on a machine without a GPU, against the stand-in libcupti
 * (fake_cupti.c, given to nvtx-capture with --cupti): attaches the collector as cuInit does
 * (InitializeInjection, before or after the first NVTX call), reports a context and two streams,
 * and on several threads, inside NVTX ranges, makes runtime API calls (kernel launches with a
 * driver launch inside, async copies and sets, stream synchronisations) whose GPU work it hands to
 * CUPTI as activity records, then one launch on the main thread's per-thread default stream. CUPTI drops a few records. Prints what it did, one JSON line:
 *   {"ranges","apiCalls","streamApiCalls","kernels","memcpys","memsets","syncs","dropped","kernelNames",
 *    "contexts","streams","correlations"}
 * and exits with the status given as its last argument, or with "term" ends itself with SIGTERM
 * (its last GPU records still in CUPTI's buffer: the collector must flush them in the handler).
 *
 *   cuda_sim nvtx-first|cuda-first THREADS ITERATIONS STATUS
 *   cuda_sim no-device 0 0 STATUS   (cuInit fails with CUDA_ERROR_NO_DEVICE: no context, no GPU work)
 *
 * `cuda_sim bench CALLS` measures instead what the collector adds to one API call (its callback at
 * enter and exit, the record, the stream lookup): the thread CPU time of CALLS calls with the
 * collector subscribed minus the same calls reaching no subscriber, for a call without a stream
 * (cudaGetDevice) and a kernel launch (cudaLaunchKernel). Prints
 *   {"calls":N,"nsPerCall":X,"nsPerLaunch":Y}
 */
#include <cupti.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CONTEXT ((uintptr_t)0x1000)
#define STREAM_A ((uintptr_t)0x200)
#define STREAM_B ((uintptr_t)0x300)
/* Activity records are handed over in buffers of about this many bytes (several chunks per run). */
#define BATCH_BYTES (48 * 1024)

static void (*fake_api)(CUpti_CallbackDomain, CUpti_CallbackId, const void *, uint32_t, int, void (*)(void *), void *);
static void (*fake_resource)(CUpti_CallbackId, uintptr_t, uintptr_t);
static void (*fake_add)(const void *, size_t);
static void (*fake_drop)(size_t);
static uint64_t (*fake_now)(void);
static unsigned (*fake_flushes)(void);

static atomic_uint next_correlation = 100;
static atomic_int api_calls, stream_api_calls, kernels, memcpys, memsets, syncs, ranges;

static const char *const kernel_names[] = {"_Z5scaleIfEvPT_S1_i", "vectorAdd", "_ZN2at6native18elementwise_kernelILi128ELi4EEEviT_"};

static int inject(void)
{
    void *lib = dlopen(getenv("CUDA_INJECTION64_PATH"), RTLD_NOW);
    int (*init)(void) = lib ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
    return init ? init() : -1;
}

static uint32_t correlation(void)
{
    return atomic_fetch_add(&next_correlation, 1);
}

/* The driver launch a runtime launch makes (a nested API call with its own correlation id). */
static void driver_launch(void *stream)
{
    cuLaunchKernel_params p;
    memset(&p, 0, sizeof p);
    p.hStream = (CUstream)stream;
    fake_api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &p, correlation(), 0, NULL, NULL);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
}

static void launch(uintptr_t stream, int which)
{
    cudaLaunchKernel_v7000_params p;
    memset(&p, 0, sizeof p);
    p.stream = (cudaStream_t)stream;
    uint32_t id = correlation();
    fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &p, id, 0, driver_launch,
             (void *)stream);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = fake_now() + 1000;
    k.end = k.start + 2500;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = (uint32_t)(stream >> 8);
    k.correlationId = id;
    k.gridX = 64 + which;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 256;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 32;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 4096 * which;
    k.name = kernel_names[which];
    fake_add(&k, BATCH_BYTES);
    atomic_fetch_add(&kernels, 1);
}

/* A launch in the per-thread-stream form on stream 0: the thread's own default stream (handle 2). */
static void launch_per_thread_default(void)
{
    cudaLaunchKernel_ptsz_v7000_params p;
    memset(&p, 0, sizeof p);
    uint32_t id = correlation();
    fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, &p, id, 0, NULL, NULL);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = fake_now() + 1000;
    k.end = k.start + 700;
    k.contextId = 1;
    k.streamId = 8; /* the stand-in's id of a per-thread default stream */
    k.correlationId = id;
    k.gridX = k.gridY = k.gridZ = k.blockX = k.blockY = k.blockZ = 1;
    k.name = kernel_names[1];
    fake_add(&k, BATCH_BYTES);
    atomic_fetch_add(&kernels, 1);
}

static void copy(uintptr_t stream)
{
    cudaMemcpyAsync_v3020_params p;
    memset(&p, 0, sizeof p);
    p.stream = (cudaStream_t)stream;
    p.count = 1 << 20;
    uint32_t id = correlation();
    fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, &p, id, 0, NULL, NULL);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
    CUpti_ActivityMemcpy6 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    m.bytes = 1 << 20;
    m.start = fake_now() + 500;
    m.end = m.start + 80000;
    m.contextId = 1;
    m.streamId = (uint32_t)(stream >> 8);
    m.correlationId = id;
    fake_add(&m, BATCH_BYTES);
    atomic_fetch_add(&memcpys, 1);
}

static void set(uintptr_t stream)
{
    cudaMemsetAsync_v3020_params p;
    memset(&p, 0, sizeof p);
    p.stream = (cudaStream_t)stream;
    uint32_t id = correlation();
    fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, &p, id, 0, NULL, NULL);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
    CUpti_ActivityMemset4 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.value = 7;
    m.bytes = 4096;
    m.start = fake_now() + 300;
    m.end = m.start + 900;
    m.contextId = 1;
    m.streamId = (uint32_t)(stream >> 8);
    m.correlationId = id;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    fake_add(&m, BATCH_BYTES);
    atomic_fetch_add(&memsets, 1);
}

static void synchronize(uintptr_t stream)
{
    cudaStreamSynchronize_v3020_params p;
    memset(&p, 0, sizeof p);
    p.stream = (cudaStream_t)stream;
    uint32_t id = correlation();
    uint64_t start = fake_now();
    fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, &p, id, 0, NULL, NULL);
    atomic_fetch_add(&api_calls, 1);
    atomic_fetch_add(&stream_api_calls, 1);
    CUpti_ActivitySynchronization2 s;
    memset(&s, 0, sizeof s);
    s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    s.start = start;
    s.end = fake_now();
    s.correlationId = id;
    s.contextId = 1;
    s.streamId = (uint32_t)(stream >> 8);
    s.cudaEventId = 0xFFFFFFFFu;
    fake_add(&s, BATCH_BYTES);
    atomic_fetch_add(&syncs, 1);
}

static int iterations;

/* The driver's device queries, as the collector finds them (global scope: built with -rdynamic). */
CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice device)
{
    snprintf(name, (size_t)len, "Simulated GPU %d", device);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device)
{
    (void)device;
    *value = attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? 9
             : attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? 0
             : attribute == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT     ? 132
                                                                         : 0;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name)
{
    *name = error == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice device)
{
    (void)device;
    *bytes = 80ull << 30;
    return CUDA_SUCCESS;
}

static void *worker(void *arg)
{
    uintptr_t stream = (uintptr_t)arg;
    for (int i = 0; i < iterations; i++) {
        nvtxRangePushA("iteration");
        atomic_fetch_add(&ranges, 1);
        launch(stream, i % 3);
        copy(stream);
        set(stream);
        if (i % 10 == 9) synchronize(stream);
        /* A call that takes no stream. */
        fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, NULL, correlation(), 0, NULL, NULL);
        atomic_fetch_add(&api_calls, 1);
        nvtxRangePop();
    }
    return NULL;
}

static void (*fake_callbacks)(int);

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU ns per call of `calls` calls of one API (a launch when `stream` is set). */
static double time_calls(long calls, int launch)
{
    cudaLaunchKernel_v7000_params p;
    memset(&p, 0, sizeof p);
    p.stream = (cudaStream_t)STREAM_A;
    double t0 = cpu_ns();
    for (long i = 0; i < calls; i++) {
        if (launch)
            fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &p, (uint32_t)i, 0, NULL, NULL);
        else
            fake_api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, NULL, (uint32_t)i, 0, NULL, NULL);
    }
    return (cpu_ns() - t0) / (double)calls;
}

static int bench(long calls)
{
    fake_callbacks = dlsym(dlopen(getenv("NVTXCAPTURE_CUPTI"), RTLD_NOW | RTLD_NOLOAD), "fake_cupti_callbacks");
    fake_resource(CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CONTEXT, 0);
    double best[2][2] = {{1e18, 1e18}, {1e18, 1e18}};
    for (int round = 0; round < 5; round++) {
        for (int on = 0; on < 2; on++) {
            fake_callbacks(on);
            for (int launch = 0; launch < 2; launch++) {
                double t = time_calls(calls, launch);
                if (t < best[on][launch]) best[on][launch] = t;
            }
        }
    }
    printf("{\"calls\":%ld,\"nsPerCall\":%.1f,\"nsPerLaunch\":%.1f}\n", calls, best[1][0] - best[0][0], best[1][1] - best[0][1]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "bench") == 0) {
        if (inject() != 1) return 3;
        void *fake = dlopen(getenv("NVTXCAPTURE_CUPTI"), RTLD_NOW | RTLD_NOLOAD);
        fake_api = dlsym(fake, "fake_cupti_api");
        fake_resource = dlsym(fake, "fake_cupti_resource");
        return bench(atol(argv[2]));
    }
    if (argc < 5) {
        fprintf(stderr, "usage: cuda_sim nvtx-first|cuda-first THREADS ITERATIONS STATUS\n");
        return 2;
    }
    int cuda_first = strcmp(argv[1], "cuda-first") == 0;
    int threads = atoi(argv[2]);
    iterations = atoi(argv[3]);
    if (!cuda_first) {
        nvtxRangePushA("before CUDA");
        nvtxRangePop();
        atomic_fetch_add(&ranges, 1);
    }
    int init = inject();
    void *fake = dlopen(getenv("NVTXCAPTURE_CUPTI"), RTLD_NOW | RTLD_NOLOAD);
    if (init != 1 || !fake) {
        fprintf(stderr, "cuda_sim: the collector did not load the stand-in CUPTI (init %d)\n", init);
        return 3;
    }
    fake_api = dlsym(fake, "fake_cupti_api");
    fake_resource = dlsym(fake, "fake_cupti_resource");
    fake_add = dlsym(fake, "fake_cupti_add");
    fake_drop = dlsym(fake, "fake_cupti_drop");
    fake_now = dlsym(fake, "fake_cupti_now");
    fake_flushes = dlsym(fake, "fake_cupti_flushes");
    inject(); /* a second cuInit-time call must not subscribe again */
    if (strcmp(argv[1], "no-device") == 0) {
        /* The driver finds no GPU: cuInit (the program's, after the one that attached us) fails. */
        fake_api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuInit, NULL, correlation(), CUDA_ERROR_NO_DEVICE, NULL, NULL);
        nvtxRangePushA("without GPU");
        nvtxRangePop();
        printf("{\"ranges\":2,\"apiCalls\":1}\n");
        return atoi(argv[4]);
    }

    fake_resource(CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CONTEXT, 0);
    fake_resource(CUPTI_CBID_RESOURCE_STREAM_CREATED, CONTEXT, STREAM_A);
    fake_resource(CUPTI_CBID_RESOURCE_STREAM_CREATED, CONTEXT, STREAM_B);
    pthread_t t[64];
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, (void *)(i % 2 ? STREAM_B : STREAM_A));
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    launch_per_thread_default();
    fake_drop(5);
    fake_resource(CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING, CONTEXT, STREAM_A);
    fake_resource(CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING, CONTEXT, STREAM_B);
    printf("{\"ranges\":%d,\"apiCalls\":%d,\"streamApiCalls\":%d,\"kernels\":%d,\"memcpys\":%d,\"memsets\":%d,\"syncs\":%d,"
           "\"dropped\":5,\"kernelNames\":%d,\"contexts\":1,\"streams\":2}\n",
           atomic_load(&ranges), atomic_load(&api_calls), atomic_load(&stream_api_calls), atomic_load(&kernels),
           atomic_load(&memcpys), atomic_load(&memsets), atomic_load(&syncs), iterations >= 3 ? 3 : iterations);
    fflush(stdout);
    if (strcmp(argv[4], "term") == 0) raise(SIGTERM);
    if (strcmp(argv[4], "kill") == 0) {
        /*
         * Killed outright once the collector's periodic flush has run after the last record (a
         * busy machine may delay it), or after 2 s without one (the flush turned off): no handler
         * runs, only what was written before is kept.
         */
        const unsigned seen = fake_flushes();
        const struct timespec step = {0, 5 * 1000000L};
        for (int i = 0; i < 400 && fake_flushes() == seen; i++) nanosleep(&step, NULL);
        raise(SIGKILL);
    }
    return atoi(argv[4]);
}
