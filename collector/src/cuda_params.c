#include "cuda_params.h"

#if NVTXC_WITH_CUPTI
/* cupti.h brings the parameter structs (generated_cuda_meta.h, generated_cuda_runtime_api_meta.h). */

/* Not a handle any stream has (handles are pointers, or the small constants 0, 1, 2). */
#define NOT_A_STREAM_API UINT64_MAX

/* An API whose parameters hold the stream; a launch whose stream sits in its launch configuration. */
#define RUNTIME(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->stream;
#define RUNTIME_H(api) \
    case CUPTI_RUNTIME_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->hStream;
#define RUNTIME_CONFIG(api)                                                                        \
    case CUPTI_RUNTIME_TRACE_CBID_##api: {                                                         \
        const cudaLaunchConfig_t *config = ((const api##_params *)params)->config;                 \
        return config ? (uint64_t)(uintptr_t)config->stream : 0;                                   \
    }
#define DRIVER(api) \
    case CUPTI_DRIVER_TRACE_CBID_##api: return (uint64_t)(uintptr_t)((const api##_params *)params)->hStream;
#define DRIVER_CONFIG(api)                                                                         \
    case CUPTI_DRIVER_TRACE_CBID_##api: {                                                          \
        const CUlaunchConfig *config = ((const api##_params *)params)->config;                     \
        return config ? (uint64_t)(uintptr_t)config->hStream : 0;                                  \
    }

static uint64_t runtime_stream(CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
        RUNTIME(cudaLaunchKernel_v7000)
        RUNTIME(cudaLaunchKernel_ptsz_v7000)
        RUNTIME_CONFIG(cudaLaunchKernelExC_v11060)
        RUNTIME_CONFIG(cudaLaunchKernelExC_ptsz_v11060)
        RUNTIME(cudaLaunchCooperativeKernel_v9000)
        RUNTIME(cudaLaunchCooperativeKernel_ptsz_v9000)
        RUNTIME(cudaGraphLaunch_v10000)
        RUNTIME(cudaGraphLaunch_ptsz_v10000)
        RUNTIME(cudaMemcpyAsync_v3020)
        RUNTIME(cudaMemcpyAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DAsync_v3020)
        RUNTIME(cudaMemcpy2DAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy3DAsync_v3020)
        RUNTIME(cudaMemcpy3DAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy3DPeerAsync_v4000)
        RUNTIME(cudaMemcpy3DPeerAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyPeerAsync_v4000)
        RUNTIME(cudaMemcpyToSymbolAsync_v3020)
        RUNTIME(cudaMemcpyToSymbolAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyFromSymbolAsync_v3020)
        RUNTIME(cudaMemcpyFromSymbolAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyToArrayAsync_v3020)
        RUNTIME(cudaMemcpyToArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyFromArrayAsync_v3020)
        RUNTIME(cudaMemcpyFromArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DToArrayAsync_v3020)
        RUNTIME(cudaMemcpy2DToArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpy2DFromArrayAsync_v3020)
        RUNTIME(cudaMemcpy2DFromArrayAsync_ptsz_v7000)
        RUNTIME(cudaMemcpyBatchAsync_v13000)
        RUNTIME(cudaMemcpyBatchAsync_ptsz_v13000)
        RUNTIME(cudaMemcpy3DBatchAsync_v13000)
        RUNTIME(cudaMemcpy3DBatchAsync_ptsz_v13000)
        RUNTIME(cudaMemsetAsync_v3020)
        RUNTIME(cudaMemsetAsync_ptsz_v7000)
        RUNTIME(cudaMemset2DAsync_v3020)
        RUNTIME(cudaMemset2DAsync_ptsz_v7000)
        RUNTIME(cudaMemset3DAsync_v3020)
        RUNTIME(cudaMemset3DAsync_ptsz_v7000)
        RUNTIME(cudaStreamSynchronize_v3020)
        RUNTIME(cudaStreamSynchronize_ptsz_v7000)
        RUNTIME(cudaStreamWaitEvent_v3020)
        RUNTIME(cudaStreamWaitEvent_ptsz_v7000)
        RUNTIME(cudaEventRecord_v3020)
        RUNTIME(cudaEventRecord_ptsz_v7000)
        RUNTIME(cudaEventRecordWithFlags_v11010)
        RUNTIME(cudaEventRecordWithFlags_ptsz_v11010)
        RUNTIME(cudaLaunchHostFunc_v10000)
        RUNTIME(cudaLaunchHostFunc_ptsz_v10000)
        RUNTIME_H(cudaMallocAsync_v11020)
        RUNTIME_H(cudaMallocAsync_ptsz_v11020)
        RUNTIME_H(cudaFreeAsync_v11020)
        RUNTIME_H(cudaFreeAsync_ptsz_v11020)
    default: return NOT_A_STREAM_API;
    }
}

static uint64_t driver_stream(CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
        DRIVER(cuLaunchKernel)
        DRIVER(cuLaunchKernel_ptsz)
        DRIVER_CONFIG(cuLaunchKernelEx)
        DRIVER_CONFIG(cuLaunchKernelEx_ptsz)
        DRIVER(cuLaunchCooperativeKernel)
        DRIVER(cuLaunchCooperativeKernel_ptsz)
        DRIVER(cuGraphLaunch)
        DRIVER(cuGraphLaunch_ptsz)
        DRIVER(cuMemcpyAsync)
        DRIVER(cuMemcpyAsync_ptsz)
        DRIVER(cuMemcpyPeerAsync)
        DRIVER(cuMemcpyPeerAsync_ptsz)
        DRIVER(cuMemcpyHtoDAsync)
        DRIVER(cuMemcpyHtoDAsync_v2)
        DRIVER(cuMemcpyHtoDAsync_v2_ptsz)
        DRIVER(cuMemcpyDtoHAsync)
        DRIVER(cuMemcpyDtoHAsync_v2)
        DRIVER(cuMemcpyDtoHAsync_v2_ptsz)
        DRIVER(cuMemcpyDtoDAsync)
        DRIVER(cuMemcpyDtoDAsync_v2)
        DRIVER(cuMemcpyDtoDAsync_v2_ptsz)
        DRIVER(cuMemcpyHtoAAsync)
        DRIVER(cuMemcpyHtoAAsync_v2)
        DRIVER(cuMemcpyHtoAAsync_v2_ptsz)
        DRIVER(cuMemcpyAtoHAsync)
        DRIVER(cuMemcpyAtoHAsync_v2)
        DRIVER(cuMemcpyAtoHAsync_v2_ptsz)
        DRIVER(cuMemcpy2DAsync)
        DRIVER(cuMemcpy2DAsync_v2)
        DRIVER(cuMemcpy2DAsync_v2_ptsz)
        DRIVER(cuMemcpy3DAsync)
        DRIVER(cuMemcpy3DAsync_v2)
        DRIVER(cuMemcpy3DAsync_v2_ptsz)
        DRIVER(cuMemcpy3DPeerAsync)
        DRIVER(cuMemcpy3DPeerAsync_ptsz)
        DRIVER(cuMemcpyBatchAsync_v2)
        DRIVER(cuMemcpyBatchAsync_v2_ptsz)
        DRIVER(cuMemcpy3DBatchAsync_v2)
        DRIVER(cuMemcpy3DBatchAsync_v2_ptsz)
        DRIVER(cuMemsetD8Async)
        DRIVER(cuMemsetD8Async_ptsz)
        DRIVER(cuMemsetD16Async)
        DRIVER(cuMemsetD16Async_ptsz)
        DRIVER(cuMemsetD32Async)
        DRIVER(cuMemsetD32Async_ptsz)
        DRIVER(cuMemsetD2D8Async)
        DRIVER(cuMemsetD2D8Async_ptsz)
        DRIVER(cuMemsetD2D16Async)
        DRIVER(cuMemsetD2D16Async_ptsz)
        DRIVER(cuMemsetD2D32Async)
        DRIVER(cuMemsetD2D32Async_ptsz)
        DRIVER(cuStreamSynchronize)
        DRIVER(cuStreamSynchronize_ptsz)
        DRIVER(cuStreamWaitEvent)
        DRIVER(cuStreamWaitEvent_ptsz)
        DRIVER(cuEventRecord)
        DRIVER(cuEventRecord_ptsz)
        DRIVER(cuEventRecordWithFlags)
        DRIVER(cuEventRecordWithFlags_ptsz)
        DRIVER(cuLaunchHostFunc)
        DRIVER(cuLaunchHostFunc_ptsz)
        DRIVER(cuMemAllocAsync)
        DRIVER(cuMemAllocAsync_ptsz)
        DRIVER(cuMemFreeAsync)
        DRIVER(cuMemFreeAsync_ptsz)
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
