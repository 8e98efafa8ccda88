#include "cuda_buffers.h"

#if NVTXC_WITH_CUPTI
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "collector.h"
#include "cuda_activity.h"
#include "cuda_record.h"
#include "cupti_lib.h"
#include "encode.h"
#include "format.h"
#include "meta.h"
#include "output.h"

/* Bytes of one CUPTI buffer: about 35,000 kernel records; what they become stays far below a chunk's 16 MiB. */
#define BUFFER_SIZE (8u << 20)

/*
 * Serialises formatting and writing (one body and its name table; buffers may complete on CUPTI's
 * thread and on a flushing thread at once). Lock order: this, then the file lock.
 */
static struct owned_lock activity_lock = OWNED_LOCK_INIT;
static struct cuda_activity_body body;
/* Set on the thread that flushes from a signal handler: locks are taken without waiting on itself. */
static __thread int in_signal;

void cuda_buffers_clock_pair(void)
{
    uint64_t before = tick_now();
    uint64_t ns = 0;
    if (cupti.GetTimestamp(&ns) != CUPTI_SUCCESS) return;
    uint64_t after = tick_now();
    cuda_meta_clock(before, ns, after);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* NULL: CUPTI drops what it cannot store and counts it (cuptiActivityGetNumDroppedRecords). */
    *buffer = aligned_alloc(8, BUFFER_SIZE);
    *size = *buffer ? BUFFER_SIZE : 0;
    *max_records = 0;
}

static int take(struct owned_lock *l)
{
    if (!in_signal) {
        lock_take(l);
        return 1;
    }
    return lock_take_in_signal(l);
}

static uint32_t context_id(CUcontext context)
{
    uint32_t id = 0;
    if (context && cupti.GetContextId(context, &id) != CUPTI_SUCCESS) id = 0;
    return id;
}

/* File lock held: the body as one CUDA_ACTIVITY chunk; 0 when written. */
static int write_chunk_locked(void)
{
    if (out_ready_locked() != 0) return -1;
    meta_flush_locked();
    struct clock_pair pair = clock_pair_now();
    uint8_t head[3 * VARINT_MAX];
    uint8_t *p = put_varint(head, pair.tick);
    p = put_varint(p, pair.ns);
    p = put_varint(p, body.base);
    struct iovec parts[2] = {{head, (size_t)(p - head)}, {body.buf, body.len}};
    return out_chunk_locked(NVTXC_CHUNK_CUDA_ACTIVITY, parts, 2);
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)size;
    if (!nvtxc_capturing || !take(&activity_lock)) {
        free(buffer);
        return;
    }
    cuda_activity_body_reset(&body);
    uint64_t unformatted = 0;
    CUpti_Activity *record = NULL;
    while (valid > 0 && cupti.ActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        if (cuda_activity_add(&body, record) < 0) unformatted++;
    free(buffer);

    size_t dropped = 0;
    uint32_t ctx = context_id(context);
    if (cupti.ActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS && dropped > 0)
        cuda_meta_dropped(NVTXC_CUDA_DROP_CUPTI, ctx, context ? stream : NVTXC_CUDA_NO_ID, dropped);
    if (unformatted > 0) cuda_meta_dropped(NVTXC_CUDA_DROP_OUTPUT, ctx, context ? stream : NVTXC_CUDA_NO_ID, unformatted);
    uint64_t records = cuda_activity_records(&body);
    if (records > 0) {
        cuda_buffers_clock_pair();
        int written = 0;
        if (take(&nvtxc_file_lock)) {
            written = write_chunk_locked() == 0;
            if (written) nvtxc_g.cuda_activity_records += records;
            lock_give(&nvtxc_file_lock);
        }
        /* Lost to an output error: said in the capture if anything can still be written there. */
        if (!written) cuda_meta_dropped(NVTXC_CUDA_DROP_OUTPUT, ctx, context ? stream : NVTXC_CUDA_NO_ID, records);
    }
    lock_give(&activity_lock);
}

void cuda_buffers_note_context(uint32_t context_id, uint32_t device)
{
    lock_take(&activity_lock);
    cuda_activity_note_context(context_id, device);
    lock_give(&activity_lock);
}

/* CLOCK_MONOTONIC_RAW ns for CUPTI's timestamps: its default, CLOCK_REALTIME, steps with NTP. */
static uint64_t CUPTIAPI monotonic_raw_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC_RAW);
}

static void append_note(char *notes, size_t cap, const char *what, CUptiResult r)
{
    size_t n = strlen(notes);
    if (n < cap) snprintf(notes + n, cap - n, "%s%s: %s", n ? "; " : "", what, cupti_result_text(r));
}

/*
 * Milliseconds between the default (not forced) flushes of the flushing thread: CUPTI then hands
 * back every buffer whose records are complete, full or not, so a process that is killed outright
 * (SIGKILL, the OOM killer: no handler runs) loses at most the GPU work of about one period.
 * NVTXCAPTURE_CUDA_FLUSH_MS changes it; 0 turns the thread off.
 */
#define FLUSH_PERIOD_MS 500u

static atomic_int flusher_stop;

static unsigned flush_period_ms(void)
{
    const char *v = getenv("NVTXCAPTURE_CUDA_FLUSH_MS");
    if (!v || !*v) return FLUSH_PERIOD_MS;
    char *end;
    unsigned long ms = strtoul(v, &end, 10);
    return *end || ms > 3600000ul ? FLUSH_PERIOD_MS : (unsigned)ms;
}

static void *flush_periodically(void *arg)
{
    const unsigned ms = (unsigned)(uintptr_t)arg;
    const struct timespec period = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    while (!atomic_load_explicit(&flusher_stop, memory_order_relaxed)) {
        struct timespec left = period;
        while (nanosleep(&left, &left) != 0) {
        }
        if (atomic_load_explicit(&flusher_stop, memory_order_relaxed)) break;
        /* Flag 0: only buffers whose records are all complete; the forced flush is the exit's. */
        cupti.ActivityFlushAll(0);
    }
    return NULL;
}

/* Starts the flushing thread, with every signal blocked so the program's signals go to its own threads. */
static void start_flusher(char *notes, size_t notes_cap)
{
    unsigned ms = flush_period_ms();
    if (ms == 0) return;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    int failed = pthread_create(&thread, NULL, flush_periodically, (void *)(uintptr_t)ms);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (failed) {
        size_t n = strlen(notes);
        if (n < notes_cap) snprintf(notes + n, notes_cap - n, "%sno periodic flush (pthread_create: %s)", n ? "; " : "", strerror(failed));
        return;
    }
    pthread_detach(thread);
}

int cuda_buffers_start(char *why, size_t why_cap, char *notes, size_t notes_cap)
{
    CUptiResult r;
    if (cupti.ActivityRegisterTimestampCallback) cupti.ActivityRegisterTimestampCallback(monotonic_raw_ns);
    if ((r = cupti.ActivityRegisterCallbacks(buffer_requested, buffer_completed)) != CUPTI_SUCCESS) {
        snprintf(why, why_cap, "cuptiActivityRegisterCallbacks: %s", cupti_result_text(r));
        return -1;
    }
    /* Concurrent kernels: the plain KERNEL kind would serialise the program's kernels. */
    if ((r = cupti.ActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS) {
        snprintf(why, why_cap, "cuptiActivityEnable(CONCURRENT_KERNEL): %s", cupti_result_text(r));
        return -1;
    }
    static const struct {
        CUpti_ActivityKind kind;
        const char *what;
    } optional[] = {
        {CUPTI_ACTIVITY_KIND_MEMCPY, "no copy records"},
        {CUPTI_ACTIVITY_KIND_MEMCPY2, "no peer copy records"},
        {CUPTI_ACTIVITY_KIND_MEMSET, "no set records"},
        {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "no synchronisation records"},
    };
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if ((r = cupti.ActivityEnable(optional[i].kind)) != CUPTI_SUCCESS) append_note(notes, notes_cap, optional[i].what, r);
    cuda_buffers_clock_pair();
    start_flusher(notes, notes_cap);
    return 0;
}

void cuda_buffers_flush(void)
{
    /* The last flush is forced; the flushing thread stops (not joined: it may be inside CUPTI). */
    atomic_store(&flusher_stop, 1);
    cupti.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cuda_buffers_clock_pair();
}

void cuda_buffers_flush_in_signal(void)
{
    in_signal = 1;
    cuda_buffers_flush();
    in_signal = 0;
}
#endif
