#include "cupti_lib.h"

#if NVTXC_WITH_CUPTI
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct cupti_lib cupti;

const char *cupti_result_text(CUptiResult r)
{
    const char *text = NULL;
    if (cupti.GetResultString && cupti.GetResultString(r, &text) == CUPTI_SUCCESS && text) return text;
    static __thread char number[32];
    snprintf(number, sizeof number, "CUPTI error %d", (int)r);
    return number;
}

int cupti_load(const char *path, char *why, size_t why_cap)
{
    /* RTLD_LOCAL: CUPTI's symbols stay out of the program's namespace. */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, why_cap, "%s", e ? e : path);
        return -1;
    }
    struct {
        const char *symbol;
        void **slot;
        int required;
    } const table[] = {
        {"cuptiSubscribe", (void **)&cupti.Subscribe, 1},
        {"cuptiSubscribe_v2", (void **)&cupti.Subscribe_v2, 0},
        {"cuptiUnsubscribe", (void **)&cupti.Unsubscribe, 1},
        {"cuptiEnableDomain", (void **)&cupti.EnableDomain, 1},
        {"cuptiEnableCallback", (void **)&cupti.EnableCallback, 1},
        {"cuptiGetCallbackName", (void **)&cupti.GetCallbackName, 1},
        {"cuptiGetResultString", (void **)&cupti.GetResultString, 1},
        {"cuptiGetVersion", (void **)&cupti.GetVersion, 1},
        {"cuptiGetTimestamp", (void **)&cupti.GetTimestamp, 1},
        {"cuptiGetContextId", (void **)&cupti.GetContextId, 1},
        {"cuptiGetDeviceId", (void **)&cupti.GetDeviceId, 1},
        {"cuptiGetStreamIdEx", (void **)&cupti.GetStreamIdEx, 1},
        {"cuptiActivityEnable", (void **)&cupti.ActivityEnable, 1},
        {"cuptiActivityRegisterCallbacks", (void **)&cupti.ActivityRegisterCallbacks, 1},
        {"cuptiActivityFlushAll", (void **)&cupti.ActivityFlushAll, 1},
        {"cuptiActivityGetNextRecord", (void **)&cupti.ActivityGetNextRecord, 1},
        {"cuptiActivityGetNumDroppedRecords", (void **)&cupti.ActivityGetNumDroppedRecords, 1},
        {"cuptiActivityRegisterTimestampCallback", (void **)&cupti.ActivityRegisterTimestampCallback, 0},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        *table[i].slot = dlsym(h, table[i].symbol);
        if (!*table[i].slot && table[i].required) {
            snprintf(why, why_cap, "%s has no %s (a CUPTI older than the collector supports)", path, table[i].symbol);
            dlclose(h);
            memset(&cupti, 0, sizeof cupti);
            return -1;
        }
    }
    cupti.handle = h;
    /* The file the loader took (a bare name was resolved by its search). */
    Dl_info info;
    if (dladdr((void *)cupti.Subscribe, &info) && info.dli_fname) snprintf(cupti.path, sizeof cupti.path, "%s", info.dli_fname);
    else snprintf(cupti.path, sizeof cupti.path, "%s", path);
    return 0;
}
#endif
