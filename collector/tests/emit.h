/*
 * Test programs print, one JSON object per line, what they asked NVTX to record; the vitest suite
 * (collector/tests/collector.test.ts) compares that with the decoded capture. Each line is written
 * with one write(2), so lines from several threads and shared objects never interleave.
 *
 * Line types:
 *   {"type":"range","layout":"pushpop","pid","tid","domain","name","depth","parent","category","color","payload"}
 *   {"type":"range","layout":"startend","pid","tid","endTid","domain","name","category","color","payload"}
 *   {"type":"mark","pid","tid","domain","name","category","color","payload"}
 *   {"type":"thread","pid","tid","name"}        the name the thread must end up with
 *   {"type":"category","pid","domain","id","name"}
 *   {"type":"resource","pid","kind","handle","name"}
 *   {"type":"sync","pid","tid","object","name"}   one acquire / held / acquire failed range
 *   {"type":"events","pid","count"}             NVTX event calls made (for the event total)
 * payload: null or {"type":"u64"|"i64"|"f64"|"u32"|"i32"|"f32","value":"<decimal>"}.
 */
#ifndef NVTXC_TEST_EMIT_H
#define NVTXC_TEST_EMIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EMIT_FN static __attribute__((unused))

/* A JSON string literal of s (UTF-8), in one of a few rotating buffers. */
EMIT_FN const char *js(const char *s)
{
    static __thread char bufs[8][1024];
    static __thread int next;
    char *out = bufs[next++ & 7];
    size_t o = 0;
    if (!s) {
        strcpy(out, "null");
        return out;
    }
    out[o++] = '"';
    for (; *s && o < 1000; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20) {
            o += (size_t)snprintf(out + o, 8, "\\u%04x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o++] = '"';
    out[o] = 0;
    return out;
}

EMIT_FN void emit(const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t ignored = write(STDOUT_FILENO, line, (size_t)n);
    (void)ignored;
}

/* Payload JSON (rotating buffers). */
EMIT_FN const char *pay(const char *type, const char *value)
{
    static __thread char bufs[8][128];
    static __thread int next;
    char *out = bufs[next++ & 7];
    snprintf(out, 128, "{\"type\":\"%s\",\"value\":\"%s\"}", type, value);
    return out;
}
EMIT_FN const char *pay_u64(uint64_t v) { char b[32]; snprintf(b, sizeof b, "%llu", (unsigned long long)v); return pay("u64", b); }
EMIT_FN const char *pay_i64(int64_t v) { char b[32]; snprintf(b, sizeof b, "%lld", (long long)v); return pay("i64", b); }
EMIT_FN const char *pay_u32(uint32_t v) { char b[32]; snprintf(b, sizeof b, "%u", v); return pay("u32", b); }
EMIT_FN const char *pay_i32(int32_t v) { char b[32]; snprintf(b, sizeof b, "%d", v); return pay("i32", b); }
EMIT_FN const char *pay_f64(double v) { char b[40]; snprintf(b, sizeof b, "%.17g", v); return pay("f64", b); }
EMIT_FN const char *pay_f32(float v) { char b[40]; snprintf(b, sizeof b, "%.17g", (double)v); return pay("f32", b); }

EMIT_FN void emit_pushpop(const char *domain, const char *name, int depth, const char *parent, uint32_t category,
                         uint32_t color, const char *payload)
{
    emit("{\"type\":\"range\",\"layout\":\"pushpop\",\"pid\":%d,\"tid\":%d,\"domain\":%s,\"name\":%s,\"depth\":%d,"
         "\"parent\":%s,\"category\":%u,\"color\":%u,\"payload\":%s}",
         (int)getpid(), (int)gettid(), js(domain), js(name), depth, js(parent), category, color,
         payload ? payload : "null");
}

EMIT_FN void emit_startend(int tid, int end_tid, const char *domain, const char *name, uint32_t category, uint32_t color,
                          const char *payload)
{
    emit("{\"type\":\"range\",\"layout\":\"startend\",\"pid\":%d,\"tid\":%d,\"endTid\":%d,\"domain\":%s,\"name\":%s,"
         "\"category\":%u,\"color\":%u,\"payload\":%s}",
         (int)getpid(), tid, end_tid, js(domain), js(name), category, color, payload ? payload : "null");
}

EMIT_FN void emit_mark(const char *domain, const char *name, uint32_t category, uint32_t color, const char *payload)
{
    emit("{\"type\":\"mark\",\"pid\":%d,\"tid\":%d,\"domain\":%s,\"name\":%s,\"category\":%u,\"color\":%u,\"payload\":%s}",
         (int)getpid(), (int)gettid(), js(domain), js(name), category, color, payload ? payload : "null");
}

EMIT_FN void emit_thread(int tid, const char *name)
{
    emit("{\"type\":\"thread\",\"pid\":%d,\"tid\":%d,\"name\":%s}", (int)getpid(), tid, js(name));
}

EMIT_FN void emit_category(const char *domain, uint32_t id, const char *name)
{
    emit("{\"type\":\"category\",\"pid\":%d,\"domain\":%s,\"id\":%u,\"name\":%s}", (int)getpid(), js(domain), id, js(name));
}

EMIT_FN void emit_resource(const char *kind, const char *handle, const char *name)
{
    emit("{\"type\":\"resource\",\"pid\":%d,\"kind\":%s,\"handle\":%s,\"name\":%s}", (int)getpid(), js(kind), js(handle),
         js(name));
}

EMIT_FN void emit_sync(const char *object, const char *name)
{
    emit("{\"type\":\"sync\",\"pid\":%d,\"tid\":%d,\"object\":%s,\"name\":%s}", (int)getpid(), (int)gettid(), js(object),
         js(name));
}

EMIT_FN void emit_events(long count)
{
    emit("{\"type\":\"events\",\"pid\":%d,\"count\":%ld}", (int)getpid(), count);
}

#endif
