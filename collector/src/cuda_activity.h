/*
 * GPU work records: CUPTI activity records (kernels, copies, sets, synchronisations) encoded as the
 * records of a CUDA_ACTIVITY chunk body (docs/capture-format.md, section 10.3), with the body's
 * kernel name table (ids 1, 2, 3 ... restarting in each chunk, each name defined before its first
 * use in the chunk). Pure formatting: no lock, no file; one body is built at a time (the caller
 * serialises). Compiled only with the CUPTI headers (NVTXC_WITH_CUPTI).
 */
#ifndef NVTXC_CUDA_ACTIVITY_H
#define NVTXC_CUDA_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#if NVTXC_WITH_CUPTI
#include <cupti.h>

/* One chunk's records being built. */
struct cuda_activity_body {
    uint8_t *buf;
    size_t len, cap;
    /* CUPTI time the records' starts are relative to (the first record's start). */
    uint64_t base;
    int has_base;
    /* Records of each kind in this body (KERNEL, MEMCPY, MEMSET, SYNC), and kinds skipped. */
    uint64_t kernels, memcpys, memsets, syncs, skipped;
};

/* Empties the body and its name table (keeps their memory): the start of a chunk. */
void cuda_activity_body_reset(struct cuda_activity_body *b);
void cuda_activity_body_free(struct cuda_activity_body *b);
/*
 * Appends one CUPTI record (defining its kernel name first when new): 1 when written, 0 when its
 * kind is not one the format has, -1 when out of memory.
 */
int cuda_activity_add(struct cuda_activity_body *b, const CUpti_Activity *record);
/* The records written (kernels + copies + sets + syncs). */
static inline uint64_t cuda_activity_records(const struct cuda_activity_body *b)
{
    return b->kernels + b->memcpys + b->memsets + b->syncs;
}
/* Device of a CUPTI context id, for records that carry only the context (synchronisations). */
void cuda_activity_note_context(uint32_t context_id, uint32_t device);
#endif

#endif
