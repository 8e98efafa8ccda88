/*
 * Metadata records (domains, registered strings, names, resources, sync objects): rare, so they
 * go through one locked log. The whole log stays in memory so that a fork child can repeat it in
 * its own capture; pending records are written before any EVENTS chunk (definitions precede uses).
 */
#ifndef NVTXC_META_H
#define NVTXC_META_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Largest fixed part of a metadata body (dt, tid and up to five varints). */
#define META_FIXED_MAX 80

/* Starts a body: the record's tick (relative to T0) and the calling thread. */
uint8_t *meta_head(uint8_t *p);
/* Appends one record (op + length + body). */
void meta_add(uint8_t op, const uint8_t *body, size_t n);
/* Appends a record whose body is `fixed` followed by a `str`. */
void meta_add_with_text(uint8_t op, const uint8_t *fixed, size_t nfixed, const char *text, size_t ntext);
/* With the file lock held: writes pending records as META chunks (if the capture is open). */
void meta_flush_locked(void);
/* Set while records wait to be written: the next event writes them first (stream_self). */
extern atomic_int nvtxc_meta_pending __attribute__((visibility("hidden")));
/* Writes pending records (takes the file lock). */
void meta_flush_pending(void);
/* In a fork child: everything is pending again, for the child's capture. */
void meta_after_fork_child(void);

#endif
