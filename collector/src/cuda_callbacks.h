/*
 * The CUPTI subscriber: runtime and driver API calls on every thread (enter tick kept in CUPTI's
 * correlationData, a CUDA_API record written at exit, each API's name once per id) and the
 * resource callbacks (contexts and streams created and destroyed, the default streams).
 * Compiled only with the CUPTI headers (NVTXC_WITH_CUPTI).
 */
#ifndef NVTXC_CUDA_CALLBACKS_H
#define NVTXC_CUDA_CALLBACKS_H

#include <stddef.h>
#include <stdint.h>

#if NVTXC_WITH_CUPTI
/* Subscribes and enables the API and resource domains: 0, or -1 with why in `why`. */
int cuda_callbacks_start(char *why, size_t why_cap);
/* Unsubscribes (recording could not start after all). */
void cuda_callbacks_stop(void);
/* 1 when the calling thread is inside a CUDA API call. */
int cuda_callbacks_thread_in_api(void);
/* Why no GPU work can come when cuInit failed and no context was ever made (NULL otherwise). */
const char *cuda_callbacks_init_failure(void);
#endif

#endif
