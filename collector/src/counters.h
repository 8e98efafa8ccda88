/* The NVTX counters extension module (nvToolsExtCounters.h): its attach entry. */
#ifndef NVTXC_COUNTERS_H
#define NVTXC_COUNTERS_H

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtPayload.h>

int ext_attach_counters(nvtxExtModuleInfo_t *info);

#endif
