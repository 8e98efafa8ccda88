/* A shared object with its own NVTX instance (NVTX initialises once per linkage unit). */
#include <nvtx3/nvToolsExt.h>

#include "emit.h"

/* Nested ranges in the default domain; returns the NVTX calls made. */
long unit_a_work(int iterations)
{
    long calls = 0;
    for (int i = 0; i < iterations; i++) {
        int d0 = nvtxRangePushA("unit A outer");
        int d1 = nvtxRangePushA("unit A inner");
        nvtxMarkA("unit A mark");
        nvtxRangePop();
        nvtxRangePop();
        emit_pushpop("", "unit A inner", d1, "unit A outer", 0, 0, NULL);
        emit_pushpop("", "unit A outer", d0, NULL, 0, 0, NULL);
        emit_mark("", "unit A mark", 0, 0, NULL);
        calls += 5;
    }
    return calls;
}
