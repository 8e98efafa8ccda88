/*
 * libcupti, found and loaded at run time (dlopen), never linked: the collector must load in every
 * process, most of which have no CUDA at all (a developer machine, CI, a CPU-only job), and a
 * program's CUDA version decides which libcupti fits it (the one next to its libcudart), which a
 * link-time dependency could not follow. Compiled only with the CUPTI headers (NVTXC_WITH_CUPTI).
 */
#ifndef NVTXC_CUPTI_LIB_H
#define NVTXC_CUPTI_LIB_H

#include <limits.h>
#include <stddef.h>

#if NVTXC_WITH_CUPTI
#include <cupti.h>

/* The CUPTI entry points the collector uses, with the headers' own prototypes. */
struct cupti_lib {
    void *handle;
    char path[PATH_MAX];
    __typeof__(cuptiSubscribe) *Subscribe;
    __typeof__(cuptiSubscribe_v2) *Subscribe_v2; /* CUPTI 13+: names the subscriber and the one in the way */
    __typeof__(cuptiUnsubscribe) *Unsubscribe;
    __typeof__(cuptiEnableDomain) *EnableDomain;
    __typeof__(cuptiEnableCallback) *EnableCallback;
    __typeof__(cuptiGetCallbackName) *GetCallbackName;
    __typeof__(cuptiGetResultString) *GetResultString;
    __typeof__(cuptiGetVersion) *GetVersion;
    __typeof__(cuptiGetTimestamp) *GetTimestamp;
    __typeof__(cuptiGetContextId) *GetContextId;
    __typeof__(cuptiGetDeviceId) *GetDeviceId;
    __typeof__(cuptiGetStreamIdEx) *GetStreamIdEx;
    __typeof__(cuptiActivityEnable) *ActivityEnable;
    __typeof__(cuptiActivityRegisterCallbacks) *ActivityRegisterCallbacks;
    __typeof__(cuptiActivityFlushAll) *ActivityFlushAll;
    __typeof__(cuptiActivityGetNextRecord) *ActivityGetNextRecord;
    __typeof__(cuptiActivityGetNumDroppedRecords) *ActivityGetNumDroppedRecords;
    __typeof__(cuptiActivityRegisterTimestampCallback) *ActivityRegisterTimestampCallback; /* optional */
};

extern struct cupti_lib cupti __attribute__((visibility("hidden")));

/* CUPTI's name of a result ("CUPTI_ERROR_NOT_INITIALIZED"), or its number. */
const char *cupti_result_text(CUptiResult r);
#endif

#if NVTXC_WITH_CUPTI
/* Loads the library at `path` and fills `cupti`: 0, or -1 with the reason in `why`. */
int cupti_load(const char *path, char *why, size_t why_cap);
#endif

#endif
