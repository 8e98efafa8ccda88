/*
 * A CUDA runtime program for a machine without a GPU or driver: NVTX ranges and marks around CUDA
 * runtime calls that fail (no device). Prints what it did as one JSON line:
 *   {"ranges":R,"marks":M,"cudaGetDeviceCount":E1,"cudaMalloc":E2}
 * and exits with the status given as its first argument (default 0), so the test can check that
 * nvtx-capture passes it through.
 */
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;
    int ranges = 0, marks = 0;
    nvtxRangePushA("setup");
    ranges++;
    int devices = -1;
    cudaError_t count_error = cudaGetDeviceCount(&devices);
    nvtxMarkA("asked for devices");
    marks++;
    void *p = NULL;
    cudaError_t malloc_error = cudaMalloc(&p, 1 << 20);
    nvtxRangePop();
    for (int step = 0; step < 50; step++) {
        nvtxRangePushA("step");
        ranges++;
        nvtxRangePushA("forward");
        ranges++;
        nvtxMarkA("loss");
        marks++;
        nvtxRangePop();
        nvtxRangePop();
    }
    printf("{\"ranges\":%d,\"marks\":%d,\"cudaGetDeviceCount\":%d,\"cudaMalloc\":%d}\n", ranges, marks,
           (int)count_error, (int)malloc_error);
    return status;
}
