/*
 * Handles the collector gives to the program: domains, registered strings, sync objects and
 * resources. Each is a small heap object that is never freed (a handle can race with its
 * destroy call on another thread), carrying a process-unique id.
 */
#ifndef NVTXC_HANDLES_H
#define NVTXC_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#define NVTXC_DOMAIN_MAGIC 0x6E446F6Du
#define NVTXC_REGSTR_MAGIC 0x6E537472u
#define NVTXC_SYNC_MAGIC 0x6E53796Eu
#define NVTXC_RESOURCE_MAGIC 0x6E526573u

struct nvtxc_domain {
    uint32_t magic;
    uint32_t id;
    int destroyed;
    struct nvtxc_domain *next;
    char name[];
};

struct nvtxc_regstr {
    uint32_t magic;
    uint32_t id;
    uint32_t domain;
    uint32_t len;
    uint64_t hash;
    struct nvtxc_regstr *next;
    char text[];
};

struct nvtxc_sync {
    uint32_t magic;
    uint32_t id;
};

struct nvtxc_resource {
    uint32_t magic;
    uint32_t id;
};

/* Id of a domain handle (0 for NULL, the default domain). */
static inline uint32_t domain_id(const void *handle)
{
    const struct nvtxc_domain *d = handle;
    return d && d->magic == NVTXC_DOMAIN_MAGIC ? d->id : 0;
}

/* The domain named `name` (an existing live one, or a new one recorded in the metadata). */
struct nvtxc_domain *domain_get(const char *name, size_t n);
void domain_destroy(struct nvtxc_domain *d);
/* The registered string (domain, text), created and recorded on first registration. */
struct nvtxc_regstr *regstr_get(uint32_t domain, const char *text, size_t n);
/* The text of a registered-string handle, or NULL when it is not one of ours. */
const struct nvtxc_regstr *regstr_of(const void *handle);

/* fork(): hold the handle lock across the fork, release it in both processes. */
void handles_fork_prepare(void);
void handles_fork_release(void);

#endif
