/* A second shared object with its own NVTX instance, using a domain of its own. */
#include <nvtx3/nvToolsExt.h>

#include "emit.h"

long unit_b_work(int iterations)
{
    nvtxDomainHandle_t domain = nvtxDomainCreateA("unit B");
    long calls = 0;
    for (int i = 0; i < iterations; i++) {
        nvtxEventAttributes_t a = {0};
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = "unit B range";
        a.payloadType = NVTX_PAYLOAD_TYPE_INT32;
        a.payload.iValue = i;
        int d = nvtxDomainRangePushEx(domain, &a);
        nvtxDomainRangePop(domain);
        emit_pushpop("unit B", "unit B range", d, NULL, 0, 0, pay_i32(i));
        calls += 2;
    }
    return calls;
}
