#include "clock.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int nvtxc_clock_kind = NVTXC_CLOCK_MONOTONIC_RAW;

#if defined(__x86_64__)
/* Invariant TSC (CPUID 0x80000007 EDX bit 8): constant rate, runs in all power states. */
static int tsc_is_invariant(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}
#endif

void clock_choose(const char *requested)
{
    nvtxc_clock_kind = NVTXC_CLOCK_MONOTONIC_RAW;
    if (requested && strcmp(requested, "monotonic-raw") == 0) return;
#if defined(__x86_64__)
    if (tsc_is_invariant() || (requested && strcmp(requested, "tsc") == 0)) nvtxc_clock_kind = NVTXC_CLOCK_TSC;
#elif defined(__aarch64__)
    nvtxc_clock_kind = NVTXC_CLOCK_CNTVCT;
#endif
}

struct clock_pair clock_pair_now(void)
{
    struct clock_pair best = {0, 0};
    uint64_t best_width = UINT64_MAX;
    if (nvtxc_clock_kind == NVTXC_CLOCK_MONOTONIC_RAW) {
        uint64_t ns = clock_ns(CLOCK_MONOTONIC_RAW);
        best.tick = ns;
        best.ns = ns;
        return best;
    }
    /* Bracket the clock_gettime call with two ticks; the midpoint of the narrowest bracket wins. */
    for (int attempt = 0; attempt < 5; attempt++) {
        uint64_t before = tick_now();
        uint64_t ns = clock_ns(CLOCK_MONOTONIC_RAW);
        uint64_t after = tick_now();
        if (after >= before && after - before < best_width) {
            best_width = after - before;
            best.tick = before + (after - before) / 2;
            best.ns = ns;
        }
    }
    return best;
}

uint64_t clock_measure_rate(void)
{
    if (nvtxc_clock_kind == NVTXC_CLOCK_MONOTONIC_RAW) return 1000000000u;
    struct clock_pair a = clock_pair_now();
    struct clock_pair b;
    do b = clock_pair_now();
    while (b.ns - a.ns < 200000);
    return (uint64_t)((double)(b.tick - a.tick) * 1e9 / (double)(b.ns - a.ns) + 0.5);
}
