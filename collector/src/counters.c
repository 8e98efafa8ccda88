/*
 * The counters extension module (nvToolsExtCounters.h): counter (group) registration and samples.
 * Immediate samples carry the capture tick; batches keep the program's timestamps, which the
 * viewer converts from the counter's time domain (docs/capture-format.md, 6.1 and 7.2).
 */
#include <string.h>

#include "collector.h"
#include "encode.h"
#include "ext_record.h"
#include "counters.h"
#include "payload.h"
#include "guard.h"
#include "handles.h"
#include "payload_registry.h"
#include "stream.h"

#define BEGIN(t, now)                      \
    uint64_t now = tick_now();             \
    struct tstream *t = stream_self();     \
    if (UNLIKELY(!t)) return

static uint64_t h_register(nvtxDomainHandle_t d, const nvtxCounterAttr_t *a)
{
    return pl_counter_register(domain_id(d), a);
}

/* COUNTER_SAMPLE up to its value: tick, domain, counter, value kind. */
static struct xrec *sample_head(uint64_t now, nvtxDomainHandle_t d, uint64_t counter, uint8_t kind)
{
    struct xrec *r = xrec_begin();
    if (!r) return NULL;
    xrec_tick(r, now);
    xrec_varint(r, domain_id(d));
    xrec_varint(r, counter);
    xrec_u8(r, kind);
    return r;
}

/* The body of a sample by value: tick, domain, counter, kind (then the value). */
static uint8_t *value_head(uint8_t *p, uint64_t now, nvtxDomainHandle_t d, uint64_t counter, uint8_t kind)
{
    p = put_svarint(p, (int64_t)(now - nvtxc_g.start.tick));
    p = put_varint(p, domain_id(d));
    p = put_varint(p, counter);
    *p++ = kind;
    return p;
}

static void h_sample_int64(nvtxDomainHandle_t d, uint64_t counter, int64_t value)
{
    BEGIN(t, now);
    uint8_t body[4 * VARINT_MAX + 1];
    uint8_t *p = put_svarint(value_head(body, now, d, counter, NVTXC_SAMPLE_INT64), value);
    xrec_small(t, NVTXC_OP_COUNTER_SAMPLE, body, (size_t)(p - body));
}

static void h_sample_float64(nvtxDomainHandle_t d, uint64_t counter, double value)
{
    BEGIN(t, now);
    uint8_t body[3 * VARINT_MAX + 1 + 8];
    uint8_t *p = value_head(body, now, d, counter, NVTXC_SAMPLE_FLOAT64);
    memcpy(p, &value, 8);
    xrec_small(t, NVTXC_OP_COUNTER_SAMPLE, body, (size_t)(p + 8 - body));
}

static void h_sample(nvtxDomainHandle_t d, uint64_t counter, const void *values, size_t size)
{
    BEGIN(t, now);
    struct xrec *r = sample_head(now, d, counter, NVTXC_SAMPLE_BYTES);
    if (!r) return;
    size_t n = values ? (size > NVTXC_MAX_EXT_BLOB ? NVTXC_MAX_EXT_BLOB : size) : 0;
    xrec_varint(r, n);
    xrec_data(r, values, n);
    xrec_write(r, t, NVTXC_OP_COUNTER_SAMPLE);
}

static void h_sample_no_value(nvtxDomainHandle_t d, uint64_t counter, uint8_t reason)
{
    BEGIN(t, now);
    uint8_t body[3 * VARINT_MAX + 2];
    uint8_t *p = value_head(body, now, d, counter, NVTXC_SAMPLE_NONE);
    *p++ = reason;
    xrec_small(t, NVTXC_OP_COUNTER_SAMPLE, body, (size_t)(p - body));
}

static void h_batch(nvtxDomainHandle_t d, const nvtxCounterBatch_t *b)
{
    BEGIN(t, now);
    if (!b) return;
    struct xrec *r = xrec_begin();
    if (!r) return;
    uint32_t cut = 0;
    size_t samples = b->counters ? b->countersSize : 0;
    size_t stamps = b->timestamps ? b->timestampsSize : 0;
    if (samples > NVTXC_MAX_BATCH) {
        samples = NVTXC_MAX_BATCH;
        cut |= 1u << 0;
    }
    if (stamps > NVTXC_MAX_BATCH) {
        stamps = NVTXC_MAX_BATCH;
        cut |= 1u << 2;
    }
    size_t readable = guard_readable_all(b->counters, samples);
    if (readable < samples) {
        samples = readable;
        cut |= 1u << 0;
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
    }
    readable = guard_readable_all(b->timestamps, stamps);
    if (readable < stamps) {
        stamps = readable;
        cut |= 1u << 2;
        guard_note(GUARD_UNREADABLE, "a batch or payload size runs past readable memory: kept up to where it stops");
    }
    stamps -= stamps % sizeof(int64_t);
    xrec_tick(r, now);
    xrec_varint(r, domain_id(d));
    xrec_varint(r, b->counterId);
    xrec_varint(r, b->flags);
    xrec_varint(r, cut);
    xrec_varint(r, samples);
    xrec_data(r, b->counters, samples);
    xrec_varint(r, stamps);
    xrec_data(r, b->timestamps, stamps);
    xrec_write(r, t, NVTXC_OP_COUNTER_BATCH);
}

struct slot {
    unsigned id;
    intptr_t fn;
};

#define S(id, fn) {id, (intptr_t)(fn)}

static const struct slot counter_slots[] = {
    S(NVTX3EXT_CBID_nvtxCounterRegister, h_register),
    S(NVTX3EXT_CBID_nvtxCounterSampleInt64, h_sample_int64),
    S(NVTX3EXT_CBID_nvtxCounterSampleFloat64, h_sample_float64),
    S(NVTX3EXT_CBID_nvtxCounterSample, h_sample),
    S(NVTX3EXT_CBID_nvtxCounterSampleNoValue, h_sample_no_value),
    S(NVTX3EXT_CBID_nvtxCounterBatchSubmit, h_batch),
};

int ext_attach_counters(nvtxExtModuleInfo_t *info)
{
    if (!info->segments || info->segmentsCount < 1 || !info->segments[0].functionSlots) return 0;
    ext_init_once();
    nvtxExtModuleSegment_t *seg = &info->segments[0];
    for (size_t i = 0; i < sizeof counter_slots / sizeof counter_slots[0]; i++) {
        if (counter_slots[i].id < seg->slotCount) seg->functionSlots[counter_slots[i].id] = counter_slots[i].fn;
    }
    return 1;
}
