/* The capture file: naming, opening, chunk framing, the one-time error message. */
#ifndef NVTXC_OUTPUT_H
#define NVTXC_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Opens the capture of this process now (1) or at its first flush with events (0, fork children). */
int out_start(int open_now);
/* With the file lock held: opens a lazily created capture; 0 when the file can be written. */
int out_ready_locked(void);
int out_is_open(void);
int out_fd(void);
/*
 * File lock held: reserves `size` bytes at the next multiple of `align` (a PAD chunk fills the gap),
 * allocated on disk and written as one PAD chunk of zeros; their file offset, or -1.
 */
long long out_reserve_aligned_locked(size_t size, size_t align);
/* Writes one chunk (header + CRC) whose body is the concatenation of parts; file lock held. */
int out_chunk_locked(uint16_t kind, const struct iovec *parts, int nparts);
/* Writes the END chunk; file lock held. */
void out_end_locked(int reason, int signal_number);
/* Reports a write problem once on stderr; later chunks are counted as lost. */
void out_fail(const char *what, int err);
int out_failed(void);
const char *out_path(void);
/* In a fork child: forget the parent's file; the child's capture opens lazily. */
void out_after_fork_child(void);

#endif
