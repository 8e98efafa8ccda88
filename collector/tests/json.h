/*
 * Building the JSON the payload tests print: the values a program passed, written the way the
 * viewer prints decoded payloads (src/payload/payloadText.ts): integers beyond 2^53 as decimal strings,
 * addresses and bytes as "0x…" hex, colors as "0xAARRGGBB" (lowercase), non-finite numbers as
 * strings, enums by name, arrays as arrays, nested schemas as objects.
 */
#ifndef NVTXC_TEST_JSON_H
#define NVTXC_TEST_JSON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define JSON_FN static __attribute__((unused))

struct jbuf {
    char s[1 << 16];
    size_t n;
    int need_comma[64];
    int depth;
};

JSON_FN void jb_raw(struct jbuf *b, const char *text)
{
    size_t k = strlen(text);
    if (b->n + k >= sizeof b->s) k = sizeof b->s - 1 - b->n;
    memcpy(b->s + b->n, text, k);
    b->n += k;
    b->s[b->n] = 0;
}

JSON_FN void jb_sep(struct jbuf *b)
{
    if (b->need_comma[b->depth]) jb_raw(b, ",");
    b->need_comma[b->depth] = 1;
}

JSON_FN void jb_escaped(struct jbuf *b, const char *s)
{
    jb_raw(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char tmp[8];
        if (c == '"' || c == '\\') {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            tmp[2] = 0;
        } else if (c < 0x20) {
            snprintf(tmp, sizeof tmp, "\\u%04x", c);
        } else {
            tmp[0] = (char)c;
            tmp[1] = 0;
        }
        jb_raw(b, tmp);
    }
    jb_raw(b, "\"");
}

/* A key inside an object (call before the value). */
JSON_FN void jb_key(struct jbuf *b, const char *key)
{
    jb_sep(b);
    jb_escaped(b, key);
    jb_raw(b, ":");
    b->need_comma[b->depth] = 1;
    b->need_comma[b->depth + 1] = 0;
}

/* Values: after jb_key in objects; in arrays they add their own separator. */
JSON_FN void jb_value_start(struct jbuf *b, int in_array)
{
    if (in_array) jb_sep(b);
}

JSON_FN void jb_open(struct jbuf *b, const char *bracket)
{
    jb_raw(b, bracket);
    b->depth++;
    b->need_comma[b->depth] = 0;
}

JSON_FN void jb_close(struct jbuf *b, const char *bracket)
{
    b->depth--;
    jb_raw(b, bracket);
}

#define SAFE_MAX 9007199254740991LL

JSON_FN void jb_int(struct jbuf *b, long long v)
{
    char tmp[48];
    if (v > SAFE_MAX || v < -SAFE_MAX) snprintf(tmp, sizeof tmp, "\"%lld\"", v);
    else snprintf(tmp, sizeof tmp, "%lld", v);
    jb_raw(b, tmp);
}

JSON_FN void jb_uint(struct jbuf *b, unsigned long long v)
{
    char tmp[48];
    if (v > (unsigned long long)SAFE_MAX) snprintf(tmp, sizeof tmp, "\"%llu\"", v);
    else snprintf(tmp, sizeof tmp, "%llu", v);
    jb_raw(b, tmp);
}

JSON_FN void jb_u128(struct jbuf *b, unsigned __int128 v, int negative)
{
    char digits[48];
    int k = 0;
    do {
        digits[k++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    char tmp[52];
    int o = 0;
    tmp[o++] = '"';
    if (negative) tmp[o++] = '-';
    while (k) tmp[o++] = digits[--k];
    tmp[o++] = '"';
    tmp[o] = 0;
    jb_raw(b, tmp);
}

/* 128-bit integers in these tests are all beyond 2^53, so they print as strings. */
JSON_FN void jb_i128(struct jbuf *b, __int128 v)
{
    if (v < 0) jb_u128(b, (unsigned __int128)(-(v + 1)) + 1, 1);
    else jb_u128(b, (unsigned __int128)v, 0);
}

JSON_FN void jb_double(struct jbuf *b, double v)
{
    char tmp[48];
    if (isnan(v)) snprintf(tmp, sizeof tmp, "\"NaN\"");
    else if (isinf(v)) snprintf(tmp, sizeof tmp, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    else snprintf(tmp, sizeof tmp, "%.17g", v);
    jb_raw(b, tmp);
}

JSON_FN void jb_hex(struct jbuf *b, unsigned long long v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "\"0x%llx\"", v);
    jb_raw(b, tmp);
}

JSON_FN void jb_color(struct jbuf *b, uint32_t v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "\"0x%08x\"", v);
    jb_raw(b, tmp);
}

JSON_FN void jb_str(struct jbuf *b, const char *s)
{
    jb_escaped(b, s);
}

/* One Unicode code point as a JSON string. */
JSON_FN void jb_char(struct jbuf *b, uint32_t c)
{
    char u[5] = {0};
    if (c < 0x80) u[0] = (char)c;
    else if (c < 0x800) {
        u[0] = (char)(0xC0 | (c >> 6));
        u[1] = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        u[0] = (char)(0xE0 | (c >> 12));
        u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        u[2] = (char)(0x80 | (c & 0x3F));
    } else {
        u[0] = (char)(0xF0 | (c >> 18));
        u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3F));
        u[3] = (char)(0x80 | (c & 0x3F));
    }
    jb_escaped(b, u);
}

/* Key-value shorthands for objects. */
#define KV_INT(b, k, v) (jb_key(b, k), jb_int(b, (long long)(v)))
#define KV_UINT(b, k, v) (jb_key(b, k), jb_uint(b, (unsigned long long)(v)))
#define KV_DBL(b, k, v) (jb_key(b, k), jb_double(b, (double)(v)))
#define KV_HEX(b, k, v) (jb_key(b, k), jb_hex(b, (unsigned long long)(v)))
#define KV_STR(b, k, v) (jb_key(b, k), jb_str(b, v))

/* Writes one line (any length) with one write(2). */
JSON_FN void jb_emit(struct jbuf *b)
{
    jb_raw(b, "\n");
    ssize_t ignored = write(STDOUT_FILENO, b->s, b->n);
    (void)ignored;
    b->n = 0;
    b->depth = 0;
    b->need_comma[0] = 0;
}

#endif
