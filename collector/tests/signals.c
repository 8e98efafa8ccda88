/*
 * Ends abnormally after emitting ranges: signals MODE PAIRS, MODE one of term, abort, segv, kill.
 * A second thread keeps emitting until the end. Prints how many ranges the main thread closed
 * before the signal.
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static void *background(void *arg)
{
    (void)arg;
    for (;;) {
        nvtxRangePushA("background");
        nvtxRangePop();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    const char *mode = argv[1];
    long pairs = atol(argv[2]);
    pthread_t t;
    pthread_create(&t, NULL, background, NULL);
    for (long i = 0; i < pairs; i++) {
        nvtxRangePushA("main range");
        nvtxRangePop();
    }
    emit("{\"type\":\"signals\",\"pid\":%d,\"tid\":%d,\"mode\":\"%s\",\"ranges\":%ld}", (int)getpid(), (int)gettid(), mode,
         pairs);
    if (strcmp(mode, "term") == 0) raise(SIGTERM);
    if (strcmp(mode, "abort") == 0) abort();
    if (strcmp(mode, "segv") == 0) {
        volatile int *nowhere = NULL;
        return *nowhere;
    }
    if (strcmp(mode, "kill") == 0) raise(SIGKILL);
    return 0;
}
