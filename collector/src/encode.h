/* Byte encoders of the capture format: LEB128 varints, zigzag, little-endian fixed widths. */
#ifndef NVTXC_ENCODE_H
#define NVTXC_ENCODE_H

#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the collector writes little-endian captures by storing native integers; port put_u32/put_u64 first"
#endif

/* Longest varint (a 64-bit value). */
#define VARINT_MAX 10

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint8_t *put_svarint(uint8_t *p, int64_t v)
{
    return put_varint(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline uint8_t *put_u16(uint8_t *p, uint16_t v)
{
    memcpy(p, &v, 2);
    return p + 2;
}

static inline uint8_t *put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
    return p + 4;
}

static inline uint8_t *put_u64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
    return p + 8;
}

/* A `str`: length, then the bytes. */
static inline uint8_t *put_str(uint8_t *p, const char *s, size_t n)
{
    p = put_varint(p, n);
    memcpy(p, s, n);
    return p + n;
}

#endif
