#include "text.h"

#include "guard.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "format.h"

size_t wide_to_utf8(const wchar_t *w, char *out, size_t cap, int *truncated)
{
    size_t o = 0;
    *truncated = 0;
    for (; *w; w++) {
        uint32_t c = (uint32_t)*w;
        if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
        char enc[4];
        size_t n;
        if (c < 0x80) {
            enc[0] = (char)c;
            n = 1;
        } else if (c < 0x800) {
            enc[0] = (char)(0xC0 | (c >> 6));
            enc[1] = (char)(0x80 | (c & 0x3F));
            n = 2;
        } else if (c < 0x10000) {
            enc[0] = (char)(0xE0 | (c >> 12));
            enc[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            enc[2] = (char)(0x80 | (c & 0x3F));
            n = 3;
        } else {
            enc[0] = (char)(0xF0 | (c >> 18));
            enc[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            enc[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            enc[3] = (char)(0x80 | (c & 0x3F));
            n = 4;
        }
        if (o + n > cap) {
            *truncated = 1;
            break;
        }
        memcpy(out + o, enc, n);
        o += n;
    }
    return o;
}

size_t utf8_cut(const char *s, size_t max)
{
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

struct text text_from_ascii(const char *s)
{
    struct text t = {NULL, 0};
    if (!s) {
        guard_note(GUARD_NULL_NAME, "a NULL string where NVTX wants a name (domain, registered string, category, "
                                    "thread, resource or sync object): recorded as empty");
        return t;
    }
    size_t n = strnlen(s, NVTXC_MAX_STRING + 1);
    if (n > NVTXC_MAX_STRING) {
        n = utf8_cut(s, NVTXC_MAX_STRING);
        atomic_fetch_add(&nvtxc_g.strings_truncated, 1);
    }
    t.s = malloc(n + 1);
    if (!t.s) return t;
    memcpy(t.s, s, n);
    t.n = n;
    return t;
}

struct text text_from_wide(const wchar_t *w)
{
    struct text t = {NULL, 0};
    if (!w) {
        guard_note(GUARD_NULL_NAME, "a NULL string where NVTX wants a name (domain, registered string, category, "
                                    "thread, resource or sync object): recorded as empty");
        return t;
    }
    t.s = malloc(NVTXC_MAX_STRING);
    if (!t.s) return t;
    int truncated;
    t.n = wide_to_utf8(w, t.s, NVTXC_MAX_STRING, &truncated);
    if (truncated) atomic_fetch_add(&nvtxc_g.strings_truncated, 1);
    return t;
}
