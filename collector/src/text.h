/* Text helpers: wide (UTF-32 wchar_t) to UTF-8, cutting UTF-8 at a character boundary. */
#ifndef NVTXC_TEXT_H
#define NVTXC_TEXT_H

#include <stddef.h>
#include <wchar.h>

/* Converts up to `cap` bytes of UTF-8; sets *truncated when the text did not fit. Returns the length. */
size_t wide_to_utf8(const wchar_t *w, char *out, size_t cap, int *truncated);
/* The largest n <= max that does not split a UTF-8 sequence of s (which has at least max bytes). */
size_t utf8_cut(const char *s, size_t max);

/* A heap copy of a message for metadata records (NUL is not stored; free() the result). */
struct text {
    char *s;
    size_t n;
};
struct text text_from_ascii(const char *s);
struct text text_from_wide(const wchar_t *w);

#endif
