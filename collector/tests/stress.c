/*
 * Many threads emitting many ranges at once: stress THREADS RANGES. Each thread pushes and pops
 * RANGES ranges (nested two deep every other iteration). Prints one line per thread.
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"

static long ranges;
static pthread_barrier_t start_line;

static void *worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    long n = 0;
    for (long i = 0; i < ranges; i += 2) {
        nvtxRangePushA("stress outer");
        nvtxRangePushA("stress inner");
        nvtxRangePop();
        nvtxRangePop();
        n += 2;
    }
    emit("{\"type\":\"stress\",\"pid\":%d,\"tid\":%d,\"ranges\":%ld}", (int)getpid(), (int)gettid(), n);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    int threads = atoi(argv[1]);
    ranges = atol(argv[2]);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    pthread_barrier_init(&start_line, NULL, (unsigned)threads);
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
