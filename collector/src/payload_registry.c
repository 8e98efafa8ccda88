#include "payload_registry.h"

#include "guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "encode.h"
#include "format.h"
#include "meta.h"
#include "text.h"

/* ---------------------------------------------------------------- a growable record body */

struct mbuf {
    uint8_t *p;
    size_t n, cap;
    int oom;
};

static uint8_t *mb_room(struct mbuf *b, size_t more)
{
    if (b->oom) return NULL;
    if (b->n + more > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + more) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return NULL;
        }
        b->p = p;
        b->cap = cap;
    }
    return b->p + b->n;
}

static void mb_varint(struct mbuf *b, uint64_t v)
{
    uint8_t *p = mb_room(b, VARINT_MAX);
    if (p) b->n = (size_t)(put_varint(p, v) - b->p);
}

static void mb_svarint(struct mbuf *b, int64_t v)
{
    uint8_t *p = mb_room(b, VARINT_MAX);
    if (p) b->n = (size_t)(put_svarint(p, v) - b->p);
}

static void mb_bytes(struct mbuf *b, const void *data, size_t n)
{
    uint8_t *p = mb_room(b, n);
    if (p && n) {
        memcpy(p, data, n);
        b->n += n;
    }
}

static void mb_u8(struct mbuf *b, uint8_t v)
{
    mb_bytes(b, &v, 1);
}

/* A `str` of a C string given by the program (NULL: empty), cut at 16 KiB. */
static void mb_cstr(struct mbuf *b, const char *s)
{
    size_t n = s ? strnlen(s, NVTXC_MAX_STRING + 1) : 0;
    if (n > NVTXC_MAX_STRING) n = utf8_cut(s, NVTXC_MAX_STRING);
    mb_varint(b, n);
    mb_bytes(b, s, n);
}

static void mb_head(struct mbuf *b)
{
    uint8_t head[2 * VARINT_MAX];
    mb_bytes(b, head, (size_t)(meta_head(head) - head));
}

static void mb_record(struct mbuf *b, uint8_t op)
{
    if (!b->oom) meta_add(op, b->p, b->n);
    free(b->p);
}

/* ---------------------------------------------------------------- predefined types */

/* Linux x86-64 sizes of types 1..27, replaced by the program's table when it gives one. */
static uint16_t type_size[NVTX_PAYLOAD_ENTRY_TYPE_INFO_ARRAY_SIZE] = {
    0, 1, 1, 2, 2, 4, 4, 8, 8, 8, 8, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 16, 8, 8, 4, 1, 2, 4,
};
static uint16_t type_align[NVTX_PAYLOAD_ENTRY_TYPE_INFO_ARRAY_SIZE] = {
    0, 1, 1, 2, 2, 4, 4, 8, 8, 8, 8, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 16, 8, 8, 4, 1, 2, 4,
};

int pl_predefined(uint64_t type, size_t *size, size_t *align)
{
    size_t s;
    if (type >= 1 && type < NVTX_PAYLOAD_ENTRY_TYPE_INFO_ARRAY_SIZE) {
        *size = type_size[type];
        *align = type_align[type] ? type_align[type] : 1;
        return *size > 0;
    }
    switch (type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_BYTE:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8:
        s = 1;
        break;
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_BF16:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF16:
        s = 2;
        break;
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_TF32:
    case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY:
    case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF32:
    case NVTX_PAYLOAD_ENTRY_TYPE_UNION_SELECTOR:
        s = 4;
        break;
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID:
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_NVTX_REGISTERED_STRING_HANDLE:
        s = 8;
        break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT128:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT128:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT128:
        s = 16;
        break;
    default:
        return 0;
    }
    *size = s;
    *align = s;
    return 1;
}

int pl_string_unit(uint64_t type)
{
    switch (type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING:
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8:
        return 1;
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF16:
        return 2;
    case NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF32:
        return 4;
    default:
        return 0;
    }
}

static atomic_int type_table_recorded;

void pl_set_type_table(const void *ext_info)
{
    const nvtxPayloadEntryTypeInfo_t *t = ext_info;
    /* Entry 0 is the table's header: {number of entries, size of one entry}. */
    if (!t || t[0].size < 2 || t[0].align != sizeof(nvtxPayloadEntryTypeInfo_t)) return;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&type_table_recorded, &expected, 1)) return;
    size_t count = t[0].size;
    for (size_t i = 1; i < count && i < NVTX_PAYLOAD_ENTRY_TYPE_INFO_ARRAY_SIZE; i++) {
        /* {0, 0} marks a type the program's compiler lacks (char8_t in C): keep the x86-64 values. */
        if (t[i].size == 0 || t[i].align == 0) continue;
        type_size[i] = t[i].size;
        type_align[i] = t[i].align;
    }
    struct mbuf b = {0};
    mb_head(&b);
    mb_varint(&b, count);
    for (size_t i = 0; i < count; i++) {
        mb_varint(&b, t[i].size);
        mb_varint(&b, t[i].align);
    }
    mb_record(&b, NVTXC_META_PAYLOAD_TYPES);
}

/* ---------------------------------------------------------------- ids */

#define ID_STATIC_START (1ull << 24)
#define ID_DYNAMIC_START (1ull << 32)
#define BUCKETS 1024

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint_fast64_t next_dynamic[PL_KIND_COUNT];
static struct pl_schema *_Atomic schema_buckets[BUCKETS];

struct claimed {
    int kind;
    uint32_t domain;
    uint64_t id;
    struct claimed *next;
};
static struct claimed *claimed_buckets[BUCKETS];

static size_t bucket_of(uint32_t domain, uint64_t id)
{
    uint64_t h = (id ^ ((uint64_t)domain << 40)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 54) & (BUCKETS - 1);
}

static void fork_prepare(void) { pthread_mutex_lock(&reg_lock); }
static void fork_release(void) { pthread_mutex_unlock(&reg_lock); }

void pl_registry_init(void)
{
    for (int k = 0; k < PL_KIND_COUNT; k++) atomic_store(&next_dynamic[k], ID_DYNAMIC_START);
    pthread_atfork(fork_prepare, fork_release, fork_release);
}

/*
 * The id of a registration: a static id in [2^24, 2^32) not yet taken in this domain, or a
 * generated one (>= 2^32) when `requested` is 0. 0 for an invalid or duplicate static id.
 * Registry lock held.
 */
static uint64_t claim_id(int kind, uint32_t domain, uint64_t requested)
{
    if (requested == 0) return atomic_fetch_add(&next_dynamic[kind], 1);
    if (requested < ID_STATIC_START || requested >= ID_DYNAMIC_START) return 0;
    size_t b = bucket_of(domain, requested);
    for (struct claimed *c = claimed_buckets[b]; c; c = c->next) {
        if (c->kind == kind && c->domain == domain && c->id == requested) return 0;
    }
    struct claimed *c = malloc(sizeof *c);
    if (!c) return 0;
    *c = (struct claimed){kind, domain, requested, claimed_buckets[b]};
    claimed_buckets[b] = c;
    return requested;
}

const struct pl_schema *pl_schema_find(uint32_t domain, uint64_t id)
{
    for (struct pl_schema *s = atomic_load_explicit(&schema_buckets[bucket_of(domain, id)], memory_order_acquire); s;
         s = atomic_load_explicit(&s->next, memory_order_acquire)) {
        if (s->id == id && s->domain == domain) return s;
    }
    return NULL;
}

/* Makes a schema findable. Registry lock held; the schema is complete and never changes again. */
static void publish(struct pl_schema *s)
{
    size_t b = bucket_of(s->domain, s->id);
    atomic_store_explicit(&s->next, atomic_load_explicit(&schema_buckets[b], memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&schema_buckets[b], s, memory_order_release);
}

/* ---------------------------------------------------------------- semantics */

#define MAX_SEMANTICS_CHAIN 16

/* The chain as `count (struct:bytes unit:str)*`: each struct as given, with a counter's unit text. */
static void mb_semantics(struct mbuf *b, const nvtxSemanticsHeader_t *head)
{
    const nvtxSemanticsHeader_t *chain[MAX_SEMANTICS_CHAIN];
    size_t n = 0;
    for (const nvtxSemanticsHeader_t *s = head; s && n < MAX_SEMANTICS_CHAIN; s = s->next) {
        int seen = 0;
        for (size_t k = 0; k < n; k++) seen |= chain[k] == s;
        if (seen) break; /* a cycle */
        chain[n++] = s;
    }
    mb_varint(b, n);
    for (size_t k = 0; k < n; k++) {
        const nvtxSemanticsHeader_t *s = chain[k];
        size_t size = s->structSize < sizeof *s ? sizeof *s : s->structSize;
        if (size > NVTXC_MAX_SEMANTICS) size = NVTXC_MAX_SEMANTICS;
        mb_varint(b, size);
        mb_bytes(b, s, size);
        const char *unit = NULL;
        if (s->semanticId == NVTX_SEMANTIC_ID_COUNTERS_V1 &&
            s->structSize >= offsetof(nvtxSemanticsCounter_t, unit) + sizeof(const char *)) {
            unit = ((const nvtxSemanticsCounter_t *)s)->unit;
        }
        mb_cstr(b, unit);
    }
}

/* ---------------------------------------------------------------- schemas */

#define MAX_ENTRIES 4096
#define ARRAY_FIELD(f) ((f) & (7u << 4))

/* Is `type` usable as an entry type in `domain`: predefined, or a schema or enum registered before? */
static int known_type(uint32_t domain, uint64_t type)
{
    size_t size, align;
    if (type == NVTX_PAYLOAD_ENTRY_TYPE_UNION_SELECTOR || pl_predefined(type, &size, &align)) return 1;
    return type >= ID_STATIC_START && pl_schema_find(domain, type) != NULL;
}

int pl_integer_kind(uint64_t type)
{
    switch (type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR:
    case NVTX_PAYLOAD_ENTRY_TYPE_SHORT:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT:
    case NVTX_PAYLOAD_ENTRY_TYPE_LONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_INT64:
        return 2;
    case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR:
    case NVTX_PAYLOAD_ENTRY_TYPE_USHORT:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT:
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT64:
    case NVTX_PAYLOAD_ENTRY_TYPE_SIZE:
    case NVTX_PAYLOAD_ENTRY_TYPE_UNION_SELECTOR:
        return 1;
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- layout at registration (beside the registry: it resolves nested schemas) */

static void layout_entry(const struct pl_schema *s, struct pl_entry *e)
{
    uint64_t f = e->flags;
    e->array = (uint8_t)((f >> 4) & 7);
    e->storage = f & (NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_BASE | NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_HERE) ? PL_OFFSET
                 : f & NVTX_PAYLOAD_ENTRY_FLAG_POINTER                                                 ? PL_POINTER
                                                                                                       : PL_INLINE;
    e->unit = (uint8_t)pl_string_unit(e->type);
    size_t size = 0, align = 1;
    if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_UNION_SELECTOR) {
        size = e->detail == 1 || e->detail == 2 || e->detail == 4 || e->detail == 8 ? e->detail : 4;
        align = size;
        e->integer = 1;
    } else if (pl_predefined(e->type, &size, &align)) {
        if (e->array == 0) e->integer = (uint8_t)pl_integer_kind(e->type);
    } else {
        const struct pl_schema *n = e->type >= ID_STATIC_START ? pl_schema_find(s->domain, e->type) : NULL;
        if (!n || (!n->is_enum && n->broken)) {
            e->bad = 1;
            return;
        }
        e->nested = n;
        if (n->is_enum) {
            size = align = n->enum_size;
            if (e->array == 0) e->integer = 2;
        } else {
            size = n->size;
            align = n->align;
        }
    }
    e->esize = (uint32_t)size;
    uint64_t pack = s->pack_align ? s->pack_align : UINT64_MAX;

    if (e->unit) {
        int fixed_len = (e->array == 0 || e->array == 1) && e->detail > 0;
        if ((e->array == 0 || e->array == 1) && e->detail == 0 && e->storage == PL_INLINE) e->storage = PL_POINTER; /* `char *` */
        if (e->array == 2 && e->detail > 0) e->esize = (uint32_t)(e->detail * e->unit); /* list of fixed strings */
        if (fixed_len) e->array = 1;
        else if (e->array == 0 || e->array == 1) e->array = 2;
    }
    if (e->storage != PL_INLINE) {
        e->size = 8;
        align = 8;
        if (e->storage == PL_POINTER) {
            e->copy = e->unit || f & NVTX_PAYLOAD_ENTRY_FLAG_DEEP_COPY || s->flags & NVTX_PAYLOAD_SCHEMA_FLAG_DEEP_COPY;
        }
    } else if (e->nested && !e->nested->is_enum && e->nested->variable) {
        if (e->array != 0) e->bad = 1; /* arrays of dynamic schemas: not supported (NVTX) */
        e->variable = 1;
    } else if (e->array == 0) {
        e->size = size;
    } else if (e->array == 1) {
        e->size = e->unit ? e->detail * e->unit : e->detail * size;
    } else {
        e->variable = 1;
    }
    e->align = (uint32_t)(align < pack ? align : pack);
    if (e->align == 0) e->align = 1;
}

/* Entry offsets, sizes and alignment of a schema, as NVTX lays a C struct out (at registration). */
static void pl_layout(struct pl_schema *s)
{
    int unions = s->type == NVTX_PAYLOAD_SCHEMA_TYPE_UNION || s->type == NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR;
    uint64_t cursor = 0, end = 0;
    int known = 1;
    uint32_t max_align = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        struct pl_entry *e = &s->e[i];
        layout_entry(s, e);
        if (e->bad) {
            s->broken = 1;
            e->fixed_off = -1;
            known = 0;
            continue;
        }
        if (e->copy || (e->nested && e->nested->needs_copy && e->storage == PL_INLINE)) s->needs_copy = 1;
        /* The index-0 rule: offset 0 is explicit only for the first entry. */
        if (i == 0 || e->offset != 0) e->fixed_off = (int64_t)e->offset;
        else if (unions) e->fixed_off = 0;
        else e->fixed_off = known ? (int64_t)pl_align_up(cursor, e->align) : -1;
        if (e->align > max_align) max_align = e->align;
        if (!e->variable && e->fixed_off >= 0) {
            uint64_t stop = (uint64_t)e->fixed_off + e->size;
            if (stop > end) end = stop;
            if (!unions) cursor = stop;
        } else {
            s->variable |= e->variable;
            if (!unions) known = 0;
        }
    }
    s->align = max_align;
    if (s->static_size) s->size = s->static_size;
    else s->size = pl_align_up(end, max_align);
    if (s->type == NVTX_PAYLOAD_SCHEMA_TYPE_STATIC || unions) s->variable = 0;
}

/* Reasons for refusing a schema: what NVTX defines as invalid, and what no layout can follow. */
static int schema_valid(uint32_t domain, const nvtxPayloadSchemaAttr_t *a)
{
    const uint64_t need = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                          NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
    if ((a->fieldMask & need) != need || !a->entries || a->numEntries == 0 || a->numEntries > MAX_ENTRIES) return 0;
    /* An uninitialised or stale entries pointer: the table must be readable before it is walked. */
    if (guard_readable_all(a->entries, a->numEntries * sizeof *a->entries) < a->numEntries * sizeof *a->entries) return 0;
    if (a->type < NVTX_PAYLOAD_SCHEMA_TYPE_STATIC || a->type > NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR) return 0;
    if (a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ALIGNMENT && a->packAlign & (a->packAlign - 1)) return 0;
    size_t selectors = 0;
    for (size_t i = 0; i < a->numEntries; i++) {
        const nvtxPayloadSchemaEntry_t *e = &a->entries[i];
        uint64_t array = ARRAY_FIELD(e->flags);
        if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_INVALID || !known_type(domain, e->type)) return 0;
        if (array > NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_PAYLOAD_INDEX) return 0;
        if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_UNION_SELECTOR) selectors++;
        if (array == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_INDEX && (e->arrayOrUnionDetail >= a->numEntries || e->arrayOrUnionDetail == i))
            return 0;
        /* Variable-length embedded arrays need a dynamic layout. */
        int embedded = !(e->flags & (NVTX_PAYLOAD_ENTRY_FLAG_POINTER | NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_BASE |
                                     NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_HERE));
        if (a->type == NVTX_PAYLOAD_SCHEMA_TYPE_STATIC && embedded &&
            (array == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_INDEX || array == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_PAYLOAD_INDEX))
            return 0;
    }
    if (a->type == NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR ? selectors != 1 : selectors != 0) return 0;
    return 1;
}

static void mb_schema_id_head(struct mbuf *b, uint32_t domain, uint64_t id)
{
    mb_head(b);
    mb_varint(b, domain);
    mb_varint(b, id);
}

uint64_t pl_schema_register(uint32_t domain, const nvtxPayloadSchemaAttr_t *a)
{
    if (!a) return 0;
    struct pl_schema *s = calloc(1, sizeof *s);
    struct pl_entry *e = a->numEntries <= MAX_ENTRIES ? calloc(a->numEntries ? a->numEntries : 1, sizeof *e) : NULL;
    if (!s || !e) {
        free(s);
        free(e);
        if (a->numEntries > MAX_ENTRIES) guard_note(GUARD_REFUSED_SCHEMA, GUARD_TEXT_REFUSED_SCHEMA);
        return 0;
    }
    pthread_mutex_lock(&reg_lock);
    uint64_t id = 0;
    if (schema_valid(domain, a)) {
        uint64_t requested = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID ? a->schemaId : 0;
        /* Asking for a static id and giving none is an error, not a request for a generated one. */
        id = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID && requested == 0 ? 0 : claim_id(PL_KIND_SCHEMA, domain, requested);
    }
    if (id == 0) {
        pthread_mutex_unlock(&reg_lock);
        free(s);
        free(e);
        guard_note(GUARD_REFUSED_SCHEMA, GUARD_TEXT_REFUSED_SCHEMA);
        return 0;
    }
    uint64_t flags = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS ? a->flags : 0;
    s->domain = domain;
    s->id = id;
    s->type = a->type;
    s->flags = flags;
    s->static_size = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE ? a->payloadStaticSize : 0;
    s->pack_align = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ALIGNMENT ? a->packAlign : 0;
    s->n = (uint32_t)a->numEntries;
    s->e = e;
    for (size_t i = 0; i < a->numEntries; i++) {
        const nvtxPayloadSchemaEntry_t *x = &a->entries[i];
        e[i] = (struct pl_entry){.flags = x->flags, .type = x->type, .detail = x->arrayOrUnionDetail, .offset = x->offset};
    }
    pl_layout(s);

    struct mbuf b = {0};
    mb_schema_id_head(&b, domain, id);
    mb_varint(&b, a->fieldMask);
    mb_cstr(&b, a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME ? a->name : NULL);
    mb_varint(&b, s->type);
    mb_varint(&b, s->flags);
    mb_varint(&b, s->static_size);
    mb_varint(&b, s->pack_align);
    mb_varint(&b, s->n);
    for (size_t i = 0; i < a->numEntries; i++) {
        const nvtxPayloadSchemaEntry_t *x = &a->entries[i];
        mb_varint(&b, x->flags);
        mb_varint(&b, x->type);
        mb_cstr(&b, x->name);
        mb_cstr(&b, x->description);
        mb_varint(&b, x->arrayOrUnionDetail);
        mb_varint(&b, x->offset);
        mb_semantics(&b, x->semantics);
    }
    /* Recorded under the lock: the record of a nested schema precedes the records that use it. */
    mb_record(&b, NVTXC_META_SCHEMA);
    publish(s);
    pthread_mutex_unlock(&reg_lock);
    return id;
}

uint64_t pl_enum_register(uint32_t domain, const nvtxPayloadEnumAttr_t *a)
{
    const uint64_t need = NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES;
    if (!a || (a->fieldMask & need) != need || !a->entries || a->numEntries == 0 || a->numEntries > MAX_ENTRIES ||
        guard_readable_all(a->entries, a->numEntries * sizeof *a->entries) < a->numEntries * sizeof *a->entries) {
        guard_note(GUARD_REFUSED_SCHEMA, GUARD_TEXT_REFUSED_SCHEMA);
        return 0;
    }
    size_t size = a->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE ? a->sizeOfEnum : sizeof(int);
    if (size != 1 && size != 2 && size != 4 && size != 8) {
        guard_note(GUARD_REFUSED_SCHEMA, GUARD_TEXT_REFUSED_SCHEMA);
        return 0;
    }
    struct pl_schema *s = calloc(1, sizeof *s);
    if (!s) return 0;
    pthread_mutex_lock(&reg_lock);
    uint64_t requested = a->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID ? a->schemaId : 0;
    uint64_t id = a->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID && requested == 0 ? 0 : claim_id(PL_KIND_SCHEMA, domain, requested);
    if (id == 0) {
        pthread_mutex_unlock(&reg_lock);
        free(s);
        return 0;
    }
    s->domain = domain;
    s->id = id;
    s->is_enum = 1;
    s->enum_size = size;
    struct mbuf b = {0};
    mb_schema_id_head(&b, domain, id);
    mb_varint(&b, a->fieldMask);
    mb_cstr(&b, a->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME ? a->name : NULL);
    mb_varint(&b, size);
    mb_varint(&b, a->numEntries);
    for (size_t i = 0; i < a->numEntries; i++) {
        mb_cstr(&b, a->entries[i].name);
        mb_varint(&b, a->entries[i].value);
        mb_u8(&b, (uint8_t)(a->entries[i].isFlag != 0));
    }
    mb_record(&b, NVTXC_META_ENUM);
    publish(s);
    pthread_mutex_unlock(&reg_lock);
    return id;
}

/* ---------------------------------------------------------------- scopes, time domains, counters */

/* Is field `f` of struct type T inside the `structSize` the program declared? */
#define HAS(T, a, f) ((a)->structSize >= offsetof(T, f) + sizeof((a)->f))

uint64_t pl_scope_register(uint32_t domain, const nvtxScopeAttr_t *a)
{
    if (!a || !HAS(nvtxScopeAttr_t, a, path)) return 0;
    uint64_t parent = HAS(nvtxScopeAttr_t, a, parentScope) ? a->parentScope : 0;
    uint64_t requested = HAS(nvtxScopeAttr_t, a, scopeId) ? a->scopeId : 0;
    pthread_mutex_lock(&reg_lock);
    uint64_t id = claim_id(PL_KIND_SCOPE, domain, requested);
    if (id) {
        struct mbuf b = {0};
        mb_schema_id_head(&b, domain, id);
        mb_varint(&b, parent);
        mb_cstr(&b, a->path);
        mb_record(&b, NVTXC_META_SCOPE);
    }
    pthread_mutex_unlock(&reg_lock);
    return id;
}

uint64_t pl_time_domain_register(uint32_t domain, const nvtxTimeDomainAttr_t *a)
{
    if (!a) return 0;
    pthread_mutex_lock(&reg_lock);
    uint64_t id = claim_id(PL_KIND_TIME_DOMAIN, domain, a->timeDomainId);
    if (id) {
        struct mbuf b = {0};
        mb_schema_id_head(&b, domain, id);
        mb_varint(&b, a->scopeId);
        mb_varint(&b, a->timestampTypeId);
        mb_varint(&b, a->timerFlags);
        mb_svarint(&b, a->timerResolution);
        mb_varint(&b, a->timerStart);
        mb_record(&b, NVTXC_META_TIME_DOMAIN);
    }
    pthread_mutex_unlock(&reg_lock);
    return id;
}

/* Number types a single-value counter may use (not characters, strings, handles or selectors). */
static int counter_number_type(uint64_t t)
{
    return (t >= NVTX_PAYLOAD_ENTRY_TYPE_CHAR && t <= NVTX_PAYLOAD_ENTRY_TYPE_SIZE) ||
           (t >= NVTX_PAYLOAD_ENTRY_TYPE_BYTE && t <= NVTX_PAYLOAD_ENTRY_TYPE_TF32);
}

uint64_t pl_counter_register(uint32_t domain, const nvtxCounterAttr_t *a)
{
    if (!a || !HAS(nvtxCounterAttr_t, a, schemaId)) return 0;
    size_t size, align;
    int predefined = pl_predefined(a->schemaId, &size, &align);
    if (predefined ? !counter_number_type(a->schemaId) : pl_schema_find(domain, a->schemaId) == NULL) return 0;
    uint64_t requested = HAS(nvtxCounterAttr_t, a, counterId) ? a->counterId : 0;
    pthread_mutex_lock(&reg_lock);
    uint64_t id = claim_id(PL_KIND_COUNTER, domain, requested);
    if (id) {
        struct mbuf b = {0};
        mb_schema_id_head(&b, domain, id);
        mb_varint(&b, a->schemaId);
        mb_varint(&b, HAS(nvtxCounterAttr_t, a, scopeId) ? a->scopeId : 0);
        mb_cstr(&b, HAS(nvtxCounterAttr_t, a, name) ? a->name : NULL);
        mb_cstr(&b, HAS(nvtxCounterAttr_t, a, description) ? a->description : NULL);
        mb_semantics(&b, HAS(nvtxCounterAttr_t, a, semantics) ? a->semantics : NULL);
        mb_record(&b, NVTXC_META_COUNTER);
    }
    pthread_mutex_unlock(&reg_lock);
    return id;
}
