/*
 * Defence against what a program can pass the collector by mistake (uninitialised structs, absurd
 * sizes): a probe for readable memory, and notes that tell the capture's reader what was refused.
 */
#ifndef NVTXC_GUARD_H
#define NVTXC_GUARD_H

#include <stddef.h>

/* Kinds of problem a note reports; each is noted once when first seen and counted. */
enum guard_problem {
    GUARD_BAD_ATTRIBUTES = 1,  /* event attributes whose version or size is not NVTX's */
    GUARD_BAD_MESSAGE_TYPE,    /* a message type NVTX does not define */
    GUARD_NULL_NAME,           /* a NULL name or string where NVTX wants text */
    GUARD_UNREADABLE,          /* a size that runs past readable memory: cut */
    GUARD_REFUSED_SCHEMA,      /* a schema or enum registration with impossible fields */
    GUARD_COUNT
};

#define GUARD_TEXT_BAD_ATTRIBUTES                                                                          \
    "attributes (event, resource or sync object) whose version or size is not NVTX's, left uninitialised?: " \
    "recorded without them"

#define GUARD_TEXT_REFUSED_SCHEMA                                                                           \
    "a payload schema or enum registration was refused (the program received 0): fields missing, no or "    \
    "unreadable entries, too many entries, an unknown entry type or a static id that is taken or out of range"

/*
 * How many of the n bytes at p can be read, in whole pages after p's own (which the program
 * promised). Costs a system call only when the range reaches beyond p's page.
 */
size_t guard_readable(const void *p, size_t n);
/* The same, p's own page included (for what the program passes rarely: registrations, batches). */
size_t guard_readable_all(const void *p, size_t n);
/*
 * The same for memory a payload points to (deep copies): whole range checked, with a per-thread
 * cache of pages found readable so that pointers into the same pages cost no system call.
 */
size_t guard_readable_pointee(const void *p, size_t n);
/* Records that `kind` happened; the first time, a note with `what` goes into the capture. */
void guard_note(enum guard_problem kind, const char *what);
/* At exit: the counts of problems seen more than once. */
void guard_note_totals(void);

#endif
