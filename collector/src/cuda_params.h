/*
 * The stream of a CUDA call, read from the API's parameters at its callback. The APIs that take a
 * stream (runtime and driver, with their per-thread-stream `_ptsz` forms): kernel and graph
 * launches, async copies and sets (1D, 2D, 3D, peer, symbol, array, batch), stream synchronise and
 * wait, event record, host-function launch, stream-ordered alloc and free. Synchronous copies and
 * sets are not listed: they take no stream (they run on the legacy default one). Compiled only with the
 * CUPTI headers (NVTXC_WITH_CUPTI), whose generated_*_meta.h define the parameter structs.
 */
#ifndef NVTXC_CUDA_PARAMS_H
#define NVTXC_CUDA_PARAMS_H

#include <stdint.h>

#if NVTXC_WITH_CUPTI
#include <cupti.h>

/* 1 when the API takes a stream, with the handle it was given (CUstream / cudaStream_t as a number). */
int cuda_params_stream(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *params, uint64_t *stream);
#endif

#endif
