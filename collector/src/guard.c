#include "guard.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "collector.h"
#include "encode.h"
#include "format.h"
#include "meta.h"

/* The page size, read once. */
static size_t page_size(void)
{
    static size_t page;
    if (UNLIKELY(page == 0)) page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static atomic_uint_fast64_t counts[GUARD_COUNT];
static const char *texts[GUARD_COUNT];

static void write_note(enum guard_problem kind, uint64_t count, const char *what)
{
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, (uint64_t)kind);
    p = put_varint(p, count);
    meta_add_with_text(NVTXC_META_NOTE, body, (size_t)(p - body), what, strlen(what));
}

void guard_note(enum guard_problem kind, const char *what)
{
    if ((unsigned)kind >= GUARD_COUNT) return;
    if (atomic_fetch_add(&counts[kind], 1) != 0) return;
    texts[kind] = what;
    write_note(kind, 1, what);
}

void guard_note_totals(void)
{
    for (unsigned k = 1; k < GUARD_COUNT; k++) {
        uint64_t n = atomic_load(&counts[k]);
        if (n > 1 && texts[k]) write_note((enum guard_problem)k, n, texts[k]);
    }
}

/* Readable bytes of [start, start + n), probing from the page that holds `at` (start's page, or the next). */
static size_t probe(uintptr_t start, size_t n, uintptr_t at, size_t page)
{
    /* One byte of every page, up to 1024 pages a call: a transfer stops at the first unreadable one. */
    char sink[1024];
    struct iovec local = {sink, 0};
    struct iovec remote[1024];
    uintptr_t stop = start + n < start ? UINTPTR_MAX : start + n;
    uintptr_t base = at & ~(uintptr_t)(page - 1);
    while (base < stop) {
        int k = 0;
        for (uintptr_t q = base; q < stop && k < 1024; q += page) {
            remote[k].iov_base = (void *)(q < start ? start : q);
            remote[k].iov_len = 1;
            k++;
        }
        local.iov_len = (size_t)k;
        ssize_t got = process_vm_readv(getpid(), &local, 1, remote, (unsigned long)k, 0);
        if (got < 0 && errno != EFAULT) {
            /* No process_vm_readv here (seccomp, old kernel): mincore tells mapped from unmapped. */
            unsigned char vec[1024];
            got = mincore((void *)base, (size_t)k * page, vec) == 0 ? k : 0;
        }
        if (got < 0) got = 0;
        if (got < k) {
            uintptr_t boundary = base + (uintptr_t)got * page;
            return boundary <= start ? 0 : (size_t)(boundary - start);
        }
        base += (uintptr_t)k * page;
    }
    return n;
}

size_t guard_readable(const void *p, size_t n)
{
    if (!p || n == 0) return 0;
    size_t page = page_size();
    uintptr_t start = (uintptr_t)p;
    uintptr_t first_end = (start | (page - 1)) + 1;
    if (n <= first_end - start) return n;
    return probe(start, n, first_end, page);
}

size_t guard_readable_all(const void *p, size_t n)
{
    if (!p || n == 0) return 0;
    return probe((uintptr_t)p, n, (uintptr_t)p, page_size());
}

/* Pages found readable lately, per thread: payload pointers mostly point at the same few pages. */
#define PAGE_CACHE 64
static __thread uintptr_t readable_pages[PAGE_CACHE];

size_t guard_readable_pointee(const void *p, size_t n)
{
    if (!p || n == 0) return 0;
    size_t page = page_size();
    uintptr_t start = (uintptr_t)p;
    uintptr_t last = start + n - 1 < start ? UINTPTR_MAX : start + n - 1;
    uintptr_t first_page = start / page, last_page = last / page;
    if (last_page - first_page < 4) {
        int all = 1;
        for (uintptr_t pg = first_page; pg <= last_page && all; pg++)
            all = readable_pages[pg % PAGE_CACHE] == pg + 1;
        if (all) return n;
    }
    size_t readable = guard_readable_all(p, n);
    /* Remember the whole pages seen readable (at most a few: the cache is small). */
    uintptr_t end_page = readable ? (start + readable - 1) / page : first_page;
    for (uintptr_t pg = first_page; readable && pg <= end_page && pg < first_page + 4; pg++)
        readable_pages[pg % PAGE_CACHE] = pg + 1;
    return readable;
}
