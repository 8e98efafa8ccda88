#include "handles.h"

#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "encode.h"
#include "format.h"
#include "meta.h"

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvtxc_domain *domains;

#define REGSTR_BUCKETS 1024
static struct nvtxc_regstr *regstr_buckets[REGSTR_BUCKETS];

static uint64_t hash_text(uint32_t domain, const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull ^ domain;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h;
}

struct nvtxc_domain *domain_get(const char *name, size_t n)
{
    pthread_mutex_lock(&handles_lock);
    for (struct nvtxc_domain *d = domains; d; d = d->next) {
        if (!d->destroyed && strlen(d->name) == n && memcmp(d->name, name, n) == 0) {
            pthread_mutex_unlock(&handles_lock);
            return d;
        }
    }
    struct nvtxc_domain *d = malloc(sizeof *d + n + 1);
    if (!d) {
        pthread_mutex_unlock(&handles_lock);
        return NULL;
    }
    d->magic = NVTXC_DOMAIN_MAGIC;
    d->id = atomic_fetch_add(&nvtxc_g.next_domain, 1) + 1;
    d->destroyed = 0;
    memcpy(d->name, name, n);
    d->name[n] = 0;
    d->next = domains;
    domains = d;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, d->id);
    /* Recorded under the lock so that two creators of one name cannot both record it. */
    meta_add_with_text(NVTXC_META_DOMAIN_CREATE, body, (size_t)(p - body), name, n);
    pthread_mutex_unlock(&handles_lock);
    return d;
}

void domain_destroy(struct nvtxc_domain *d)
{
    if (!d || d->magic != NVTXC_DOMAIN_MAGIC) return;
    pthread_mutex_lock(&handles_lock);
    int was = d->destroyed;
    d->destroyed = 1;
    pthread_mutex_unlock(&handles_lock);
    if (was) return;
    uint8_t body[META_FIXED_MAX];
    uint8_t *p = meta_head(body);
    p = put_varint(p, d->id);
    meta_add(NVTXC_META_DOMAIN_DESTROY, body, (size_t)(p - body));
}

struct nvtxc_regstr *regstr_get(uint32_t domain, const char *text, size_t n)
{
    uint64_t h = hash_text(domain, text, n);
    struct nvtxc_regstr **bucket = &regstr_buckets[h & (REGSTR_BUCKETS - 1)];
    pthread_mutex_lock(&handles_lock);
    for (struct nvtxc_regstr *r = *bucket; r; r = r->next) {
        if (r->hash == h && r->domain == domain && r->len == n && memcmp(r->text, text, n) == 0) {
            pthread_mutex_unlock(&handles_lock);
            return r;
        }
    }
    struct nvtxc_regstr *r = malloc(sizeof *r + n + 1);
    if (!r) {
        pthread_mutex_unlock(&handles_lock);
        return NULL;
    }
    r->magic = NVTXC_REGSTR_MAGIC;
    r->id = atomic_fetch_add(&nvtxc_g.next_registered, 1) + 1;
    r->domain = domain;
    r->len = (uint32_t)n;
    r->hash = h;
    memcpy(r->text, text, n);
    r->text[n] = 0;
    r->next = *bucket;
    *bucket = r;
    /* The handle's value follows the text (format 1.1): payload entries of type
       NVTX_REGISTERED_STRING_HANDLE hold it. */
    uint8_t *body = malloc(META_FIXED_MAX + n + 2 * VARINT_MAX);
    if (body) {
        uint8_t *p = meta_head(body);
        p = put_varint(p, domain);
        p = put_varint(p, r->id);
        p = put_str(p, text, n);
        p = put_varint(p, (uintptr_t)r);
        meta_add(NVTXC_META_REGISTERED_STRING, body, (size_t)(p - body));
        free(body);
    }
    pthread_mutex_unlock(&handles_lock);
    return r;
}

const struct nvtxc_regstr *regstr_of(const void *handle)
{
    const struct nvtxc_regstr *r = handle;
    return r && r->magic == NVTXC_REGSTR_MAGIC ? r : NULL;
}

void handles_fork_prepare(void)
{
    pthread_mutex_lock(&handles_lock);
}

void handles_fork_release(void)
{
    pthread_mutex_unlock(&handles_lock);
}
