#include "cuda_params.h"

#if NVTXC_WITH_CUPTI
/* cupti.h brings the parameter structs (generated_cuda_meta.h, generated_cuda_runtime_api_meta.h). */

/* Not a handle any stream has (handles are pointers, or the small constants 0, 1, 2). */
#define NOT_A_STREAM_API UINT64_MAX

/*
 * In the per-thread-stream forms (`_ptsz`, what nvcc --default-stream per-thread calls), stream 0
 * is the calling thread's default stream, not the legacy one: recorded as its handle,
 * CU_STREAM_PER_THREAD (cudaStreamPerThread).
 */
static uint64_t per_thread(uint64_t stream)
{
    return stream == 0 ? (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD : stream;
}

/* An API whose parameters hold the stream; a launch whose stream sits in its launch configuration. */
#define RUNTIME(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->stream;
#define RUNTIME_PTSZ(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return per_thread((uint64_t)(uintptr_t)((const api##_params *)params)->stream);
#define RUNTIME_H_PTSZ(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return per_thread((uint64_t)(uintptr_t)((const api##_params *)params)->hStream);
#define RUNTIME_H(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->hStream;
#define RUNTIME_CONFIG(api)                                                                        \
    case CUPTI_RUNTIME_TRACE_CBID_##api: {                                                         \
        const cudaLaunchConfig_t *config = ((const api##_params *)params)->config;                 \
        return config ? (uint64_t)(uintptr_t)config->stream : 0;                                   \
    }
#define RUNTIME_CONFIG_PTSZ(api)                                                                   \
    case CUPTI_RUNTIME_TRACE_CBID_##api: {                                                         \
        const cudaLaunchConfig_t *config = ((const api##_params *)params)->config;                 \
        return per_thread(config ? (uint64_t)(uintptr_t)config->stream : 0);                       \
    }
#define DRIVER(api) \
    case CUPTI_DRIVER_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->hStream;
#define DRIVER_PTSZ(api) \
    case CUPTI_DRIVER_TRACE_CBID_##api: return per_thread((uint64_t)(uintptr_t)((const api##_params *)params)->hStream);
#define DRIVER_CONFIG(api)                                                                         \
    case CUPTI_DRIVER_TRACE_CBID_##api: {                                                          \
        const CUlaunchConfig *config = ((const api##_params *)params)->config;                     \
        return config ? (uint64_t)(uintptr_t)config->hStream : 0;                                  \
    }
#define DRIVER_CONFIG_PTSZ(api)                                                                    \
    case CUPTI_DRIVER_TRACE_CBID_##api: {                                                          \
        const CUlaunchConfig *config = ((const api##_params *)params)->config;                     \
        return per_thread(config ? (uint64_t)(uintptr_t)config->hStream : 0);                      \
    }

static uint64_t runtime_stream(CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
        RUNTIME(cudaLaunchKernel_v7000)
        RUNTIME_PTSZ(cudaLaunchKernel_ptsz_v7000)
        RUNTIME_CONFIG(cudaLaunchKernelExC_v11060)
        RUNTIME_CONFIG_PTSZ(cudaLaunchKernelExC_ptsz_v11060)
        RUNTIME(cudaLaunchCooperativeKernel_v9000)
        RUNTIME_PTSZ(cudaLaunchCooperativeKernel_ptsz_v9000)
        RUNTIME(cudaGraphLaunch_v10000)
        RUNTIME_PTSZ(cudaGraphLaunch_ptsz_v10000)
        RUNTIME(cudaMemcpyAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpyAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpy2DAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy3DAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpy3DAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy3DPeerAsync_v4000)
        RUNTIME_PTSZ(cudaMemcpy3DPeerAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyPeerAsync_v4000)
        RUNTIME(cudaMemcpyToSymbolAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpyToSymbolAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyFromSymbolAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpyFromSymbolAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyToArrayAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpyToArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyFromArrayAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpyFromArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DToArrayAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpy2DToArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DFromArrayAsync_v3020)
        RUNTIME_PTSZ(cudaMemcpy2DFromArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyBatchAsync_v13000)
        RUNTIME_PTSZ(cudaMemcpyBatchAsync_ptsz_v13000)
        RUNTIME(cudaMemcpy3DBatchAsync_v13000)
        RUNTIME_PTSZ(cudaMemcpy3DBatchAsync_ptsz_v13000)
        RUNTIME(cudaMemsetAsync_v3020)
        RUNTIME_PTSZ(cudaMemsetAsync_ptsz_v7000)
        RUNTIME(cudaMemset2DAsync_v3020)
        RUNTIME_PTSZ(cudaMemset2DAsync_ptsz_v7000)
        RUNTIME(cudaMemset3DAsync_v3020)
        RUNTIME_PTSZ(cudaMemset3DAsync_ptsz_v7000)
        RUNTIME(cudaStreamSynchronize_v3020)
        RUNTIME_PTSZ(cudaStreamSynchronize_ptsz_v7000)
        RUNTIME(cudaStreamWaitEvent_v3020)
        RUNTIME_PTSZ(cudaStreamWaitEvent_ptsz_v7000)
        RUNTIME(cudaEventRecord_v3020)
        RUNTIME_PTSZ(cudaEventRecord_ptsz_v7000)
        RUNTIME(cudaEventRecordWithFlags_v11010)
        RUNTIME_PTSZ(cudaEventRecordWithFlags_ptsz_v11010)
        RUNTIME(cudaLaunchHostFunc_v10000)
        RUNTIME_PTSZ(cudaLaunchHostFunc_ptsz_v10000)
        RUNTIME_H(cudaMallocAsync_v11020)
        RUNTIME_H_PTSZ(cudaMallocAsync_ptsz_v11020)
        RUNTIME_H(cudaFreeAsync_v11020)
        RUNTIME_H_PTSZ(cudaFreeAsync_ptsz_v11020)
    default: return NOT_A_STREAM_API;
    }
}

static uint64_t driver_stream(CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
        DRIVER(cuLaunchKernel)
        DRIVER_PTSZ(cuLaunchKernel_ptsz)
        DRIVER_CONFIG(cuLaunchKernelEx)
        DRIVER_CONFIG_PTSZ(cuLaunchKernelEx_ptsz)
        DRIVER(cuLaunchCooperativeKernel)
        DRIVER_PTSZ(cuLaunchCooperativeKernel_ptsz)
        DRIVER(cuGraphLaunch)
        DRIVER_PTSZ(cuGraphLaunch_ptsz)
        DRIVER(cuMemcpyAsync)
        DRIVER_PTSZ(cuMemcpyAsync_ptsz)
        DRIVER(cuMemcpyPeerAsync)
        DRIVER_PTSZ(cuMemcpyPeerAsync_ptsz)
        DRIVER(cuMemcpyHtoDAsync)
        DRIVER(cuMemcpyHtoDAsync_v2)
        DRIVER_PTSZ(cuMemcpyHtoDAsync_v2_ptsz)
        DRIVER(cuMemcpyDtoHAsync)
        DRIVER(cuMemcpyDtoHAsync_v2)
        DRIVER_PTSZ(cuMemcpyDtoHAsync_v2_ptsz)
        DRIVER(cuMemcpyDtoDAsync)
        DRIVER(cuMemcpyDtoDAsync_v2)
        DRIVER_PTSZ(cuMemcpyDtoDAsync_v2_ptsz)
        DRIVER(cuMemcpyHtoAAsync)
        DRIVER(cuMemcpyHtoAAsync_v2)
        DRIVER_PTSZ(cuMemcpyHtoAAsync_v2_ptsz)
        DRIVER(cuMemcpyAtoHAsync)
        DRIVER(cuMemcpyAtoHAsync_v2)
        DRIVER_PTSZ(cuMemcpyAtoHAsync_v2_ptsz)
        DRIVER(cuMemcpy2DAsync)
        DRIVER(cuMemcpy2DAsync_v2)
        DRIVER_PTSZ(cuMemcpy2DAsync_v2_ptsz)
        DRIVER(cuMemcpy3DAsync)
        DRIVER(cuMemcpy3DAsync_v2)
        DRIVER_PTSZ(cuMemcpy3DAsync_v2_ptsz)
        DRIVER(cuMemcpy3DPeerAsync)
        DRIVER_PTSZ(cuMemcpy3DPeerAsync_ptsz)
        DRIVER(cuMemcpyBatchAsync_v2)
        DRIVER_PTSZ(cuMemcpyBatchAsync_v2_ptsz)
        DRIVER(cuMemcpy3DBatchAsync_v2)
        DRIVER_PTSZ(cuMemcpy3DBatchAsync_v2_ptsz)
        DRIVER(cuMemsetD8Async)
        DRIVER_PTSZ(cuMemsetD8Async_ptsz)
        DRIVER(cuMemsetD16Async)
        DRIVER_PTSZ(cuMemsetD16Async_ptsz)
        DRIVER(cuMemsetD32Async)
        DRIVER_PTSZ(cuMemsetD32Async_ptsz)
        DRIVER(cuMemsetD2D8Async)
        DRIVER_PTSZ(cuMemsetD2D8Async_ptsz)
        DRIVER(cuMemsetD2D16Async)
        DRIVER_PTSZ(cuMemsetD2D16Async_ptsz)
        DRIVER(cuMemsetD2D32Async)
        DRIVER_PTSZ(cuMemsetD2D32Async_ptsz)
        DRIVER(cuStreamSynchronize)
        DRIVER_PTSZ(cuStreamSynchronize_ptsz)
        DRIVER(cuStreamWaitEvent)
        DRIVER_PTSZ(cuStreamWaitEvent_ptsz)
        DRIVER(cuEventRecord)
        DRIVER_PTSZ(cuEventRecord_ptsz)
        DRIVER(cuEventRecordWithFlags)
        DRIVER_PTSZ(cuEventRecordWithFlags_ptsz)
        DRIVER(cuLaunchHostFunc)
        DRIVER_PTSZ(cuLaunchHostFunc_ptsz)
        DRIVER(cuMemAllocAsync)
        DRIVER_PTSZ(cuMemAllocAsync_ptsz)
        DRIVER(cuMemFreeAsync)
        DRIVER_PTSZ(cuMemFreeAsync_ptsz)
    default: return NOT_A_STREAM_API;
    }
}

int cuda_params_stream(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *params, uint64_t *stream)
{
    uint64_t s = NOT_A_STREAM_API;
    if (params && domain == CUPTI_CB_DOMAIN_RUNTIME_API) s = runtime_stream(cbid, params);
    else if (params && domain == CUPTI_CB_DOMAIN_DRIVER_API) s = driver_stream(cbid, params);
    if (s == NOT_A_STREAM_API) return 0;
    *stream = s;
    return 1;
}
#endif
