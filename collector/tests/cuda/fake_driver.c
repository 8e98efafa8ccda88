/*
 * Stands in for the CUDA driver on a machine without one: loads the library named by
 * CUDA_INJECTION64_PATH and calls its InitializeInjection, as cuInit does, before or after its NVTX
 * calls (argument "nvtx-first" or "cuda-first"), twice (the collector must subscribe once). Links
 * libcudart when built with it, so the collector's search finds libcupti next to it. Prints
 * {"ranges":R,"marks":M,"init":[r1,r2]} and exits with the status given as the second argument.
 */
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int inject(void)
{
    const char *path = getenv("CUDA_INJECTION64_PATH");
    if (!path || !*path) return -1;
    void *lib = dlopen(path, RTLD_NOW);
    if (!lib) return -2;
    int (*init)(void) = (int (*)(void))dlsym(lib, "InitializeInjection");
    return init ? init() : -3;
}

int main(int argc, char **argv)
{
    int cuda_first = argc > 1 && strcmp(argv[1], "cuda-first") == 0;
    int status = argc > 2 ? atoi(argv[2]) : 0;
    int init[2];
    int ranges = 0, marks = 0;
    if (cuda_first) init[0] = inject();
    nvtxRangePushA("before");
    ranges++;
    nvtxMarkA("mark");
    marks++;
    nvtxRangePop();
    if (!cuda_first) init[0] = inject();
    init[1] = inject();
    for (int i = 0; i < 20; i++) {
        nvtxRangePushA("after");
        ranges++;
        nvtxRangePop();
    }
    printf("{\"ranges\":%d,\"marks\":%d,\"init\":[%d,%d]}\n", ranges, marks, init[0], init[1]);
    return status;
}
