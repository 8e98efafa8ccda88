/*
 * Processes that end without running exit handlers, each after recording a known number of ranges:
 *
 *   abrupt_end child-exit N        a forked child records N ranges and leaves by _exit(0)
 *   abrupt_end child-exit-fresh N  the same, but the parent made no NVTX call before fork
 *   abrupt_end kill N              the process records N ranges (and a second thread more), then SIGKILLs itself
 *   abrupt_end kill-threads T N    T threads record N ranges each (their buffers fill and are written many
 *                                  times), wait for each other, and the process SIGKILLs itself
 *   abrupt_end pool K N            a fork-based worker pool, as Python's multiprocessing builds it on Linux:
 *                                  the parent (with a helper thread) forks K workers, feeds N tasks through
 *                                  a pipe, each worker records one range per task and leaves by _exit(0)
 *
 * Prints {"type":"abrupt","pid","mode","ranges"} for each process that recorded ranges (a worker's
 * line comes from the parent, which knows its count from a result pipe).
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"

static void record(const char *name, long n)
{
    for (long i = 0; i < n; i++) {
        nvtxRangePushA(name);
        if (i % 3 == 0) nvtxMarkA("tick");
        nvtxRangePop();
    }
}

static void say(pid_t pid, const char *mode, long ranges)
{
    emit("{\"type\":\"abrupt\",\"pid\":%d,\"tid\":%d,\"mode\":\"%s\",\"ranges\":%ld}", (int)pid, (int)pid, mode, ranges);
}

static int child_exit(long n, int parent_first)
{
    if (parent_first) nvtxRangePushA("parent before fork");
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        /* The clock around the ranges, so the test can check the times of events read from the buffer. */
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC_RAW, &a);
        record("child range", n);
        clock_gettime(CLOCK_MONOTONIC_RAW, &b);
        emit("{\"type\":\"span\",\"pid\":%d,\"tid\":%d,\"from\":\"%lld\",\"to\":\"%lld\"}", (int)getpid(), (int)getpid(),
             (long long)a.tv_sec * 1000000000LL + a.tv_nsec, (long long)b.tv_sec * 1000000000LL + b.tv_nsec);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (parent_first) nvtxRangePop();
    say(child, "child-exit", n);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static volatile int stop_helper;
/* Set once the helper has completed a range: on a busy machine it may not have run at all before main is done. */
static atomic_int helper_ranges;

static void *busy(void *arg)
{
    (void)arg;
    while (!stop_helper) {
        nvtxRangePushA("helper");
        nvtxRangePop();
        atomic_store(&helper_ranges, 1);
    }
    return NULL;
}

static int kill_self(long n)
{
    pthread_t t;
    pthread_create(&t, NULL, busy, NULL);
    record("main range", n);
    while (!atomic_load(&helper_ranges)) sched_yield();
    say(getpid(), "kill", n);
    raise(SIGKILL);
    return 1;
}

static long per_thread;
static pthread_barrier_t all_done;

static void *recorder(void *arg)
{
    (void)arg;
    record("thread range", per_thread);
    emit("{\"type\":\"abrupt\",\"pid\":%d,\"tid\":%d,\"mode\":\"kill-threads\",\"ranges\":%ld}", (int)getpid(),
         (int)gettid(), per_thread);
    pthread_barrier_wait(&all_done);
    pause();
    return NULL;
}

static int kill_threads(int threads, long n)
{
    if (threads < 1 || threads > 64) return 2;
    per_thread = n;
    pthread_barrier_init(&all_done, NULL, (unsigned)threads + 1);
    pthread_t ids[64];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, recorder, NULL);
    pthread_barrier_wait(&all_done);
    raise(SIGKILL);
    return 1;
}

#define MAX_WORKERS 64

static int pool(int workers, long tasks)
{
    if (workers < 1 || workers > MAX_WORKERS) return 2;
    nvtxDomainHandle_t domain = nvtxDomainCreateA("pool");
    nvtxRangePushA("pool main");
    /* The parent has a thread of its own when it forks (Python's pool has its handler threads). */
    pthread_t helper;
    pthread_create(&helper, NULL, busy, NULL);
    int task_pipe[2], result_pipe[2];
    if (pipe(task_pipe) != 0 || pipe(result_pipe) != 0) return 1;
    pid_t pids[MAX_WORKERS];
    fflush(stdout);
    for (int w = 0; w < workers; w++) {
        pids[w] = fork();
        if (pids[w] < 0) return 1;
        if (pids[w] == 0) {
            close(task_pipe[1]);
            close(result_pipe[0]);
            long done = 0;
            long task;
            /* Each 8-byte read is atomic on a pipe: tasks are shared out among the workers. */
            while (read(task_pipe[0], &task, sizeof task) == (ssize_t)sizeof task) {
                nvtxEventAttributes_t a = {0};
                a.version = NVTX_VERSION;
                a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
                a.messageType = NVTX_MESSAGE_TYPE_ASCII;
                a.message.ascii = "task";
                a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
                a.payload.llValue = task;
                nvtxDomainRangePushEx(domain, &a);
                nvtxDomainRangePop(domain);
                done++;
            }
            long report[2] = {(long)getpid(), done};
            if (write(result_pipe[1], report, sizeof report) != (ssize_t)sizeof report) _exit(3);
            _exit(0);
        }
    }
    close(task_pipe[0]);
    close(result_pipe[1]);
    for (long task = 0; task < tasks; task++)
        if (write(task_pipe[1], &task, sizeof task) != (ssize_t)sizeof task) return 1;
    close(task_pipe[1]);
    long report[2];
    long total = 0;
    while (read(result_pipe[0], report, sizeof report) == (ssize_t)sizeof report) {
        say((pid_t)report[0], "pool", report[1]);
        total += report[1];
    }
    int ok = total == tasks;
    for (int w = 0; w < workers; w++) {
        int status = 0;
        waitpid(pids[w], &status, 0);
        ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    stop_helper = 1;
    pthread_join(helper, NULL);
    nvtxRangePop();
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    const char *mode = argv[1];
    if (strcmp(mode, "child-exit") == 0) return child_exit(atol(argv[2]), 1);
    if (strcmp(mode, "child-exit-fresh") == 0) return child_exit(atol(argv[2]), 0);
    if (strcmp(mode, "kill") == 0) return kill_self(atol(argv[2]));
    if (strcmp(mode, "kill-threads") == 0 && argc == 4) return kill_threads(atoi(argv[2]), atol(argv[3]));
    if (strcmp(mode, "pool") == 0 && argc == 4) return pool(atoi(argv[2]), atol(argv[3]));
    return 2;
}
