/* The payload and counters extension modules (InitializeInjectionNvtxExtension attaches them). */
#ifndef NVTXC_EXTENSIONS_H
#define NVTXC_EXTENSIONS_H

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtPayload.h>

/* Fill the module's function slots; 1 when attached. */
int ext_attach_payload(nvtxExtModuleInfo_t *info);
int ext_attach_counters(nvtxExtModuleInfo_t *info);

/* At normal exit, before the last flush: final clock readings and timer-source sync points. */
void ext_at_exit(void);

/* Shared by both modules: once per process (clock readings at the start). */
void ext_init_once(void);

#endif
