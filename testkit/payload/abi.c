/*
 * ABI reference for the payload decoder tests (layout.gcc.test.ts): C structs laid out by the
 * compiler, filled with known values. Prints, as JSON, for each struct: sizeof, _Alignof, the
 * offsetof of its members, the bytes of one filled instance (hex) and the values stored (integers
 * as decimal strings, floating point as the nearest double).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

static int first = 1;

static void key(const char *k) {
  printf("%s\"%s\":", first ? "" : ",", k);
  first = 0;
}
static void open_obj(const char *k) {
  if (k) key(k);
  printf("{");
  first = 1;
}
static void close_obj(void) {
  printf("}");
  first = 0;
}
static void dbl(const char *k, double v) {
  key(k);
  printf("%.17g", v);
}
static void sint(const char *k, long long v) {
  key(k);
  printf("\"%lld\"", v);
}
static void uint(const char *k, unsigned long long v) {
  key(k);
  printf("\"%llu\"", v);
}
static void i128(const char *k, unsigned __int128 v) {
  /* hex of the 128-bit pattern; the test reads it as signed or unsigned */
  key(k);
  printf("\"0x%016llx%016llx\"", (unsigned long long)(v >> 64), (unsigned long long)v);
}
static void bytes(const char *k, const void *p, size_t n) {
  key(k);
  printf("\"");
  for (size_t i = 0; i < n; i++) printf("%02x", ((const unsigned char *)p)[i]);
  printf("\"");
}

#define LAYOUT(T, var) \
  uint("size", sizeof(T)); \
  uint("align", _Alignof(T)); \
  bytes("bytes", &(var), sizeof(T))
#define OFF(T, f) uint(#f, offsetof(T, f))

struct Scalars {
  char c; unsigned char uc; short s; unsigned short us; int i; unsigned ui; long l; unsigned long ul;
  long long ll; unsigned long long ull; int8_t i8; uint8_t u8; int16_t i16; uint16_t u16;
  int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f; double d; long double ld;
  size_t sz; void *p; wchar_t wc; char16_t c16; char32_t c32; __int128 s128; unsigned __int128 u128;
  _Float16 h; uint16_t bf; uint32_t tf; __float128 q; float f32; double f64;
  uint32_t category; uint32_t color; uint64_t scope; uint32_t pid; uint64_t tid;
};

struct Padded { char a; double b; short c; int d; char e; };

#pragma pack(push, 2)
struct Packed2 { char a; int b; double c; short d; char e; };
#pragma pack(pop)

struct __attribute__((packed)) Packed1 { char a; int b; double c; };

struct Inner { int x; char y; };
struct Outer { char a; struct Inner in[2]; char z; long double ld; };

enum Color { RED, GREEN = 5, BLUE = -1 };
struct WithEnum { char c; enum Color col; enum Color cols[2]; };

struct WithUnion { uint8_t kind; union { int32_t i; double d; char s[12]; } u; uint16_t after; };

struct TaggedA { int tag; float f; };
struct TaggedB { int tag; short s[3]; };
union Tagged { int tag; struct TaggedA a; struct TaggedB b; };
struct Holder { union Tagged items[2]; char last; };

struct Strs { char fixed[10]; wchar_t wide[4]; char16_t u16[5]; char32_t u32[3]; };

struct Flex { uint32_t n; int16_t v[]; };

int main(void) {
  open_obj(NULL);

  {
    struct Scalars v;
    memset(&v, 0, sizeof v);
    v.c = -7; v.uc = 200; v.s = -12345; v.us = 54321; v.i = -123456789; v.ui = 3000000000u;
    v.l = -1234567890123L; v.ul = 18446744073709551000UL; v.ll = -9000000000000000000LL; v.ull = 123;
    v.i8 = -100; v.u8 = 250; v.i16 = -30000; v.u16 = 60000; v.i32 = -2000000000; v.u32 = 4000000000u;
    v.i64 = -5; v.u64 = 0xfedcba9876543210ULL; v.f = 3.25f; v.d = -1e-300; v.ld = 1.1L;
    v.sz = 123456789012ULL; v.p = (void *)0x7ffc12345678ULL; v.wc = L'\u00e9'; v.c16 = u'\u03a9';
    v.c32 = U'\U0001F600';
    v.s128 = -((__int128)1 << 100) + 7; v.u128 = ((unsigned __int128)1 << 127) + 3;
    v.h = (_Float16)-0.375f;
    float bf = 2.5f, tf = 1.2345f;
    uint32_t bits;
    memcpy(&bits, &bf, 4);
    v.bf = (uint16_t)(bits >> 16);
    memcpy(&bits, &tf, 4);
    v.tf = bits;
    v.q = 0.1Q; v.f32 = -0.5f; v.f64 = 6.02214076e23;
    v.category = 3; v.color = 0xff336699u; v.scope = (1ULL << 32) + 5; v.pid = 4242; v.tid = 99999;

    open_obj("Scalars");
    LAYOUT(struct Scalars, v);
    open_obj("offsets");
    OFF(struct Scalars, c); OFF(struct Scalars, uc); OFF(struct Scalars, s); OFF(struct Scalars, us);
    OFF(struct Scalars, i); OFF(struct Scalars, ui); OFF(struct Scalars, l); OFF(struct Scalars, ul);
    OFF(struct Scalars, ll); OFF(struct Scalars, ull); OFF(struct Scalars, i8); OFF(struct Scalars, u8);
    OFF(struct Scalars, i16); OFF(struct Scalars, u16); OFF(struct Scalars, i32); OFF(struct Scalars, u32);
    OFF(struct Scalars, i64); OFF(struct Scalars, u64); OFF(struct Scalars, f); OFF(struct Scalars, d);
    OFF(struct Scalars, ld); OFF(struct Scalars, sz); OFF(struct Scalars, p); OFF(struct Scalars, wc);
    OFF(struct Scalars, c16); OFF(struct Scalars, c32); OFF(struct Scalars, s128); OFF(struct Scalars, u128);
    OFF(struct Scalars, h); OFF(struct Scalars, bf); OFF(struct Scalars, tf); OFF(struct Scalars, q);
    OFF(struct Scalars, f32); OFF(struct Scalars, f64); OFF(struct Scalars, category);
    OFF(struct Scalars, color); OFF(struct Scalars, scope); OFF(struct Scalars, pid); OFF(struct Scalars, tid);
    close_obj();
    open_obj("values");
    sint("c", v.c); uint("uc", v.uc); sint("s", v.s); uint("us", v.us); sint("i", v.i); uint("ui", v.ui);
    sint("l", v.l); uint("ul", v.ul); sint("ll", v.ll); uint("ull", v.ull); sint("i8", v.i8); uint("u8", v.u8);
    sint("i16", v.i16); uint("u16", v.u16); sint("i32", v.i32); uint("u32", v.u32); sint("i64", v.i64);
    uint("u64", v.u64); dbl("f", v.f); dbl("d", v.d); dbl("ld", (double)v.ld); uint("sz", v.sz);
    uint("p", (unsigned long long)(uintptr_t)v.p); uint("wc", (unsigned long long)v.wc); uint("c16", v.c16);
    uint("c32", v.c32); i128("s128", (unsigned __int128)v.s128); i128("u128", v.u128); dbl("h", (double)v.h);
    dbl("bf", 2.5);
    {
      uint32_t masked = v.tf & 0xffffe000u;
      float m;
      memcpy(&m, &masked, 4);
      dbl("tf", m);
    }
    dbl("q", (double)v.q); dbl("f32", v.f32); dbl("f64", v.f64); uint("category", v.category);
    uint("color", v.color); uint("scope", v.scope); uint("pid", v.pid); uint("tid", v.tid);
    close_obj();
    close_obj();
  }

  {
    struct Padded v;
    memset(&v, 0, sizeof v);
    v.a = 1; v.b = 2.5; v.c = -3; v.d = 4; v.e = 5;
    open_obj("Padded");
    LAYOUT(struct Padded, v);
    open_obj("offsets");
    OFF(struct Padded, a); OFF(struct Padded, b); OFF(struct Padded, c); OFF(struct Padded, d); OFF(struct Padded, e);
    close_obj();
    close_obj();
  }

  {
    struct Packed2 v;
    memset(&v, 0, sizeof v);
    v.a = 1; v.b = -2; v.c = 0.125; v.d = 7; v.e = 9;
    open_obj("Packed2");
    LAYOUT(struct Packed2, v);
    open_obj("offsets");
    OFF(struct Packed2, a); OFF(struct Packed2, b); OFF(struct Packed2, c); OFF(struct Packed2, d); OFF(struct Packed2, e);
    close_obj();
    close_obj();
  }

  {
    struct Packed1 v;
    memset(&v, 0, sizeof v);
    v.a = 1; v.b = -2; v.c = 0.125;
    open_obj("Packed1");
    LAYOUT(struct Packed1, v);
    open_obj("offsets");
    OFF(struct Packed1, a); OFF(struct Packed1, b); OFF(struct Packed1, c);
    close_obj();
    close_obj();
  }

  {
    struct Inner i;
    memset(&i, 0, sizeof i);
    open_obj("Inner");
    LAYOUT(struct Inner, i);
    open_obj("offsets");
    OFF(struct Inner, x); OFF(struct Inner, y);
    close_obj();
    close_obj();
    struct Outer v;
    memset(&v, 0, sizeof v);
    v.a = 'A'; v.in[0].x = 10; v.in[0].y = 11; v.in[1].x = -20; v.in[1].y = 21; v.z = 'Z'; v.ld = -2.5L;
    open_obj("Outer");
    LAYOUT(struct Outer, v);
    open_obj("offsets");
    OFF(struct Outer, a); OFF(struct Outer, in); OFF(struct Outer, z); OFF(struct Outer, ld);
    close_obj();
    close_obj();
  }

  {
    struct WithEnum v;
    memset(&v, 0, sizeof v);
    v.c = 1; v.col = GREEN; v.cols[0] = BLUE; v.cols[1] = RED;
    open_obj("WithEnum");
    LAYOUT(struct WithEnum, v);
    uint("enumSize", sizeof(enum Color));
    open_obj("offsets");
    OFF(struct WithEnum, c); OFF(struct WithEnum, col); OFF(struct WithEnum, cols);
    close_obj();
    close_obj();
  }

  {
    struct WithUnion v;
    memset(&v, 0, sizeof v);
    v.kind = 1; v.u.d = 2.5; v.after = 77;
    open_obj("WithUnionD");
    LAYOUT(struct WithUnion, v);
    open_obj("offsets");
    OFF(struct WithUnion, kind); OFF(struct WithUnion, u); OFF(struct WithUnion, after);
    close_obj();
    close_obj();
    memset(&v, 0, sizeof v);
    v.kind = 2; strcpy(v.u.s, "union str"); v.after = 78;
    open_obj("WithUnionS");
    LAYOUT(struct WithUnion, v);
    close_obj();
  }

  {
    struct Holder v;
    memset(&v, 0, sizeof v);
    v.items[0].a.tag = 1; v.items[0].a.f = 0.5f;
    v.items[1].b.tag = 2; v.items[1].b.s[0] = 1; v.items[1].b.s[1] = -2; v.items[1].b.s[2] = 3;
    v.last = 'L';
    open_obj("Holder");
    LAYOUT(struct Holder, v);
    uint("taggedSize", sizeof(union Tagged));
    open_obj("offsets");
    OFF(struct Holder, items); OFF(struct Holder, last);
    close_obj();
    close_obj();
  }

  {
    struct Strs v;
    memset(&v, 0, sizeof v);
    strcpy(v.fixed, "hello");
    memcpy(v.wide, L"w\u00e7\u00e9", 3 * sizeof(wchar_t));
    memcpy(v.u16, u"\u03a9mega", 5 * sizeof(char16_t));
    v.u32[0] = U'\U0001F600';
    open_obj("Strs");
    LAYOUT(struct Strs, v);
    open_obj("offsets");
    OFF(struct Strs, fixed); OFF(struct Strs, wide); OFF(struct Strs, u16); OFF(struct Strs, u32);
    close_obj();
    close_obj();
  }

  {
    unsigned char buf[64];
    memset(buf, 0, sizeof buf);
    struct Flex *v = (struct Flex *)buf;
    v->n = 3; v->v[0] = -1; v->v[1] = 2; v->v[2] = -3;
    open_obj("Flex");
    uint("size", offsetof(struct Flex, v) + 3 * sizeof(int16_t));
    bytes("bytes", buf, offsetof(struct Flex, v) + 3 * sizeof(int16_t));
    open_obj("offsets");
    OFF(struct Flex, n); OFF(struct Flex, v);
    close_obj();
    close_obj();
  }

  close_obj();
  printf("\n");
  return 0;
}
