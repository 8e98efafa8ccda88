/*
 * The capture clock: one cheap monotonic tick per event (the CPU's invariant TSC on x86-64, the
 * generic timer on Arm, CLOCK_MONOTONIC_RAW elsewhere), converted to ns by the reader with the
 * clock pairs the writer stores (docs/capture-format.md, section 5).
 */
#ifndef NVTXC_CLOCK_H
#define NVTXC_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "format.h"

extern int nvtxc_clock_kind;

static inline uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t tick_now(void)
{
#if defined(__x86_64__)
    if (__builtin_expect(nvtxc_clock_kind == NVTXC_CLOCK_TSC, 1)) return __rdtsc();
#elif defined(__aarch64__)
    if (__builtin_expect(nvtxc_clock_kind == NVTXC_CLOCK_CNTVCT, 1)) {
        uint64_t v;
        __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
        return v;
    }
#endif
    return clock_ns(CLOCK_MONOTONIC_RAW);
}

/* A tick and the CLOCK_MONOTONIC_RAW time read together. */
struct clock_pair {
    uint64_t tick;
    uint64_t ns;
};

/* Picks the clock ("tsc", "monotonic-raw" or NULL for the best available). */
void clock_choose(const char *requested);
/* Reads a pair, keeping the tightest of a few attempts. */
struct clock_pair clock_pair_now(void);
/* Ticks per second, measured over a short busy wait. */
uint64_t clock_measure_rate(void);

#endif
