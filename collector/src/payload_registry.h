/*
 * Registrations of the payload and counters extensions: schemas, enums, scopes, time domains and
 * counters. Each registration is checked, gets its id (a static id the program chose, or one the
 * collector generates) and is recorded in the metadata log with everything it points to copied.
 * Schemas stay in memory (never freed) for the deep copies of later events: they are found by
 * (domain, id) without a lock.
 */
#ifndef NVTXC_PAYLOAD_REGISTRY_H
#define NVTXC_PAYLOAD_REGISTRY_H

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>
#include <nvtx3/nvToolsExtSemanticsScope.h>
#include <nvtx3/nvToolsExtSemanticsTime.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct pl_schema;

/* Where an entry's data lives. */
enum { PL_INLINE, PL_POINTER, PL_OFFSET };

/* What the collector keeps of a schema entry: its layout (names go to the capture only). */
struct pl_entry {
    uint64_t flags;
    uint64_t type;
    uint64_t detail;
    uint64_t offset;
    /* Worked out at registration by pl_layout() (payload_copy.c). */
    uint8_t storage;  /* PL_INLINE, PL_POINTER, PL_OFFSET */
    uint8_t array;    /* array field: 0 none, 1 fixed, 2 zero-terminated, 3 length index, 4 length payload */
    uint8_t unit;     /* code unit of a string entry, else 0 */
    uint8_t variable; /* inline size depends on the data */
    uint8_t copy;     /* a pointer whose data the collector copies */
    uint8_t integer;  /* 1 unsigned, 2 signed integer scalar (a possible length) */
    uint8_t bad;      /* no layout (unknown type, bad size) */
    uint32_t esize;   /* one element (one code unit for strings, one string of a string list) */
    uint32_t align;   /* placement alignment, capped by packAlign */
    uint64_t size;    /* inline size when not variable */
    int64_t fixed_off; /* offset when it does not depend on the data, else -1 */
    const struct pl_schema *nested;
};

struct pl_schema {
    uint32_t domain;
    uint64_t id;
    int is_enum;
    size_t enum_size;
    uint64_t type;
    uint64_t flags;
    size_t static_size;
    size_t pack_align;
    uint32_t n;
    struct pl_entry *e;
    /* Events with this schema may point at memory the collector copies (see payload_copy.c). */
    int needs_copy;
    /* Layout: size and alignment when fixed; variable when it depends on the data. */
    int variable;
    int broken;
    uint64_t size;
    uint32_t align;
    struct pl_schema *_Atomic next;
};

/* Id kinds: schemas and enums share one id space per domain; the others have their own. */
enum { PL_KIND_SCHEMA, PL_KIND_SCOPE, PL_KIND_TIME_DOMAIN, PL_KIND_COUNTER, PL_KIND_COUNT };

/* Called once per process by the first extension module that attaches. */
void pl_registry_init(void);
/* Keeps the program's type table (extInfo of the payload module) and records it once. */
void pl_set_type_table(const void *ext_info);

/* Size and alignment of a predefined entry type; 0 when `type` is not one. */
int pl_predefined(uint64_t type, size_t *size, size_t *align);
/* Code-unit width of string types (CSTRING*) and 0 for all other types. */
int pl_string_unit(uint64_t type);

/* 1 unsigned, 2 signed, 0 not an integer (integers can hold array lengths and union selectors). */
int pl_integer_kind(uint64_t type);

static inline uint64_t pl_align_up(uint64_t n, uint64_t a)
{
    return a > 1 ? (n + a - 1) / a * a : n;
}

/* Schema or enum `id` of `domain`, or NULL. Lock-free. */
const struct pl_schema *pl_schema_find(uint32_t domain, uint64_t id);

uint64_t pl_schema_register(uint32_t domain, const nvtxPayloadSchemaAttr_t *attr);
uint64_t pl_enum_register(uint32_t domain, const nvtxPayloadEnumAttr_t *attr);
uint64_t pl_scope_register(uint32_t domain, const nvtxScopeAttr_t *attr);
uint64_t pl_time_domain_register(uint32_t domain, const nvtxTimeDomainAttr_t *attr);
uint64_t pl_counter_register(uint32_t domain, const nvtxCounterAttr_t *attr);

#endif
