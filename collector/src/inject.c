/*
 * The entry points NVTX looks up in the library named by NVTX_INJECTION64_PATH. Both can be called
 * several times (once per linkage unit that makes NVTX calls, and per extension module), from any
 * thread: all calls feed the same capture. The CUDA driver looks up InitializeInjection in the
 * library named by CUDA_INJECTION64_PATH (the same library) at cuInit.
 */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>

#include "collector.h"
#include "cuda.h"
#include "encode.h"
#include "counters.h"
#include "payload.h"
#include "format.h"
#include "handlers.h"
#include "lifecycle.h"
#include "meta.h"
#include "stream.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    if (!get_export_table || !lifecycle_init_once()) return 0;

    uint32_t version = 0;
    const NvtxExportTableVersionInfo *info = get_export_table(NVTX_ETID_VERSIONINFO);
    if (info && info->struct_size >= sizeof *info) {
        version = info->version;
        if (info->SetInjectionNvtxVersion) info->SetInjectionNvtxVersion(NVTX_VERSION);
    }
    const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
    if (!callbacks || callbacks->struct_size < sizeof *callbacks || !callbacks->GetModuleFunctionTable) return 0;

    int attached = 0;
    for (size_t m = 0; m < nvtxc_module_count; m++) {
        NvtxFunctionTable table = NULL;
        unsigned int size = 0;
        if (!callbacks->GetModuleFunctionTable((NvtxCallbackModule)nvtxc_modules[m].module, &table, &size) || !table)
            continue;
        /* An older program has a shorter table: only ids below its size exist. */
        for (size_t i = 0; i < nvtxc_modules[m].count; i++) {
            unsigned id = nvtxc_modules[m].entries[i].id;
            if (id > 0 && id < size && table[id]) *table[id] = (NvtxFunctionPointer)nvtxc_modules[m].entries[i].fn;
        }
        if (nvtxc_modules[m].module == NVTX_CB_MODULE_CORE) attached = 1;
    }
    if (!attached) return 0;

    unsigned unit = atomic_fetch_add(&nvtxc_g.units, 1) + 1;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, unit);
    p = put_varint(p, version);
    meta_add(NVTXC_META_INIT, body, (size_t)(p - body));
    return 1;
}

/*
 * Extension modules (payload, counters, mem) attach through this entry point, once per linkage
 * unit and module. Each known module gets an attach function that fills its function slots.
 * Returning 0 leaves the module's calls as no-ops in that linkage unit (the mem module: not recorded).
 */
struct ext_module {
    uint16_t module_id;
    int (*attach)(nvtxExtModuleInfo_t *info);
};

static const struct ext_module ext_modules[] = {
    {NVTX_EXT_PAYLOAD_MODULEID, ext_attach_payload},
    {NVTX_EXT_COUNTERS_MODULEID, ext_attach_counters},
};

EXPORT int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
    if (!info || !lifecycle_init_once()) return 0;
    for (size_t i = 0; i < sizeof ext_modules / sizeof ext_modules[0]; i++) {
        if (ext_modules[i].attach && ext_modules[i].module_id == info->moduleId) return ext_modules[i].attach(info);
    }
    return 0;
}

/*
 * Called by the CUDA driver in cuInit when CUDA_INJECTION64_PATH names this library (nvtx-capture
 * sets it), whether the program's first NVTX call came before (the library is loaded already) or
 * comes later: both orders reach one capture and one CUPTI subscription. Returns 1 (success) even
 * when CUDA is not recorded, so the program's CUDA works as without the collector.
 */
EXPORT int InitializeInjection(void)
{
    if (lifecycle_init_once()) cuda_attach();
    return 1;
}
