/*
 * Cost of an nvtxRangePushA + nvtxRangePop pair: each thread runs a warm-up, then PAIRS pairs,
 * timed with its own CPU clock (so oversubscribed threads are not charged for waiting) and with
 * the wall clock. Prints one JSON object.
 *
 *   pushpop THREADS PAIRS
 */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long pairs;
static pthread_barrier_t start_line;
static double *cpu_ns;

static double now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void *worker(void *arg)
{
    long index = (long)arg;
    for (int i = 0; i < 100000; i++) {
        nvtxRangePushA("bench range");
        nvtxRangePop();
    }
    pthread_barrier_wait(&start_line);
    double t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < pairs; i++) {
        nvtxRangePushA("bench range");
        nvtxRangePop();
    }
    cpu_ns[index] = now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pushpop THREADS PAIRS\n");
        return 2;
    }
    long threads = atol(argv[1]);
    pairs = atol(argv[2]);
    if (threads < 1 || pairs < 1) return 2;
    nvtxInitialize(NULL);
    cpu_ns = calloc((size_t)threads, sizeof *cpu_ns);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    pthread_barrier_init(&start_line, NULL, (unsigned)threads + 1);
    for (long i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, (void *)i);
    pthread_barrier_wait(&start_line);
    double w0 = now_ns(CLOCK_MONOTONIC);
    for (long i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    double wall = now_ns(CLOCK_MONOTONIC) - w0;
    qsort(cpu_ns, (size_t)threads, sizeof *cpu_ns, by_value);
    double median = cpu_ns[threads / 2];
    printf("{\"threads\":%ld,\"pairs\":%ld,\"nsPerPair\":%.2f,\"wallNs\":%.0f,\"pushRet\":%d}\n", threads, pairs,
           median / (double)pairs, wall, nvtxRangePushA("x"));
    return 0;
}
