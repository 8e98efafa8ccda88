#include "ext_record.h"

#include <stdlib.h>
#include <string.h>

static __thread struct xrec *tls_rec TLS_FAST;

struct xrec *xrec_begin(void)
{
    struct xrec *r = tls_rec;
    if (UNLIKELY(!r)) {
        r = calloc(1, sizeof *r);
        if (!r) return NULL;
        r->scratch = malloc(XREC_SCRATCH);
        r->parts = malloc(XREC_PARTS * sizeof *r->parts);
        if (!r->scratch || !r->parts) {
            free(r->scratch);
            free(r->parts);
            free(r);
            return NULL;
        }
        tls_rec = r;
    }
    r->used = 0;
    r->run_start = 0;
    r->nparts = 0;
    r->body = 0;
    r->full = 0;
    return r;
}

uint8_t *xrec_room(struct xrec *r, size_t n)
{
    if (r->used + n > XREC_SCRATCH) {
        r->full = 1;
        return NULL;
    }
    return r->scratch + r->used;
}

void xrec_end(struct xrec *r, uint8_t *end)
{
    r->used = (size_t)(end - r->scratch);
}

static void close_run(struct xrec *r)
{
    if (r->used == r->run_start) return;
    if (r->nparts == XREC_PARTS) {
        r->full = 1;
        return;
    }
    r->parts[r->nparts++] = (struct xpart){r->scratch + r->run_start, r->used - r->run_start};
    r->body += r->used - r->run_start;
    r->run_start = r->used;
}

void xrec_data(struct xrec *r, const void *p, size_t n)
{
    if (n == 0) return;
    close_run(r);
    if (r->nparts == XREC_PARTS) {
        r->full = 1;
        return;
    }
    r->parts[r->nparts++] = (struct xpart){p, n};
    r->body += n;
}

static uint8_t *copy_parts(uint8_t *p, const struct xrec *r, uint8_t op)
{
    *p++ = op;
    p = put_varint(p, r->body);
    for (size_t i = 0; i < r->nparts; i++) {
        memcpy(p, r->parts[i].p, r->parts[i].n);
        p += r->parts[i].n;
    }
    return p;
}

void xrec_write(struct xrec *r, struct tstream *t, uint8_t op)
{
    close_run(r);
    if (r->full) return;
    size_t need = 1 + VARINT_MAX + r->body;
    if (need <= t->cap / 2) {
        uint8_t *p = stream_room(t, need);
        stream_commit(t, copy_parts(p, r, op), 1);
        return;
    }
    uint8_t *big = malloc(need);
    if (!big) return;
    uint8_t *end = copy_parts(big, r, op);
    stream_write_direct(t, big, (size_t)(end - big), 1);
    free(big);
}
