#include "cuda_record.h"

#include <string.h>

#include "collector.h"
#include "meta.h"
#include "text.h"

void cuda_meta_api_name(uint32_t domain, uint32_t callback, const char *name)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, domain);
    p = put_varint(p, callback);
    size_t n = name ? strnlen(name, NVTXC_MAX_STRING) : 0;
    meta_add_with_text(NVTXC_META_CUDA_API_NAME, body, (size_t)(p - body), name ? name : "", n);
}

void cuda_meta_resource(uint32_t event, uint32_t device, uint32_t context, uint32_t stream, uint64_t context_handle,
                        uint64_t stream_handle, uint32_t flags)
{
    uint8_t body[META_FIXED_MAX + 4 * VARINT_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, event);
    p = put_varint(p, device);
    p = put_varint(p, context);
    p = put_varint(p, stream);
    p = put_varint(p, context_handle);
    p = put_varint(p, stream_handle);
    p = put_varint(p, flags);
    meta_add(NVTXC_META_CUDA_RESOURCE, body, (size_t)(p - body));
}

void cuda_meta_clock(uint64_t tick_before, uint64_t cupti_ns, uint64_t tick_after)
{
    /* The record's own tick is the read before the timestamp, not the time it is written. */
    uint8_t body[4 * VARINT_MAX];
    uint8_t *p = put_svarint(body, (int64_t)(tick_before - nvtxc_g.start.tick));
    p = put_varint(p, (uint64_t)my_tid());
    p = put_varint(p, cupti_ns);
    p = put_varint(p, tick_after - tick_before);
    meta_add(NVTXC_META_CUDA_CLOCK, body, (size_t)(p - body));
}

void cuda_meta_dropped(uint32_t cause, uint32_t context, uint32_t stream, uint64_t count)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, cause);
    p = put_varint(p, context);
    p = put_varint(p, stream);
    p = put_varint(p, count);
    meta_add(NVTXC_META_CUDA_DROPPED, body, (size_t)(p - body));
}

void cuda_meta_device(uint32_t device, const char *name, uint32_t compute_major, uint32_t compute_minor,
                      uint64_t global_memory, uint32_t multiprocessors)
{
    /* The name sits between the ordinal and the numbers: built in one buffer (meta_add copies it). */
    size_t n = strnlen(name, 256);
    uint8_t body[META_FIXED_MAX + 256 + 4 * VARINT_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, device);
    p = put_str(p, name, n);
    p = put_varint(p, compute_major);
    p = put_varint(p, compute_minor);
    p = put_varint(p, global_memory);
    p = put_varint(p, multiprocessors);
    meta_add(NVTXC_META_CUDA_DEVICE, body, (size_t)(p - body));
}

void cuda_meta_status(uint32_t state, uint32_t cupti_version, uint32_t driver_version, const char *text)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, state);
    p = put_varint(p, cupti_version);
    p = put_varint(p, driver_version);
    size_t n = strnlen(text, NVTXC_MAX_STRING);
    meta_add_with_text(NVTXC_META_CUDA_STATUS, body, (size_t)(p - body), text, utf8_cut(text, n));
}
