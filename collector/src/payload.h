/* The NVTX payload extension module (nvToolsExtPayload.h): its attach entry, setup and exit work. */
#ifndef NVTXC_PAYLOAD_H
#define NVTXC_PAYLOAD_H

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtPayload.h>

int ext_attach_payload(nvtxExtModuleInfo_t *info);
/* Shared setup of the extension modules (payload and counters), once. */
void ext_init_once(void);
/* At normal exit: timer-source readings and clock readings. */
void ext_at_exit(void);

#endif
