// A CUDA program with known GPU work, for collector/tests/gpu/run.sh: THREADS host threads, each
// with a stream of its own named with nvtxNameCudaStreamA (thread 0 uses the legacy default stream),
// run ITERATIONS iterations inside an NVTX range "iteration": two kernels, a host-to-device and a
// device-to-host copy (pinned memory, async), a memset; every 10th iteration synchronises its stream.
// Prints what it launched as one JSON line (counts the capture must hold exactly) and the time the
// work loop took:
//   {"ranges":{"iteration":N,"worker":T},"kernels":K,"memcpys":C,"memsets":S,
//    "api":{"cudaLaunchKernel":K,"cudaMemcpyAsync":C,"cudaMemsetAsync":S,"cudaStreamSynchronize":Y},
//    "streams":T-1,"loopMs":MS}
//
//   gpu_work [THREADS=4] [ITERATIONS=500]
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            std::fprintf(stderr, "gpu_work: %s: %s\n", #call, cudaGetErrorString(e_));               \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

template <typename T>
__global__ void scale(T *data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

__global__ void add_one(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1.0f;
}

static std::atomic<long> kernels{0}, memcpys{0}, memsets{0}, syncs{0}, iterations_done{0};

static void worker(int index, int iterations)
{
    nvtxRangePushA("worker");
    const int n = 1 << 16;
    cudaStream_t stream = nullptr;
    if (index > 0) {
        CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        char name[32];
        std::snprintf(name, sizeof name, "worker %d", index);
        nvtxNameCudaStreamA(stream, name);
    }
    float *device = nullptr, *host = nullptr;
    CHECK(cudaMalloc(&device, n * sizeof(float)));
    CHECK(cudaMallocHost(&host, n * sizeof(float)));
    for (int i = 0; i < n; i++) host[i] = (float)i;
    for (int it = 0; it < iterations; it++) {
        nvtxRangePushA("iteration");
        CHECK(cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream));
        scale<float><<<(n + 255) / 256, 256, 0, stream>>>(device, 0.5f, n);
        CHECK(cudaGetLastError());
        add_one<<<(n + 127) / 128, 128, 0, stream>>>(device, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaMemsetAsync(device, 0, n * sizeof(float), stream));
        kernels += 2;
        memcpys += 2;
        memsets += 1;
        if (it % 10 == 9) {
            CHECK(cudaStreamSynchronize(stream));
            syncs += 1;
        }
        nvtxRangePop();
        iterations_done++;
    }
    CHECK(cudaStreamSynchronize(stream));
    syncs += 1;
    CHECK(cudaFree(device));
    CHECK(cudaFreeHost(host));
    if (stream) CHECK(cudaStreamDestroy(stream));
    nvtxRangePop();
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? std::atoi(argv[1]) : 4;
    int iterations = argc > 2 ? std::atoi(argv[2]) : 500;
    CHECK(cudaFree(nullptr)); // CUDA initialised before the timed loop
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; i++) pool.emplace_back(worker, i, iterations);
    for (auto &t : pool) t.join();
    CHECK(cudaDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"ranges\":{\"iteration\":%ld,\"worker\":%d},\"kernels\":%ld,\"memcpys\":%ld,\"memsets\":%ld,"
                "\"api\":{\"cudaLaunchKernel\":%ld,\"cudaMemcpyAsync\":%ld,\"cudaMemsetAsync\":%ld,\"cudaStreamSynchronize\":%ld},"
                "\"streams\":%d,\"loopMs\":%.3f}\n",
                iterations_done.load(), threads, kernels.load(), memcpys.load(), memsets.load(), kernels.load(), memcpys.load(),
                memsets.load(), syncs.load(), threads - 1, ms);
    return 0;
}
