/*
 * CUPTI's activity buffers: handed to CUPTI on request, taken back when complete (full, flushed by
 * the collector's flushing thread every FLUSH_PERIOD_MS, or at exit and on fatal signals), their records written as CUDA_ACTIVITY chunks, each preceded by a
 * CUDA_CLOCK pair and the drops CUPTI reports (docs/capture-format.md, sections 10.3 to 10.5).
 * Compiled only with the CUPTI headers (NVTXC_WITH_CUPTI).
 */
#ifndef NVTXC_CUDA_BUFFERS_H
#define NVTXC_CUDA_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#if NVTXC_WITH_CUPTI
/*
 * Registers the buffer callbacks and enables kernels, copies, sets and synchronisations: 0, or -1
 * with why in `why`. `notes` gets what is not available (kinds this CUPTI or GPU refuses).
 */
int cuda_buffers_start(char *why, size_t why_cap, char *notes, size_t notes_cap);
/* Hands every buffer back (records of work still running included) and writes them. */
void cuda_buffers_flush(void);
/* The same from a fatal signal's handler, on a thread that was not inside CUPTI: best effort. */
void cuda_buffers_flush_in_signal(void);
/* Writes a CUDA_CLOCK pair now. */
void cuda_buffers_clock_pair(void);
/* Remembers the device of a CUPTI context id (synchronisation records carry only the context). */
void cuda_buffers_note_context(uint32_t context_id, uint32_t device);
#endif

#endif
