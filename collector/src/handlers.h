/* The NVTX callbacks and the table that maps (module, callback id) to them. */
#ifndef NVTXC_HANDLERS_H
#define NVTXC_HANDLERS_H

#include <stddef.h>

struct handler_entry {
    unsigned id;
    void (*fn)(void);
};

struct handler_module {
    int module; /* NvtxCallbackModule */
    const struct handler_entry *entries;
    size_t count;
};

extern const struct handler_module nvtxc_modules[];
extern const size_t nvtxc_module_count;

#endif
