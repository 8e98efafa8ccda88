/*
 * Payload schemas for real C structs, laid out by gcc: every scalar type (natural alignment with
 * padding), packed structs (packAlign 1 and 2), nested structs and arrays of them, enums (plain and
 * flags), fixed strings, unions with an external and an internal selector, a dynamic layout with
 * variable arrays and strings, pointers the collector must copy, a payload pointing into a
 * REFERENCED sibling, a C string of unknown size. Events: mark/push/pop/start/end payload calls
 * and a core event carrying extended payloads; messages, colors and categories from payload entries
 * (pop and end renaming their ranges). Registration rules: static ids, generated ids, refusals.
 *
 * Prints one JSON line per event: {"type":"payload","name","layout","payloads":[{…}],"end":[{…}],
 * "category","color"}, each payload's fields as the viewer prints them (json.h); {"type":"check",…} for
 * each registration rule; {"type":"events","count"} (event calls).
 */
/* Partial entry initializers, as the NVTX documentation writes them. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "emit.h"
#include "json.h"

#define T(name) NVTX_PAYLOAD_ENTRY_TYPE_##name
#define F(name) NVTX_PAYLOAD_ENTRY_FLAG_##name
#define STATIC_ID(n) ((uint64_t)NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + (n))

static nvtxDomainHandle_t dom;
static long calls;
static struct jbuf jb;

static void check(const char *what, int ok)
{
    emit("{\"type\":\"check\",\"pid\":%d,\"tid\":%d,\"name\":%s,\"ok\":%s}", (int)getpid(), (int)gettid(), js(what), ok ? "true" : "false");
}

static uint64_t register_schema(const char *name, uint64_t type, const nvtxPayloadSchemaEntry_t *entries, size_t n,
                                size_t static_size, size_t pack, uint64_t static_id, uint64_t flags)
{
    nvtxPayloadSchemaAttr_t a;
    memset(&a, 0, sizeof a);
    a.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                  NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS;
    a.name = name;
    a.type = type;
    a.flags = flags;
    a.entries = entries;
    a.numEntries = n;
    if (static_size) {
        a.fieldMask |= NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
        a.payloadStaticSize = static_size;
    }
    if (pack) {
        a.fieldMask |= NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ALIGNMENT;
        a.packAlign = pack;
    }
    if (static_id) {
        a.fieldMask |= NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID;
        a.schemaId = static_id;
    }
    return nvtxPayloadSchemaRegister(dom, &a);
}

/* ---------------------------------------------------------------- the structs */

enum mode { MODE_SLOW = 0, MODE_FAST = 1, MODE_TURBO = 7 };
enum perm { PERM_READ = 1, PERM_WRITE = 2, PERM_EXEC = 4 };

struct scalars {
    char c;
    unsigned char uc;
    short s;
    unsigned short us;
    int i;
    unsigned int ui;
    long l;
    unsigned long ul;
    long long ll;
    unsigned long long ull;
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f;
    double d;
    long double ld;
    size_t sz;
    void *addr;
    wchar_t wc;
    uint8_t c8;
    uint16_t c16;
    uint32_t c32;
    uint8_t byte;
    __int128 i128;
    unsigned __int128 u128;
    _Float16 f16;
    float f32;
    double f64;
    __float128 f128;
    uint16_t bf16;
    uint32_t tf32;
    uint32_t category;
    uint32_t color;
    uint64_t scope;
    uint32_t pid32;
    uint64_t pid64;
    uint32_t tid32;
    uint64_t tid64;
    nvtxStringHandle_t regstr;
};

#pragma pack(push, 1)
struct packed1 {
    char a;
    int64_t b;
    short c;
    double d;
};
#pragma pack(pop)

#pragma pack(push, 2)
struct packed2 {
    char a;
    int64_t b;
    char c;
    int32_t d;
};
#pragma pack(pop)

struct inner {
    int16_t x;
    double y;
};

struct outer {
    uint8_t tag;
    struct inner one;
    struct inner two[2];
    int32_t mode; /* enum mode */
    uint32_t perms; /* enum perm flags */
    char name[12];
    float grid[6];
};

union number {
    int32_t i;
    double d;
    char s[8];
};

struct tagged {
    int32_t kind; /* the member's entry index in union number */
    union number value;
};

struct circle {
    double r;
};
struct rect {
    float w, h;
};
struct shape {
    uint32_t which; /* entry index of the member in the union schema */
    union {
        struct circle c;
        struct rect r;
    } u;
};

struct withptr {
    const char *label;
    const int32_t *vals; /* 4 values, DEEP_COPY */
    const struct inner *pin; /* DEEP_COPY */
    const wchar_t *wlabel;
    uint32_t count;
    const uint16_t *series; /* `count` values, DEEP_COPY */
};

struct message {
    const char *text; /* EVENT_MESSAGE */
    uint32_t color;
    uint32_t category;
    int64_t value;
    int32_t secret; /* HIDE */
};

struct reftext {
    uint32_t id;
    const char *text; /* points into a REFERENCED payload of the same event */
};

/* ---------------------------------------------------------------- schemas */

static uint64_t s_scalars, s_packed1, s_packed2, s_inner, s_outer, s_number, s_tagged, s_circle, s_rect, s_shape_union,
    s_dynamic, s_withptr, s_message, s_reftext, e_mode, e_perm;

static uint64_t register_enum(const char *name, const nvtxPayloadEnum_t *entries, size_t n, size_t size, uint64_t static_id)
{
    nvtxPayloadEnumAttr_t a;
    memset(&a, 0, sizeof a);
    a.fieldMask = NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME | NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES |
                  NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE;
    a.name = name;
    a.entries = entries;
    a.numEntries = n;
    a.sizeOfEnum = size;
    if (static_id) {
        a.fieldMask |= NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID;
        a.schemaId = static_id;
    }
    return nvtxPayloadEnumRegister(dom, &a);
}

static void register_all(void)
{
    static const nvtxPayloadEnum_t modes[] = {{"SLOW", MODE_SLOW, 0}, {"FAST", MODE_FAST, 0}, {"TURBO", MODE_TURBO, 0}};
    static const nvtxPayloadEnum_t perms[] = {{"READ", PERM_READ, 1}, {"WRITE", PERM_WRITE, 1}, {"EXEC", PERM_EXEC, 1}};
    e_mode = register_enum("mode", modes, 3, sizeof(enum mode), STATIC_ID(100));
    e_perm = register_enum("perm", perms, 3, 4, 0);
    check("enum with a static id gets it", e_mode == STATIC_ID(100));
    check("enum without an id gets a generated one", e_perm >= NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START);
    check("enum of size 3 is refused", register_enum("bad", modes, 3, 3, 0) == 0);

    /* Every scalar type, offsets left to the natural-alignment rule (only the first is explicit). */
    static const nvtxPayloadSchemaEntry_t scalars[] = {
        {0, T(CHAR), "c"},         {0, T(UCHAR), "uc"},     {0, T(SHORT), "s"},       {0, T(USHORT), "us"},
        {0, T(INT), "i"},          {0, T(UINT), "ui"},      {0, T(LONG), "l"},        {0, T(ULONG), "ul"},
        {0, T(LONGLONG), "ll"},    {0, T(ULONGLONG), "ull"}, {0, T(INT8), "i8"},      {0, T(UINT8), "u8"},
        {0, T(INT16), "i16"},      {0, T(UINT16), "u16"},   {0, T(INT32), "i32"},     {0, T(UINT32), "u32"},
        {0, T(INT64), "i64"},      {0, T(UINT64), "u64"},   {0, T(FLOAT), "f"},       {0, T(DOUBLE), "d"},
        {0, T(LONGDOUBLE), "ld"},  {0, T(SIZE), "sz"},      {0, T(ADDRESS), "addr"},  {0, T(WCHAR), "wc"},
        {0, T(CHAR8), "c8"},       {0, T(CHAR16), "c16"},   {0, T(CHAR32), "c32"},    {0, T(BYTE), "byte"},
        {0, T(INT128), "i128"},    {0, T(UINT128), "u128"}, {0, T(FLOAT16), "f16"},   {0, T(FLOAT32), "f32"},
        {0, T(FLOAT64), "f64"},    {0, T(FLOAT128), "f128"}, {0, T(BF16), "bf16"},    {0, T(TF32), "tf32"},
        {0, T(CATEGORY), "category"}, {0, T(COLOR_ARGB), "color"}, {0, T(SCOPE_ID), "scope"}, {0, T(PID_UINT32), "pid32"},
        {0, T(PID_UINT64), "pid64"}, {0, T(TID_UINT32), "tid32"}, {0, T(TID_UINT64), "tid64"},
        {0, T(NVTX_REGISTERED_STRING_HANDLE), "regstr"},
    };
    s_scalars = register_schema("scalars", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, scalars, sizeof scalars / sizeof scalars[0], 0, 0, STATIC_ID(1), 0);
    check("static schema id honoured", s_scalars == STATIC_ID(1));
    check("duplicate static schema id refused",
          register_schema("again", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, scalars, 2, 0, 0, STATIC_ID(1), 0) == 0);
    check("duplicate of an enum's static id refused",
          register_schema("again", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, scalars, 2, 0, 0, STATIC_ID(100), 0) == 0);
    check("static id below 2^24 refused", register_schema("low", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, scalars, 2, 0, 0, 5, 0) == 0);
    static const nvtxPayloadSchemaEntry_t invalid_type[] = {{0, T(INT32), "ok"}, {0, 0, "type 0"}};
    check("entry type 0 refused", register_schema("bad", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, invalid_type, 2, 0, 0, 0, 0) == 0);
    static const nvtxPayloadSchemaEntry_t varlen[] = {{0, T(UINT32), "n"}, {F(ARRAY_LENGTH_INDEX), T(INT32), "v", NULL, 0}};
    check("variable-length embedded array in a static schema refused",
          register_schema("bad", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, varlen, 2, 0, 0, 0, 0) == 0);
    static const nvtxPayloadSchemaEntry_t no_selector[] = {{0, T(INT32), "a"}, {0, T(DOUBLE), "b"}};
    check("union with internal selector but no selector refused",
          register_schema("bad", NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR, no_selector, 2, 0, 0, 0, 0) == 0);
    static const nvtxPayloadSchemaEntry_t unknown_nested[] = {{0, STATIC_ID(999), "nested"}};
    check("entry of an unregistered schema refused", register_schema("bad", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, unknown_nested, 1, 0, 0, 0, 0) == 0);
    check("no entries refused", register_schema("bad", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, scalars, 0, 0, 0, 0, 0) == 0);

    static const nvtxPayloadSchemaEntry_t p1[] = {{0, T(CHAR), "a"}, {0, T(INT64), "b"}, {0, T(SHORT), "c"}, {0, T(DOUBLE), "d"}};
    s_packed1 = register_schema("packed1", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, p1, 4, 0, 1, 0, 0);
    check("generated schema id", s_packed1 >= NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START);
    static const nvtxPayloadSchemaEntry_t p2[] = {{0, T(CHAR), "a"}, {0, T(INT64), "b"}, {0, T(CHAR), "c"}, {0, T(INT32), "d"}};
    s_packed2 = register_schema("packed2", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, p2, 4, sizeof(struct packed2), 2, 0, 0);

    static const nvtxPayloadSchemaEntry_t in[] = {{0, T(INT16), "x"}, {0, T(DOUBLE), "y"}};
    s_inner = register_schema("inner", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, in, 2, 0, 0, 0, 0);
    nvtxPayloadSchemaEntry_t out[] = {
        {0, T(UINT8), "tag"},
        {0, s_inner, "one", "a nested struct"},
        {F(ARRAY_FIXED_SIZE), s_inner, "two", NULL, 2},
        {0, e_mode, "mode"},
        {0, e_perm, "perms"},
        {0, T(CSTRING), "name", NULL, 12},
        {F(ARRAY_FIXED_SIZE), T(FLOAT), "grid", NULL, 6},
    };
    s_outer = register_schema("outer", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, out, 7, sizeof(struct outer), 0, 0, 0);

    static const nvtxPayloadSchemaEntry_t num[] = {{0, T(INT32), "i"}, {0, T(DOUBLE), "d"}, {0, T(CSTRING), "s", NULL, 8}};
    s_number = register_schema("number", NVTX_PAYLOAD_SCHEMA_TYPE_UNION, num, 3, 0, 0, 0, 0);
    nvtxPayloadSchemaEntry_t tag[] = {{0, T(INT32), "kind"}, {0, s_number, "value", NULL, 0 /* selector: entry 0 */}};
    s_tagged = register_schema("tagged", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, tag, 2, 0, 0, 0, 0);

    static const nvtxPayloadSchemaEntry_t circ[] = {{0, T(DOUBLE), "r"}};
    s_circle = register_schema("circle", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, circ, 1, 0, 0, 0, 0);
    static const nvtxPayloadSchemaEntry_t rec[] = {{0, T(FLOAT), "w"}, {0, T(FLOAT), "h"}};
    s_rect = register_schema("rect", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, rec, 2, 0, 0, 0, 0);
    nvtxPayloadSchemaEntry_t shp[] = {
        {0, T(UNION_SELECTOR), "which", NULL, 4, 0},
        {0, s_circle, "circle", NULL, 0, offsetof(struct shape, u)},
        {0, s_rect, "rect", NULL, 0, offsetof(struct shape, u)},
    };
    s_shape_union = register_schema("shape", NVTX_PAYLOAD_SCHEMA_TYPE_UNION_WITH_INTERNAL_SELECTOR, shp, 3, sizeof(struct shape), 0, 0, 0);

    /* Dynamic: n, int32 values[n], a zero-terminated string, m, float tail[m], a char * (copied). */
    static const nvtxPayloadSchemaEntry_t dyn[] = {
        {0, T(UINT32), "n"},
        {F(ARRAY_LENGTH_INDEX), T(INT32), "values", NULL, 0},
        {F(ARRAY_ZERO_TERMINATED), T(CSTRING_UTF8), "text"},
        {0, T(UINT16), "m"},
        {F(ARRAY_LENGTH_INDEX), T(FLOAT), "tail", NULL, 3},
        {0, T(CSTRING), "note"},
    };
    s_dynamic = register_schema("dynamic", NVTX_PAYLOAD_SCHEMA_TYPE_DYNAMIC, dyn, 6, 0, 0, 0, 0);

    nvtxPayloadSchemaEntry_t wp[] = {
        {0, T(CSTRING), "label"},
        {F(POINTER) | F(DEEP_COPY) | F(ARRAY_FIXED_SIZE), T(INT32), "vals", NULL, 4},
        {F(POINTER) | F(DEEP_COPY), s_inner, "pin"},
        {F(POINTER) | F(ARRAY_ZERO_TERMINATED), T(CSTRING_UTF32), "wlabel"},
        {0, T(UINT32), "count"},
        {F(POINTER) | F(DEEP_COPY) | F(ARRAY_LENGTH_INDEX), T(UINT16), "series", NULL, 4},
    };
    s_withptr = register_schema("withptr", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, wp, 6, 0, 0, 0, 0);

    static const nvtxPayloadSchemaEntry_t msg[] = {
        {F(EVENT_MESSAGE), T(CSTRING), "text"},
        {0, T(COLOR_ARGB), "color"},
        {0, T(CATEGORY), "category"},
        {0, T(INT64), "value"},
        {F(HIDE), T(INT32), "secret"},
    };
    s_message = register_schema("message", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, msg, 5, 0, 0, 0, 0);

    static const nvtxPayloadSchemaEntry_t rt[] = {{0, T(UINT32), "id"}, {F(POINTER) | F(ARRAY_ZERO_TERMINATED), T(CSTRING), "text"}};
    s_reftext = register_schema("reftext", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC, rt, 2, 0, 0, 0, 0);
    check("every valid schema registered", s_inner && s_outer && s_number && s_tagged && s_circle && s_rect && s_shape_union &&
                                               s_dynamic && s_withptr && s_message && s_reftext && s_packed2);
}

/* ---------------------------------------------------------------- events and their JSON */

static void begin_line(const char *name, const char *layout)
{
    jb.n = 0;
    jb.depth = 0;
    jb.need_comma[0] = 0;
    jb_open(&jb, "{");
    KV_STR(&jb, "type", "payload");
    KV_INT(&jb, "pid", getpid());
    KV_INT(&jb, "tid", gettid());
    KV_STR(&jb, "name", name);
    KV_STR(&jb, "layout", layout);
}

static void end_line(void)
{
    jb_close(&jb, "}");
    jb_emit(&jb);
}

/* "payloads": [ {…}, … ]: one object per payload (REFERENCED ones are not shown), then "end": [ … ]. */
static void list_open(const char *key)
{
    jb_key(&jb, key);
    jb_open(&jb, "[");
}

static void list_close(void)
{
    jb_close(&jb, "]");
}

static void obj_open(void)
{
    jb_value_start(&jb, 1);
    jb_open(&jb, "{");
}

static void obj_close(void)
{
    jb_close(&jb, "}");
}

/* The fields of a `struct message` payload. */
static void message_fields(const struct message *m)
{
    KV_STR(&jb, "text", m->text);
    jb_key(&jb, "color");
    jb_color(&jb, m->color);
    KV_UINT(&jb, "category", m->category);
    KV_INT(&jb, "value", m->value);
    KV_INT(&jb, "secret", m->secret);
}

static nvtxPayloadData_t data(uint64_t schema, const void *p, size_t size)
{
    nvtxPayloadData_t d = {schema, size, p};
    return d;
}

static void inner_json(const struct inner *in)
{
    jb_open(&jb, "{");
    KV_INT(&jb, "x", in->x);
    KV_DBL(&jb, "y", in->y);
    jb_close(&jb, "}");
}

static void mark_scalars(nvtxStringHandle_t regstr)
{
    static long double ld = 1.0L / 3.0L;
    struct scalars v;
    memset(&v, 0, sizeof v);
    v.c = -5;
    v.uc = 250;
    v.s = -32000;
    v.us = 65000;
    v.i = -2000000000;
    v.ui = 4000000000u;
    v.l = -9007199254740993L; /* beyond 2^53: a decimal string */
    v.ul = 123456789012ul;
    v.ll = -42;
    v.ull = 18446744073709551615ull;
    v.i8 = -128;
    v.u8 = 255;
    v.i16 = -1234;
    v.u16 = 54321;
    v.i32 = -123456;
    v.u32 = 3000000000u;
    v.i64 = -1099511627776LL;
    v.u64 = 9007199254740993ull;
    v.f = 1.1f;
    v.d = -2.5e-300;
    v.ld = ld;
    v.sz = 4096;
    v.addr = (void *)(uintptr_t)0x7ffdeadbeef0ull;
    v.wc = L'é';
    v.c8 = 'A';
    v.c16 = 0x03A9; /* Ω */
    v.c32 = 0x1F680; /* 🚀 */
    v.byte = 0xAB;
    v.i128 = -((__int128)1 << 100);
    v.u128 = ((unsigned __int128)1 << 127) + 5;
    v.f16 = (_Float16)1.5f;
    v.f32 = 0.1f;
    v.f64 = 6.02214076e23;
    v.f128 = (__float128)1 / 7;
    float bf = -2.75f;
    uint32_t bits;
    memcpy(&bits, &bf, 4);
    v.bf16 = (uint16_t)(bits >> 16);
    float tf = 1.2345678f;
    memcpy(&v.tf32, &tf, 4);
    v.category = 7;
    v.color = 0xFF336699u;
    v.scope = 0x1234;
    v.pid32 = 4242;
    v.pid64 = 1ull << 40;
    v.tid32 = 77;
    v.tid64 = 88;
    v.regstr = regstr;

    static const struct message m = {"scalars mark", 0xFF102030u, 3, 1, 9};
    nvtxPayloadData_t pd[] = {data(s_message, &m, sizeof m), data(s_scalars, &v, sizeof v)};
    nvtxMarkPayload(dom, pd, 2);
    calls++;

    begin_line("scalars mark", "mark");
    /* The scalars' own category and color come after the message payload's: they win. */
    KV_UINT(&jb, "category", v.category);
    KV_UINT(&jb, "color", v.color);
    list_open("payloads");
    obj_open();
    message_fields(&m);
    obj_close();
    obj_open();
    KV_INT(&jb, "c", v.c);
    KV_UINT(&jb, "uc", v.uc);
    KV_INT(&jb, "s", v.s);
    KV_UINT(&jb, "us", v.us);
    KV_INT(&jb, "i", v.i);
    KV_UINT(&jb, "ui", v.ui);
    KV_INT(&jb, "l", v.l);
    KV_UINT(&jb, "ul", v.ul);
    KV_INT(&jb, "ll", v.ll);
    KV_UINT(&jb, "ull", v.ull);
    KV_INT(&jb, "i8", v.i8);
    KV_UINT(&jb, "u8", v.u8);
    KV_INT(&jb, "i16", v.i16);
    KV_UINT(&jb, "u16", v.u16);
    KV_INT(&jb, "i32", v.i32);
    KV_UINT(&jb, "u32", v.u32);
    KV_INT(&jb, "i64", v.i64);
    KV_UINT(&jb, "u64", v.u64);
    KV_DBL(&jb, "f", v.f);
    KV_DBL(&jb, "d", v.d);
    KV_DBL(&jb, "ld", (double)v.ld);
    KV_UINT(&jb, "sz", v.sz);
    KV_HEX(&jb, "addr", (uintptr_t)v.addr);
    jb_key(&jb, "wc");
    jb_char(&jb, (uint32_t)v.wc);
    jb_key(&jb, "c8");
    jb_char(&jb, v.c8);
    jb_key(&jb, "c16");
    jb_char(&jb, v.c16);
    jb_key(&jb, "c32");
    jb_char(&jb, v.c32);
    KV_HEX(&jb, "byte", v.byte);
    jb_key(&jb, "i128");
    jb_i128(&jb, v.i128);
    jb_key(&jb, "u128");
    jb_u128(&jb, v.u128, 0);
    KV_DBL(&jb, "f16", (float)v.f16);
    KV_DBL(&jb, "f32", v.f32);
    KV_DBL(&jb, "f64", v.f64);
    KV_DBL(&jb, "f128", (double)v.f128);
    KV_DBL(&jb, "bf16", bf);
    uint32_t tfbits = v.tf32 & ~0x1FFFu; /* TF32 keeps 10 mantissa bits */
    float tfv;
    memcpy(&tfv, &tfbits, 4);
    KV_DBL(&jb, "tf32", tfv);
    KV_UINT(&jb, "category", v.category);
    jb_key(&jb, "color");
    jb_color(&jb, v.color);
    KV_UINT(&jb, "scope", v.scope);
    KV_UINT(&jb, "pid32", v.pid32);
    KV_UINT(&jb, "pid64", v.pid64);
    KV_UINT(&jb, "tid32", v.tid32);
    KV_UINT(&jb, "tid64", v.tid64);
    KV_STR(&jb, "regstr", "registered text");
    obj_close();
    list_close();
    end_line();
}

static void push_pop_nested(void)
{
    struct outer o;
    memset(&o, 0, sizeof o);
    o.tag = 9;
    o.one = (struct inner){-3, 0.25};
    o.two[0] = (struct inner){100, -1.5};
    o.two[1] = (struct inner){200, 1e10};
    o.mode = MODE_TURBO;
    o.perms = PERM_READ | PERM_EXEC;
    strcpy(o.name, "nested");
    for (int k = 0; k < 6; k++) o.grid[k] = (float)k * 0.5f;
    static const struct message push_msg = {"push message", 0xFF00AA00u, 0, 10, 0};
    static const struct message pop_msg = {"renamed at pop", 0xFFAA0000u, 0, 11, 1};
    nvtxPayloadData_t pd[] = {data(s_message, &push_msg, sizeof push_msg), data(s_outer, &o, sizeof o)};
    int level = nvtxRangePushPayload(dom, pd, 2);
    nvtxPayloadData_t popd[] = {data(s_message, &pop_msg, sizeof pop_msg)};
    int popped = nvtxRangePopPayload(dom, popd, 1);
    calls += 2;
    check("push payload returns level 0, pop returns 0", level == 0 && popped == 0);

    begin_line("renamed at pop", "pushpop");
    KV_UINT(&jb, "color", pop_msg.color);
    list_open("payloads");
    obj_open();
    message_fields(&push_msg);
    obj_close();
    obj_open();
    KV_UINT(&jb, "tag", o.tag);
    jb_key(&jb, "one");
    inner_json(&o.one);
    jb_key(&jb, "two");
    jb_open(&jb, "[");
    for (int k = 0; k < 2; k++) {
        jb_value_start(&jb, 1);
        inner_json(&o.two[k]);
    }
    jb_close(&jb, "]");
    KV_STR(&jb, "mode", "TURBO");
    KV_STR(&jb, "perms", "READ | EXEC");
    KV_STR(&jb, "name", o.name);
    jb_key(&jb, "grid");
    jb_open(&jb, "[");
    for (int k = 0; k < 6; k++) {
        jb_value_start(&jb, 1);
        jb_double(&jb, o.grid[k]);
    }
    jb_close(&jb, "]");
    obj_close();
    list_close();
    list_open("end");
    obj_open();
    message_fields(&pop_msg);
    obj_close();
    list_close();
    end_line();
}

static void start_end_packed(void)
{
    struct packed1 p1 = {'x', -77, 513, 3.75};
    struct packed2 p2 = {'y', 1ll << 40, 'z', -9};
    static const struct message start_msg = {"start message", 0xFF0000FFu, 5, 20, 0};
    static const struct message end_msg = {"renamed at end", 0, 5, 21, 0};
    nvtxPayloadData_t pd[] = {data(s_message, &start_msg, sizeof start_msg), data(s_packed1, &p1, sizeof p1),
                              data(s_packed2, &p2, sizeof p2)};
    nvtxRangeId_t id = nvtxRangeStartPayload(dom, pd, 3);
    nvtxPayloadData_t endd[] = {data(s_message, &end_msg, sizeof end_msg)};
    nvtxRangeEndPayload(dom, id, endd, 1);
    calls += 2;
    check("start payload returns a range id", id != 0);

    begin_line("renamed at end", "startend");
    KV_UINT(&jb, "category", 5);
    /* The end message has color 0: a color entry still gives a color (0), after the start's. */
    KV_UINT(&jb, "color", end_msg.color);
    list_open("payloads");
    obj_open();
    message_fields(&start_msg);
    obj_close();
    obj_open();
    KV_INT(&jb, "a", p1.a);
    KV_INT(&jb, "b", p1.b);
    KV_INT(&jb, "c", p1.c);
    KV_DBL(&jb, "d", p1.d);
    obj_close();
    obj_open();
    KV_INT(&jb, "a", p2.a);
    KV_INT(&jb, "b", p2.b);
    KV_INT(&jb, "c", p2.c);
    KV_INT(&jb, "d", p2.d);
    obj_close();
    list_close();
    list_open("end");
    obj_open();
    message_fields(&end_msg);
    obj_close();
    list_close();
    end_line();
}

static void core_event_with_payloads(void)
{
    struct tagged t1 = {1, {.d = 2.718281828}};
    static const struct message m = {"message from the payload", 0xFF445566u, 0, 30, 0};
    nvtxPayloadData_t pd[] = {data(s_tagged, &t1, sizeof t1), data(s_message, &m, sizeof m)};
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "core message";
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFFFFFFFFu;
    a.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    a.reserved0 = 2;
    a.payload.ullValue = (uint64_t)(uintptr_t)pd;
    nvtxDomainMarkEx(dom, &a);
    calls++;

    begin_line("message from the payload", "mark");
    KV_UINT(&jb, "color", m.color);
    list_open("payloads");
    obj_open();
    KV_INT(&jb, "kind", t1.kind);
    jb_key(&jb, "value");
    jb_open(&jb, "{");
    KV_DBL(&jb, "d", t1.value.d);
    jb_close(&jb, "}");
    obj_close();
    obj_open();
    message_fields(&m);
    obj_close();
    list_close();
    end_line();

    /* The other members of the union, chosen by the external selector. */
    struct tagged t0 = {0, {.i = -31337}};
    struct tagged t2 = {2, {.s = "abc"}};
    static const struct message m2 = {"union members", 0, 0, 31, 0};
    nvtxPayloadData_t pd2[] = {data(s_message, &m2, sizeof m2), data(s_tagged, &t0, sizeof t0), data(s_tagged, &t2, sizeof t2)};
    nvtxMarkPayload(dom, pd2, 3);
    calls++;
    begin_line("union members", "mark");
    list_open("payloads");
    obj_open();
    message_fields(&m2);
    obj_close();
    obj_open();
    KV_INT(&jb, "kind", t0.kind);
    jb_key(&jb, "value");
    jb_open(&jb, "{");
    KV_INT(&jb, "i", t0.value.i);
    jb_close(&jb, "}");
    obj_close();
    obj_open();
    KV_INT(&jb, "kind", t2.kind);
    jb_key(&jb, "value");
    jb_open(&jb, "{");
    KV_STR(&jb, "s", t2.value.s);
    jb_close(&jb, "}");
    obj_close();
    list_close();
    end_line();
}

static void shapes(void)
{
    struct shape c, r;
    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    c.which = 1;
    c.u.c.r = 0.5;
    r.which = 2;
    r.u.r.w = 3;
    r.u.r.h = 4.5f;
    static const struct message m = {"shapes", 0, 0, 40, 0};
    nvtxPayloadData_t pd[] = {data(s_message, &m, sizeof m), data(s_shape_union, &c, sizeof c), data(s_shape_union, &r, sizeof r)};
    nvtxMarkPayload(dom, pd, 3);
    calls++;
    begin_line("shapes", "mark");
    list_open("payloads");
    obj_open();
    message_fields(&m);
    obj_close();
    obj_open();
    KV_UINT(&jb, "which", c.which);
    jb_key(&jb, "circle");
    jb_open(&jb, "{");
    KV_DBL(&jb, "r", c.u.c.r);
    jb_close(&jb, "}");
    obj_close();
    obj_open();
    KV_UINT(&jb, "which", r.which);
    jb_key(&jb, "rect");
    jb_open(&jb, "{");
    KV_DBL(&jb, "w", r.u.r.w);
    KV_DBL(&jb, "h", r.u.r.h);
    jb_close(&jb, "}");
    obj_close();
    list_close();
    end_line();
}

/* Appends `n` bytes at the cursor aligned to `align` (the dynamic layout's running cursor). */
static size_t put(uint8_t *buf, size_t at, const void *p, size_t n, size_t align)
{
    at = (at + align - 1) / align * align;
    memcpy(buf + at, p, n);
    return at + n;
}

static void dynamic_layout(void)
{
    static const char note[] = "a note behind a pointer";
    uint8_t buf[256];
    memset(buf, 0, sizeof buf);
    uint32_t n = 3;
    int32_t values[3] = {-1, 0, 65536};
    const char *text = "dynamic ✓";
    uint16_t m = 2;
    float tail[2] = {0.125f, -8};
    const char *notep = note;
    size_t at = 0;
    at = put(buf, at, &n, 4, 4);
    at = put(buf, at, values, sizeof values, 4);
    at = put(buf, at, text, strlen(text) + 1, 1);
    at = put(buf, at, &m, 2, 2);
    at = put(buf, at, tail, sizeof tail, 4);
    at = put(buf, at, &notep, sizeof notep, 8);
    static const struct message msg = {"dynamic", 0, 0, 50, 0};
    nvtxPayloadData_t pd[] = {data(s_message, &msg, sizeof msg), data(s_dynamic, buf, at)};
    nvtxMarkPayload(dom, pd, 2);
    calls++;
    begin_line("dynamic", "mark");
    list_open("payloads");
    obj_open();
    message_fields(&msg);
    obj_close();
    obj_open();
    KV_UINT(&jb, "n", n);
    jb_key(&jb, "values");
    jb_open(&jb, "[");
    for (uint32_t k = 0; k < n; k++) {
        jb_value_start(&jb, 1);
        jb_int(&jb, values[k]);
    }
    jb_close(&jb, "]");
    KV_STR(&jb, "text", text);
    KV_UINT(&jb, "m", m);
    jb_key(&jb, "tail");
    jb_open(&jb, "[");
    for (uint16_t k = 0; k < m; k++) {
        jb_value_start(&jb, 1);
        jb_double(&jb, tail[k]);
    }
    jb_close(&jb, "]");
    KV_STR(&jb, "note", note);
    obj_close();
    list_close();
    end_line();
}

static void deep_copies(void)
{
    char *label = strdup("label on the heap");
    int32_t *vals = malloc(4 * sizeof *vals);
    for (int k = 0; k < 4; k++) vals[k] = (k + 1) * 1000;
    struct inner *pin = malloc(sizeof *pin);
    *pin = (struct inner){12, 34.5};
    static const wchar_t wlabel[] = L"wide ünïcode";
    uint16_t series[5] = {1, 1, 2, 3, 5};
    struct withptr w = {label, vals, pin, wlabel, 5, series};
    static const struct message msg = {"deep copies", 0, 0, 60, 0};
    nvtxPayloadData_t pd[] = {data(s_message, &msg, sizeof msg), data(s_withptr, &w, sizeof w)};
    nvtxMarkPayload(dom, pd, 2);
    calls++;
    begin_line("deep copies", "mark");
    list_open("payloads");
    obj_open();
    message_fields(&msg);
    obj_close();
    obj_open();
    KV_STR(&jb, "label", label);
    jb_key(&jb, "vals");
    jb_open(&jb, "[");
    for (int k = 0; k < 4; k++) {
        jb_value_start(&jb, 1);
        jb_int(&jb, vals[k]);
    }
    jb_close(&jb, "]");
    jb_key(&jb, "pin");
    inner_json(pin);
    KV_STR(&jb, "wlabel", "wide ünïcode");
    KV_UINT(&jb, "count", 5);
    jb_key(&jb, "series");
    jb_open(&jb, "[");
    for (int k = 0; k < 5; k++) {
        jb_value_start(&jb, 1);
        jb_uint(&jb, series[k]);
    }
    jb_close(&jb, "]");
    obj_close();
    list_close();
    end_line();
    /* Overwrite and free: only the copies taken during the call can show the values. */
    memset(label, 'X', strlen(label));
    free(label);
    memset(vals, 0, 4 * sizeof *vals);
    free(vals);
    free(pin);
    memset(series, 0, sizeof series);
}

static void referenced_and_strings(void)
{
    char blob[32] = "text in a sibling";
    struct reftext rt = {5, blob};
    static const struct message msg = {"referenced", 0, 0, 70, 0};
    const char *loose = "a C string of unknown size";
    nvtxPayloadData_t pd[] = {data(s_message, &msg, sizeof msg), data(s_reftext, &rt, sizeof rt),
                              data(NVTX_TYPE_PAYLOAD_SCHEMA_REFERENCED, blob, sizeof blob), data(T(CSTRING), loose, SIZE_MAX)};
    nvtxMarkPayload(dom, pd, 4);
    calls++;
    begin_line("referenced", "mark");
    list_open("payloads");
    obj_open();
    message_fields(&msg);
    obj_close();
    obj_open();
    KV_UINT(&jb, "id", rt.id);
    KV_STR(&jb, "text", blob);
    obj_close();
    /* A payload of a predefined type is one field named after the type. */
    obj_open();
    KV_STR(&jb, "char string", loose);
    obj_close();
    list_close();
    end_line();
}

int main(void)
{
    dom = nvtxDomainCreateA("payloads");
    nvtxStringHandle_t regstr = nvtxDomainRegisterStringA(dom, "registered text");
    check("domain is enabled", nvtxDomainIsEnabled(dom) > 0);
    register_all();
    mark_scalars(regstr);
    push_pop_nested();
    start_end_packed();
    core_event_with_payloads();
    shapes();
    dynamic_layout();
    deep_copies();
    referenced_and_strings();
    emit_events(calls);
    return 0;
}
