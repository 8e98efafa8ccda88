/*
 * The CUDA records of the capture that are not GPU work (docs/capture-format.md, section 10): the
 * CUDA_API thread record (written by the calling thread into its own stream) and the CUDA metadata
 * records (API names, contexts and streams, clock pairs, dropped counts, status). Needs no CUPTI.
 */
#ifndef NVTXC_CUDA_RECORD_H
#define NVTXC_CUDA_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "encode.h"
#include "format.h"

/* Room for one CUDA_API record: op, a one-byte length and eight varints. */
#define CUDA_API_RECORD_MAX (2 + 8 * VARINT_MAX)

/* One API call, as the calling thread writes it at the call's exit (section 10.2). */
struct cuda_api_call {
    int64_t tick; /* enter tick relative to T0 */
    uint64_t duration;
    uint32_t domain, callback, correlation, flags;
    uint64_t stream;
    uint64_t result;
};

/* Writes the CUDA_API record at p (CUDA_API_RECORD_MAX bytes of room); returns its end. */
static inline uint8_t *cuda_put_api(uint8_t *p, const struct cuda_api_call *c)
{
    *p++ = NVTXC_OP_CUDA_API;
    uint8_t *len = p++; /* the body is at most 80 bytes: a one-byte varint */
    uint8_t *body = p;
    p = put_svarint(p, c->tick);
    p = put_varint(p, c->domain);
    p = put_varint(p, c->callback);
    p = put_varint(p, c->duration);
    p = put_varint(p, c->correlation);
    p = put_varint(p, c->flags);
    p = put_varint(p, c->stream);
    p = put_varint(p, c->result);
    *len = (uint8_t)(p - body);
    return p;
}

/* Metadata records (each goes through meta_add, so it reaches the file before the next event). */
void cuda_meta_api_name(uint32_t domain, uint32_t callback, const char *name);
void cuda_meta_resource(uint32_t event, uint32_t device, uint32_t context, uint32_t stream, uint64_t context_handle,
                        uint64_t stream_handle, uint32_t flags);
/* A clock pair: `tick_before` and `tick_after` (absolute ticks) read around a CUPTI timestamp. */
void cuda_meta_clock(uint64_t tick_before, uint64_t cupti_ns, uint64_t tick_after);
void cuda_meta_dropped(uint32_t cause, uint32_t context, uint32_t stream, uint64_t count);
void cuda_meta_device(uint32_t device, const char *name, uint32_t compute_major, uint32_t compute_minor,
                      uint64_t global_memory, uint32_t multiprocessors);
void cuda_meta_status(uint32_t state, uint32_t cupti_version, uint32_t driver_version, const char *text);

#endif
