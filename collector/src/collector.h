/* Process-wide state of the collector and its locks (collector.c), shared by its modules. */
#ifndef NVTXC_COLLECTOR_H
#define NVTXC_COLLECTOR_H


#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "clock.h"

#define NVTXC_VERSION "1.0.0"
#define NVTXC_HIDDEN __attribute__((visibility("hidden")))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TLS_FAST __attribute__((tls_model("initial-exec")))

struct nvtxc_global {
    /* The process being captured (changes in a fork child). */
    pid_t pid;
    /* Set in a process created by fork() from a captured process. */
    pid_t parent_pid;
    /* Reference pair (T0, N0): every stored tick is relative to T0. */
    struct clock_pair start;
    /* Tick at which this process's capture starts (T0, or the fork in a child). */
    uint64_t capture_start_tick;
    uint64_t tick_rate;
    uint64_t wall_start_ns;
    size_t buffer_size;
    /* Print "process P wrote N events" at exit (descendants of a process run by nvtx-capture). */
    int report_at_exit;
    /* Capture descendants (exec'd children that inherit NVTX_INJECTION64_PATH). */
    int capture_children;

    atomic_uint_fast64_t next_stream;
    atomic_uint next_domain;
    atomic_uint next_registered;
    atomic_uint next_sync;
    atomic_uint next_resource;
    atomic_uint units;
    atomic_uint_fast64_t strings_truncated;
    /* CUDA_API records written by threads (END tag 8). */
    atomic_uint_fast64_t cuda_api_records;

    /* Totals, updated under the file lock. */
    uint64_t events_written;
    uint64_t events_lost;
    uint64_t streams;
    /* CUDA_ACTIVITY records written; cuda_recorded: CUDA recording started (END tag 8 is written). */
    uint64_t cuda_activity_records;
    int cuda_recorded;
};

extern struct nvtxc_global nvtxc_g NVTXC_HIDDEN;

/* 0 in a process that does not capture (e.g. a fork child with NVTXCAPTURE_CHILDREN=0). */
extern int nvtxc_capturing NVTXC_HIDDEN;

/* The calling thread's OS id, cached (reset in a fork child). */
extern __thread pid_t nvtxc_tid TLS_FAST;

static inline pid_t my_tid(void)
{
    if (UNLIKELY(nvtxc_tid == 0)) nvtxc_tid = gettid();
    return nvtxc_tid;
}

/*
 * A mutex that knows its holder, so that a signal handler can tell "held by the thread I
 * interrupted" (must not wait) from "held by another thread" (wait a little).
 */
struct owned_lock {
    pthread_mutex_t mutex;
    volatile pid_t owner;
};
#define OWNED_LOCK_INIT {PTHREAD_MUTEX_INITIALIZER, 0}

void lock_take(struct owned_lock *l);
void lock_give(struct owned_lock *l);
/* For signal handlers: 1 if taken, 0 if held by this thread or still busy after about a second. */
int lock_take_in_signal(struct owned_lock *l);
/* In a fork child: the lock as if freshly initialised. */
void lock_reset(struct owned_lock *l);

/* Lock order: registry, then file, then meta. */
extern struct owned_lock nvtxc_registry_lock NVTXC_HIDDEN;
extern struct owned_lock nvtxc_file_lock NVTXC_HIDDEN;
extern struct owned_lock nvtxc_meta_lock NVTXC_HIDDEN;

#endif
